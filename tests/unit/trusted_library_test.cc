// NVIDIA libraries are opened only by absolute path from trusted directories: a libcuda.so.1 or
// libnvidia-ml.so.1 planted in the working directory never runs, whatever LD_LIBRARY_PATH holds.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "core/dynlib.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TempDir;

// A real shared library whose constructor creates `marker`, answering both cuDriverGetVersion and
// the NVML calls the probe makes; built with the system C compiler. False when there is none.
bool BuildMarkerLibrary(const TempDir& t, const std::string& out, const std::string& marker) {
  std::string src = t.Write("marker_" + std::to_string(std::hash<std::string>{}(out)) + ".c",
      "#include <fcntl.h>\n#include <unistd.h>\n"
      "__attribute__((constructor)) static void mark(void) {\n"
      "  int fd = open(\"" + marker + "\", O_WRONLY | O_CREAT | O_APPEND, 0600);\n"
      "  if (fd >= 0) { write(fd, \"loaded\\n\", 7); close(fd); }\n}\n"
      "int cuDriverGetVersion(int* v) { *v = 12020; return 0; }\n"
      "int nvmlInit_v2(void) { return 9; }\n");
  std::string cmd = "cc -shared -fPIC -o '" + out + "' '" + src + "' 2>/dev/null";
  return std::system(cmd.c_str()) == 0;
}

bool Exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

// Runs the binary in `cwd` with exactly `env`; returns its exit status (stdout and stderr dropped).
int RunIn(const std::string& cwd, const std::vector<std::string>& args, std::vector<std::string> env) {
  pid_t pid = fork();
  if (pid == 0) {
    if (chdir(cwd.c_str()) != 0) _exit(126);
    int null_fd = open("/dev/null", O_RDWR);
    for (int fd : {0, 1, 2}) dup2(null_fd, fd);
    std::vector<std::string> argv_s{CUDAMATCH_BINARY};
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    std::vector<char*> argv, envp;
    for (std::string& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    for (std::string& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

class PlantedLibrary : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::EmulatorCommand().empty()) GTEST_SKIP() << "runs the native binary";
    repo_ = t_.Mkdir("repo");
    t_.Mkdir("repo/lib");
    trusted_ = t_.Mkdir("trusted");
    planted_marker_ = t_.path() + "/planted-ran";
    trusted_marker_ = t_.path() + "/trusted-ran";
    for (const char* name : {"libcuda.so.1", "libnvidia-ml.so.1"}) {
      for (const std::string& dir : {repo_, repo_ + "/lib"}) {
        if (!BuildMarkerLibrary(t_, dir + "/" + name, planted_marker_)) GTEST_SKIP() << "no C compiler (cc)";
      }
    }
    if (!BuildMarkerLibrary(t_, trusted_ + "/libcuda.so.1", trusted_marker_)) GTEST_SKIP() << "no C compiler (cc)";
    t_.Write("repo/requirements.txt", "torch==2.1.0\n");
  }

  TempDir t_;
  std::string repo_, trusted_, planted_marker_, trusted_marker_;
};

TEST_F(PlantedLibrary, NeverLoadedFromTheWorkingDirectoryByAnyCommand) {
  const std::vector<std::vector<std::string>> commands = {
      {"doctor"}, {"doctor", "-v", "--json"}, {"check", "-r", "requirements.txt"}, {"plan"},
      {"lookup", "torch", "2.1.0"}, {"table"}, {"explain", "driver"}, {"catalog"}};
  for (const std::string& llp : {std::string(":"), std::string("."), std::string("lib"), ":" + trusted_,
                                 ".:" + trusted_, "lib:" + trusted_, trusted_ + "::lib"}) {
    for (const auto& args : commands) {
      RunIn(repo_, args, {"LANG=C.UTF-8", "PATH=/usr/bin:/bin", "LD_LIBRARY_PATH=" + llp});
      EXPECT_FALSE(Exists(planted_marker_)) << "LD_LIBRARY_PATH=" << llp << " cudamatch " << args[0];
      unlink(planted_marker_.c_str());
    }
  }
  // The trusted directory named by absolute path is still searched: its libcuda was asked.
  EXPECT_TRUE(Exists(trusted_marker_));
}

TEST_F(PlantedLibrary, IgnoredElementsAreInTheTrail) {
  testing::RunResult r = testing::RunCudamatch({"doctor", "-v"}, {"LANG=C.UTF-8", "LD_LIBRARY_PATH=:lib:" + trusted_});
  EXPECT_NE(r.out.find("LD_LIBRARY_PATH element ''"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("LD_LIBRARY_PATH element 'lib'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("never searched"), std::string::npos) << r.out;
}

// ---- the trust checks themselves ----

TEST(TrustedLibrary, RelativeAndBareNamesAreRefused) {
  EXPECT_NE(UntrustedLibraryReason("libcuda.so.1"), "");
  EXPECT_NE(UntrustedLibraryReason("./libcuda.so.1"), "");
  DynamicLibrary lib = LoadDynamicLibrary("libc.so.6");
  EXPECT_EQ(lib.handle, nullptr);
  EXPECT_NE(lib.error.find("not an absolute path"), std::string::npos) << lib.error;
}

TEST(TrustedLibrary, WritableByOthersIsRefusedUnlessSticky) {
  TempDir t;
  std::string open_dir = t.Mkdir("open"), sticky_dir = t.Mkdir("sticky"), good_dir = t.Mkdir("good");
  for (const std::string& d : {open_dir, sticky_dir, good_dir}) t.Write(d.substr(t.path().size() + 1) + "/libx.so.1", "x");
  chmod(open_dir.c_str(), 0777);
  chmod(sticky_dir.c_str(), 01777);
  chmod(good_dir.c_str(), 0755);
  for (const std::string& d : {open_dir, sticky_dir, good_dir}) chmod((d + "/libx.so.1").c_str(), 0644);
  EXPECT_NE(UntrustedLibraryReason(open_dir + "/libx.so.1").find("writable by group or others (mode 0777)"),
            std::string::npos);
  EXPECT_EQ(UntrustedLibraryReason(sticky_dir + "/libx.so.1"), "");
  EXPECT_EQ(UntrustedLibraryReason(good_dir + "/libx.so.1"), "");
  chmod((good_dir + "/libx.so.1").c_str(), 0666);
  EXPECT_NE(UntrustedLibraryReason(good_dir + "/libx.so.1").find("the file"), std::string::npos);
  chmod((good_dir + "/libx.so.1").c_str(), 0644);

  LibraryChoice c = ChooseTrustedLibrary("libx.so.1", {"relative", open_dir, t.path() + "/none", good_dir});
  EXPECT_EQ(c.path, good_dir + "/libx.so.1");
  ASSERT_EQ(c.rejected.size(), 1u);
  EXPECT_EQ(c.rejected[0].rfind(open_dir + "/libx.so.1: ", 0), 0u) << c.rejected[0];
}

TEST(TrustedLibrary, LinkIntoAnOpenDirectoryIsRefused) {
  TempDir t;
  std::string open_dir = t.Mkdir("open"), good_dir = t.Mkdir("good");
  t.Write("open/libx.so.1.2", "x");
  chmod(open_dir.c_str(), 0777);
  chmod((open_dir + "/libx.so.1.2").c_str(), 0644);
  chmod(good_dir.c_str(), 0755);
  t.Symlink(open_dir + "/libx.so.1.2", "good/libx.so.1");
  EXPECT_NE(UntrustedLibraryReason(good_dir + "/libx.so.1").find(open_dir), std::string::npos);
}

}  // namespace
}  // namespace cudamatch
