// Situations per platform (Windows, Linux aarch64, Jetson, macOS, Blackwell, old toolchains), as facts -> answer
// tests. Each case names the catalog rows (and their sources) the answer rests on.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>

#include "diagnose/rules.h"
#include "plan/diagnose.h"
#include "plan/remedy_text.h"
#include "plan/plan.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TheCatalog;

struct PlanCase {
  const char* name;
  const char* source;  // the rows the answer rests on
  std::function<MachineSpec()> spec;
  std::function<void(const Plan&)> check;
};

MachineSpec Machine(Os os, Arch arch, const char* driver, const char* gpu_cc, const char* python) {
  MachineSpec s;
  s.platform = Platform{os, arch};
  if (driver) s.driver = DriverVersion::Parse(driver).value();
  if (gpu_cc) {
    s.gpus.push_back(ComputeCapability::Parse(gpu_cc).value());
    s.has_nvidia_gpu = true;
  }
  if (python) s.python = PyVersion::Parse(python).value();
  return s;
}

bool HasReason(const std::vector<Reason>& rs, const std::string& id) {
  return std::any_of(rs.begin(), rs.end(), [&](const Reason& r) { return r.id == id; });
}

const std::vector<PlanCase>& PlanCases() {
  static const std::vector<PlanCase> kCases = {
      {"Windows RTX 4090, driver 566.36, Python 3.10",
       "torch_variants.tsv windows-x86_64 2.11.0 cu128 arch list 7.5;8.0;8.6;9.0;10.0;12.0 (RELEASE.md 'For "
       "Release 2.11', gh-pytorch-175253; pt-win-cuda128-07619f94); 2.12-2.14 Windows cu126 arch lists stay unknown "
       "(RELEASE.md and the Windows scripts disagree on 6.1); CUDA 12.x minor-version floor 527.41 on Windows "
       "(cuda_minor_compat.tsv)",
       [] { return Machine(Os::kWindows, Arch::kX86_64, "566.36", "8.9", "3.10"); },
       [](const Plan& p) {
         // cu128 carries sm_86 SASS, which sm_89 runs; driver 566 runs CUDA 12.8 only through minor-version
         // compatibility. The newer releases offer only CUDA 13 (driver too old) or cu126 (list unknown).
         ASSERT_NE(p.release, nullptr);
         EXPECT_EQ(p.release->torch.ToString(), "2.11.0");
         EXPECT_EQ(p.variant->platform, "windows-x86_64");
         EXPECT_EQ(p.variant->variant.tag, "cu128");
         ASSERT_TRUE(p.variant->arch_list.has_value());
         EXPECT_EQ(FitArch(*p.variant->arch_list, ComputeCapability::Parse("8.9").value()).fit, KernelFit::kSass);
         EXPECT_TRUE(HasReason(p.caveats, "caveat.minor_compat"));
         bool cu126_2140_arch_unknown = std::any_of(p.rejected.begin(), p.rejected.end(), [](const Rejection& r) {
           return r.candidate == "2.14.0+cu126" && HasReason(r.reasons, "reject.arch_unknown");
         });
         EXPECT_TRUE(cu126_2140_arch_unknown);
       }},
      {"Windows without a GPU, Python 3.10",
       "torch_variants.tsv windows-x86_64 cpu rows; PyPI default = CPU (ti-build-matrix-2.14 get_wheel_install_command)",
       [] { return Machine(Os::kWindows, Arch::kX86_64, nullptr, nullptr, "3.10"); },
       [](const Plan& p) {
         ASSERT_NE(p.release, nullptr);
         EXPECT_EQ(p.release->torch.ToString(), "2.14.0");
         EXPECT_EQ(p.variant->variant.tag, "cpu");
         EXPECT_EQ(p.variant->platform, "windows-x86_64");
         EXPECT_EQ(p.commands.pip, "python -m pip install torch==2.14.0 torchvision==0.29.0 torchaudio==2.11.0");
       }},
      {"GH200 (sm_90) on driver 570, Linux aarch64",
       "torch_variants.tsv linux-aarch64 CUDA rows with RELEASE.md arch lists (gh-pytorch-175253); driver 570 serves "
       "CUDA 12.8 (driver_branches.tsv)",
       [] { return Machine(Os::kLinux, Arch::kAarch64, "570.124.06", "9.0", nullptr); },
       [](const Plan& p) {
         ASSERT_NE(p.release, nullptr);
         EXPECT_EQ(p.variant->platform, "linux-aarch64");
         ASSERT_TRUE(p.variant->variant.cuda.has_value());
         EXPECT_LE(*p.variant->variant.cuda, CudaVersion::Parse("12.8").value());
         ASSERT_TRUE(p.variant->arch_list.has_value());
         EXPECT_EQ(FitArch(*p.variant->arch_list, ComputeCapability::Parse("9.0").value()).fit, KernelFit::kSass);
       }},
      {"Mac M2, Python 3.12",
       "torch_variants.tsv macos-arm64 cpu rows (ti-build-matrix-2.x: CPU arch only, plain pip)",
       [] { return Machine(Os::kMacos, Arch::kAarch64, nullptr, nullptr, "3.12"); },
       [](const Plan& p) {
         ASSERT_NE(p.release, nullptr);
         EXPECT_EQ(p.variant->variant.tag, "cpu");
         EXPECT_TRUE(HasReason(p.platform_notes, "caveat.macos_no_cuda"));
       }},
      {"torch 2.7.1 on an RTX 5090 (sm_120)",
       "torch_variants.tsv 2.7.1 cu128 arch list 7.5;8.0;8.6;9.0;10.0;12.0+PTX (hfnix-archs-4aa0d274, gh-corridorkey-141)",
       [] {
         MachineSpec s = Machine(Os::kLinux, Arch::kX86_64, "570.124.06", "12.0", nullptr);
         s.torch = SpecifierSet::Parse("==2.7.1").value();
         return s;
       },
       [](const Plan& p) {
         ASSERT_NE(p.release, nullptr);
         EXPECT_EQ(p.release->torch.ToString(), "2.7.1");
         EXPECT_EQ(p.variant->variant.tag, "cu128");
       }},
  };
  return kCases;
}

