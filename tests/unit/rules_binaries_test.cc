// Rules on installed binaries, over hand-made Snapshots whose GPU code lists are the ones the
// fatbin fixtures carry.
#include <gtest/gtest.h>

#include "diagnose/rules.h"
#include "plan/diagnose.h"
#include "plan/remedy_text.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::Arg;
using testing::WithId;

using testing::TheCatalog;

GpuInfo Gpu(const char* name, const char* cc) {
  GpuInfo g;
  g.name = name;
  g.cc = ComputeCapability::Parse(cc).value();
  g.cc_source = "catalog";
  return g;
}

Snapshot Machine(const char* gpu, const char* cc) {
  Snapshot s = testing::MachineWithDriver("570.133.07", "12.8");
  s.gpus.push_back(Gpu(gpu, cc));
  PythonEnv env;
  env.prefix = "/venv";
  env.kind = PythonKind::kVenv;
  env.version = PyVersion::Parse("3.11").value();
  PackageInfo torch;
  torch.name = "torch";
  torch.version = Pep440::Parse("2.4.0+cu121").value();
  torch.variant = *Variant::Parse("cu121");
  torch.cuda = CudaVersion::Parse("12.1").value();
  env.packages["torch"] = torch;
  s.pythons.push_back(env);
  return s;
}

// What torch.utils.cpp_extension links a CUDA extension against (its DT_NEEDED).
const std::vector<std::string> kTorchLinks = {"libc10.so", "libtorch.so", "libtorch_cpu.so", "libtorch_python.so",
                                              "libc10_cuda.so"};

BinaryInfo Lib(std::string path, std::vector<int> sass, std::vector<int> ptx, std::vector<std::string> needed = {}) {
  BinaryInfo b;
  b.path = std::move(path);
  FatbinCode code;
  code.sass = std::move(sass);
  code.ptx = std::move(ptx);
  b.code = code;
  b.needed = std::move(needed);
  return b;
}

ExtensionInfo Ext(std::string name, const char* version, BinaryInfo lib, std::vector<std::string> pins = {}) {
  ExtensionInfo e;
  e.name = std::move(name);
  e.version = Pep440::Parse(version).value();
  e.metadata_path = "/venv/site/" + e.name + ".dist-info/METADATA";
  e.torch_pins = std::move(pins);
  e.libs.push_back(std::move(lib));
  return e;
}



TEST(BinaryRules, ExtensionWithoutTheGpusArchitectureIsAnError) {
  Snapshot s = Machine("Tesla T4", "7.5");
  s.pythons[0].extensions.push_back(Ext("mmcv", "2.1.0", Lib("/venv/site/mmcv/_ext.so", {80, 90}, {}, kTorchLinks)));
  auto found = WithId(Diagnose(s, TheCatalog()), "ext.no_kernels");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::kError);
  EXPECT_EQ(Arg(found[0], "list"), "sm_80 sm_90");
  EXPECT_NE(RemedyText(found[0].remedy).find("TORCH_CUDA_ARCH_LIST=\"7.5\""), std::string::npos) << RemedyText(found[0].remedy);
}

// One rebuild serves the whole machine: on a GeForce RTX 2080 Ti beside a GTX 1080 Ti, an
// extension built for the 2080 Ti alone fails on the 1080 Ti, and one rebuilt for the 1080 Ti alone
// would fail on the 2080 Ti. Its list names both (and CUDA_HOME the toolkit of torch's CUDA major).
TEST(BinaryRules, RebuildCoversEveryGpuPresent) {
  Snapshot s = Machine("NVIDIA GeForce RTX 2080 Ti", "7.5");
  s.gpus.push_back(Gpu("NVIDIA GeForce GTX 1080 Ti", "6.1"));
  ToolkitInfo tk;
  tk.path = "/usr/local/cuda-12.1";
  tk.version = CudaVersion::Parse("12.1").value();
  tk.has_nvcc = true;
  s.toolkits.push_back(tk);
  s.pythons[0].extensions.push_back(Ext("mmcv", "2.1.0", Lib("/venv/site/mmcv/_ext.so", {75}, {}, kTorchLinks)));
  auto found = WithId(Diagnose(s, TheCatalog()), "ext.no_kernels");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(Arg(found[0], "sm"), "sm_61");
  EXPECT_EQ(RemedyText(found[0].remedy).rfind("TORCH_CUDA_ARCH_LIST=\"6.1;7.5\" CUDA_HOME=/usr/local/cuda-12.1 /venv/bin/python -m pip install", 0),
            0u)
      << RemedyText(found[0].remedy);
}

