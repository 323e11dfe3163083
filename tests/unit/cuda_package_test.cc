// CUDA packages beside torch: a distribution whose libraries link CUDA but no torch library
// (cupy-cuda12x, bitsandbytes' libbitsandbytes_cuda<XY>.so, opened with ctypes) loads its own CUDA
// runtime next to torch's, so it is not held to torch's CUDA major (ext.cuda_major is for what is
// built against torch); it is judged on its GPU code (cudapkg.no_kernels, no torch rebuild as the
// fix) and on whether the driver runs the oldest CUDA runtime it links (cudapkg.driver_too_old).
// The libraries are real ELF objects (tests/fixtures/fatbin/cudapkg_*.so, ext_*.so); the
// dist-info directories are written as pip writes them.
#include <gtest/gtest.h>

#include <filesystem>

#include "diagnose/rules.h"
#include "plan/diagnose.h"
#include "plan/remedy_text.h"
#include "probe/binaries.h"
#include "probe/context.h"
#include "report/doctor.h"
#include "report/text.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::Arg;
using testing::WithId;

namespace stdfs = std::filesystem;
using testing::TempDir;

constexpr const char* kSite = "/venv/lib/python3.11/site-packages";

void Place(const TempDir& t, const std::string& fixture, const std::string& rel) {
  std::string path = t.path() + kSite + "/" + rel;
  stdfs::create_directories(stdfs::path(path).parent_path());
  stdfs::copy_file(testing::SourceDir() + "/tests/fixtures/fatbin/" + fixture, path);
}

// A dist-info as pip writes it: METADATA, INSTALLER, WHEEL and a RECORD listing `files` (written
// before, each with its hash and size) and the dist-info's own files.
void Dist(const TempDir& t, const std::string& name, const std::string& version, const std::string& requires_dist,
          const std::vector<std::string>& files) {
  std::string dist = name + "-" + version + ".dist-info/";
  std::string d = std::string(kSite).substr(1) + "/" + dist;
  t.Write(d + "METADATA", "Metadata-Version: 2.1\nName: " + name + "\nVersion: " + version + "\n" + requires_dist);
  t.Write(d + "INSTALLER", "pip\n");
  t.Write(d + "WHEEL", "Wheel-Version: 1.0\nGenerator: bdist_wheel (0.43.0)\nRoot-Is-Purelib: false\n");
  std::string record;
  for (std::string f : files) {
    std::string host = t.path() + kSite + "/" + f;
    record += f + "," + testing::RecordHash(host) + "," + std::to_string(stdfs::file_size(host)) + "\n";
  }
  for (const char* own : {"INSTALLER", "METADATA", "WHEEL"}) {
    std::string host = t.path() + kSite + "/" + dist + own;
    record += dist + own + "," + testing::RecordHash(host) + "," + std::to_string(stdfs::file_size(host)) + "\n";
  }
  t.Write(d + "RECORD", record + dist + "RECORD,,\n");
}

// bitsandbytes 0.43.1 as its wheel installs it: one library per CUDA release of its build matrix
// (catalog/extension_wheels.tsv, bitsandbytes-0.43.1), loaded with ctypes after `import torch` by
// the name torch.version.cuda gives (Akegarasu/lora-scripts#243: "CUDA SETUP: PyTorch settings
// found: CUDA_VERSION=118 ... Loading binary .../libbitsandbytes_cuda118.so"). Two of them here.
void WriteBitsandbytes(const TempDir& t) {
  Place(t, "cudapkg_cudart11_sm75_80.so", "bitsandbytes/libbitsandbytes_cuda118.so");
  Place(t, "cudapkg_cudart12_sm75_80.so", "bitsandbytes/libbitsandbytes_cuda121.so");
  t.Write(std::string(kSite).substr(1) + "/bitsandbytes/__init__.py", "__version__ = \"0.43.1\"\n");
  Dist(t, "bitsandbytes", "0.43.1", "Requires-Dist: torch\nRequires-Dist: numpy\n",
       {"bitsandbytes/__init__.py", "bitsandbytes/libbitsandbytes_cuda118.so", "bitsandbytes/libbitsandbytes_cuda121.so"});
}

