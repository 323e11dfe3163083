// The answers lookup gpu / lookup driver start with, reasoned over the embedded catalog: the
// newest build that runs on the target, the releases with code for a GPU, what changes next.
#include <gtest/gtest.h>

#include "plan/lookup.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TheCatalog;

LookupTarget Linux(std::optional<std::string> driver = std::nullopt) {
  LookupTarget t;
  t.platform = Platform{Os::kLinux, Arch::kX86_64};
  if (driver) {
    t.driver = *DriverVersion::Parse(*driver);
    t.driver_cuda = MaxCudaForDriver(TheCatalog(), *t.driver, Os::kLinux).cuda;
    t.driver_checked = true;
  }
  return t;
}

LookupResult Gpu(const std::string& name, const LookupTarget& t) {
  auto r = Lookup(TheCatalog(), LookupQuery{LookupQuery::Kind::kGpu, name}, t, nullptr);
  EXPECT_TRUE(r.ok()) << name;
  EXPECT_TRUE(r->gpu && r->gpu->verdict) << name;
  return *r;
}

std::string Pick(const TorchPick& p) {
  return p.release == nullptr ? "none" : p.release->torch.Public() + "+" + p.variant->variant.tag;
}

bool HasReason(const std::vector<Reason>& reasons, const std::string& id) {
  return std::any_of(reasons.begin(), reasons.end(), [&](const Reason& r) { return r.id == id; });
}

// Pascal: PyPI's default (cu130) has no sm_6x code; cu126 still does (torch_variants.tsv arch
// lists), and CUDA 12.9 is the last toolkit for it (gpu_architectures.tsv).
TEST(LookupAnswer, PascalGetsTheCu126BuildAndTheLastCudaAhead) {
  GpuVerdict v = *Gpu("GTX 1080", Linux()).gpu->verdict;
  EXPECT_EQ(Pick(v.newest), "2.14.0+cu126");
  EXPECT_EQ(v.newest.index_url, "https://download.pytorch.org/whl/cu126");
  EXPECT_EQ(v.newest.kernel, KernelFit::kSass);  // sm_60 SASS runs on sm_61
  ASSERT_NE(v.pypi_default, nullptr);
  EXPECT_EQ(v.pypi_default->variant.tag, "cu130");
  EXPECT_FALSE(v.span.ended());
  EXPECT_EQ(v.span.last_variants, std::vector<std::string>{"cu126"});
  EXPECT_EQ(v.span.last_without, (std::vector<std::string>{"cu130", "cu132"}));
  EXPECT_TRUE(HasReason(v.next, "lookup.next.last_cuda"));
  EXPECT_TRUE(HasReason(v.next, "lookup.arch.last_driver"));
}

// github.com/bnsreenu/digitalsreeni-image-annotator/issues/57: GTX 1050 (sm_61), driver
// 550.163.01, torch 2.8.0+cu128 -> "no kernel image is available". 2.8.0's cu128 starts at sm_70;
// the answer is a cu126 build, which 550 runs through 12.x minor-version compatibility.
TEST(LookupAnswer, Gtx1050ThreadGetsCu126NotTheCu128ItFailedWith) {
  const Catalog& c = TheCatalog();
  const TorchVariant* failed = FindVariant(c, *Pep440::Parse("2.8.0"), "linux-x86_64", "cu128");
  ASSERT_NE(failed, nullptr);
  ComputeCapability sm61 = *ComputeCapability::Parse("6.1");
  EXPECT_EQ(FitWheel(c, *failed->arch_list, *failed->variant.cuda, sm61).fit, KernelFit::kNone);
  GpuVerdict v = *Gpu("GTX 1050", Linux("550.163.01")).gpu->verdict;
  EXPECT_EQ(v.newest.variant->variant.tag, "cu126");
  EXPECT_EQ(v.newest.driver_fit, DriverFit::kMinorCompat);
  EXPECT_EQ(v.newest.kernel, KernelFit::kSass);
}

// Kepler sm_35: the last wheels with sm_35 SASS are torch 1.3.0's (1.4.0 starts at 3.7, whose
// SASS does not run on 3.5); R470 is Kepler's last driver branch.
TEST(LookupAnswer, KeplerSupportEndedAt130) {
  GpuVerdict v = *Gpu("GTX 780", Linux("470.82.01")).gpu->verdict;
  EXPECT_TRUE(v.span.ended());
  EXPECT_EQ(v.span.last->torch.Public(), "1.3.0");
  EXPECT_EQ(Pick(v.newest), "1.3.0+cu101");
  EXPECT_FALSE(HasReason(v.next, "lookup.next.last_cuda"));  // past, not next
  EXPECT_TRUE(HasReason(v.next, "lookup.arch.last_driver"));
  // R535 no longer drives Kepler: nothing runs, and the reason says why.
  GpuVerdict newer = *Gpu("GTX 780", Linux("535.183.01")).gpu->verdict;
  EXPECT_EQ(newer.newest.release, nullptr);
  EXPECT_TRUE(HasReason(newer.why_none, "reject.driver_past_arch"));
  EXPECT_EQ(Pick(newer.newer_driver), "1.3.0+cu101");
}