TEST(PlatformSituations, Plans) {
  for (const PlanCase& c : PlanCases()) {
    SCOPED_TRACE(std::string(c.name) + " [" + c.source + "]");
    c.check(MakePlan(TheCatalog(), c.spec()));
  }
}

// ---- doctor ----

Snapshot Linux(const char* driver, const char* cuda, const char* gpu, const char* cc) {
  Snapshot s;
  s.host.os_id = "ubuntu";
  if (driver) {
    DriverVersion d = DriverVersion::Parse(driver).value();
    s.driver.kernel_module_loaded = true;
    s.driver.kernel_version = d;
    s.driver.kernel_source = "/proc/driver/nvidia/version";
    s.driver.userspace_version = d;
    s.driver.libcuda_paths = {"/usr/lib/x86_64-linux-gnu/libcuda.so.1"};
    s.driver.cuda = CudaVersion::Parse(cuda).value();
    s.driver.device_nodes = true;
  }
  if (gpu) {
    GpuInfo g;
    g.name = gpu;
    g.cc = ComputeCapability::Parse(cc).value();
    g.source = "NVML";
    s.gpus.push_back(g);
  }
  return s;
}

void WithTorch(Snapshot& s, const char* version, const char* variant, const char* cuda) {
  PythonEnv env;
  env.prefix = "/env";
  env.kind = PythonKind::kVenv;
  env.version = PyVersion::Parse("3.11").value();
  env.found_by = {"env:VIRTUAL_ENV"};
  PackageInfo p;
  p.name = "torch";
  p.version = Pep440::Parse(version).value();
  if (auto v = Variant::Parse(variant)) p.variant = *v;
  p.cuda = CudaVersion::Parse(cuda).value();
  p.cuda_source = "version.py";
  env.packages["torch"] = p;
  s.pythons.push_back(env);
}

