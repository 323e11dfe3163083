// Jetson as a platform: the Tegra files JetPack ships (probe/jetson.h), the catalog's SoC and
// JetPack tables, and the findings on a Jetson. Captures are cited where they were pasted.
#include <gtest/gtest.h>

#include <algorithm>

#include "catalog/jetson.h"
#include "catalog/query.h"
#include "core/fs.h"
#include "derive/derive.h"
#include "plan/diagnose.h"
#include "plan/remedy_text.h"
#include "probe/context.h"
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

// ---- whole snapshots: probes over an in-memory tree, then derive and the rules ----

std::string Nul(std::initializer_list<const char*> strings) {
  std::string out;
  for (const char* x : strings) out += std::string(x) + '\0';
  return out;
}

// A JetPack image as its files say it: the release line, the device tree, L4T's libcuda found
// through nvidia-tegra.conf, and optionally the Tegra module's /proc/driver/nvidia/version line.
struct Board {
  std::string release, model, compatible, module_line;
  std::string libdir = "/usr/lib/aarch64-linux-gnu/nvidia";
};

Snapshot Take(const Board& b, FakeFs& fs) {
  fs.AddFile("/etc/nv_tegra_release", b.release);
  fs.AddFile("/proc/device-tree/model", b.model + std::string(1, '\0'));
  if (!b.compatible.empty()) fs.AddFile("/proc/device-tree/compatible", b.compatible);
  if (!b.module_line.empty()) fs.AddFile("/proc/driver/nvidia/version", b.module_line);
  fs.AddFile("/etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n");
  fs.AddFile("/etc/ld.so.conf.d/nvidia-tegra.conf", b.libdir + "\n");
  fs.AddFile(b.libdir + "/libcuda.so.1.1", "");
  fs.AddSymlink(b.libdir + "/libcuda.so.1", "libcuda.so.1.1");
  ProbeInput in;
  in.fs = &fs;
  in.catalog = &testing::TheCatalog();
  in.host_arch = "aarch64";
  Snapshot s = TakeSnapshot(in);
  Derive(testing::TheCatalog(), s);
  return s;
}

PythonEnv& AddTorch(Snapshot& s, const char* version, const char* cuda, Origin cuda_origin = Origin::kObserved) {
  PythonEnv env;
  env.prefix = "/home/nvidia/venv";
  env.kind = PythonKind::kVenv;
  env.version = PyVersion::Parse("3.10").value();
  env.found_by = {"env:VIRTUAL_ENV"};
  env.active = true;
  PackageInfo p;
  p.name = "torch";
  p.version = Pep440::Parse(version).value();
  p.version_source = env.prefix + "/lib/python3.10/site-packages/torch/version.py";
  if (cuda != nullptr) {
    p.cuda = CudaVersion::Parse(cuda).value();
    p.cuda_origin = cuda_origin;
  } else {
    p.cuda_none = true;
  }
  env.packages["torch"] = p;
  s.pythons.push_back(env);
  DerivePackages(s);
  return s.pythons.back();
}

std::vector<std::string> Ids(const std::vector<Finding>& fs) {
  std::vector<std::string> ids;
  for (const Finding& f : fs) ids.push_back(f.id);
  return ids;
}

const Finding* Find(const std::vector<Finding>& fs, std::string_view id) {
  for (const Finding& f : fs) {
    if (f.id == id) return &f;
  }
  return nullptr;
}

bool HasId(const std::vector<Finding>& fs, std::string_view id) { return Find(fs, id) != nullptr; }

bool DesktopDriverFinding(const std::vector<Finding>& fs) {
  return HasId(fs, "driver.module_not_loaded") || HasId(fs, "driver.missing") || HasId(fs, "driver.mismatch") ||
         HasId(fs, "container.module_not_loaded");
}

// nix-community/nixGL#139: a Jetson Orin NX on L4T 35.3.1 with /proc/driver/nvidia/version
// reading "NVIDIA UNIX Open Kernel Module for aarch64  35.3.1" and L4T's libcuda on the loader's
// path. That is the Tegra GPU stack, not a desktop driver whose module is missing: no
// module-not-loaded finding, no modprobe; the GPU is listed with its compute capability.
TEST(JetsonDoctor, TegraModuleAndL4tLibcudaAreNoDesktopDriver) {
  FakeFs fs;
  Board b{"# R35 (release), REVISION: 3.1, GCID: 32827747, BOARD: t186ref, EABI: aarch64, DATE: Sun Mar 19 15:19:21 UTC 2023\n",
          "NVIDIA Orin NX Developer Kit", Nul({"nvidia,p3768-0000+p3767-0000", "nvidia,p3767-0000", "nvidia,tegra234"}),
          "NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  35.3.1  Release Build  "
          "(buildbrain@mobile-u64-6289-d7000)  Sun Mar 19 08:09:33 PDT 2023\nGCC version:  gcc version 9.3.0 (Buildroot 2020.08) \n"};
  Snapshot s = Take(b, fs);
  ASSERT_TRUE(s.host.jetson.has_value());
  EXPECT_EQ(s.host.jetson->gpu_module, "35.3.1");
  EXPECT_FALSE(s.driver.libcuda_paths.empty());  // found through nvidia-tegra.conf
  std::vector<Finding> f = Diagnose(s, testing::TheCatalog());
  EXPECT_FALSE(DesktopDriverFinding(f)) << ::testing::PrintToString(Ids(f));
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].cc->ToString(), "8.7");
  EXPECT_EQ(s.gpus[0].name_origin, Origin::kTegraSoc);
}