// flash-attn 2.x compiles for sm_80 and sm_90 only: on a T4 no rebuild for 7.5 runs, so the
// finding is ext.gpu_unsupported with no fix command, not ext.no_kernels with a rebuild.
TEST(BinaryRules, FlashAttention2BelowAmpereIsUnsupportedNotRebuilt) {
  Snapshot s = Machine("Tesla T4", "7.5");
  s.pythons[0].extensions.push_back(Ext("flash-attn", "2.6.3", Lib("/venv/site/flash_attn_2_cuda.so", {80, 90}, {}, kTorchLinks)));
  auto all = Diagnose(s, TheCatalog());
  EXPECT_TRUE(WithId(all, "ext.no_kernels").empty());
  auto found = WithId(all, "ext.gpu_unsupported");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::kError);
  EXPECT_EQ(Arg(found[0], "min"), "8.0");
  EXPECT_FALSE(found[0].remedy.has_value());
}

TEST(BinaryRules, SassOfALowerMinorOrOlderPtxServesTheGpu) {
  for (auto [sass, ptx] : {std::pair<std::vector<int>, std::vector<int>>{{80}, {}}, {{}, {75}}, {{75}, {80}}}) {
    Snapshot s = Machine("NVIDIA GeForce RTX 3090", "8.6");
    s.pythons[0].extensions.push_back(Ext("xformers", "0.0.27", Lib("/venv/site/xformers/_C.so", sass, ptx)));
    EXPECT_TRUE(WithId(Diagnose(s, TheCatalog()), "ext.no_kernels").empty());
  }
}

// sm_100a runs on 10.0 only, sm_100f on 10.0 and 10.3, compute_120a is compiled for 12.0 only.
TEST(BinaryRules, ArchitectureSpecificCodeServesOnlyItsOwnCapability) {
  struct Case {
    const char* gpu;
    const char* cc;
    std::vector<int> sass_a, sass_f, ptx_a;
    bool runs;
  };
  for (const Case& c : {Case{"NVIDIA H100 80GB HBM3", "9.0", {90}, {}, {}, true},
                        Case{"NVIDIA B300", "10.3", {100}, {}, {}, false},
                        Case{"NVIDIA B300", "10.3", {}, {100}, {}, true},
                        Case{"NVIDIA GB10", "12.1", {120}, {}, {120}, false},
                        Case{"NVIDIA GeForce RTX 5090", "12.0", {}, {}, {120}, true}}) {
    SCOPED_TRACE(std::string(c.gpu) + " " + c.cc);
    Snapshot s = Machine(c.gpu, c.cc);
    BinaryInfo lib = Lib("/venv/site/flash_attn_3_cuda.so", {}, {}, kTorchLinks);
    lib.code->sass_a = c.sass_a;
    lib.code->sass_f = c.sass_f;
    lib.code->ptx_a = c.ptx_a;
    s.pythons[0].extensions.push_back(Ext("flash-attn", "3.0.0", lib));
    auto found = WithId(Diagnose(s, TheCatalog()), "ext.no_kernels");
    EXPECT_EQ(found.empty(), c.runs);
    if (!found.empty()) {
      EXPECT_NE(Arg(found[0], "list").find("a"), std::string::npos) << Arg(found[0], "list");
    }
  }
}

TEST(BinaryRules, ExtensionLinkingAnotherCudaMajorIsAnError) {
  Snapshot s = Machine("NVIDIA GeForce RTX 4090", "8.9");
  s.pythons[0].extensions.push_back(
      Ext("mmcv", "2.1.0", Lib("/venv/site/mmcv/_ext.so", {75, 80}, {}, {"libcudart.so.11.0", "libc10_cuda.so"})));
  auto found = WithId(Diagnose(s, TheCatalog()), "ext.cuda_major");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(Arg(found[0], "soname"), "libcudart.so.11.0");
  EXPECT_EQ(Arg(found[0], "major"), "11");
  EXPECT_EQ(Arg(found[0], "cuda"), "12.1");
  s.pythons[0].extensions[0].libs[0].needed = {"libcudart.so.12"};
  EXPECT_TRUE(WithId(Diagnose(s, TheCatalog()), "ext.cuda_major").empty());
}