struct DoctorCase {
  const char* name;
  const char* source;
  std::function<Snapshot()> snapshot;
  std::vector<std::string> expect;  // finding ids that must appear
  std::vector<std::string> absent;  // and must not
};

const std::vector<DoctorCase>& DoctorCases() {
  static const std::vector<DoctorCase> kCases = {
      {"torch 2.6.0+cu126 on an RTX 5090", "2.6.0 cu126 arch list ends at 9.0 without PTX (hfnix-torch-2.6-5ee6a0eb); "
       "the sm_120 warning of gh-pytorch-150733",
       [] {
         Snapshot s = Linux("570.124.06", "12.8", "NVIDIA GeForce RTX 5090", "12.0");
         WithTorch(s, "2.6.0+cu126", "cu126", "12.6");
         return s;
       },
       {"torch.no_kernels"}, {}},
      {"torch 2.7.1+cu128 on an RTX 5090", "2.7.1 cu128 carries sm_120 (hfnix-archs-4aa0d274, gh-corridorkey-141)",
       [] {
         Snapshot s = Linux("570.124.06", "12.8", "NVIDIA GeForce RTX 5090", "12.0");
         WithTorch(s, "2.7.1+cu128", "cu128", "12.8");
         return s;
       },
       {}, {"torch.no_kernels", "torch.ptx_jit", "torch.driver_too_old"}},
      {"GCC 9 with CUDA 10.2", "host_compilers.tsv 10.2: newest GCC 8 (nixpkgs-nvcc-compat-afe79f1c, from the CUDA 10.2 release notes)",
       [] {
         Snapshot s = Linux(nullptr, nullptr, nullptr, nullptr);
         ToolkitInfo t;
         t.path = "/usr/local/cuda-10.2";
         t.version = CudaVersion::Parse("10.2.89").value();
         t.active = true;
         t.active_reason = "PATH";
         s.toolkits.push_back(t);
         s.host.gcc_major = 9;
         s.host.gcc_source = "/usr/bin/gcc -> gcc-9";
         return s;
       },
       {"toolkit.gcc_too_new"}, {}},
  };
  return kCases;
}

TEST(PlatformSituations, Doctor) {
  for (const DoctorCase& c : DoctorCases()) {
    SCOPED_TRACE(std::string(c.name) + " [" + c.source + "]");
    std::vector<std::string> ids;
    for (const Finding& f : Diagnose(c.snapshot(), TheCatalog())) ids.push_back(f.id);
    for (const std::string& id : c.expect) EXPECT_NE(std::find(ids.begin(), ids.end(), id), ids.end()) << id;
    for (const std::string& id : c.absent) EXPECT_EQ(std::find(ids.begin(), ids.end(), id), ids.end()) << id;
  }
}

// An installed torch newer than the catalog's wheel facts: 2.15.0 is on PyPI (pypi-torch) but the
// catalog of 2026-11-30 has no variant rows for it.
TEST(PlatformSituations, TorchNewerThanTheCatalogIsSaidWithWhatIsKnown) {
  Snapshot s = Linux("580.65.06", "13.0", "NVIDIA GeForce RTX 4090", "8.9");
  WithTorch(s, "2.15.0+cu130", "cu130", "13.0");
  std::vector<Finding> fs = Diagnose(s, TheCatalog());
  auto it = std::find_if(fs.begin(), fs.end(), [](const Finding& f) { return f.id == "torch.beyond_catalog"; });
  ASSERT_NE(it, fs.end());
  std::map<std::string, ArgValue> args(it->args.begin(), it->args.end());
  EXPECT_EQ(args["date"], TheCatalog().data_date);
  EXPECT_EQ(args["newest"], "2.14.0");
  EXPECT_EQ(args["cuda"], "13.0");
  EXPECT_TRUE(args["targets"].has_value());
}

}  // namespace
}  // namespace cudamatch
