// Editable and develop installs (probe/binaries_editable.cc): the compiled ops of a project
// installed with `pip install -e .` (PEP 660) or `python setup.py develop` stay in the project
// directory, so no RECORD lists them. Read from site-packages' files as setuptools and pip write
// them, with real nvcc-built objects (tests/fixtures/fatbin) as the ops; their GPU code is judged
// against the GPUs present and the fix is a rebuild in the project directory.
#include <gtest/gtest.h>

#include <filesystem>

#include "diagnose/rules.h"
#include "plan/diagnose.h"
#include "plan/remedy_text.h"
#include "probe/binaries.h"
#include "probe/context.h"
#include "probe/parsers.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::Arg;

namespace stdfs = std::filesystem;
using testing::TempDir;

TEST(EditableParsers, DirectUrlOfAnEditableDirectoryAndOfAWheel) {
  auto editable = ParseDirectUrl("{\"dir_info\": {\"editable\": true}, \"url\": \"file:///data2/detectron2\"}");
  ASSERT_TRUE(editable.has_value());
  EXPECT_TRUE(editable->editable);
  EXPECT_EQ(FileUrlPath(editable->url), "/data2/detectron2");
  auto dir = ParseDirectUrl("{\"dir_info\": {}, \"url\": \"file:///home/u/proj\"}");  // pip install ./proj
  ASSERT_TRUE(dir.has_value());
  EXPECT_FALSE(dir->editable);
  std::string wheel =
      "{\"archive_info\": {\"hash\": \"sha256=3b2d\"}, \"url\": \"https://github.com/Dao-AILab/flash-attention/releases/"
      "download/v2.7.3/flash_attn-2.7.3+cu12torch2.5cxx11abiFALSE-cp310-cp310-linux_x86_64.whl\"}";
  EXPECT_FALSE(ParseDirectUrl(wheel)->editable);
  EXPECT_EQ(WheelFileOfDirectUrl(wheel), "flash_attn-2.7.3+cu12torch2.5cxx11abiFALSE-cp310-cp310-linux_x86_64.whl");
  EXPECT_FALSE(ParseDirectUrl("{\"dir_info\": {\"editable\": true}}").has_value());  // no url
  EXPECT_FALSE(ParseDirectUrl("not json").has_value());
}

TEST(EditableParsers, FileUrlsFinderMappingPthAndEggLink) {
  EXPECT_EQ(FileUrlPath("file:///home/u/my%20proj/"), "/home/u/my proj");
  EXPECT_FALSE(FileUrlPath("https://github.com/facebookresearch/detectron2").has_value());
  EXPECT_FALSE(FileUrlPath("file://host/share/proj").has_value());
  // The finder module setuptools writes beside the .pth (its MAPPING literal; never run).
  std::string finder =
      "import sys\nfrom importlib.machinery import ModuleSpec, PathFinder\n\n"
      "MAPPING: dict[str, str] = {'detectron2': '/data2/detectron2/detectron2', \"tools\": \"/data2/detectron2/tools\"}\n"
      "NAMESPACES: dict[str, list[str]] = {}\nPATH_PLACEHOLDER = '__editable__.detectron2-0.6.finder' + \".__path_hook__\"\n";
  EXPECT_EQ(ParseEditableFinderMapping(finder),
            (std::vector<std::string>{"/data2/detectron2/detectron2", "/data2/detectron2/tools"}));
  EXPECT_TRUE(ParseEditableFinderMapping("import sys\nMAPPINGS = 3\n").empty());
  EXPECT_EQ(ParsePthPaths("import __editable___detectron2_0_6_finder; __editable___detectron2_0_6_finder.install()\n"),
            std::vector<std::string>{});
  EXPECT_EQ(ParsePthPaths("/data2/detectron2\n# comment\nrelative\n"), std::vector<std::string>{"/data2/detectron2"});
  EXPECT_EQ(EggLinkProject("/home/ubuntu/detectron2\n."), "/home/ubuntu/detectron2");
  EXPECT_EQ(EggLinkProject("/home/ubuntu/proj/src/\n../\n"), "/home/ubuntu/proj/src");
  EXPECT_EQ(EggLinkProject("proj\n."), "");
}

