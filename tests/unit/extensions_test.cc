// The extension catalog: what each listed release requires of torch and which CUDA builds have a
// prebuilt wheel, checked on releases whose facts public threads turned on.
#include "catalog/extensions.h"

#include <gtest/gtest.h>

#include "catalog/query.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TheCatalog;

Pep440 V(std::string_view text) { return Pep440::Parse(text).value(); }
CudaVersion Cuda(std::string_view text) { return CudaVersion::Parse(text).value(); }

TEST(Extensions, EveryListedPackageHasReleasesAndWheels) {
  const Catalog& c = TheCatalog();
  for (std::string_view package : {"xformers", "flash-attn", "vllm", "bitsandbytes"}) {
    EXPECT_TRUE(IsCatalogExtension(c, package)) << package;
    size_t wheels = 0;
    for (const ExtensionRelease* e : ExtensionReleases(c, package)) {
      for (std::string_view platform : CatalogPlatforms()) wheels += ExtensionWheelsOf(c, package, e->version, platform).size();
    }
    EXPECT_GT(wheels, 0u) << package;
  }
  EXPECT_FALSE(IsCatalogExtension(c, "torch"));
}

TEST(Extensions, EveryWheelBelongsToAListedRelease) {
  const Catalog& c = TheCatalog();
  for (const ExtensionWheel& w : c.extension_wheels) {
    EXPECT_NE(FindExtension(c, w.package, w.version), nullptr) << w.package << " " << w.version.ToString() << " line " << w.prov.line;
  }
}

struct PinCase {
  const char* package;
  const char* version;
  const char* torch;  // the release it pins, or "" for a range / no pin
  const char* allowed;
  const char* refused;  // "" when every torch is allowed
};

// Each xformers wheel pins the torch it was built for: 0.0.26.post1 pulled torch 2.3.0 over 2.3.1
// (https://github.com/facebookresearch/xformers/issues/1052), 0.0.30 requires torch==2.7.0
// (https://github.com/hpcaitech/Open-Sora/issues/870). vllm 0.8.0 pins 2.6.0
// (https://github.com/vllm-project/vllm/issues/13434); flash-attn takes any torch.
TEST(Extensions, TorchPinsOfReleases) {
  const PinCase cases[] = {
      {"xformers", "0.0.26.post1", "2.3.0", "2.3.0", "2.3.1"},
      {"xformers", "0.0.27", "2.3.1", "2.3.1", "2.4.0"},
      {"xformers", "0.0.30", "2.7.0", "2.7.0", "2.4.0"},
      {"xformers", "0.0.28.post1", "2.4.1", "2.4.1", "2.4.0"},
      {"xformers", "0.0.29.post3", "2.6.0", "2.6.0+cu124", "2.5.1"},
      {"xformers", "0.0.35", "", "2.10.0", "2.9.1"},
      {"vllm", "0.8.0", "2.6.0", "2.6.0", "2.5.1"},
      {"vllm", "0.9.0", "2.7.0", "2.7.0", "2.7.1"},
      {"bitsandbytes", "0.48.2", "", "2.3.0", "2.2.2"},
      {"flash-attn", "2.7.4.post1", "", "2.6.0", ""},
  };
  const Catalog& c = TheCatalog();
  for (const PinCase& k : cases) {
    SCOPED_TRACE(std::string(k.package) + " " + k.version);
    const ExtensionRelease* e = FindExtension(c, k.package, V(k.version));
    ASSERT_NE(e, nullptr);
    auto pinned = ExtensionPinnedTorch(*e);
    EXPECT_EQ(pinned ? pinned->ToString() : "", k.torch);
    EXPECT_EQ(ExtensionAllowsTorch(*e, V(k.allowed)), true);
    if (*k.refused) EXPECT_EQ(ExtensionAllowsTorch(*e, V(k.refused)), false);
  }
  const ExtensionRelease* unknown = FindExtension(c, "vllm", V("0.21.0"));
  ASSERT_NE(unknown, nullptr);
  EXPECT_EQ(ExtensionAllowsTorch(*unknown, V("2.9.0")), std::nullopt) << "an unread pin stays unknown";
  EXPECT_EQ(FindExtension(c, "xformers", V("0.0.1")), nullptr);
}

struct WheelCase {
  const char* package;
  const char* version;
  const char* platform;
  const char* torch;
  const char* cuda;  // "" = a CPU build
  CxxAbi abi;
  bool has_wheel;
};