// mamba-ssm's and causal-conv1d's setup.py (as flash-attn's) download the release asset named
// after torch's CUDA major, torch line and C++ ABI unless MAMBA_FORCE_BUILD / CAUSAL_CONV1D_FORCE_BUILD
// is TRUE. NVlabs/MambaVision#12: torch 2.1.2 with CUDA 12.1, mamba_ssm 1.0.1's selective_scan_cuda
// needing libcudart.so.11.0. The asset for CUDA 12 is the fix, so the rebuild may fetch it; for
// a GPU its code lacks, the asset lacks it too, so the rebuild must compile.
TEST(BinaryRules, PackagesThatFetchTheirAssetCompileOnlyWhereTheAssetIsNoFix) {
  Snapshot s = Machine("NVIDIA GeForce RTX 4090", "8.9");
  s.pythons[0].packages["torch"].version = Pep440::Parse("2.1.2+cu121").value();
  s.pythons[0].extensions.push_back(Ext(
      "mamba-ssm", "1.0.1", Lib("/venv/site/selective_scan_cuda.so", {70, 80, 90}, {}, {"libcudart.so.11.0", "libc10.so", "libtorch.so"})));
  auto found = WithId(Diagnose(s, TheCatalog()), "ext.cuda_major");
  ASSERT_EQ(found.size(), 1u);
  std::string fix = RemedyText(found[0].remedy);
  EXPECT_NE(fix.find("--no-binary mamba-ssm \"mamba-ssm==1.0.1\""), std::string::npos) << fix;
  EXPECT_EQ(fix.find("MAMBA_FORCE_BUILD"), std::string::npos) << fix;
  Snapshot blackwell = Machine("NVIDIA GeForce RTX 5090", "12.0");
  blackwell.pythons[0].extensions.push_back(
      Ext("causal-conv1d", "1.4.0", Lib("/venv/site/causal_conv1d_cuda.so", {75, 80, 87, 90}, {}, kTorchLinks)));
  found = WithId(Diagnose(blackwell, TheCatalog()), "ext.no_kernels");
  ASSERT_EQ(found.size(), 1u);
  fix = RemedyText(found[0].remedy);
  EXPECT_NE(fix.find("CAUSAL_CONV1D_FORCE_BUILD=TRUE "), std::string::npos) << fix;
}

TEST(BinaryRules, ExtensionLinkingAnotherCudnnMajorIsAnError) {
  Snapshot s = Machine("NVIDIA GeForce RTX 4090", "8.9");
  RuntimeLib cudnn;
  cudnn.soname = "libcudnn.so.9";
  s.pythons[0].packages["torch"].runtime.push_back(cudnn);
  s.pythons[0].extensions.push_back(Ext("apex", "0.1", Lib("/venv/site/apex_C.so", {80}, {}, {"libcudnn.so.8", "libc10.so", "libtorch.so"})));
  auto found = WithId(Diagnose(s, TheCatalog()), "ext.cudnn_major");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(Arg(found[0], "torch_cudnn"), "9");
}

TEST(BinaryRules, PinOnAnotherTorchNamesTheTorchItWasBuiltFor) {
  Snapshot s = Machine("NVIDIA GeForce RTX 4090", "8.9");
  s.pythons[0].extensions.push_back(
      Ext("xformers", "0.0.26.post1", Lib("/venv/site/xformers/_C.so", {80}, {}), {"torch==2.3.0", "numpy"}));
  auto found = WithId(Diagnose(s, TheCatalog()), "ext.torch_pin");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(Arg(found[0], "pin"), "torch==2.3.0");
  EXPECT_EQ(Arg(found[0], "have"), "2.4.0+cu121");
  // cu121 is 2.3.0's PyPI default: the catalog's command for it needs no index. It runs the
  // environment's own pip (the venv's interpreter), not whichever `pip` is first on PATH.
  EXPECT_EQ(RemedyText(found[0].remedy).rfind("/venv/bin/python -m pip install torch==2.3.0 torchvision==0.18.0 torchaudio==2.3.0", 0), 0u)
      << RemedyText(found[0].remedy);
  // The same pin is met by 2.3.0 with a local label.
  s.pythons[0].packages["torch"].version = Pep440::Parse("2.3.0+cu121").value();
  EXPECT_TRUE(WithId(Diagnose(s, TheCatalog()), "ext.torch_pin").empty());
}

