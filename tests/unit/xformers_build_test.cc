// xformers' own record of its build (xformers/cpp_lib.json, written by its setup.py beside _C.so):
// the torch and CUDA it was compiled against, read from a dist-info as pip writes it and a _C.so
// that g++ builds here, linked against torch's libc10.so and libc10_cuda.so as xformers' is.
#include <gtest/gtest.h>

#include <cstdlib>
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

using testing::TempDir;

bool Gxx(const std::string& args) { return std::system(("g++ -shared -fPIC " + args + " 2>/dev/null").c_str()) == 0; }

// site/xformers/_C.so needing libc10.so and libc10_cuda.so (stubs g++ builds), and `cudart` (a
// CUDA runtime soname, "" for none) where given, with the cpp_lib.json `build`; xformers
// `version` as pip installs it: METADATA (`requires` on torch), INSTALLER, RECORD with hashes and
// sizes.
bool Install(const TempDir& t, const std::string& version, const std::string& requires_torch, const std::string& build,
             const std::string& cudart = "") {
  std::string c = t.Write("c10.cc", "namespace c10 { void check(int) {} }\n");
  std::string ext = t.Write("ext.cc", "namespace c10 { void check(int); }\nextern \"C\" void efficient_attention() { c10::check(1); }\n");
  std::string stub = t.Mkdir("stub");
  t.Mkdir("site/xformers");
  std::string runtime;
  if (!cudart.empty()) {
    if (!Gxx("-Wl,-soname," + cudart + " -o " + stub + "/" + cudart + " " + c)) return false;
    runtime = " " + stub + "/" + cudart;
  }
  if (!Gxx("-Wl,-soname,libc10.so -o " + stub + "/libc10.so " + c) ||
      !Gxx("-Wl,-soname,libc10_cuda.so -o " + stub + "/libc10_cuda.so " + c) ||
      !Gxx("-Wl,--no-as-needed -o " + t.path() + "/site/xformers/_C.so " + ext + " -L" + stub + " -lc10 -lc10_cuda" + runtime)) {
    return false;
  }
  t.Write("site/xformers/__init__.py", "__version__ = \"" + version + "\"\n");
  t.Write("site/xformers/cpp_lib.json", build);
  std::string info = "xformers-" + version + ".dist-info";
  t.Write("site/" + info + "/METADATA", "Metadata-Version: 2.1\nName: xformers\nVersion: " + version +
                                            "\nRequires-Python: >=3.9\nRequires-Dist: " + requires_torch + "\nRequires-Dist: numpy\n");
  t.Write("site/" + info + "/INSTALLER", "pip\n");
  auto line = [&](const std::string& rel) {
    std::string host = t.path() + "/site/" + rel;
    return rel + "," + testing::RecordHash(host) + "," + std::to_string(std::filesystem::file_size(host)) + "\n";
  };
  t.Write("site/" + info + "/RECORD", line(info + "/INSTALLER") + line(info + "/METADATA") + info + "/RECORD,,\n" +
                                          line("xformers/__init__.py") + line("xformers/_C.so") + line("xformers/cpp_lib.json"));
  return true;
}

// The shape xformers' setup.py writes: version.cuda as torch.version.cuda without its dot.
std::string CppLib(const std::string& torch, const std::string& cuda, const std::string& from) {
  return "{\"version\": {\"cuda\": " + cuda + ", \"hip\": null, \"torch\": \"" + torch +
         "\", \"python\": \"3.11.7\", \"flash\": \"v2.5.6\", \"use_torch_flash\": true}, \"env\": {\"TORCH_CUDA_ARCH_LIST\": "
         "\"6.0+PTX 7.0 7.5 8.0+PTX 9.0a\", \"PYTORCH_ROCM_ARCH\": null, \"XFORMERS_BUILD_TYPE\": \"Release\", "
         "\"XFORMERS_ENABLE_DEBUG_ASSERTIONS\": null, \"NVCC_FLAGS\": \"-allow-unsupported-compiler\", \"XFORMERS_PACKAGE_FROM\": \"" +
         from + "\"}}";
}

Snapshot Probed(const TempDir& t, const char* torch_version, const char* cuda) {
  Snapshot s = testing::MachineWithDriver("550.54.14", "12.4");
  PythonEnv env;
  env.prefix = "/venv";
  env.kind = PythonKind::kVenv;
  env.version = PyVersion::Parse("3.11").value();
  env.site_packages = {"/site"};
  PackageInfo torch;
  torch.name = "torch";
  torch.version = Pep440::Parse(torch_version).value();
  if (cuda != nullptr) torch.cuda = CudaVersion::Parse(cuda).value();
  else torch.cuda_none = true;
  testing::AddScannedEnv(s, env, torch, t.path());
  return s;
}

std::vector<Finding> Built(const Snapshot& s) {
  std::vector<Finding> out;
  for (const Finding& f : Diagnose(s, testing::TheCatalog())) {
    if (f.id == "ext.built_torch" || f.id == "ext.built_torch_cpu") out.push_back(f);
  }
  return out;
}

