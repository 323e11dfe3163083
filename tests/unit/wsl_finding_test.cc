// wsl.windows_driver on the WSL 2 fixture: the finding says the GPU is the Windows driver's and
// rests on what the image holds (the WSL kernel, libcuda from /usr/lib/wsl/lib, /dev/dxg, the
// Windows driver 566.36 read from its driver store DLL); a Linux machine says nothing of it.
#include <gtest/gtest.h>

#include <algorithm>

#include "plan/diagnose.h"
#include "probe/context.h"
#include "report/doctor.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

Snapshot Probe(const std::string& machine, std::map<std::string, std::string> env) {
  std::unique_ptr<Fs> fs = testing::MakeTestFs(testing::SourceDir() + "/tests/fixtures/machines/" + machine + "/root");
  ProbeInput in;
  in.fs = fs.get();
  in.os = Os::kLinux;
  in.catalog = &testing::TheCatalog();
  in.env = std::move(env);
  in.cwd = "/";
  return TakeSnapshot(in);
}

const Finding* Find(const std::vector<Finding>& findings, std::string_view id) {
  auto it = std::find_if(findings.begin(), findings.end(), [&](const Finding& f) { return f.id == id; });
  return it == findings.end() ? nullptr : &*it;
}

bool HasEvidence(const Finding& f, std::string_view id, std::string_view path) {
  return std::any_of(f.evidence.begin(), f.evidence.end(), [&](const EvidenceItem& e) {
    return e.id == id && (path.empty() || (!e.args.empty() && e.args.front().second == path));
  });
}

TEST(WslWindowsDriver, TheWslFixtureSaysTheGpuIsTheWindowsDrivers) {
  if (testing::kWindowsBuild) GTEST_SKIP() << testing::kLinuxTreeSkip;
  Snapshot s = Probe("wsl", {{"VIRTUAL_ENV", "/home/erin/ml/.venv"}, {"WSL_DISTRO_NAME", "Ubuntu-22.04"}});
  std::vector<Finding> findings = Diagnose(s, testing::TheCatalog());
  const Finding* f = Find(findings, "wsl.windows_driver");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kInfo);
  EXPECT_FALSE(f->remedy.has_value());  // nothing to run inside WSL: the driver is updated in Windows
  EXPECT_TRUE(HasEvidence(*f, "evidence.wsl_kernel", "/proc/version"));
  EXPECT_TRUE(HasEvidence(*f, "evidence.wsl_library", "/usr/lib/wsl/lib/libcuda.so.1"));
  EXPECT_TRUE(HasEvidence(*f, "evidence.wsl_dxg", "/dev/dxg"));
  EXPECT_TRUE(HasEvidence(*f, "evidence.driver_userspace", "566.36"));  // from nvcuda64.dll in the driver store
  EXPECT_EQ(Find(findings, "wsl.linux_driver"), nullptr);
  EXPECT_FALSE(HasErrors(findings));
  for (Lang lang : {Lang::kEn, Lang::kZh}) {
    std::string text = RenderFinding(*f, TextOptions{lang, Style{}, true});
    EXPECT_NE(text.find("/usr/lib/wsl/lib/libcuda.so.1"), std::string::npos) << text;
    EXPECT_NE(text.find("nvidia-driver-*"), std::string::npos) << text;  // what not to do, named
  }
}

TEST(WslWindowsDriver, ALinuxMachineHasNone) {
  if (testing::kWindowsBuild) GTEST_SKIP() << testing::kLinuxTreeSkip;
  Snapshot s = Probe("gpu-server", {});
  ASSERT_FALSE(s.driver.wsl);
  EXPECT_EQ(Find(Diagnose(s, testing::TheCatalog()), "wsl.windows_driver"), nullptr);
}

}  // namespace
}  // namespace cudamatch