constexpr const char* kSite = "/venv/lib/python3.8/site-packages";

void Place(const TempDir& t, const std::string& fixture, const std::string& path) {
  stdfs::create_directories(stdfs::path(t.path() + path).parent_path());
  stdfs::copy_file(testing::SourceDir() + "/tests/fixtures/fatbin/" + fixture, t.path() + path);
}

// detectron2 0.6 as `pip install -e .` with setuptools 69 leaves it: a dist-info whose RECORD
// lists the .pth and the finder only, direct_url.json naming the project, the finder's MAPPING.
void WritePep660(const TempDir& t, const std::string& project) {
  std::string site = std::string(kSite).substr(1) + "/";
  std::string d = site + "detectron2-0.6.dist-info/";
  t.Write(d + "METADATA", "Metadata-Version: 2.1\nName: detectron2\nVersion: 0.6\nRequires-Python: >=3.7\n"
                          "Requires-Dist: Pillow>=7.1\nRequires-Dist: pycocotools>=2.0.2\n");
  t.Write(d + "INSTALLER", "pip\n");
  t.Write(d + "REQUESTED", "");
  t.Write(d + "direct_url.json", "{\"dir_info\": {\"editable\": true}, \"url\": \"file://" + project + "\"}");
  t.Write(d + "top_level.txt", "detectron2\n");
  t.Write(d + "RECORD",
          "__editable__.detectron2-0.6.pth,sha256=Qvb7qxXbWIaKHnrVbfDO1q6FEVyoPzuGbPF6d4-zkT4,99\n"
          "__editable___detectron2_0_6_finder.py,sha256=2kQ7lVt5Q1s0zI3oYdQp6Zl1p1Lh1v9m0cK5bqJ3iZs,17830\n"
          "__pycache__/__editable___detectron2_0_6_finder.cpython-38.pyc,,\n"
          "detectron2-0.6.dist-info/INSTALLER,sha256=zuuue4knoyJ-UwPPXg8fezS7VCrXJQrAP7zeNuwvFQg,4\n"
          "detectron2-0.6.dist-info/METADATA,sha256=0VxB0bV0t0HzNXS6xSP2dn5BhHzk6iq0Y7cUcsM4v8s,122\n"
          "detectron2-0.6.dist-info/RECORD,,\n"
          "detectron2-0.6.dist-info/REQUESTED,sha256=47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU,0\n"
          "detectron2-0.6.dist-info/direct_url.json,sha256=Jx6yqJz6GqC3ZsZl4xYw1Gm8J5Bq3n6uWv3bJv4pZ9c,72\n"
          "detectron2-0.6.dist-info/top_level.txt,sha256=8u4Ljf6tPM9Cd6Ws4oZ8UyZPuRNvXrXGlHu6Z9c0qIE,11\n");
  t.Write(site + "__editable__.detectron2-0.6.pth",
          "import __editable___detectron2_0_6_finder; __editable___detectron2_0_6_finder.install()");
  t.Write(site + "__editable___detectron2_0_6_finder.py",
          "import sys\nfrom importlib.machinery import ModuleSpec, PathFinder\n\nMAPPING: dict[str, str] = {'detectron2': '" +
              project + "/detectron2', 'tools': '" + project + "/tools'}\nNAMESPACES: dict[str, list[str]] = {}\n");
  t.Write(project.substr(1) + "/detectron2/__init__.py", "__version__ = \"0.6\"\n");
  t.Write(project.substr(1) + "/tools/__init__.py", "");
}

// detectron2 0.1.3 as `python setup.py develop` leaves it: an .egg-link and easy-install.pth in
// site-packages, the egg-info in the project.
void WriteDevelop(const TempDir& t, const std::string& project) {
  std::string site = std::string(kSite).substr(1) + "/";
  t.Write(site + "detectron2.egg-link", project + "\n.");
  t.Write(site + "easy-install.pth", project + "\n");
  t.Write(project.substr(1) + "/detectron2.egg-info/PKG-INFO",
          "Metadata-Version: 2.1\nName: detectron2\nVersion: 0.1.3\nSummary: Detectron2 is FAIR's next-generation research "
          "platform for object detection and segmentation.\n");
  t.Write(project.substr(1) + "/detectron2.egg-info/SOURCES.txt", "setup.py\ndetectron2/__init__.py\n");
  t.Write(project.substr(1) + "/detectron2/__init__.py", "__version__ = \"0.1.3\"\n");
}