TEST(XformersBuild, ParsesWhatSetupPyWrites) {
  auto b = ParseXformersCppLib(CppLib("2.2.0+cu121", "1201", "wheel-v0.0.25"));
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->torch, "2.2.0+cu121");
  ASSERT_TRUE(b->cuda.has_value());
  EXPECT_EQ(b->cuda->MajorMinor(), "12.1");
  EXPECT_EQ(b->arch_list, "6.0+PTX 7.0 7.5 8.0+PTX 9.0a");
  auto rocm = ParseXformersCppLib("{\"version\": {\"cuda\": null, \"hip\": \"6.2.41133\", \"torch\": \"2.5.1+rocm6.2\"}, \"env\": {}}");
  ASSERT_TRUE(rocm.has_value());
  EXPECT_FALSE(rocm->cuda.has_value());
  EXPECT_FALSE(ParseXformersCppLib("{\"version\": {\"cuda\": 1201}}").has_value());
  EXPECT_FALSE(ParseXformersCppLib("not json").has_value());
}

// facebookresearch/xformers#982: "xFormers was built for: PyTorch 2.2.0+cu121 with CUDA 1201 (you
// have 2.2.0+cpu)"; the same release, but torch is the CPU-only build.
TEST(XformersBuild, ACudaBuildBesideACpuOnlyTorch) {
  if (testing::kWindowsBuild) GTEST_SKIP() << "builds ELF objects with g++";
  TempDir t;
  if (!Install(t, "0.0.25.dev741", "torch>=2.2", CppLib("2.2.0+cu121", "1201", "source"))) GTEST_SKIP() << "no g++";
  Snapshot s = Probed(t, "2.2.0+cpu", nullptr);
  ASSERT_EQ(s.pythons[0].extensions.size(), 1u);
  EXPECT_EQ(s.pythons[0].extensions[0].built_torch, "2.2.0+cu121");
  EXPECT_EQ(s.pythons[0].extensions[0].built_source, "/site/xformers/cpp_lib.json");
  auto found = Built(s);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].id, "ext.built_torch_cpu");
  EXPECT_EQ(testing::Arg(found[0], "cuda"), "12.1");
  EXPECT_EQ(testing::Arg(found[0], "have"), "2.2.0+cpu");
  ASSERT_FALSE(found[0].evidence.empty());
  EXPECT_EQ(found[0].evidence[0].id, "evidence.built_torch");
}

// A build from source keeps only a loose Requires-Dist; cpp_lib.json says which torch it needs.
// Beside a later torch release its library does not load (the "xFormers was built for" warning).
TEST(XformersBuild, BuiltFromSourceForAnotherTorchRelease) {
  if (testing::kWindowsBuild) GTEST_SKIP() << "builds ELF objects with g++";
  TempDir t;
  if (!Install(t, "0.0.22.post7", "torch>=1.12", CppLib("2.0.1+cu118", "1108", "source"))) GTEST_SKIP() << "no g++";
  Snapshot s = Probed(t, "2.1.0+cu121", "12.1");
  auto found = Built(s);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].id, "ext.built_torch");
  EXPECT_EQ(testing::Arg(found[0], "built"), "2.0.1+cu118");
  EXPECT_EQ(testing::Arg(found[0], "have"), "2.1.0+cu121");
  // The fix: the release built for torch 2.1.0 (0.0.22.post7 pins torch==2.1.0), from the
  // PyTorch index of torch's own variant, torch left alone.
  ASSERT_TRUE(found[0].remedy.has_value());
  std::string fix = RemedyText(*found[0].remedy);
  EXPECT_NE(fix.find("xformers==0.0.22.post7"), std::string::npos) << fix;
  EXPECT_NE(fix.find("--index-url https://download.pytorch.org/whl/cu121"), std::string::npos) << fix;
  EXPECT_NE(fix.find("--no-deps"), std::string::npos) << fix;
  // The same release (a build of torch's own CUDA variant, or of another one): nothing to say here.
  EXPECT_TRUE(Built(Probed(t, "2.0.1+cu118", "11.8")).empty());
  EXPECT_TRUE(Built(Probed(t, "2.0.1+cu117", "11.7")).empty());
}