TEST(Extensions, WheelsForATorchBuild) {
  const WheelCase cases[] = {
      // xformers publishes one wheel per CUDA variant on the PyTorch index (cu118, cu121 for 0.0.27).
      {"xformers", "0.0.27", "linux-x86_64", "2.3.1", "11.8", CxxAbi::kUnknown, true},
      {"xformers", "0.0.27", "linux-x86_64", "2.3.1", "12.4", CxxAbi::kUnknown, false},
      {"xformers", "0.0.27", "linux-x86_64", "2.3.1", "", CxxAbi::kUnknown, false},
      // 0.0.28 built Windows only for cu124 and uploaded cu118/cu121: no Windows wheel.
      {"xformers", "0.0.28", "windows-x86_64", "2.4.1", "12.4", CxxAbi::kUnknown, false},
      {"xformers", "0.0.28.post1", "windows-x86_64", "2.4.1", "12.4", CxxAbi::kUnknown, true},
      // bitsandbytes before 0.50 loads the library named after torch's CUDA minor.
      {"bitsandbytes", "0.45.0", "linux-x86_64", "2.5.1", "12.6", CxxAbi::kUnknown, true},
      {"bitsandbytes", "0.45.0", "linux-x86_64", "2.7.0", "12.8", CxxAbi::kUnknown, false},
      {"bitsandbytes", "0.45.3", "linux-x86_64", "2.7.0", "12.8", CxxAbi::kUnknown, true},
      {"bitsandbytes", "0.49.2", "linux-x86_64", "2.10.0", "13.2", CxxAbi::kUnknown, false},
      // 0.50 falls back to the highest bundled minor of the same major.
      {"bitsandbytes", "0.50.1", "linux-x86_64", "2.9.0", "12.9", CxxAbi::kUnknown, true},
      {"bitsandbytes", "0.50.1", "linux-x86_64", "2.9.0", "", CxxAbi::kUnknown, false},
      // flash-attn: assets per torch line, CUDA major and C++ ABI.
      {"flash-attn", "2.7.4.post1", "linux-x86_64", "2.6.0", "12.4", CxxAbi::kPreCxx11, true},
      {"flash-attn", "2.7.4.post1", "linux-x86_64", "2.7.0", "12.6", CxxAbi::kUnknown, false},
      {"flash-attn", "2.7.4.post1", "linux-x86_64", "2.6.0", "11.8", CxxAbi::kUnknown, false},
      {"flash-attn", "2.8.3", "linux-x86_64", "2.8.0", "12.8", CxxAbi::kCxx11, true},
      {"flash-attn", "2.8.3", "windows-x86_64", "2.8.0", "12.8", CxxAbi::kUnknown, false},
      // vllm 0.21.0: cu129 and cu130 wheels only (https://github.com/vllm-project/vllm/issues/42756).
      {"vllm", "0.21.0", "linux-x86_64", "2.9.0", "12.8", CxxAbi::kUnknown, false},
      {"vllm", "0.21.0", "linux-x86_64", "2.9.0", "13.0", CxxAbi::kUnknown, true},
  };
  const Catalog& c = TheCatalog();
  for (const WheelCase& k : cases) {
    SCOPED_TRACE(std::string(k.package) + " " + k.version + " " + k.platform + " torch " + k.torch + " cuda " + k.cuda);
    const ExtensionRelease* e = FindExtension(c, k.package, V(k.version));
    ASSERT_NE(e, nullptr);
    TorchBuild build{V(k.torch), *k.cuda ? std::optional<CudaVersion>(Cuda(k.cuda)) : std::nullopt, k.abi};
    EXPECT_EQ(!WheelsFor(c, *e, k.platform, build).empty(), k.has_wheel);
  }
}