// The same files without the Jetson markers are a desktop machine whose module is not loaded:
// the finding still fires there (what the suppression must not take away).
TEST(JetsonDoctor, WithoutTegraFilesTheModuleFindingStays) {
  Snapshot s;
  s.platform = Platform{Os::kLinux, Arch::kAarch64};
  s.driver.libcuda_paths = {"/usr/lib/aarch64-linux-gnu/libcuda.so.1"};
  s.driver.userspace_version = DriverVersion::Parse("550.54.14").value();
  EXPECT_TRUE(HasId(Diagnose(s, testing::TheCatalog()), "driver.module_not_loaded"));
}

// rbonghi/jetson_stats#711: a Jetson AGX Thor Developer Kit on L4T 38.2.0, SoC tegra264. Its
// GPU is listed at compute capability 11.0, and JetPack 7.0 with CUDA 13.0 from the release.
TEST(JetsonDoctor, ThorIsListedAtComputeCapability11) {
  FakeFs fs;
  Board b{"# R38 (release), REVISION: 2.0, GCID: 41844464, BOARD: generic, EABI: aarch64, DATE: Fri Aug 22 00:55:42 UTC 2025\n",
          "NVIDIA Jetson AGX Thor Developer Kit", Nul({"nvidia,p4071-0000+p3834-0008", "nvidia,p3834-0008", "nvidia,tegra264"}), ""};
  Snapshot s = Take(b, fs);
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].name, "Jetson AGX Thor");
  EXPECT_EQ(s.gpus[0].cc->ToString(), "11.0");
  EXPECT_EQ(s.host.jetson->jetpack, "7.0");
  EXPECT_EQ(s.host.jetson->cuda->MajorMinor(), "13.0");
}

// pinokiocomputer/pinokio#1027: an AGX Orin on JetPack 5.1.2 (L4T R35.4.1, `cat
// /etc/nv_tegra_release`), Python 3.10 venv; "`pip install torch` installs a generic manylinux
// version that does not support CUDA". The CPU build is named with the GPU's compute capability
// and JetPack 5.1's wheels (NVIDIA's wheel files), not torch.cpu_build's PyPI CUDA wheel.
TEST(JetsonDoctor, CpuTorchOnJetPack5IsAJetsonFinding) {
  FakeFs fs;
  Board b{"# R35 (release), REVISION: 4.1, GCID: 33958178, BOARD: t186ref, EABI: aarch64, DATE: Tue Aug  1 19:57:35 UTC 2023\n",
          "NVIDIA Jetson AGX Orin Developer Kit", Nul({"nvidia,p3737-0000+p3701-0000", "nvidia,p3701-0000", "nvidia,tegra234"}), ""};
  Snapshot s = Take(b, fs);
  AddTorch(s, "2.3.1", nullptr);
  std::vector<Finding> f = Diagnose(s, testing::TheCatalog());
  const Finding* cpu = Find(f, "jetson.cpu_build");
  ASSERT_NE(cpu, nullptr) << ::testing::PrintToString(Ids(f));
  EXPECT_FALSE(HasId(f, "torch.cpu_build"));
  std::string text = ::testing::PrintToString(cpu->args);
  EXPECT_NE(text.find("8.7"), std::string::npos) << text;
  EXPECT_NE(text.find("install-pytorch-jetson-platform"), std::string::npos) << text;
  EXPECT_FALSE(cpu->remedy.has_value());  // wheel files, no index to point pip at
}