// cupy-cuda12x 13.3.0: its Cython modules link libcudart.so.12 and no torch library; its
// metadata requires numpy and fastrlock, not torch.
void WriteCupy(const TempDir& t, const std::string& fixture) {
  Place(t, fixture, "cupy_backends/cuda/api/runtime.cpython-311-x86_64-linux-gnu.so");
  t.Write(std::string(kSite).substr(1) + "/cupy/__init__.py", "");
  Dist(t, "cupy_cuda12x", "13.3.0", "Requires-Dist: numpy<2.3,>=1.22\nRequires-Dist: fastrlock>=0.5\n",
       {"cupy/__init__.py", "cupy_backends/cuda/api/runtime.cpython-311-x86_64-linux-gnu.so"});
}

GpuInfo Gpu(const char* name, const char* cc) {
  GpuInfo g;
  g.name = name;
  g.cc = ComputeCapability::Parse(cc).value();
  g.cc_source = "catalog";
  return g;
}

// A venv with `torch` on a machine with `driver`, its extensions scanned from `t`.
Snapshot ScannedVenv(const TempDir& t, Snapshot s, PackageInfo torch) {
  PythonEnv env;
  env.executable = "/venv/bin/python";
  env.prefix = "/venv";
  env.kind = PythonKind::kVenv;
  env.version = PyVersion::Parse("3.11").value();
  env.site_packages = {kSite};
  env.packages["torch"] = std::move(torch);
  s.pythons.push_back(env);
  auto fs = MakeRealFs(t.path());
  Trail trail(s, "binaries");
  s.pythons[0].extensions = ScanExtensions(*fs, s.pythons[0], trail);
  return s;
}

PackageInfo Torch(const char* version, const char* variant, const char* cuda) {
  PackageInfo torch;
  torch.name = "torch";
  torch.version = Pep440::Parse(version).value();
  torch.variant = *Variant::Parse(variant);
  if (*cuda) torch.cuda = CudaVersion::Parse(cuda).value();
  return torch;
}

Snapshot Probed(const TempDir& t, const char* driver, const char* driver_cuda, const char* torch_version,
                std::vector<GpuInfo> gpus) {
  Snapshot s = testing::MachineWithDriver(driver, driver_cuda);
  s.gpus = std::move(gpus);
  bool cu118 = Pep440::Parse(torch_version).value().local == std::vector<std::string>{"cu118"};
  return ScannedVenv(t, std::move(s), Torch(torch_version, cu118 ? "cu118" : "cu121", cu118 ? "11.8" : "12.1"));
}



// bitsandbytes' CUDA 11.8 library beside a cu121 torch is not an extension built for another
// CUDA: it is one of the libraries the package chooses from, and links no torch library.
TEST(CudaPackage, BitsandbytesLibraryForAnotherCudaIsNotAnExtensionOfTheWrongMajor) {
  TempDir t;
  WriteBitsandbytes(t);
  Snapshot s = Probed(t, "535.104.05", "12.2", "2.1.2+cu121", {Gpu("NVIDIA A100-SXM4-80GB", "8.0")});
  ASSERT_EQ(s.pythons[0].extensions.size(), 1u);
  const ExtensionInfo& bnb = s.pythons[0].extensions[0];
  EXPECT_EQ(bnb.name, "bitsandbytes");
  ASSERT_EQ(bnb.libs.size(), 2u);
  EXPECT_FALSE(bnb.LinksTorch());
  EXPECT_EQ(bnb.libs[0].needed.front(), "libcudart.so.11.0");

  std::vector<Finding> found = Diagnose(s, testing::TheCatalog());
  EXPECT_TRUE(WithId(found, "ext.cuda_major").empty());
  EXPECT_TRUE(WithId(found, "cudapkg.driver_too_old").empty());  // 535 runs CUDA 11 and 12
  EXPECT_TRUE(WithId(found, "ext.no_kernels").empty());         // sm_80 code for the A100
}