TEST(BinaryRules, TorchsOwnListDecidesWhetherTheGpuHasKernels) {
  // The catalog's 2.4.0+cu121 list covers sm_89; the file's list (sm_90 only) does not.
  Snapshot s = Machine("NVIDIA GeForce RTX 4090", "8.9");
  EXPECT_TRUE(WithId(Diagnose(s, TheCatalog()), "torch.no_kernels").empty());
  s.pythons[0].packages["torch"].binaries.push_back(Lib("/venv/site/torch/lib/libtorch_cuda.so", {90}, {90}));
  auto all = Diagnose(s, TheCatalog());
  auto none = WithId(all, "torch.no_kernels");
  ASSERT_EQ(none.size(), 1u);
  EXPECT_EQ(Arg(none[0], "list"), "sm_90 compute_90");
  EXPECT_EQ(none[0].evidence.back().id, "evidence.gpu_code_file");
  EXPECT_EQ(none[0].evidence.back().args[0].second, "/venv/site/torch/lib/libtorch_cuda.so");
  auto differ = WithId(all, "torch.kernels_differ");
  ASSERT_EQ(differ.size(), 1u);
  EXPECT_EQ(Arg(differ[0], "file_list"), "sm_90 compute_90");
}

TEST(BinaryRules, ANightlyWithoutACatalogRowIsJudgedByItsFile) {
  Snapshot s = Machine("NVIDIA GeForce RTX 5090", "12.0");
  PackageInfo& torch = s.pythons[0].packages["torch"];
  torch.version = Pep440::Parse("2.9.0.dev20250801+cu128").value();
  torch.variant = *Variant::Parse("cu128");
  torch.cuda = CudaVersion::Parse("12.8").value();
  torch.binaries.push_back(Lib("/venv/site/torch/lib/libtorch_cuda.so", {75, 80, 86, 90, 100, 120}, {120}));
  EXPECT_TRUE(WithId(Diagnose(s, TheCatalog()), "torch.no_kernels").empty());
  // PTX for 9.0 is JIT-compiled for 12.0 by a CUDA 12.8 build, which knows sm_120.
  torch.binaries[0] = Lib("/venv/site/torch/lib/libtorch_cuda.so", {75, 80, 86, 90}, {90});
  auto all = Diagnose(s, TheCatalog());
  EXPECT_EQ(WithId(all, "torch.ptx_jit").size(), 1u);
  EXPECT_TRUE(WithId(all, "torch.no_kernels").empty());
  torch.binaries[0] = Lib("/venv/site/torch/lib/libtorch_cuda.so", {75, 80, 86, 90}, {});
  EXPECT_EQ(WithId(Diagnose(s, TheCatalog()), "torch.no_kernels").size(), 1u);
}

TEST(BinaryRules, ARuntimeLibraryFromOutsideTheEnvironmentIsAWarning) {
  Snapshot s = Machine("NVIDIA GeForce RTX 4090", "8.9");
  RuntimeLib r;
  r.soname = "libcudnn.so.9";
  r.path = "/usr/lib/x86_64-linux-gnu/libcudnn.so.9";
  r.origin = LibOrigin::kLdLibraryPath;
  r.version = Pep440::Parse("9.0.0").value();
  r.wheel_path = "/venv/site/nvidia/cudnn/lib/libcudnn.so.9";
  r.wheel_version = Pep440::Parse("9.1.0.70").value();
  s.pythons[0].packages["torch"].runtime.push_back(r);
  auto found = WithId(Diagnose(s, TheCatalog()), "runtime.shadowed");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(RemedyText(found[0].remedy), "unset LD_LIBRARY_PATH");
  EXPECT_EQ(Arg(found[0], "origin"), "LD_LIBRARY_PATH");
  s.pythons[0].packages["torch"].runtime[0].path = r.wheel_path;
  s.pythons[0].packages["torch"].runtime[0].origin = LibOrigin::kRunpath;
  EXPECT_TRUE(WithId(Diagnose(s, TheCatalog()), "runtime.shadowed").empty());
}

}  // namespace
}  // namespace cudamatch