TEST(Extensions, WheelLocations) {
  const Catalog& c = TheCatalog();
  const ExtensionRelease* xf = FindExtension(c, "xformers", V("0.0.27"));
  ASSERT_NE(xf, nullptr);
  auto cu118 = WheelsFor(c, *xf, "linux-x86_64", {V("2.3.1"), Cuda("11.8"), CxxAbi::kUnknown});
  ASSERT_EQ(cu118.size(), 1u);
  EXPECT_EQ(cu118[0]->location, WheelLocation::kPytorchIndex);
  EXPECT_EQ(cu118[0]->url, "https://download.pytorch.org/whl/cu118");
  auto cu121 = WheelsFor(c, *xf, "linux-x86_64", {V("2.3.1"), Cuda("12.1"), CxxAbi::kUnknown});
  EXPECT_EQ(cu121.size(), 2u) << "PyPI's default build and the PyTorch cu121 index";
  EXPECT_EQ(ExtensionCudaList(c, *xf, "linux-x86_64"), (std::vector<std::string>{"12.1", "11.8"}));

  const ExtensionRelease* fa = FindExtension(c, "flash-attn", V("2.7.4.post1"));
  ASSERT_NE(fa, nullptr);
  auto assets = WheelsFor(c, *fa, "linux-x86_64", {V("2.6.0+cu124"), Cuda("12.4"), CxxAbi::kPreCxx11});
  ASSERT_EQ(assets.size(), 1u);
  EXPECT_EQ(WheelUrl(*assets[0], V("2.6.0"), "cp311"),
            "https://github.com/Dao-AILab/flash-attention/releases/download/v2.7.4.post1/"
            "flash_attn-2.7.4.post1+cu12torch2.6cxx11abiFALSE-cp311-cp311-linux_x86_64.whl");
}

TEST(Extensions, ReleasesThatFitATorchBuild) {
  const Catalog& c = TheCatalog();
  auto fits = ExtensionsFor(c, "xformers", "linux-x86_64", {V("2.4.0"), Cuda("12.1"), CxxAbi::kUnknown});
  ASSERT_FALSE(fits.empty());
  EXPECT_EQ(fits.front()->version.ToString(), "0.0.27.post2");
  EXPECT_EQ(fits.back()->version.ToString(), "0.0.27.post1");
  EXPECT_TRUE(ExtensionsFor(c, "xformers", "linux-x86_64", {V("2.4.0"), std::nullopt, CxxAbi::kUnknown}).empty());
}

TEST(Extensions, MalformedRowsAreErrors) {
  const char* header =
      "package\tversion\tplatform\tlocation\tcuda\tcuda_match\ttorch\tbuilt_against\tcxx11abi\turl\tsource\tnotes\n";
  auto bad_abi = ParseCatalogTable("extension_wheels.tsv", std::string(header) +
                                   "flash-attn\t2.8.3\tlinux-x86_64\tgithub-release\t12.x\texact\t2.8\t\tMAYBE\thttps://x\ts\t\n");
  ASSERT_FALSE(bad_abi.ok());
  EXPECT_NE(bad_abi.error().find("C++ ABI"), std::string::npos) << bad_abi.error();
  auto bad_location = ParseCatalogTable("extension_wheels.tsv", std::string(header) +
                                        "x\t1.0\tlinux-x86_64\tftp\t12.1\texact\t\t\t\thttps://x\ts\t\n");
  EXPECT_FALSE(bad_location.ok());
  // built_against: one exact torch per torch item, each of that item's line.
  auto short_built = ParseCatalogTable("extension_wheels.tsv", std::string(header) +
                                       "flash-attn\t2.8.3\tlinux-x86_64\tgithub-release\t12.x\texact\t2.7;2.8\t2.7.1\tFALSE\thttps://x\ts\t\n");
  ASSERT_FALSE(short_built.ok());
  EXPECT_NE(short_built.error().find("one exact torch per torch item"), std::string::npos) << short_built.error();
  auto other_line = ParseCatalogTable("extension_wheels.tsv", std::string(header) +
                                      "flash-attn\t2.8.3\tlinux-x86_64\tgithub-release\t12.x\texact\t2.8\t2.7.1\tFALSE\thttps://x\ts\t\n");
  ASSERT_FALSE(other_line.ok());
  EXPECT_NE(other_line.error().find("is not of"), std::string::npos) << other_line.error();
  auto good = ParseCatalogTable("extension_wheels.tsv", std::string(header) +
                                "flash-attn\t2.8.3\tlinux-x86_64\tgithub-release\t12.x\texact\t2.7;2.8\t2.7.1;2.8.0\tFALSE\thttps://x\ts\t\n");
  EXPECT_TRUE(good.ok()) << good.error();
  auto bad_pin = ParseCatalogTable("extensions.tsv", "package\tversion\treleased\ttorch\tsource\tnotes\nx\t1.0\t\t=>2\ts\t\n");
  EXPECT_FALSE(bad_pin.ok());
}

}  // namespace
}  // namespace cudamatch