GpuInfo Gpu(const char* name, const char* cc) {
  GpuInfo g;
  g.name = name;
  g.cc = ComputeCapability::Parse(cc).value();
  g.cc_source = "catalog";
  return g;
}

Snapshot Probed(const TempDir& t, std::vector<GpuInfo> gpus) {
  Snapshot s = testing::MachineWithDriver("535.104.05", "12.2");
  s.gpus = std::move(gpus);
  PythonEnv env;
  env.executable = "/venv/bin/python";
  env.prefix = "/venv";
  env.kind = PythonKind::kVenv;
  env.version = PyVersion::Parse("3.8").value();
  env.site_packages = {kSite};
  PackageInfo torch;
  torch.name = "torch";
  torch.version = Pep440::Parse("2.1.2+cu121").value();
  torch.variant = *Variant::Parse("cu121");
  torch.cuda = CudaVersion::Parse("12.1").value();
  testing::AddScannedEnv(s, env, torch, t.path());
  return s;
}

std::vector<Finding> NoKernels(const Snapshot& s) {
  std::vector<Finding> out;
  for (const Finding& f : Diagnose(s, testing::TheCatalog())) {
    if (f.id == "ext.no_kernels") out.push_back(f);
  }
  return out;
}


// facebookresearch/detectron2#235: one conda environment shared by a GeForce GTX TITAN X
// (compute capability 5.2) and TITAN RTX cards (7.5); detectron2 installed with
// `python -m pip install -e detectron2` fails only on the TITAN X with "no kernel image is
// available for execution on the device". The thread's answer: rebuild with TORCH_CUDA_ARCH_LIST
// naming both (the user tried TORCH_CUDA_ARCH_LIST=5.2,7.5 pip install -e). Here its _C module
// carries sm_75 SASS and compute_75 PTX and links torch's libraries (ext_torch_sass_ptx_sm75.so), found through the PEP 660 finder's
// MAPPING; the copy under build/ is not read.
TEST(EditableInstall, Pep660OpsBuiltForOneGpuAreRebuiltInTheProjectForEvery) {
  TempDir t;
  WritePep660(t, "/data2/detectron2");
  Place(t, "ext_torch_sass_ptx_sm75.so", "/data2/detectron2/detectron2/_C.cpython-38-x86_64-linux-gnu.so");
  Place(t, "sass_sm80.so", "/data2/detectron2/build/lib.linux-x86_64-cpython-38/detectron2/_C.cpython-38-x86_64-linux-gnu.so");
  t.Write("usr/local/cuda-12.1/bin/nvcc", "");
  Snapshot s = Probed(t, {Gpu("NVIDIA GeForce GTX TITAN X", "5.2"), Gpu("NVIDIA TITAN RTX", "7.5")});
  ToolkitInfo cuda;
  cuda.path = "/usr/local/cuda-12.1";
  cuda.version = CudaVersion::Parse("12.1.105").value();
  cuda.has_nvcc = true;
  s.toolkits.push_back(cuda);

  ASSERT_EQ(s.pythons[0].extensions.size(), 1u);
  const ExtensionInfo& ext = s.pythons[0].extensions[0];
  EXPECT_EQ(ext.name, "detectron2");
  EXPECT_EQ(ext.version->ToString(), "0.6");
  EXPECT_EQ(ext.metadata_path, std::string(kSite) + "/detectron2-0.6.dist-info/METADATA");
  ASSERT_EQ(ext.libs.size(), 1u);
  EXPECT_EQ(ext.libs[0].path, "/data2/detectron2/detectron2/_C.cpython-38-x86_64-linux-gnu.so");
  ASSERT_TRUE(ext.editable.has_value());
  EXPECT_EQ(ext.editable->mode, EditableMode::kPep660);
  EXPECT_EQ(ext.editable->project, "/data2/detectron2");
  EXPECT_EQ(ext.editable->source, std::string(kSite) + "/detectron2-0.6.dist-info/direct_url.json");

  std::vector<Finding> found = NoKernels(s);
  ASSERT_EQ(found.size(), 1u);  // the TITAN RTX runs the sm_75 code
  EXPECT_EQ(Arg(found[0], "gpu"), "NVIDIA GeForce GTX TITAN X");
  ASSERT_TRUE(found[0].remedy.has_value());
  EXPECT_EQ(RemedyText(*found[0].remedy),
            "cd '/data2/detectron2' && TORCH_CUDA_ARCH_LIST=\"5.2;7.5\" CUDA_HOME=/usr/local/cuda-12.1 "
            "/venv/bin/python -m pip install -e . --no-build-isolation");
}

