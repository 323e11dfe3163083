// A hostile image and a hostile run: link chains and races without openat2, includes that loop,
// huge directories, FIFOs and devices named as inputs, escape sequences, credentials in URLs, a
// hard link to a private file, unreadable places, and an output that cannot be written.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <thread>

#include "core/safe_text.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::RunCudamatch;
using testing::TempDir;

const std::string kSite = "home/u/venv/lib/python3.11/site-packages";
const std::vector<std::string> kEnv = {"LANG=C.UTF-8", "HOME=/home/u", "VIRTUAL_ENV=/home/u/venv", "PATH=/usr/bin"};

void BaseImage(const TempDir& t, const std::string& root = "") {
  std::string r = root.empty() ? "" : root + "/";
  t.Write(r + "home/u/venv/pyvenv.cfg", "home = /usr/bin\nversion = 3.11.7\n");
  t.Write(r + kSite + "/torch/version.py", "__version__ = '2.3.1+cu121'\ncuda = '12.1'\nhip = None\n");
  t.Write(r + "proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 01:44:30 UTC 2024\n");
}

testing::RunResult Doctor(const std::string& root, std::vector<std::string> extra = {"--json"}) {
  std::vector<std::string> args = {"doctor", "--root", root};
  args.insert(args.end(), extra.begin(), extra.end());
  return RunCudamatch(args, kEnv);
}

// ---- resolution without openat2 ----

TEST(Hostile, LongLinkChainResolvesInLinearTimeWithoutOpenat2) {
  TempDir t;
  std::string deep = "r";
  for (int i = 0; i < 40; ++i) deep += "/d";
  t.Write(deep + "/file", "end");
  t.Symlink("r", "c0");
  for (int i = 1; i <= 24; ++i) t.Symlink("c" + std::to_string(i - 1) + "/d", "c" + std::to_string(i));
  for (bool openat2 : {true, false}) {
    auto fs = MakeRealFs(t.path(), FsOptions{openat2});
    std::string path = "/c24";
    for (int i = 24; i < 40; ++i) path += "/d";
    EXPECT_EQ(fs->Read(path + "/file", 10).value(), "end");
    EXPECT_EQ(fs->Resolve(path).value(), "/" + deep);
  }
}

TEST(Hostile, FortyOneLinksIsTooManyWithoutOpenat2) {
  TempDir t;
  t.Write("target", "x");
  t.Symlink("target", "l0");
  for (int i = 1; i <= 41; ++i) t.Symlink("l" + std::to_string(i - 1), "l" + std::to_string(i));
  auto fs = MakeRealFs(t.path(), FsOptions{false});
  EXPECT_TRUE(fs->Read("/l39", 10).ok());
  EXPECT_FALSE(fs->Read("/l41", 10).ok());
}

// A link inside the image flips between a directory of the image and one outside it while
// the image is read: no read ever returns the outside file.
TEST(Hostile, ImageChangingDuringTheScanNeverLeadsOutside) {
  TempDir t;
  t.Write("outside/secret", "OUTSIDE");
  t.Write("image/inside/secret", "inside");
  std::string root = t.path() + "/image";
  for (bool openat2 : {true, false}) {
    auto fs = MakeRealFs(root, FsOptions{openat2});
    std::atomic<bool> stop{false};
    std::thread flipper([&] {
      std::string link = root + "/flip", tmp = root + "/flip.tmp";
      for (int i = 0; !stop; ++i) {
        unlink(tmp.c_str());
        if (symlink(i % 2 ? "inside" : (t.path() + "/outside").c_str(), tmp.c_str()) == 0) rename(tmp.c_str(), link.c_str());
      }
    });
    int leaks = 0;
    for (int i = 0; i < 3000; ++i) {
      auto text = fs->Read("/flip/secret", 100);
      if (text && *text == "OUTSIDE") ++leaks;
    }
    stop = true;
    flipper.join();
    EXPECT_EQ(leaks, 0) << (openat2 ? "with" : "without") << " openat2";
  }
}

// ---- bounded work ----

TEST(Hostile, LdSoConfFilesThatIncludeEachOtherEndQuickly) {
  TempDir t;
  BaseImage(t);
  t.Write("etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n");
  for (int i = 0; i < 41; ++i) {
    t.Write("etc/ld.so.conf.d/f" + std::to_string(i) + ".conf", "include /etc/ld.so.conf.d/*.conf\n/opt/lib" + std::to_string(i) + "\ninclude /etc/ld.so.conf\n");
  }
  auto start = std::chrono::steady_clock::now();
  auto r = Doctor(t.path());
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 10.0);
  EXPECT_TRUE(nlohmann::json::accept(r.out)) << r.err;
}

