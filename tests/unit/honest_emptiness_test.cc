// Honest emptiness: a --root with nothing to read, of the other system, or that cannot be read is
// an error, never "No problems found"; facts that depend on a place that could not be read are
// "could not be read", never "none".
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::RunCudamatch;
using testing::TempDir;

const std::vector<std::string> kEnv = {"LANG=C.UTF-8", "HOME=/home/u", "PATH=/usr/bin"};

testing::RunResult Doctor(const std::string& root, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"doctor", "--root", root};
  args.insert(args.end(), extra.begin(), extra.end());
  return RunCudamatch(args, kEnv);
}

void ExpectTreeError(const testing::RunResult& r, const std::string& root, const std::string& what) {
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  // Under --json the error is also an object on stdout; otherwise stdout stays empty.
  if (!r.out.empty()) {
    EXPECT_NE(r.out.find("\"kind\": \"error\""), std::string::npos) << r.out;
  }
  EXPECT_EQ(r.err.rfind("cudamatch: error: --root '" + root + "'", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
}

void LinuxImage(const TempDir& t) {
  t.Write("etc/os-release", "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nID=debian\n");
  t.Mkdir("usr/lib/x86_64-linux-gnu");
}

TEST(HonestEmptiness, AnEmptyRootIsAnError) {
  TempDir t;  // an unmounted mount point
  for (const char* json : {"", "--json"}) {
    auto r = Doctor(t.path(), *json ? std::vector<std::string>{json} : std::vector<std::string>{});
    ExpectTreeError(r, t.path(), "is empty");
  }
  ExpectTreeError(Doctor(t.path(), {"--os", "windows"}), t.path(), "is empty");
}

TEST(HonestEmptiness, ALinuxImageReadWithOsWindowsIsAnError) {
  TempDir t;
  LinuxImage(t);
  ExpectTreeError(Doctor(t.path(), {"--os", "windows"}), t.path(), "has no Windows directory");
  EXPECT_EQ(Doctor(t.path()).exit_code, 0);  // the same tree read as Linux is fine
}

TEST(HonestEmptiness, AWindowsImageReadAsLinuxIsAnError) {
  TempDir t;
  t.Mkdir("WINDOWS/System32/DriverStore");
  t.Mkdir("Users/u");
  ExpectTreeError(Doctor(t.path()), t.path(), "is a Windows tree");
  EXPECT_NE(Doctor(t.path(), {"--os", "windows"}).exit_code, 2);
}

TEST(HonestEmptiness, ATreeWithNothingOfLinuxIsAnError) {
  TempDir t;
  t.Write("README.txt", "not a system image\n");
  t.Mkdir("photos");
  ExpectTreeError(Doctor(t.path()), t.path(), "nothing of a Linux tree");
}

TEST(HonestEmptiness, AnUnreadableRootIsAnError) {
  TempDir t;
  LinuxImage(t);
  chmod(t.path().c_str(), 0);
  int status = testing::WithPermissionsEnforced([&] { ExpectTreeError(Doctor(t.path()), t.path(), "cannot be read"); });
  chmod(t.path().c_str(), 0755);
  if (status == testing::kCannotEnforcePermissions) GTEST_SKIP() << "root here may not give up CAP_DAC_OVERRIDE";
  EXPECT_EQ(status, 0) << "the child process failed (above)";
}

TEST(HonestEmptiness, FactsUnderUnreadablePlacesAreNotStatedAsAbsent) {
  TempDir t;
  LinuxImage(t);
  const std::string site = "home/u/venv/lib/python3.11/site-packages";
  t.Write("home/u/venv/pyvenv.cfg", "home = /usr/bin\nversion = 3.11.7\n");
  t.Write(site + "/torch/version.py", "__version__ = '2.3.1+cu121'\ncuda = '12.1'\n");
  t.Write("dev/nvidia0", "");
  t.Write("dev/nvidiactl", "");
  chmod((t.path() + "/" + site).c_str(), 0);
  chmod((t.path() + "/dev").c_str(), 0);
  auto as_user = [&] {
    auto text = RunCudamatch({"doctor", "--root", t.path(), "--python", "/home/u/venv"}, kEnv);
    EXPECT_EQ(text.out.find("No problems found."), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("no torch"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("torch: could not be read"), std::string::npos) << text.out;
    bool devices_unread = false;
    for (size_t pos = text.out.find("device nodes"); pos != std::string::npos; pos = std::string::npos) {
      std::string line = text.out.substr(pos, text.out.find('\n', pos) - pos);
      devices_unread = line.find("could not be read") != std::string::npos && line.find("none") == std::string::npos;
    }
    EXPECT_TRUE(devices_unread) << text.out;
    auto j = nlohmann::json::parse(RunCudamatch({"doctor", "--root", t.path(), "--python", "/home/u/venv", "--json"}, kEnv).out);
    EXPECT_FALSE(j["driver"]["device_nodes_readable"].get<bool>());
    bool env_unread = false;
    for (const auto& e : j["pythons"]) {
      if (e["prefix"] == "/home/u/venv") env_unread = !e["packages_readable"].get<bool>();
    }
    EXPECT_TRUE(env_unread) << j["pythons"].dump();
  };
  int status = testing::WithPermissionsEnforced(as_user);
  chmod((t.path() + "/" + site).c_str(), 0755);
  chmod((t.path() + "/dev").c_str(), 0755);
  if (status == testing::kCannotEnforcePermissions) GTEST_SKIP() << "root here may not give up CAP_DAC_OVERRIDE";
  EXPECT_EQ(status, 0) << "the child process failed (above)";
}

}  // namespace
}  // namespace cudamatch