// The same library linked as a torch extension (libc10_cuda.so in DT_NEEDED, mmcv's _ext built for
// CUDA 11, iSEE-Laboratory/LLMDet#32) is held to torch's CUDA major.
TEST(CudaPackage, AnExtensionLinkingTorchIsStillHeldToTorchsCudaMajor) {
  TempDir t;
  Place(t, "ext_cudart11_sm75_80.so", "mmcv/_ext.cpython-311-x86_64-linux-gnu.so");
  t.Write(std::string(kSite).substr(1) + "/mmcv/__init__.py", "");
  Dist(t, "mmcv", "2.1.0", "Requires-Dist: addict\nRequires-Dist: mmengine>=0.3.0\n",
       {"mmcv/__init__.py", "mmcv/_ext.cpython-311-x86_64-linux-gnu.so"});
  Snapshot s = Probed(t, "535.104.05", "12.2", "2.1.2+cu121", {Gpu("NVIDIA A100-SXM4-80GB", "8.0")});
  ASSERT_EQ(s.pythons[0].extensions.size(), 1u);
  EXPECT_TRUE(s.pythons[0].extensions[0].LinksTorch());
  std::vector<Finding> major = WithId(Diagnose(s, testing::TheCatalog()), "ext.cuda_major");
  ASSERT_EQ(major.size(), 1u);
  EXPECT_EQ(Arg(major[0], "soname"), "libcudart.so.11.0");
  EXPECT_EQ(Arg(major[0], "cuda"), "12.1");
}

// cupy-cuda12x beside a cu118 torch on a driver that serves CUDA 12.2: two CUDA runtimes in one
// process, each run by the driver; no finding (it was told to rebuild as a torch extension).
TEST(CudaPackage, CupyForCuda12BesideACuda11TorchIsFine) {
  TempDir t;
  WriteCupy(t, "cudapkg_cudart12_sm75_80.so");
  Snapshot s = Probed(t, "535.104.05", "12.2", "2.0.1+cu118", {Gpu("NVIDIA A100-SXM4-80GB", "8.0")});
  ASSERT_EQ(s.pythons[0].extensions.size(), 1u);
  std::vector<Finding> found = Diagnose(s, testing::TheCatalog());
  for (const char* id : {"ext.cuda_major", "ext.no_kernels", "cudapkg.no_kernels", "cudapkg.driver_too_old"}) {
    EXPECT_TRUE(WithId(found, id).empty()) << id;
  }
  // The report says what it is.
  TextOptions wide;
  wide.width = 200;  // the line unwrapped
  std::string text = RenderDoctor(s, found, wide);
  EXPECT_NE(text.find("cupy-cuda12x 13.3.0  runtime.cpython-311-x86_64-linux-gnu.so: sm_75 sm_80  (CUDA package: links no torch library)"),
            std::string::npos)
      << text;
}

// cupy/cupy#9252 ("CUDA driver version is insufficient for CUDA runtime version" from a pip
// installed CuPy on an HPC node; the maintainer: the CUDA driver setup): a CUDA 12 CuPy on a
// driver of the CUDA 11 branch. The finding names the library, its CUDA major and the floor of
// that major's minor-version compatibility (525.60.13 for CUDA 12, NVIDIA's CUDA compatibility
// guide, catalog/cuda_minor_compat.tsv); it gives no command (the choice is the user's: the
// package's CUDA 11 build or a newer driver).
TEST(CudaPackage, CupyForCuda12OnACuda11DriverCannotRun) {
  TempDir t;
  WriteCupy(t, "cudapkg_cudart12_sm75_80.so");
  Snapshot s = Probed(t, "470.223.02", "11.4", "2.0.1+cu118", {Gpu("Tesla T4", "7.5")});
  std::vector<Finding> found = Diagnose(s, testing::TheCatalog());
  std::vector<Finding> old = WithId(found, "cudapkg.driver_too_old");
  ASSERT_EQ(old.size(), 1u);
  EXPECT_EQ(Arg(old[0], "package"), "cupy-cuda12x 13.3.0");
  EXPECT_EQ(Arg(old[0], "soname"), "libcudart.so.12");
  EXPECT_EQ(Arg(old[0], "major"), "12");
  EXPECT_EQ(Arg(old[0], "floor"), "525.60.13");
  EXPECT_FALSE(old[0].remedy.has_value());
  EXPECT_TRUE(WithId(found, "ext.cuda_major").empty());
  EXPECT_TRUE(WithId(found, "torch.driver_too_old").empty());  // torch's CUDA 11.8 runs on 470
}