// naseemap47/streamlit-yolo#22: an Orin NX on JetPack 6.2 (L4T 36.4), "cuda device is not
// available" with a PyPI torch. The fix is the Jetson AI Lab index for JetPack 6.2, jp6/cu126.
TEST(JetsonDoctor, CpuTorchOnJetPack62IsFixedFromJp6Cu126) {
  FakeFs fs;
  Board b{"# R36 (release), REVISION: 4.3, GCID: 38968081, BOARD: generic, EABI: aarch64, DATE: Wed Jan  8 01:49:37 UTC 2025\n",
          "NVIDIA Orin NX Developer Kit", Nul({"nvidia,p3768-0000+p3767-0000", "nvidia,p3767-0000", "nvidia,tegra234"}), ""};
  Snapshot s = Take(b, fs);
  AddTorch(s, "2.3.1", nullptr);
  std::vector<Finding> f = Diagnose(s, testing::TheCatalog());
  const Finding* cpu = Find(f, "jetson.cpu_build");
  ASSERT_NE(cpu, nullptr) << ::testing::PrintToString(Ids(f));
  EXPECT_EQ(s.gpus[0].name, "Jetson Orin NX");  // named by the board's model, 8.7 as its SoC
  ASSERT_TRUE(cpu->remedy.has_value());
  std::string fix = RemedyText(cpu->remedy);
  EXPECT_NE(fix.find("--index-url https://pypi.jetson-ai-lab.io/jp6/cu126"), std::string::npos) << fix;
}

// dusty-nv/jetson-containers#1495 shows what a server build looks like on an Orin (JetPack 6,
// "Is CUDA available: False", "Nvidia driver version: N/A"): a CUDA build that JetPack's CUDA
// user space does not run. PyPI's SBSA build (its CUDA named by the nvidia-cuda-runtime wheel it
// requires) is jetson.sbsa_build on JetPack 6, even though its sm_80 code would fit sm_87.
TEST(JetsonDoctor, SbsaBuildOnJetPack6IsNamed) {
  FakeFs fs;
  Board b{"# R36 (release), REVISION: 4.3, GCID: 38968081, BOARD: generic, EABI: aarch64, DATE: Wed Jan  8 01:49:37 UTC 2025\n",
          "NVIDIA Jetson AGX Orin Developer Kit", Nul({"nvidia,p3737-0000+p3701-0000", "nvidia,p3701-0000", "nvidia,tegra234"}), ""};
  Snapshot s = Take(b, fs);
  AddTorch(s, "2.9.1", "12.6", Origin::kNvidiaRequirement);
  std::vector<Finding> f = Diagnose(s, testing::TheCatalog());
  EXPECT_TRUE(HasId(f, "jetson.sbsa_build")) << ::testing::PrintToString(Ids(f));
  EXPECT_FALSE(HasId(f, "torch.no_kernels"));
}

// pollen-robotics/microduck_rl#38: on a Jetson AGX Thor (JetPack 7 / L4T R38, sm_110) torch
// resolved from a CUDA 12 index "which CUDA 12.9 wheels were not built for"; the cu128 build's
// list (sm_80 sm_90 sm_100 sm_120) has no code for it either. The fix is the sbsa/cu130 index
// the issue settled on.
TEST(JetsonDoctor, Cuda12BuildOnThorHasNoKernels) {
  FakeFs fs;
  Board b{"# R38 (release), REVISION: 2.0, GCID: 41844464, BOARD: generic, EABI: aarch64, DATE: Fri Aug 22 00:55:42 UTC 2025\n",
          "NVIDIA Jetson AGX Thor Developer Kit", Nul({"nvidia,p4071-0000+p3834-0008", "nvidia,p3834-0008", "nvidia,tegra264"}), ""};
  Snapshot s = Take(b, fs);
  AddTorch(s, "2.9.1+cu128", "12.8");
  std::vector<Finding> f = Diagnose(s, testing::TheCatalog());
  const Finding* none = Find(f, "jetson.no_kernels");
  ASSERT_NE(none, nullptr) << ::testing::PrintToString(Ids(f));
  EXPECT_FALSE(HasId(f, "jetson.sbsa_build"));  // JetPack 7's user space is SBSA's
  EXPECT_NE(RemedyText(none->remedy).find("https://pypi.jetson-ai-lab.io/sbsa/cu130"), std::string::npos);
}

// vllm-project/vllm#34470: torch 2.10.0+cu130 on a Jetson Thor, "Is CUDA available: True". PyPI's
// cu130 build lists 11.0: no Jetson finding.
TEST(JetsonDoctor, Cuda13BuildOnThorIsFine) {
  FakeFs fs;
  Board b{"# R38 (release), REVISION: 2.0, GCID: 41844464, BOARD: generic, EABI: aarch64, DATE: Fri Aug 22 00:55:42 UTC 2025\n",
          "NVIDIA Jetson AGX Thor Developer Kit", Nul({"nvidia,p4071-0000+p3834-0008", "nvidia,p3834-0008", "nvidia,tegra264"}), ""};
  Snapshot s = Take(b, fs);
  AddTorch(s, "2.10.0+cu130", "13.0");
  std::vector<Finding> f = Diagnose(s, testing::TheCatalog());
  for (const Finding& x : f) EXPECT_FALSE(x.id.rfind("jetson.", 0) == 0 || x.id == "torch.no_kernels") << x.id;
  EXPECT_FALSE(DesktopDriverFinding(f));
}

}  // namespace
}  // namespace cudamatch