// 100,000 nvidia-* packages in one environment: the run completes and lists them all (its
// time is in bench/README.md, not asserted here).
TEST(Hostile, HundredThousandNvidiaPackages) {
  TempDir t;
  BaseImage(t);
  std::string site = t.path() + "/" + kSite;
  for (int i = 0; i < 100000; ++i) {
    ASSERT_EQ(mkdir((site + "/nvidia_pkg" + std::to_string(i) + "-1.0.dist-info").c_str(), 0755), 0);
  }
  auto r = Doctor(t.path());
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["pythons"][0]["packages"].size(), 100001u);  // and torch
}

TEST(Hostile, RequirementsFromFifoDeviceOrHugeFileAreRefused) {
  TempDir t;
  std::string fifo = t.path() + "/req.fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::string sparse = t.Write("huge.txt", "torch==2.3.1\n");
  ASSERT_EQ(truncate(sparse.c_str(), 4LL << 30), 0);
  for (const std::string& path : {fifo, std::string("/dev/zero"), sparse}) {
    auto r = RunCudamatch({"check", "--no-detect", "-r", path});
    EXPECT_EQ(r.exit_code, 2) << path;
    EXPECT_TRUE(r.err.find("not a regular file") != std::string::npos || r.err.find("larger than") != std::string::npos)
        << path << ": " << r.err;
  }
  auto dir = RunCudamatch({"check", "--no-detect", "-r", t.path()});
  EXPECT_EQ(dir.exit_code, 2);
  EXPECT_NE(dir.err.find(t.path() + ": is a directory"), std::string::npos) << dir.err;
}

// ---- output safe to paste ----

TEST(Hostile, EscapeSequencesFromTheImageNeverReachTheTerminal) {
  TempDir t;
  BaseImage(t);
  t.Write("etc/os-release", "PRETTY_NAME=\"Debian\x1b]0;owned\x07\x1b[2J\xc2\x9b" "31m\"\nID=debian\n");
  t.Write("home/u/.conda/environments.txt", "/opt/conda/envs/\x1b[31mred\n");
  t.Mkdir("opt/conda/envs/\x1b[31mred/conda-meta");
  t.Write("proc/driver/nvidia/gpus/0000:01:00.0/information", "Model: \t NVIDIA \x1b[5mBlink\nBus Location: \t 0000:01:00.0\n");
  t.Write("opt/conda/envs/hide\x1b[8m/conda-meta/x.json", "{}");  // concealed text
  t.Write("opt/conda/envs/black\x1b[30;40m/conda-meta/x.json", "{}");  // black on black
  for (const char* color : {"never", "always"}) {
    auto text = Doctor(t.path(), {"-v", "--color", color});
    // With colour, the report's own colour sequences remain, and nothing else; without, none.
    std::string bare = std::string(color) == "never" ? text.out : std::regex_replace(text.out, std::regex("\x1b\\[(0|1|2|31|32|33|36)m"), "");
    EXPECT_EQ(bare.find('\x1b'), std::string::npos) << color;
    EXPECT_EQ(bare.find('\x07'), std::string::npos) << color;
    EXPECT_EQ(bare.find("\xc2\x9b"), std::string::npos) << color;
    EXPECT_NE(text.out.find("\\x1b]0;owned\\x07"), std::string::npos) << color << text.out;
    EXPECT_NE(text.out.find("hide\\x1b[8m"), std::string::npos) << color << text.out;
    EXPECT_NE(text.out.find("black\\x1b[30;40m"), std::string::npos) << color << text.out;
    if (std::string(color) == "always") {
      EXPECT_NE(text.out.find("\x1b[1m"), std::string::npos);  // its own colours stay
    }
  }
  auto json = Doctor(t.path(), {"--json", "-v"});
  EXPECT_EQ(json.out.find('\x1b'), std::string::npos);
  EXPECT_EQ(json.out.find("\xc2\x9b"), std::string::npos);
  auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["host"]["os"].get<std::string>().find("Debian\x1b]0;owned"), 0u);  // the value itself, escaped in transit
}

