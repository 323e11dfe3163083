// Jetson as a platform: the Tegra files JetPack ships (probe/jetson.h), the catalog's SoC and
// JetPack tables, and the findings on a Jetson. Captures are cited where they were pasted.
#include <gtest/gtest.h>

#include "catalog/jetson.h"
#include "catalog/query.h"
#include "probe/jetson.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

// nix-community/nixGL#139: /proc/driver/nvidia/version of a Jetson Orin NX on L4T 35.3.1. The
// module numbers itself as the L4T release, not as a desktop driver branch.
TEST(Jetson, TegraModuleLineIsNumberedAsTheL4tRelease) {
  EXPECT_EQ(ParseTegraModuleVersion("NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  35.3.1  Release Build  "
                                    "(buildbrain@mobile-u64-6289-d7000)  Sun Mar 19 08:09:33 PDT 2023\n"
                                    "GCC version:  gcc version 9.3.0 (Buildroot 2020.08) \n"),
            "35.3.1");
  // nix-community/nixGL#121: a desktop open module (x86_64 525.60.11) is not a Tegra module.
  EXPECT_EQ(ParseTegraModuleVersion("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  525.60.11  Release Build  "
                                    "(archlinux-builder@localhost)  \n"),
            std::nullopt);
  EXPECT_EQ(ParseTegraModuleVersion("GCC version:  gcc version 9.3.0\n"), std::nullopt);
}

// rbonghi/jetson_stats#711 (Thor: nvidia,p4071-0000+p3834-0008 nvidia,p3834-0008 nvidia,tegra264)
// and #864 (AGX Orin: nvidia,p3737-0000+p3701-0000 ...): NUL-separated device-tree strings.
TEST(Jetson, CompatibleNamesTheTegraSoc) {
  EXPECT_EQ(ParseTegraSoc(std::string("nvidia,p4071-0000+p3834-0008\0nvidia,p3834-0008\0nvidia,tegra264\0", 62)),
            "tegra264");
  EXPECT_EQ(ParseTegraSoc(std::string("nvidia,p3737-0000+p3701-0000\0nvidia,p3701-0000\0nvidia,tegra234\0", 62)),
            "tegra234");
  EXPECT_EQ(ParseTegraSoc(std::string("raspberrypi,4-model-b\0brcm,bcm2711\0", 35)), "");
}

// rbonghi/jetson_stats#706: nvidia-l4t-core 36.4.4-20250616085344 is L4T 36.4.4 (JetPack 6.2.1).
TEST(Jetson, DpkgStatusGivesNvidiaL4tCoreVersion) {
  EXPECT_EQ(ParseL4tCoreVersion("Package: libc6\nVersion: 2.35-0ubuntu3.8\n\n"
                                "Package: nvidia-l4t-core\nStatus: install ok installed\nArchitecture: arm64\n"
                                "Version: 36.4.4-20250616085344\n\n"),
            "36.4.4");
  EXPECT_EQ(ParseL4tCoreVersion("Package: nvidia-l4t-cuda\nVersion: 36.4.4-20250616085344\n"), std::nullopt);
}

// The catalog's JetPack rows match by dotted prefix; its SoC rows name gpus.tsv models.
TEST(Jetson, JetPackRowsMatchTheL4tRelease) {
  const Catalog& c = testing::TheCatalog();
  ASSERT_NE(JetPackFor(c, "36.4.3"), nullptr);
  EXPECT_EQ(JetPackFor(c, "36.4.3")->wheels, "https://pypi.jetson-ai-lab.io/jp6/cu126");
  ASSERT_NE(JetPackFor(c, "35.3.1"), nullptr);
  EXPECT_EQ(JetPackFor(c, "35.3.1")->l4t, "35");
  ASSERT_NE(JetPackFor(c, "38.2.0"), nullptr);
  EXPECT_TRUE(JetPackFor(c, "38.2.0")->sbsa);
  EXPECT_EQ(JetPackFor(c, "34.1.1"), nullptr);
  EXPECT_EQ(JetPackFor(c, ""), nullptr);
  EXPECT_LT(CompareL4t("36.4", "36.10"), 0);
  EXPECT_LT(CompareL4t("36", "36.4"), 0);
  for (const TegraSoc& s : c.tegra_socs) {
    EXPECT_FALSE(MatchGpuName(c, s.gpu, false).models.empty()) << s.soc << " names " << s.gpu;
  }
}

}  // namespace
}  // namespace cudamatch