// facebookresearch/xformers#897: Colab's torch 2.1.0+cu118; PyPI's xformers 0.0.22.post4 is the
// cu121 build (libcudart.so.12, cpp_lib.json "2.1.0+cu121"). Same torch release, another CUDA
// major: ext.cuda_major, whose fix is the thread's, the build for cu118 from the PyTorch index
// ("pip install xformers==0.0.22.post4 --index-url https://download.pytorch.org/whl/cu118"), here
// the catalog's newest release for torch 2.1.0 there; no source build on a machine without nvcc.
TEST(XformersBuild, APypiCuda12BuildBesideACu118TorchGetsTheIndexBuild) {
  if (testing::kWindowsBuild) GTEST_SKIP() << "builds ELF objects with g++";
  TempDir t;
  if (!Install(t, "0.0.22.post4", "torch==2.1.0", CppLib("2.1.0+cu121", "1201", "wheel-v0.0.22.post4"), "libcudart.so.12")) {
    GTEST_SKIP() << "no g++";
  }
  Snapshot s = Probed(t, "2.1.0+cu118", "11.8");
  std::vector<Finding> all = Diagnose(s, testing::TheCatalog());
  EXPECT_TRUE(Built(s).empty());  // the release it was built for
  auto found = testing::WithId(all, "ext.cuda_major");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(testing::Arg(found[0], "soname"), "libcudart.so.12");
  ASSERT_TRUE(found[0].remedy.has_value());
  EXPECT_EQ(RemedyText(*found[0].remedy),
            "/venv/bin/python -m pip install --force-reinstall --no-deps xformers==0.0.22.post7 --index-url "
            "https://download.pytorch.org/whl/cu118");
  EXPECT_EQ(testing::EvidenceText(found[0]).find("evidence.abi_no_nvcc"), std::string::npos);
  // A release the catalog has no PyTorch-index build of for this torch: the rebuild, after the
  // toolkit the evidence names.
  Snapshot old = Probed(t, "2.0.0+cu118", "11.8");
  old.pythons[0].extensions[0].torch_pins.clear();
  old.pythons[0].extensions[0].built_torch.clear();
  found = testing::WithId(Diagnose(old, testing::TheCatalog()), "ext.cuda_major");
  ASSERT_EQ(found.size(), 1u);
  ASSERT_TRUE(found[0].remedy.has_value());
  EXPECT_NE(RemedyText(*found[0].remedy).find("/venv/bin/python -m pip install --force-reinstall --no-deps --no-build-isolation --no-binary xformers"),
            std::string::npos) << RemedyText(*found[0].remedy);
  EXPECT_NE(testing::EvidenceText(found[0]).find("evidence.abi_no_nvcc"), std::string::npos);
}

// From 0.0.34 xformers targets torch's stable ABI: a later torch loads it, an earlier one not.
TEST(XformersBuild, StableAbiBuildsNeedTheirTorchOrLater) {
  if (testing::kWindowsBuild) GTEST_SKIP() << "builds ELF objects with g++";
  TempDir t;
  if (!Install(t, "0.0.34", "torch>=2.10", CppLib("2.10.0+cu128", "1208", "wheel-v0.0.34"))) GTEST_SKIP() << "no g++";
  EXPECT_TRUE(Built(Probed(t, "2.11.0+cu128", "12.8")).empty());
  EXPECT_TRUE(Built(Probed(t, "2.10.0+cu130", "13.0")).empty());
  auto older = Built(Probed(t, "2.9.1+cu128", "12.8"));
  ASSERT_EQ(older.size(), 1u);
  EXPECT_EQ(older[0].id, "ext.built_torch");
}

// open-mmlab/PIA#30: "xFormers was built for: PyTorch 2.1.2+cu121 with CUDA 1201 (you have
// 2.1.2+cpu)". The wheel's exact pin (torch==2.1.2) holds for the CPU build too: only
// cpp_lib.json tells that torch lacks the CUDA the library needs.
TEST(XformersBuild, AnExactPinDoesNotSeeACpuOnlyTorch) {
  if (testing::kWindowsBuild) GTEST_SKIP() << "builds ELF objects with g++";
  TempDir t;
  if (!Install(t, "0.0.23.post1", "torch==2.1.2", CppLib("2.1.2+cu121", "1201", "wheel-v0.0.23.post1"))) GTEST_SKIP() << "no g++";
  Snapshot s = Probed(t, "2.1.2+cpu", nullptr);
  auto found = Built(s);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].id, "ext.built_torch_cpu");
  EXPECT_TRUE(testing::WithId(Diagnose(s, testing::TheCatalog()), "ext.torch_pin").empty());
  // The thread's answer: a CUDA build of torch 2.1.2, xformers kept. Here, without a GPU to
  // choose for, PyPI's (its Linux wheel of 2.1.2 is the CUDA 12.1 build).
  ASSERT_TRUE(found[0].remedy.has_value());
  std::string fix = RemedyText(*found[0].remedy);
  EXPECT_NE(fix.find("torch==2.1.2"), std::string::npos) << fix;
  EXPECT_EQ(fix.find("+cpu"), std::string::npos) << fix;
  EXPECT_EQ(fix.find("xformers"), std::string::npos) << fix;
}

// A wheel that pins torch exactly is judged by its pin (ext.torch_pin), once.
TEST(XformersBuild, AnExactPinIsJudgedByThePinAlone) {
  if (testing::kWindowsBuild) GTEST_SKIP() << "builds ELF objects with g++";
  TempDir t;
  if (!Install(t, "0.0.27.post2", "torch==2.4.0", CppLib("2.4.0+cu121", "1201", "wheel-v0.0.27.post2"))) GTEST_SKIP() << "no g++";
  Snapshot s = Probed(t, "2.5.1+cu121", "12.1");
  EXPECT_TRUE(Built(s).empty());
  EXPECT_EQ(testing::WithId(Diagnose(s, testing::TheCatalog()), "ext.torch_pin").size(), 1u);
}

}  // namespace
}  // namespace cudamatch