// bitsandbytes carries a CUDA 11 library too: the driver of the CUDA 11 branch runs that one.
TEST(CudaPackage, APackageWithALibraryForTheDriversCudaMajorRuns) {
  TempDir t;
  WriteBitsandbytes(t);
  Snapshot s = Probed(t, "470.223.02", "11.4", "2.0.1+cu118", {Gpu("Tesla T4", "7.5")});
  EXPECT_TRUE(WithId(Diagnose(s, testing::TheCatalog()), "cudapkg.driver_too_old").empty());
}

// A CUDA package without code for the GPU (a GTX 1080, 6.1, against sm_75/sm_80) is told so under
// its own id, with no TORCH_CUDA_ARCH_LIST rebuild; a package that requires torch keeps
// ext.no_kernels and its rebuild.
TEST(CudaPackage, NoCodeForTheGpuIsSaidWithoutATorchRebuild) {
  TempDir t;
  WriteCupy(t, "cudapkg_cudart12_sm75_80.so");
  Snapshot s = Probed(t, "535.104.05", "12.2", "2.1.2+cu121", {Gpu("NVIDIA GeForce GTX 1080", "6.1")});
  std::vector<Finding> found = Diagnose(s, testing::TheCatalog());
  std::vector<Finding> none = WithId(found, "cudapkg.no_kernels");
  ASSERT_EQ(none.size(), 1u);
  EXPECT_EQ(Arg(none[0], "sm"), "sm_61");
  EXPECT_FALSE(none[0].remedy.has_value());
  EXPECT_TRUE(WithId(found, "ext.no_kernels").empty());

  TempDir b;
  WriteBitsandbytes(b);
  Snapshot sb = Probed(b, "535.104.05", "12.2", "2.1.2+cu121", {Gpu("NVIDIA GeForce GTX 1080", "6.1")});
  std::vector<Finding> fb = Diagnose(sb, testing::TheCatalog());
  EXPECT_EQ(WithId(fb, "ext.no_kernels").size(), 1u);
  EXPECT_TRUE(WithId(fb, "cudapkg.no_kernels").empty());
}

// rhel-lightspeed/docs2db#2 and tenstorrent/tt-forge#890: torch 2.8.0+cpu from the CPU index,
// torchvision 0.23.0 from PyPI (no local label: PyPI's cu128 build, its _C.so linking
// libcudart.so.12): "operator torchvision::nms does not exist". The fix in both threads: the
// torchvision build of torch's index. Here _C.so is a real ELF object linking libcudart.so.12 and
// libc10_cuda.so (tests/fixtures/fatbin/ext_cudart12_sm75_80.so).
TEST(CudaPackage, PypisCudaTorchvisionBesideACpuTorchIsAMismatch) {
  TempDir t;
  Place(t, "ext_cudart12_sm75_80.so", "torchvision/_C.so");
  t.Write(std::string(kSite).substr(1) + "/torchvision/version.py",
          "__version__ = '0.23.0'\ngit_version = '7a4a1b7'\nfrom torchvision.extension import _check_cuda_version\n"
          "if _check_cuda_version() > 0:\n    cuda = _check_cuda_version()\n");
  Dist(t, "torchvision", "0.23.0", "Requires-Dist: numpy\nRequires-Dist: torch==2.8.0\n",
       {"torchvision/_C.so", "torchvision/version.py"});
  Snapshot machine = testing::MachineWithDriver("535.104.05", "12.2");
  machine.gpus.clear();
  Snapshot s = ScannedVenv(t, std::move(machine), Torch("2.8.0+cpu", "cpu", ""));
  PackageInfo vision;
  vision.name = "torchvision";
  vision.version = Pep440::Parse("0.23.0").value();
  s.pythons[0].packages["torchvision"] = vision;
  ASSERT_EQ(s.pythons[0].extensions.size(), 1u);

  std::vector<Finding> found = WithId(Diagnose(s, testing::TheCatalog()), "torch.vision_cuda_mismatch");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(Arg(found[0], "pkg_build"), "CUDA 12");
  EXPECT_EQ(Arg(found[0], "pkg_variant"), "links libcudart.so.12");
  EXPECT_EQ(Arg(found[0], "torch_variant"), "cpu");
  std::string fix = RemedyText(found[0].remedy);
  EXPECT_NE(fix.find("torchvision==0.23.0"), std::string::npos) << fix;
  EXPECT_NE(fix.find("https://download.pytorch.org/whl/cpu"), std::string::npos) << fix;

  // A CUDA torch beside it: the same build family, nothing here (another major is ext.cuda_major's).
  s.pythons[0].packages["torch"].version = Pep440::Parse("2.8.0+cu128").value();
  s.pythons[0].packages["torch"].variant = *Variant::Parse("cu128");
  s.pythons[0].packages["torch"].cuda = CudaVersion::Parse("12.8").value();
  EXPECT_TRUE(WithId(Diagnose(s, testing::TheCatalog()), "torch.vision_cuda_mismatch").empty());
}

