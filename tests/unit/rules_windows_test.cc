// Rules on Windows snapshots: the CPU wheel beside an NVIDIA driver, `python` and `pip` from
// different installs, PATH's toolkit against CUDA_PATH's, and Windows driver numbering.
#include <gtest/gtest.h>

#include "core/text.h"
#include "catalog/query.h"
#include "diagnose/rules.h"
#include "plan/diagnose.h"
#include "plan/remedy_text.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TheCatalog;

Snapshot Windows(const char* driver) {
  Snapshot s;
  s.platform = Platform{Os::kWindows, Arch::kX86_64};
  s.host.os_id = "windows";
  if (driver != nullptr) {
    s.driver.userspace_version = DriverVersion::Parse(driver).value();
    s.driver.userspace_source = "/Windows/System32/nvcuda.dll (file version)";
    s.driver.libcuda_paths = {"/Windows/System32/nvcuda.dll"};
    s.driver.cuda = MaxCudaForDriver(TheCatalog(), *s.driver.userspace_version, Os::kWindows).cuda;
  }
  return s;
}

void WithTorch(Snapshot& s, const char* version, const char* variant, const char* cuda) {
  PythonEnv env;
  env.prefix = "/Users/ann/AppData/Local/Programs/Python/Python312";
  env.kind = PythonKind::kSystem;
  env.version = PyVersion::Parse("3.12").value();
  PackageInfo p;
  p.name = "torch";
  p.version = Pep440::Parse(version).value();
  if (auto v = Variant::Parse(variant)) p.variant = *v;
  if (cuda) p.cuda = CudaVersion::Parse(cuda).value();
  p.version_source = env.prefix + "/Lib/site-packages/torch/version.py";
  env.packages["torch"] = p;
  s.pythons.push_back(env);
}

const Finding* Find(const std::vector<Finding>& fs, std::string_view id) {
  for (const Finding& f : fs) {
    if (f.id == id) return &f;
  }
  return nullptr;
}

TEST(WindowsRules, CpuWheelBesideAnNvidiaDriverGetsTheCudaIndexInAShellNeutralForm) {
  Snapshot s = Windows("566.36");
  WithTorch(s, "2.3.1+cpu", "cpu", nullptr);
  std::vector<Finding> fs = Diagnose(s, TheCatalog());
  const Finding* f = Find(fs, "torch.cpu_build_driver");
  ASSERT_NE(f, nullptr);
  // The installed 2.3.1+cpu satisfies "torch==2.3.1": the pin names the CUDA build.
  // It runs that install's own python.exe, written as on Windows; a path without spaces needs
  // neither quotes nor PowerShell's call operator, so PowerShell and cmd both take it.
  EXPECT_TRUE(StartsWith(RemedyText(f->remedy), "C:\\Users\\ann\\AppData\\Local\\Programs\\Python\\Python312\\python.exe -m pip install torch==2.3.1+cu12"))
      << RemedyText(f->remedy);
  EXPECT_NE(RemedyText(f->remedy).find("--index-url https://download.pytorch.org/whl/cu12"), std::string::npos) << RemedyText(f->remedy);
  EXPECT_EQ(RemedyText(f->remedy).find('\''), std::string::npos);  // cmd does not take single quotes
  EXPECT_EQ(Find(fs, "driver.module_not_loaded"), nullptr);  // no kernel module on Windows
}

TEST(WindowsRules, NoDriverOrLinuxMeansNoCpuWheelFinding) {
  Snapshot none = Windows(nullptr);
  WithTorch(none, "2.3.1+cpu", "cpu", nullptr);
  EXPECT_EQ(Find(Diagnose(none, TheCatalog()), "torch.cpu_build_driver"), nullptr);
  Snapshot linux = Windows("566.36");
  linux.platform.os = Os::kLinux;
  WithTorch(linux, "2.3.1+cpu", "cpu", nullptr);
  EXPECT_EQ(Find(Diagnose(linux, TheCatalog()), "torch.cpu_build_driver"), nullptr);
}

TEST(WindowsRules, PythonAndPipFromDifferentInstalls) {
  Snapshot s = Windows(nullptr);
  s.host.path_python = {"/P312/python.exe", "/P312", "C:\\P312\\"};
  s.host.path_pip = {"/P311/Scripts/pip.exe", "/P311", "C:\\P311\\Scripts\\"};
  std::vector<Finding> fs = Diagnose(s, TheCatalog());
  const Finding* f = Find(fs, "env.pip_other_python");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->evidence.size(), 2u);
  s.host.path_pip = {"/P312/Scripts/pip.exe", "/P312", "C:\\P312\\Scripts\\"};
  EXPECT_EQ(Find(Diagnose(s, TheCatalog()), "env.pip_other_python"), nullptr);
}

TEST(WindowsRules, ToolkitOnPathDiffersFromCudaPath) {
  Snapshot s = Windows(nullptr);
  ToolkitInfo a;
  a.path = "/CUDA/v11.8";
  a.version = CudaVersion::Parse("11.8.0").value();
  a.found_by = {"PATH", "CUDA_PATH_V11_8"};
  ToolkitInfo b;
  b.path = "/CUDA/v12.1";
  b.version = CudaVersion::Parse("12.1").value();
  b.found_by = {"CUDA_PATH", "CUDA_PATH_V12_1"};
  s.toolkits = {a, b};
  ASSERT_NE(Find(Diagnose(s, TheCatalog()), "toolkit.path_vs_cuda_path"), nullptr);
  s.toolkits = {a};
  s.toolkits[0].found_by.push_back("CUDA_PATH");
  EXPECT_EQ(Find(Diagnose(s, TheCatalog()), "toolkit.path_vs_cuda_path"), nullptr);
}

TEST(WindowsRules, DriverTooOldIsJudgedByWindowsNumbersWithTheDownloadHint) {
  Snapshot s = Windows("516.94");  // serves CUDA 11.7; 12.x needs at least 527.41 on Windows
  WithTorch(s, "2.3.1+cu121", "cu121", "12.1");
  std::vector<Finding> fs = Diagnose(s, TheCatalog());
  const Finding* f = Find(fs, "torch.driver_too_old");
  ASSERT_NE(f, nullptr);
  bool hint = false;
  for (const EvidenceItem& e : f->evidence) hint |= e.id == "evidence.windows_driver_download";
  EXPECT_TRUE(hint);
}

}  // namespace
}  // namespace cudamatch
