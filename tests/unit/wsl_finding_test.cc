// wsl.windows_driver on the WSL 2 fixture: the finding says the GPU is the Windows driver's and
// rests on what the image holds (the WSL kernel, libcuda from /usr/lib/wsl/lib, /dev/dxg, the
// Windows driver 566.36 read from its driver store DLL); a Linux machine says nothing of it.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

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

// YanWenKun/ComfyUI-Docker#74, jhj0517/Whisper-WebUI#279: a container under Docker Desktop's WSL 2
// backend, nvidia-smi works, torch: "Error 500: named symbol not found"; updating Docker Desktop
// fixed it. NVIDIA/nvidia-container-toolkit#520: drivers 555+ need libnvdxgdmal.so.1 mounted from
// the driver store beside libcuda.so.1.1; toolkits before 1.14.4 / 1.15.0 did not mount it. The
// wsl fixture made a container (/.dockerenv) whose driver store package holds only what such a
// toolkit mounts (no DLL, so no driver version readable).
TEST(WslDxgdmal, AContainerWithoutLibnvdxgdmalIsToldErrorFiveHundred) {
  if (testing::kWindowsBuild) GTEST_SKIP() << testing::kLinuxTreeSkip;
  testing::TempDir t;
  namespace stdfs = std::filesystem;
  stdfs::copy(testing::SourceDir() + "/tests/fixtures/machines/wsl/root", t.path(),
              stdfs::copy_options::recursive | stdfs::copy_options::copy_symlinks);
  t.Write(".dockerenv", "");
  std::string package = "usr/lib/wsl/drivers/nv_dispsi.inf_amd64_7cc7738d8e428783";
  stdfs::remove(t.path() + "/" + package + "/nvcuda64.dll");
  stdfs::remove(t.path() + "/" + package + "/nvml.dll");
  auto probe = [&] {
    std::unique_ptr<Fs> fs = testing::MakeTestFs(t.path());
    ProbeInput in;
    in.fs = fs.get();
    in.os = Os::kLinux;
    in.catalog = &testing::TheCatalog();
    in.env = {{"WSL_DISTRO_NAME", "Ubuntu-22.04"}};
    in.cwd = "/";
    return TakeSnapshot(in);
  };
  Snapshot s = probe();
  ASSERT_TRUE(s.driver.wsl && s.driver.container);
  EXPECT_EQ(s.driver.wsl_store_package, "/" + package);
  EXPECT_FALSE(s.driver.wsl_dxgdmal);
  std::vector<Finding> findings = Diagnose(s, testing::TheCatalog());
  const Finding* unknown = Find(findings, "wsl.dxgdmal_unknown_driver");  // no driver version readable
  ASSERT_NE(unknown, nullptr);
  EXPECT_EQ(unknown->severity, Severity::kWarning);
  EXPECT_EQ(unknown->topic, "wsl-containers");

  // With the version known (NVML answers in a live container): 566.36 is 555 or newer, an error.
  s.driver.userspace_version = DriverVersion::Parse("566.36").value();
  findings = Diagnose(s, testing::TheCatalog());
  const Finding* missing = Find(findings, "wsl.dxgdmal_missing");
  ASSERT_NE(missing, nullptr);
  EXPECT_EQ(missing->severity, Severity::kError);
  EXPECT_TRUE(HasEvidence(*missing, "evidence.wsl_dxgdmal", "/" + package));
  // Drivers before 555 have no such library to mount.
  s.driver.userspace_version = DriverVersion::Parse("551.86").value();
  EXPECT_EQ(Find(Diagnose(s, testing::TheCatalog()), "wsl.dxgdmal_missing"), nullptr);

  // A toolkit that mounts it (1.14.4 / 1.15.0 and newer): nothing to say.
  t.Write(package + "/libnvdxgdmal.so.1", "");
  Snapshot fixed = probe();
  EXPECT_TRUE(fixed.driver.wsl_dxgdmal);
  for (const Finding& f : Diagnose(fixed, testing::TheCatalog())) EXPECT_EQ(f.id.find("wsl.dxgdmal"), std::string::npos) << f.id;
}

// Outside a container WSL mounts the whole driver store: nothing is read or said of it.
TEST(WslDxgdmal, PlainWslReadsNoContainerLibraries) {
  if (testing::kWindowsBuild) GTEST_SKIP() << testing::kLinuxTreeSkip;
  Snapshot s = Probe("wsl", {{"WSL_DISTRO_NAME", "Ubuntu-22.04"}});
  EXPECT_TRUE(s.driver.wsl_store_package.empty());
  for (const Finding& f : Diagnose(s, testing::TheCatalog())) EXPECT_EQ(f.id.find("wsl.dxgdmal"), std::string::npos) << f.id;
}

}  // namespace
}  // namespace cudamatch
