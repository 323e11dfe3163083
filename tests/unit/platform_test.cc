// Plans per platform: macOS has no CUDA, Jetson modules are not served by PyPI's CUDA wheels,
// and the Jetson detection reads the L4T release file and the device-tree model.
#include <gtest/gtest.h>

#include "plan/plan.h"
#include "probe/jetson.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TheCatalog;

bool Has(const std::vector<Reason>& reasons, const std::string& id) {
  for (const Reason& r : reasons) {
    if (r.id == id) return true;
  }
  return false;
}

// /etc/nv_tegra_release of L4T R36.3 (JetPack 6.0), as NVIDIA's Jetson Linux 36.3 images ship it.
TEST(Jetson, NvTegraReleaseGivesTheL4tVersion) {
  EXPECT_EQ(ParseNvTegraRelease("# R36 (release), REVISION: 3.0, GCID: 36191598, BOARD: generic, EABI: aarch64, "
                                "DATE: Mon May 20 16:46:50 UTC 2024\n# KERNEL_VARIANT: oot\n"),
            "36.3.0");
  EXPECT_EQ(ParseNvTegraRelease("# R35 (release), REVISION: 4.1, GCID: 33958178, BOARD: t186ref, EABI: aarch64\n"),
            "35.4.1");
  EXPECT_EQ(ParseNvTegraRelease("no release here"), std::nullopt);
  EXPECT_EQ(ParseNvTegraRelease("# R36 (release), GCID: 1"), std::nullopt);
}

TEST(Jetson, DeviceTreeModelNamesOnlyJetsonBoards) {
  EXPECT_EQ(JetsonModel(std::string("NVIDIA Jetson AGX Orin Developer Kit\0", 37)), "NVIDIA Jetson AGX Orin Developer Kit");
  EXPECT_EQ(JetsonModel(std::string("Raspberry Pi 4 Model B Rev 1.4\0", 31)), "");
  // rbonghi/jetson_stats#514: the Orin Nano developer kit's model has no "Jetson" in it.
  EXPECT_EQ(JetsonModel(std::string("NVIDIA Orin Nano Developer Kit\0", 31)), "NVIDIA Orin Nano Developer Kit");
}

MachineSpec Mac(const char* python) {
  MachineSpec s;
  s.platform = Platform{Os::kMacos, Arch::kAarch64};
  s.python = PyVersion::Parse(python).value();
  return s;
}

// A Mac M2 with Python 3.12: test-infra's release matrices (ti-build-matrix-2.x) build macOS arm64
// wheels with the CPU arch only, and plain pip gets them.
TEST(PlatformPlan, MacM2Python312GetsTheCpuMpsWheelAndNoCuda) {
  Plan p = MakePlan(TheCatalog(), Mac("3.12"));
  ASSERT_NE(p.release, nullptr);
  EXPECT_EQ(p.variant->variant.tag, "cpu");
  EXPECT_EQ(p.variant->platform, "macos-arm64");
  EXPECT_TRUE(Has(p.platform_notes, "caveat.macos_no_cuda"));
  EXPECT_EQ(p.commands.pip.find("--index-url"), std::string::npos) << p.commands.pip;
}

TEST(PlatformPlan, MacAskedForAnNvidiaGpuStillSaysCudaDoesNotExistThere) {
  MachineSpec s = Mac("3.12");
  s.gpus.push_back(ComputeCapability::Parse("8.9").value());
  s.has_nvidia_gpu = true;
  Plan p = MakePlan(TheCatalog(), s);
  ASSERT_NE(p.release, nullptr);
  EXPECT_EQ(p.variant->variant.tag, "cpu");
  EXPECT_TRUE(Has(p.platform_notes, "caveat.macos_no_cuda_gpu"));
}

// Jetson AGX Orin (compute capability 8.7) on JetPack 6: PyPI's aarch64 CUDA wheels are SBSA
// builds (test-infra CUDA_AARCH64 matrices; the audit's linux-aarch64 notes), not Tegra builds.
TEST(PlatformPlan, JetsonOrinIsNotServedByPypiCudaWheels) {
  MachineSpec s;
  s.platform = Platform{Os::kLinux, Arch::kAarch64};
  s.gpus.push_back(ComputeCapability::Parse("8.7").value());
  s.has_nvidia_gpu = true;
  s.python = PyVersion::Parse("3.10").value();
  s.jetson = true;
  s.jetson_model = "NVIDIA Jetson AGX Orin Developer Kit";
  s.jetson_l4t = "36.3.0";
  Plan p = MakePlan(TheCatalog(), s);
  ASSERT_NE(p.release, nullptr);
  EXPECT_EQ(p.variant->variant.tag, "cpu");
  EXPECT_TRUE(Has(p.platform_notes, "caveat.jetson_not_pypi"));
  EXPECT_TRUE(Has(p.platform_notes, "caveat.jetson_page"));  // JetPack 6.0: NVIDIA's wheel files
}