// Blackwell sm_120: first code in torch 2.7.0 cu128; a 535 driver cannot drive it at all.
TEST(LookupAnswer, BlackwellStartsAt270AndNeedsBranch570) {
  GpuVerdict v = *Gpu("RTX 5090", Linux("535.183.01")).gpu->verdict;
  EXPECT_EQ(v.newest.release, nullptr);
  EXPECT_TRUE(HasReason(v.why_none, "reject.driver_below_arch"));
  EXPECT_EQ(Pick(v.newer_driver), "2.14.0+cu130");
  EXPECT_TRUE(v.span.starts_later());
  EXPECT_EQ(v.span.first->torch.Public(), "2.7.0");
  EXPECT_EQ(v.span.first_variants, std::vector<std::string>{"cu128"});
  EXPECT_EQ(v.span.last_without, std::vector<std::string>{"cu126"});
}

// The driver and the Python of the target decide, as in plan: 570.86.10 serves 12.8, and
// Python 3.9 ends at torch 2.8 (torch_releases.tsv python_min).
TEST(LookupAnswer, DriverAndPythonOfTheTargetDecide) {
  LookupTarget t = Linux("570.86.10");
  t.python = *PyVersion::Parse("3.9");
  GpuVerdict v = *Gpu("B200", t).gpu->verdict;
  EXPECT_EQ(Pick(v.newest), "2.8.0+cu128");
  EXPECT_EQ(v.newest.driver_fit, DriverFit::kFull);
  // Any Python: 2.14.0's cu130/cu132 need R580 and its cu126 has no sm_100 code, so 2.13.0's
  // cu129 (sm_100 SASS; 12.9 wants 575.51.03, 12.x minor-version compatibility 525.60.13).
  GpuVerdict any_python = *Gpu("B200", Linux("570.86.10")).gpu->verdict;
  EXPECT_EQ(Pick(any_python.newest), "2.13.0+cu129");
  EXPECT_EQ(any_python.newest.driver_fit, DriverFit::kMinorCompat);
  EXPECT_EQ(Pick(any_python.newer_driver), "2.14.0+cu130");
}

TEST(LookupAnswer, OsOfTheTargetChoosesTheWheels) {
  LookupTarget t;
  t.platform = Platform{Os::kWindows, Arch::kX86_64};
  GpuVerdict v = *Gpu("RTX 3090", t).gpu->verdict;
  EXPECT_EQ(v.span.first->torch.Public(), "1.8.2") << "first Windows wheel with sm_80/86 code in the catalog";
  EXPECT_EQ(std::string(v.newest.variant->platform), "windows-x86_64");
}

// 470.82.01 serves CUDA 11.4: cu118 runs through 11.x minor-version compatibility (>= 450.80.02),
// cu113 without caveats; 12.x needs 525.
TEST(LookupAnswer, Driver470RunsCu118ThroughMinorCompat) {
  auto r = Lookup(TheCatalog(), LookupQuery{LookupQuery::Kind::kDriver, "470.82.01"}, Linux(), nullptr);
  ASSERT_TRUE(r.ok() && r->driver);
  const DriverVerdict& v = r->driver->verdict;
  EXPECT_EQ(Pick(v.newest), "2.7.1+cu118");
  EXPECT_EQ(v.newest.driver_fit, DriverFit::kMinorCompat);
  EXPECT_EQ(Pick(v.newest_full), "1.12.1+cu113");
  ASSERT_EQ(v.runs.size(), 3u);
  EXPECT_EQ(v.runs[0].last, "cu113");
  EXPECT_EQ(v.runs[1].fit, DriverFit::kMinorCompat);
  EXPECT_EQ(v.runs[2].first, "cu121");
  EXPECT_EQ(v.runs[2].fit, DriverFit::kTooOld);
}

TEST(LookupAnswer, DriverVariantsAreThoseOfTheAskedPlatform) {
  LookupTarget t;
  t.platform = Platform{Os::kWindows, Arch::kX86_64};
  auto r = Lookup(TheCatalog(), LookupQuery{LookupQuery::Kind::kDriver, "566.36"}, t, nullptr);
  ASSERT_TRUE(r.ok() && r->driver);
  for (const VariantFitAnswer& v : r->driver->variants) EXPECT_NE(v.tag, "cu80") << "no Windows cu80 wheel";
  EXPECT_EQ(std::string(r->driver->verdict.newest.variant->platform), "windows-x86_64");
}

}  // namespace
}  // namespace cudamatch
