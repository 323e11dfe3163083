#include "core/version.h"

#include <gtest/gtest.h>

namespace cudamatch {
namespace {

Pep440 V(const char* s) {
  auto v = Pep440::Parse(s);
  EXPECT_TRUE(v.ok()) << s << ": " << (v.ok() ? "" : v.error());
  return v.value_or(Pep440{});
}

TEST(Pep440, ParsesLocalLabelsAndPreReleases) {
  Pep440 a = V("2.1.0+cu121");
  EXPECT_EQ(a.release, (std::vector<int64_t>{2, 1, 0}));
  EXPECT_EQ(a.LocalLabel(), "cu121");
  EXPECT_EQ(a.Public(), "2.1.0");

  Pep440 b = V("1.13.0a0+gitunknown");
  EXPECT_EQ(b.pre, Pep440::Pre::kAlpha);
  EXPECT_EQ(b.pre_number, 0);
  EXPECT_EQ(b.LocalLabel(), "gitunknown");
  EXPECT_TRUE(b.IsPrerelease());

  Pep440 c = V("2.5.0.dev20240801+cu124");
  EXPECT_EQ(c.dev, 20240801);
  EXPECT_EQ(c.ToString(), "2.5.0.dev20240801+cu124");

  Pep440 d = V("0.15.2rc1");
  EXPECT_EQ(d.pre, Pep440::Pre::kRc);
  EXPECT_EQ(d.pre_number, 1);
}

TEST(Pep440, NormalisesSpellings) {
  EXPECT_EQ(V("1.0.0-alpha.1").ToString(), "1.0.0a1");
  EXPECT_EQ(V("v1.0C3").ToString(), "1.0rc3");
  EXPECT_EQ(V("1.0-1").ToString(), "1.0.post1");
  EXPECT_EQ(V("1.0.post").ToString(), "1.0.post0");
  EXPECT_EQ(V("1!2.0").ToString(), "1!2.0");
  EXPECT_EQ(V("1.0+Ubuntu-1").ToString(), "1.0+ubuntu.1");
  EXPECT_EQ(V(" 2.3.1 ").ToString(), "2.3.1");
}

TEST(Pep440, OrdersByPep440Rules) {
  EXPECT_EQ(V("1.13.0"), V("1.13"));
  EXPECT_LT(V("1.9.0"), V("1.10.0"));
  EXPECT_LT(V("1.0.dev1"), V("1.0a1"));
  EXPECT_LT(V("1.0a1"), V("1.0b1"));
  EXPECT_LT(V("1.0b1"), V("1.0rc1"));
  EXPECT_LT(V("1.0rc1"), V("1.0"));
  EXPECT_LT(V("1.0"), V("1.0.post1"));
  EXPECT_LT(V("1.0"), V("1.0+cu117"));
  EXPECT_LT(V("1.0+abc"), V("1.0+1"));  // numeric local segments sort above text
  EXPECT_LT(V("1.0+cu117"), V("1.0+cu118"));
  EXPECT_LT(V("0.9"), V("1!0.1"));
}

TEST(Pep440, RejectsMalformedInputQuotingIt) {
  for (const char* bad : {"", "abc", "1.0+", "1.0+a..b", "1..0", "1.0-foo", "=1.0"}) {
    auto v = Pep440::Parse(bad);
    ASSERT_FALSE(v.ok()) << bad;
    EXPECT_NE(v.error().find("'"), std::string::npos) << v.error();
  }
  EXPECT_NE(Pep440::Parse("1.x").error().find("'1.x'"), std::string::npos);
}

// Regression (fuzz_versions): a version accepted near the length limit grew past it when
// normalised ("2r0" -> "2.post0"), so its canonical form no longer parsed.
TEST(Pep440, CanonicalFormOfAnyAcceptedVersionParsesAgain) {
  std::string local(248, '7');
  for (std::string text : {"2r0+" + local, "1c+" + local, "1-1+" + local, "1.0+" + local}) {
    auto v = Pep440::Parse(text);
    if (!v) continue;  // rejected outright is fine
    auto again = Pep440::Parse(v->ToString());
    ASSERT_TRUE(again.ok()) << text;
    EXPECT_EQ(*again, *v);
  }
}

TEST(Specifier, MatchesPep440Semantics) {
  auto m = [](const char* spec, const char* v) { return SpecifierSet::Parse(spec).value().Matches(V(v)); };
  EXPECT_TRUE(m("==1.13.*", "1.13.1"));
  EXPECT_FALSE(m("==1.13.*", "1.14.0"));
  EXPECT_TRUE(m("==2.3.1", "2.3.1+cu121"));  // no local in the spec: any local matches
  EXPECT_FALSE(m("==2.3.1+cu118", "2.3.1+cu121"));
  EXPECT_TRUE(m(">=2.0,<2.4", "2.3.1"));
  EXPECT_FALSE(m(">=2.0,<2.4", "2.4.0"));
  EXPECT_TRUE(m("~=2.1.0", "2.1.2"));
  EXPECT_FALSE(m("~=2.1.0", "2.2.0"));
  EXPECT_TRUE(m("!=2.0.0", "2.0.1"));
  EXPECT_FALSE(m("<2.0", "2.0.0rc1"));
  EXPECT_FALSE(m(">1.0", "1.0.post1"));
  EXPECT_TRUE(m("", "9.9"));
  EXPECT_TRUE(m("1.13.0", "1.13.0"));
  EXPECT_FALSE(SpecifierSet::Parse(">=1.*").ok());
  EXPECT_FALSE(SpecifierSet::Parse("~=1").ok());
}

TEST(CudaVersion, ParsesDottedAndDriverApiForms) {
  EXPECT_EQ(CudaVersion::Parse("12.1").value().ToString(), "12.1");
  EXPECT_EQ(CudaVersion::Parse("12.1.105").value().ToString(), "12.1.105");
  EXPECT_EQ(CudaVersion::Parse("11040").value().ToString(), "11.4");
  EXPECT_EQ(CudaVersion::Parse("12020").value().ToString(), "12.2");
  EXPECT_EQ(CudaVersion::FromApiInt(13000).ToString(), "13.0");
  EXPECT_EQ(CudaVersion::Parse("12").value().ToString(), "12.0");
  EXPECT_EQ(CudaVersion::Parse("12.4").value(), CudaVersion::Parse("12.4.0").value());
  EXPECT_LT(CudaVersion::Parse("12.4.0").value(), CudaVersion::Parse("12.4.1").value());
  EXPECT_LT(CudaVersion::Parse("9.2").value(), CudaVersion::Parse("10.0").value());
  for (const char* bad : {"", "x", "12.", "1.2.3.4", "0.1", "123456", "12.a"}) {
    auto v = CudaVersion::Parse(bad);
    EXPECT_FALSE(v.ok()) << bad;
  }
  EXPECT_NE(CudaVersion::Parse("twelve").error().find("'twelve'"), std::string::npos);
}

TEST(Variant, ParsesTags) {
  EXPECT_EQ(Variant::Parse("cu121").value().cuda->ToString(), "12.1");
  EXPECT_EQ(Variant::Parse("cu92").value().cuda->ToString(), "9.2");
  EXPECT_EQ(Variant::Parse("cu100").value().cuda->ToString(), "10.0");
  EXPECT_EQ(Variant::Parse("cu130").value().cuda->ToString(), "13.0");
  EXPECT_EQ(Variant::Parse("cpu").value().kind, Variant::Kind::kCpu);
  EXPECT_EQ(Variant::Parse("rocm6.2").value().kind, Variant::Kind::kRocm);
  EXPECT_EQ(Variant::Parse("rocm5.1.1").value().tag, "rocm5.1.1");
  EXPECT_EQ(Variant::ForCuda(CudaVersion{11, 8, std::nullopt}).tag, "cu118");
  EXPECT_FALSE(Variant::Parse("cuda").ok());
  EXPECT_FALSE(Variant::Parse("cu1").ok());
  EXPECT_FALSE(Variant::Parse("rocmx").ok());
  EXPECT_LT(VariantSortKey(Variant::Parse("cpu").value()), VariantSortKey(Variant::Parse("cu92").value()));
  EXPECT_LT(VariantSortKey(Variant::Parse("cu92").value()), VariantSortKey(Variant::Parse("cu102").value()));
  EXPECT_LT(VariantSortKey(Variant::Parse("cu132").value()), VariantSortKey(Variant::Parse("rocm5.1.1").value()));
  EXPECT_LT(VariantSortKey(Variant::Parse("rocm5.7").value()), VariantSortKey(Variant::Parse("rocm5.10").value()));
}

TEST(DriverVersion, ComparesNumerically) {
  auto d = [](const char* s) { return DriverVersion::Parse(s).value(); };
  EXPECT_EQ(d("535.104.05").branch(), 535);
  EXPECT_EQ(d("535.104.05").ToString(), "535.104.05");
  EXPECT_LT(d("535.54.03"), d("535.104.05"));
  EXPECT_LT(d("470.82.01"), d("525.60.13"));
  EXPECT_LT(d("551.61"), d("610.47"));
  EXPECT_EQ(d("535.104.05"), d("535.104.5"));
  EXPECT_LT(d("535"), d("535.54.03"));
  for (const char* bad : {"", "abc", "535.x", "0.1", "1.2.3.4.5", "12"}) EXPECT_FALSE(DriverVersion::Parse(bad).ok()) << bad;
  EXPECT_NE(DriverVersion::Parse("5x5").error().find("'5x5'"), std::string::npos);
}

TEST(ComputeCapability, ParsesEveryForm) {
  auto cc = [](const char* s) { return ComputeCapability::Parse(s).value(); };
  EXPECT_EQ(cc("8.6").Sm(), "sm_86");
  EXPECT_EQ(cc("sm_86").ToString(), "8.6");
  EXPECT_EQ(cc("compute_90").Compute(), "compute_90");
  EXPECT_EQ(cc("sm_90a").Sm(), "sm_90a");
  EXPECT_EQ(cc("sm_120").ToString(), "12.0");
  EXPECT_EQ(cc("12.1").Sm(), "sm_121");
  EXPECT_LT(cc("8.6"), cc("8.9"));
  EXPECT_LT(cc("9.0"), cc("10.0"));
  for (const char* bad : {"", "86", "sm_", "8.", "x.y", "sm_5"}) EXPECT_FALSE(ComputeCapability::Parse(bad).ok()) << bad;
}

TEST(PyVersion, ParsesAndOrders) {
  EXPECT_EQ(PyVersion::Parse("3.10").value().ToString(), "3.10");
  EXPECT_EQ(PyVersion::Parse("3.11.7").value().ToString(), "3.11");
  EXPECT_EQ(PyVersion::Parse("3.13t").value().ToString(), "3.13t");
  EXPECT_LT(PyVersion::Parse("3.9").value(), PyVersion::Parse("3.10").value());
  EXPECT_FALSE(PyVersion::Parse("3").ok());
  EXPECT_FALSE(PyVersion::Parse("three").ok());
}

}  // namespace
}  // namespace cudamatch