TEST(Hostile, CredentialsInIndexUrlsAreRedactedEverywhere) {
  TempDir t;
  BaseImage(t);
  t.Write("etc/pip.conf", "[global]\nindex-url = https://alice:s3cr3t-token@pypi.example.com/simple?token=abc123&page=2\n");
  std::vector<std::string> env = kEnv;
  env.push_back("PIP_EXTRA_INDEX_URL=https://__token__:pypi-AgEIcHlwaS5vcmc@upload.example.com/simple");
  for (const std::vector<std::string>& extra : {std::vector<std::string>{"--json", "-v"}, std::vector<std::string>{"-v"}}) {
    std::vector<std::string> args = {"doctor", "--root", t.path()};
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = RunCudamatch(args, env);
    for (const char* secret : {"s3cr3t-token", "alice", "abc123", "pypi-AgEIcHlwaS5vcmc"}) {
      EXPECT_EQ(r.out.find(secret), std::string::npos) << secret;
      EXPECT_EQ(r.err.find(secret), std::string::npos) << secret;
    }
    EXPECT_NE(r.out.find("https://***@pypi.example.com/simple?token=***&page=2"), std::string::npos) << r.out;
  }
  EXPECT_EQ(RedactCredentials("see http://u:p@h.example/x?a=1&api_key=k#f and ftp://h/y"),
            "see http://***@h.example/x?a=1&api_key=***#f and ftp://h/y");
}

TEST(Hostile, HardLinkToAPrivateFileNeverEchoesItsBytes) {
  TempDir t;
  BaseImage(t, "image");
  std::string secret = t.Write("private/shadow", "root:$6$PRIVATEHASH:19000:0:99999:7:::\n");
  chmod(secret.c_str(), 0600);
  std::string inside = t.path() + "/image/proc/driver/nvidia/version";
  std::filesystem::remove(inside);
  ASSERT_EQ(link(secret.c_str(), inside.c_str()), 0);
  ASSERT_EQ(link(secret.c_str(), (t.path() + "/image/sys-module-version").c_str()), 0);
  std::filesystem::create_directories(t.path() + "/image/sys/module/nvidia");
  ASSERT_EQ(link(secret.c_str(), (t.path() + "/image/sys/module/nvidia/version").c_str()), 0);
  for (const std::vector<std::string>& extra : {std::vector<std::string>{"--json", "-v"}, std::vector<std::string>{"-v"}}) {
    auto r = Doctor(t.path() + "/image", extra);
    EXPECT_EQ(r.out.find("PRIVATEHASH"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("root:$6$"), std::string::npos);
  }
}

// ---- what could not be seen, and output that cannot be written ----

TEST(Unreadable, PlacesThatCannotBeReadAreListedAndNeverCalledClean) {
  TempDir t;
  t.Write("etc/os-release", "PRETTY_NAME=\"Debian\"\nID=debian\n");
  t.Write("home/u/venv/pyvenv.cfg", "home = /usr/bin\nversion = 3.11.7\n");
  t.Write(kSite + "/torch/version.py", "__version__ = '2.3.1+cpu'\n");
  t.Write("proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 01:44:30 UTC 2024\n");
  chmod((t.path() + "/" + kSite).c_str(), 0);
  chmod((t.path() + "/proc/driver/nvidia/version").c_str(), 0);
  auto as_user = [&] {
    auto j = nlohmann::json::parse(Doctor(t.path()).out);
    std::vector<std::string> paths;
    for (const auto& u : j["unreadable"]) paths.push_back(u["path"]);
    EXPECT_NE(std::find(paths.begin(), paths.end(), "/" + kSite), paths.end()) << j["unreadable"].dump();
    EXPECT_NE(std::find(paths.begin(), paths.end(), "/proc/driver/nvidia/version"), paths.end()) << j["unreadable"].dump();
    EXPECT_FALSE(j["complete"].get<bool>());
    auto text = Doctor(t.path(), {});
    EXPECT_EQ(text.out.find("No problems found."), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("Could not be read"), std::string::npos) << text.out;
  };
  int status = testing::WithPermissionsEnforced(as_user);
  if (status == testing::kCannotEnforcePermissions) GTEST_SKIP() << "root here may not give up CAP_DAC_OVERRIDE";
  EXPECT_EQ(status, 0) << "the child process failed (above)";
}

TEST(Unreadable, FullDiskOnStdoutIsAnErrorAndAClosedPipeIsNot) {
  TempDir t;
  BaseImage(t);
  int full = open("/dev/full", O_WRONLY);
  ASSERT_GE(full, 0);
  auto r = RunCudamatch({"doctor", "--root", t.path()}, kEnv, full);
  close(full);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("cannot write the output"), std::string::npos) << r.err;
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  close(fds[0]);  // the reader has gone, as after `| head -1`
  auto piped = RunCudamatch({"doctor", "--root", t.path(), "-v"}, kEnv, fds[1]);
  close(fds[1]);
  EXPECT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.err, "");
}

}  // namespace
}  // namespace cudamatch
