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

// microsoft/WSL#5265: `sudo apt install nvidia-driver-440 nvidia-utils-440` inside WSL 2, then
// nvidia-smi "couldn't communicate with the NVIDIA driver". The Linux libcuda 440.82 in
// /usr/lib/x86_64-linux-gnu is a broken install, not the driver: the driver stays the Windows one
// (566.36, from the driver store), and the one cause is one finding, wsl.linux_driver; torch is
// not judged against the shadowing library's CUDA 10.x (no torch.driver_too_old).
TEST(WslLinuxDriver, ALinuxDriverInsideWslIsOneFindingAndNotTheDriver) {
  if (testing::kWindowsBuild) GTEST_SKIP() << testing::kLinuxTreeSkip;
  Snapshot s = Probe("wsl-linux-driver", {{"VIRTUAL_ENV", "/home/erin/ml/.venv"}, {"WSL_DISTRO_NAME", "Ubuntu-22.04"}});
  ASSERT_TRUE(s.driver.userspace_version.has_value());
  EXPECT_EQ(s.driver.userspace_version->text, "566.36");
  EXPECT_NE(s.driver.userspace_source.find("nvcuda64.dll"), std::string::npos) << s.driver.userspace_source;
  EXPECT_NE(std::find(s.driver.libcuda_paths.begin(), s.driver.libcuda_paths.end(), "/usr/lib/x86_64-linux-gnu/libcuda.so.1"),
            s.driver.libcuda_paths.end());
  std::vector<Finding> findings = Diagnose(s, testing::TheCatalog());
  const Finding* f = Find(findings, "wsl.linux_driver");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_TRUE(HasEvidence(*f, "evidence.linux_driver_library", "/usr/lib/x86_64-linux-gnu/libcuda.so.1"));
  EXPECT_EQ(Find(findings, "torch.driver_too_old"), nullptr);
  EXPECT_EQ(std::count_if(findings.begin(), findings.end(), [](const Finding& x) { return x.severity == Severity::kError; }), 1);
}

TEST(WslWindowsDriver, ALinuxMachineHasNone) {
  if (testing::kWindowsBuild) GTEST_SKIP() << testing::kLinuxTreeSkip;
  Snapshot s = Probe("gpu-server", {});
  ASSERT_FALSE(s.driver.wsl);
  EXPECT_EQ(Find(Diagnose(s, testing::TheCatalog()), "wsl.windows_driver"), nullptr);
}

}  // namespace
}  // namespace cudamatch
