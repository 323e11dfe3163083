// --root names an image directory, never this machine; under it nothing of this host is opened,
// loaded or started, as a trace of the system calls shows.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::RunCudamatch;
using testing::TempDir;

void ExpectUsageError(const std::vector<std::string>& args, const std::string& text) {
  auto r = RunCudamatch(args);
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.err.find(text), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("No problems found"), std::string::npos);
}

TEST(Root, EmptyMissingOrHostRootIsAUsageError) {
  TempDir t;
  t.Symlink("/", "to-host");
  t.Write("file", "x");
  ExpectUsageError({"doctor", "--root", ""}, "--root needs a directory");
  ExpectUsageError({"doctor", "--root", "/"}, "this machine's own root");
  ExpectUsageError({"doctor", "--root", "//."}, "this machine's own root");
  ExpectUsageError({"doctor", "--root", t.path() + "/to-host"}, "this machine's own root");
  ExpectUsageError({"doctor", "--root", t.path() + "/missing"}, "no such directory");
  ExpectUsageError({"doctor", "--root", t.path() + "/file"}, "not a directory");
  // Relative: taken from the working directory, never from "/".
  ExpectUsageError({"doctor", "--root", "usr-that-is-not-here"}, "no such directory");
  ExpectUsageError({"plan", "--root", "/"}, "this machine's own root");
  ExpectUsageError({"check", "torch==2.3.1", "--root", ""}, "--root needs a directory");
}

// The system calls of one run, from strace; empty when strace cannot trace here.
std::vector<std::string> Trace(const TempDir& t, const std::vector<std::string>& args, const std::vector<std::string>& env) {
  std::string log = t.path() + "/trace.log";
  std::vector<std::string> cmd = {"-f", "-y", "-qq", "-o", log, "-e", "trace=%file,%process,mmap", CUDAMATCH_BINARY};
  cmd.insert(cmd.end(), args.begin(), args.end());
  std::string line = "strace";
  for (const std::string& c : cmd) line += " '" + c + "'";
  for (const std::string& e : env) line = e + " " + line;
  int status = std::system(("env -i " + line + " >/dev/null 2>&1").c_str());
  std::ifstream in(log);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  // strace exits with the traced program's status (doctor: 0 or 1); anything else, or no execve
  // in the log, means it could not trace.
  bool traced = WIFEXITED(status) && WEXITSTATUS(status) <= 1 && !lines.empty() && lines.front().find("execve(") != std::string::npos;
  return traced ? lines : std::vector<std::string>{};
}

// strace prints a call as its name right before "(": clone(, clone3(, fork(, vfork(.
const std::regex kStartsAProcess(R"((^|[^A-Za-z0-9_])(clone3?|v?fork)\()");
// A call strace printed in two parts (another process ran in between): its return value comes
// on a line of its own, "<... clone3 resumed> ..., 88) = 1235".
const std::regex kResumedProcessStart(R"(<\.\.\. (clone3?|v?fork) resumed>)");

bool HaveStrace() { return std::system("strace -V >/dev/null 2>&1") == 0; }

TEST(Root, TraceShowsNothingOutsideTheRootIsOpenedLoadedOrStarted) {
  if (!HaveStrace()) GTEST_SKIP() << "strace is not installed (scripts/setup.sh --test installs it)";
  if (!testing::EmulatorCommand().empty()) GTEST_SKIP() << "under qemu-user, strace sees the emulator's own system calls";
  TempDir t;
  std::string root = t.Mkdir("image");
  std::filesystem::copy(testing::SourceDir() + "/tests/fixtures/machines/gpu-server/root", root,
                        std::filesystem::copy_options::recursive | std::filesystem::copy_options::copy_symlinks);
  std::vector<std::string> lines = Trace(t, {"doctor", "--json", "-v", "--root", root}, {"LANG=C.UTF-8", "HOME=/root"});
  if (lines.empty()) GTEST_SKIP() << "strace cannot trace here (ptrace not permitted)";
  std::regex open_call(R"((open|openat|openat2|open_tree)\()");
  bool after_root = false;
  size_t checked = 0, execs = 0;
  for (const std::string& l : lines) {
    if (l.find("execve(") != std::string::npos) ++execs;
    // LeakSanitizer's tracer at exit (sanitizer builds): a CLONE_UNTRACED thread cudamatch never makes.
    if (l.find("CLONE_UNTRACED") != std::string::npos) continue;
    // The system calls, not the words: a path may well hold "clone" (a checkout in /tmp/ci-clone).
    EXPECT_FALSE(std::regex_search(l, kStartsAProcess)) << "a process was started: " << l;
    // A library maps code: nothing is mapped executable once the root is open.
    if (after_root) {
      EXPECT_EQ(l.find("PROT_EXEC"), std::string::npos) << "a library was loaded: " << l;
    }
    if (!std::regex_search(l, open_call)) continue;
    // Everything before the root is opened is the dynamic loader starting the binary.
    if (!after_root) {
      after_root = l.find("\"" + root + "\"") != std::string::npos;
      continue;
    }
    ++checked;
    // Each open names its directory descriptor with the path it stands for (-y): inside the root.
    bool inside = l.find("<" + root) != std::string::npos || l.find("\"" + root) != std::string::npos;
    EXPECT_TRUE(inside) << "opened outside the root: " << l;
  }
  EXPECT_TRUE(after_root);
  EXPECT_GT(checked, 20u);
  EXPECT_EQ(execs, 1u);  // only strace starting cudamatch
}

TEST(Root, TraceShowsOnlyTheWatchedChildOnThisMachine) {
  if (!HaveStrace()) GTEST_SKIP() << "strace is not installed (scripts/setup.sh --test installs it)";
  if (!testing::EmulatorCommand().empty()) GTEST_SKIP() << "under qemu-user, strace sees the emulator's own system calls";
  TempDir t;
  t.Symlink(FAKE_CUDA_MISBEHAVING_LIBRARY, "lib/libcuda.so.1");
  std::vector<std::string> lines = Trace(t, {"doctor", "--json"}, {"LANG=C.UTF-8", "LD_LIBRARY_PATH=" + t.path() + "/lib"});
  if (lines.empty()) GTEST_SKIP() << "strace cannot trace here (ptrace not permitted)";
  size_t execs = 0, children = 0;
  bool loaded_in_parent = false, loaded_in_child = false;
  std::string parent_pid = lines.front().substr(0, lines.front().find(' '));
  for (const std::string& l : lines) {
    if (l.find("execve(") != std::string::npos) ++execs;
    bool started = std::regex_search(l, kStartsAProcess) || std::regex_search(l, kResumedProcessStart);
    if (started && l.find("= ") != std::string::npos) ++children;
    bool in_parent = l.compare(0, parent_pid.size() + 1, parent_pid + " ") == 0;
    // A loaded library maps its code: the parent never maps the stand-in libcuda.
    if (in_parent && l.find("mmap(") != std::string::npos && l.find("PROT_EXEC") != std::string::npos &&
        l.find("fake_cuda") != std::string::npos) {
      loaded_in_parent = true;
    }
    if (!in_parent && l.find("mmap(") != std::string::npos && l.find("fake_cuda") != std::string::npos) loaded_in_child = true;
  }
  EXPECT_EQ(execs, 1u);      // no program is run: the child is the same binary, forked
  EXPECT_GE(children, 1u);   // the watched child that asked libcuda
  EXPECT_FALSE(loaded_in_parent);
  EXPECT_TRUE(loaded_in_child);
}

}  // namespace
}  // namespace cudamatch
