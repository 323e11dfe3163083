// The text reports' view of a Windows tree: every path in the form its user writes it.
#include "report/shown_paths.h"

#include <gtest/gtest.h>

#include "catalog/query.h"
#include "plan/diagnose.h"
#include "report/doctor.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TheCatalog;

// A python.org install with a CPU torch beside an NVIDIA driver, as the win-pythonorg-cpu
// fixture holds it (paths of the tree, as the probes write them).
Snapshot WindowsWithCpuTorch() {
  Snapshot s;
  s.platform = Platform{Os::kWindows, Arch::kX86_64};
  s.host.os_id = "windows";
  s.host.system_drive = "C:";
  s.driver.userspace_version = DriverVersion::Parse("566.36").value();
  s.driver.userspace_source = "/Windows/System32/nvcuda.dll (file version)";
  s.driver.libcuda_paths = {"/Windows/System32/nvcuda.dll"};
  s.driver.cuda = MaxCudaForDriver(TheCatalog(), *s.driver.userspace_version, Os::kWindows).cuda;
  PythonEnv env;
  env.prefix = "/Users/ann/AppData/Local/Programs/Python/Python312";
  env.executable = env.prefix + "/python.exe";
  env.version = PyVersion::Parse("3.12").value();
  PackageInfo p;
  p.name = "torch";
  p.version = Pep440::Parse("2.3.1+cpu").value();
  p.variant = *Variant::Parse("cpu");
  p.version_source = env.prefix + "/Lib/site-packages/torch/version.py";
  env.packages["torch"] = p;
  s.pythons.push_back(env);
  s.unreadable.push_back({"/Windows/System32/config/SOFTWARE", "registry hive, not parsed"});
  return s;
}

TEST(ShownPaths, AWindowsTreeReadsInWindowsForm) {
  Snapshot s = WindowsWithCpuTorch();
  std::vector<Finding> findings = PlannedFindings(s, TheCatalog());
  ASSERT_FALSE(findings.empty());
  std::string text = RenderDoctor(ShownForUser(s), ShownForUser(s, findings), TextOptions{});
  EXPECT_EQ(text.find("/Users/ann"), std::string::npos) << text;
  EXPECT_EQ(text.find("/Windows/System32"), std::string::npos) << text;
  EXPECT_NE(text.find("C:\\Users\\ann\\AppData\\Local\\Programs\\Python\\Python312"), std::string::npos) << text;
  EXPECT_NE(text.find("C:\\Windows\\System32\\nvcuda.dll (file version)"), std::string::npos) << text;
  // The tree's own paths stay in the snapshot the JSON reads.
  EXPECT_EQ(s.pythons[0].prefix, "/Users/ann/AppData/Local/Programs/Python/Python312");
}

TEST(ShownPaths, OtherSystemsAreUnchanged) {
  Snapshot s = WindowsWithCpuTorch();
  s.platform.os = Os::kLinux;
  EXPECT_EQ(ShownForUser(s).pythons[0].prefix, s.pythons[0].prefix);
  std::vector<Finding> f = {Finding{}};
  f[0].args = {{"env", std::string("/venv")}};
  EXPECT_EQ(ShownForUser(s, f)[0].args[0].second, "/venv");
}

}  // namespace
}  // namespace cudamatch