// Dao-AILab/flash-attention#762: a Quadro RTX 5000 and Tesla T4s (Turing, 7.5), flash-attn 2:
// "FlashAttention only supports Ampere GPUs or newer"; its maintainer: a Turing card "is not
// currently supported". No build of flash-attn 2 runs there: no TORCH_CUDA_ARCH_LIST rebuild is
// offered. flash-attn 1.x (no such floor) keeps ext.no_kernels and its rebuild.
TEST(CudaPackage, FlashAttention2OnATuringGpuHasNoRebuildThatRuns) {
  TempDir t;
  Place(t, "ext_torch_sm80.so", "flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so");
  Dist(t, "flash_attn", "2.5.0", "Requires-Dist: torch\nRequires-Dist: einops\n",
       {"flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so"});
  Snapshot s = Probed(t, "535.104.05", "12.2", "2.1.2+cu121", {Gpu("Tesla T4", "7.5")});
  std::vector<Finding> found = Diagnose(s, testing::TheCatalog());
  std::vector<Finding> floor = WithId(found, "ext.gpu_unsupported");
  ASSERT_EQ(floor.size(), 1u);
  EXPECT_EQ(Arg(floor[0], "min"), "8.0");
  EXPECT_EQ(Arg(floor[0], "sm"), "sm_75");
  EXPECT_FALSE(floor[0].remedy.has_value());
  EXPECT_TRUE(WithId(found, "ext.no_kernels").empty());
  // An Ampere GPU runs its sm_80 code: nothing to say.
  Snapshot a = Probed(t, "535.104.05", "12.2", "2.1.2+cu121", {Gpu("NVIDIA A10", "8.6")});
  EXPECT_TRUE(WithId(Diagnose(a, testing::TheCatalog()), "ext.gpu_unsupported").empty());

  TempDir one;
  Place(one, "ext_torch_sm80.so", "flash_attn_cuda.cpython-311-x86_64-linux-gnu.so");
  Dist(one, "flash_attn", "1.0.9", "Requires-Dist: torch\nRequires-Dist: einops\n",
       {"flash_attn_cuda.cpython-311-x86_64-linux-gnu.so"});
  Snapshot v1 = Probed(one, "535.104.05", "12.2", "2.1.2+cu121", {Gpu("Tesla T4", "7.5")});
  std::vector<Finding> f1 = Diagnose(v1, testing::TheCatalog());
  EXPECT_TRUE(WithId(f1, "ext.gpu_unsupported").empty());
  ASSERT_EQ(WithId(f1, "ext.no_kernels").size(), 1u);
  EXPECT_TRUE(WithId(f1, "ext.no_kernels")[0].remedy.has_value());
}

}  // namespace
}  // namespace cudamatch