// facebookresearch/detectron2#1621: detectron2 0.1.3 built in place at /home/ubuntu/detectron2
// (`detectron2 0.1.3 @/home/ubuntu/detectron2/detectron2`, "detectron2 arch flags sm_37") on a
// Tesla V100 (7.0): ROIAlign_forward_cuda fails with "no kernel image is available for execution
// on the device". Resolved by rebuilding for the V100. Here the in-place module carries sm_80
// only (ext_torch_sm80.so: code the V100 cannot run, as sm_37 is), found through the .egg-link; no
// toolkit of torch's CUDA major is on the machine, so CUDA_HOME is left as it is.
TEST(EditableInstall, DevelopInstallIsFoundThroughItsEggLinkAndRebuiltWithSetupPyDevelop) {
  TempDir t;
  WriteDevelop(t, "/home/ubuntu/detectron2");
  Place(t, "ext_torch_sm80.so", "/home/ubuntu/detectron2/detectron2/_C.cpython-38-x86_64-linux-gnu.so");
  t.Write("home/ubuntu/detectron2/detectron2/layers/csrc/README.md", "");
  Snapshot s = Probed(t, {Gpu("Tesla V100-SXM2-16GB", "7.0")});

  ASSERT_EQ(s.pythons[0].extensions.size(), 1u);
  const ExtensionInfo& ext = s.pythons[0].extensions[0];
  EXPECT_EQ(ext.version->ToString(), "0.1.3");
  EXPECT_EQ(ext.metadata_path, "/home/ubuntu/detectron2/detectron2.egg-info/PKG-INFO");
  ASSERT_TRUE(ext.editable.has_value());
  EXPECT_EQ(ext.editable->mode, EditableMode::kDevelop);
  EXPECT_EQ(ext.editable->project, "/home/ubuntu/detectron2");
  EXPECT_EQ(ext.editable->source, std::string(kSite) + "/detectron2.egg-link");

  std::vector<Finding> found = NoKernels(s);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(Arg(found[0], "file"), "/home/ubuntu/detectron2/detectron2/_C.cpython-38-x86_64-linux-gnu.so");
  ASSERT_TRUE(found[0].remedy.has_value());
  EXPECT_EQ(RemedyText(*found[0].remedy),
            "cd '/home/ubuntu/detectron2' && TORCH_CUDA_ARCH_LIST=\"7.0\" /venv/bin/python setup.py develop");
}

// An editable project whose ops carry code for the GPU present gives no finding; one with no
// shared object, or an .egg-link to a directory that is gone, is no extension.
TEST(EditableInstall, OpsThatServeTheGpuOrNoOpsGiveNoFinding) {
  TempDir t;
  WritePep660(t, "/data2/detectron2");
  Place(t, "ext_torch_sass_ptx_sm75.so", "/data2/detectron2/detectron2/_C.cpython-38-x86_64-linux-gnu.so");
  t.Write(std::string(kSite).substr(1) + "/gone.egg-link", "/home/u/gone\n.");
  Snapshot s = Probed(t, {Gpu("NVIDIA TITAN RTX", "7.5")});
  ASSERT_EQ(s.pythons[0].extensions.size(), 1u);
  EXPECT_TRUE(NoKernels(s).empty());

  TempDir pure;
  WritePep660(pure, "/data2/detectron2");
  EXPECT_TRUE(Probed(pure, {Gpu("NVIDIA TITAN RTX", "7.5")}).pythons[0].extensions.empty());
}

}  // namespace
}  // namespace cudamatch