MachineSpec JetsonSpec(const char* cc, const char* l4t, const char* python) {
  MachineSpec s;
  s.platform = Platform{Os::kLinux, Arch::kAarch64};
  s.gpus.push_back(ComputeCapability::Parse(cc).value());
  s.has_nvidia_gpu = true;
  s.python = PyVersion::Parse(python).value();
  s.jetson = true;
  s.jetson_l4t = l4t;
  return s;
}

const Reason* Caveat(const Plan& p, std::string_view id) {
  for (const Reason& r : p.platform_notes) {
    if (r.id == id) return &r;
  }
  return nullptr;
}

std::string ArgText(const Reason& r, std::string_view key) {
  for (const auto& [k, v] : r.args) {
    if (k == key) return v.value_or("");
  }
  return "";
}

// nvidia-cosmos/cosmos-reason2#45: an AGX Orin on JetPack 6.2 (L4T R36.4, CUDA 12.6) gets
// torch with sm_87 from the Jetson AI Lab index jp6/cu126. The plan names that index.
TEST(PlatformPlan, JetsonOnJetPack62NamesTheJp6Cu126Index) {
  Plan p = MakePlan(TheCatalog(), JetsonSpec("8.7", "36.4.3", "3.10"));
  ASSERT_NE(p.release, nullptr);
  EXPECT_TRUE(Has(p.platform_notes, "caveat.jetson_not_pypi"));
  const Reason* index = Caveat(p, "caveat.jetson_index");
  ASSERT_NE(index, nullptr);
  EXPECT_EQ(ArgText(*index, "wheels"), "https://pypi.jetson-ai-lab.io/jp6/cu126");
  EXPECT_EQ(ArgText(*index, "jetpack"), "6.1 / 6.2");
}

// pollen-robotics/microduck_rl#38: a Jetson AGX Thor on JetPack 7 (L4T R38, CUDA 13.0, sm_110)
// runs SBSA builds; a CUDA 12.9 wheel has no sm_110. The plan is PyPI's cu130 build (which lists
// 11.0) and names the Jetson AI Lab sbsa/cu130 index beside it, with no "not PyPI" caveat.
TEST(PlatformPlan, ThorOnJetPack7IsPlannedWithACuda13Build) {
  Plan p = MakePlan(TheCatalog(), JetsonSpec("11.0", "38.2.0", "3.12"));
  ASSERT_NE(p.release, nullptr);
  EXPECT_EQ(p.variant->variant.tag, "cu130");
  EXPECT_FALSE(Has(p.platform_notes, "caveat.jetson_not_pypi"));
  const Reason* index = Caveat(p, "caveat.jetson_index");
  ASSERT_NE(index, nullptr);
  EXPECT_EQ(ArgText(*index, "wheels"), "https://pypi.jetson-ai-lab.io/sbsa/cu130");
}

// An L4T release the catalog has no JetPack row for (R34, JetPack 5.0 developer preview) says so.
// pytorch/pytorch#78067: an AGX Xavier on JetPack 4.4 (L4T 32.4.3) needs Python 3.8; NVIDIA's
// wheels for JetPack 4 are Python 3.6 only. The maintainer: the Python 3.8 wheels need JetPack 5,
// which the Xavier runs. The plan says both.
TEST(PlatformPlan, JetsonWithAPythonItsJetPackHasNoWheelsForNamesTheJetPackThatHas) {
  MachineSpec s = JetsonSpec("7.2", "32.4.3", "3.8");
  s.gpu_names = {"Jetson AGX Xavier"};
  Plan p = MakePlan(TheCatalog(), s);
  ASSERT_NE(Caveat(p, "caveat.jetson_python"), nullptr);
  const Reason* elsewhere = Caveat(p, "caveat.jetson_python_elsewhere");
  ASSERT_NE(elsewhere, nullptr);
  EXPECT_EQ(ArgText(*elsewhere, "jetpacks"), "5.1");
  EXPECT_EQ(ArgText(*elsewhere, "jetpack"), "4.4");
  EXPECT_EQ(ArgText(*elsewhere, "model"), "Jetson AGX Xavier");
  // With the JetPack's own Python there is nothing else to say.
  MachineSpec own = JetsonSpec("7.2", "32.4.3", "3.6");
  own.gpu_names = {"Jetson AGX Xavier"};
  EXPECT_EQ(Caveat(MakePlan(TheCatalog(), own), "caveat.jetson_python_elsewhere"), nullptr);
}

TEST(PlatformPlan, JetsonOnAnUnknownL4tSaysTheWheelsAreUnknown) {
  Plan p = MakePlan(TheCatalog(), JetsonSpec("8.7", "34.1.1", "3.8"));
  EXPECT_TRUE(Has(p.platform_notes, "caveat.jetson_wheels_unknown"));
}

}  // namespace
}  // namespace cudamatch
