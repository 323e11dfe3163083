// Running the binary, dropping privileges and temporary directories on Linux.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/capability.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "tests/unit/test_util.h"

namespace cudamatch::testing {

namespace {

std::string ReadAllFd(int fd) {
  std::string out;
  char buf[65536];
  ssize_t n;
  while ((n = read(fd, buf, sizeof(buf))) > 0) out.append(buf, static_cast<size_t>(n));
  return out;
}

}  // namespace

RunResult RunCudamatch(const std::vector<std::string>& args, const std::vector<std::string>& env, int stdout_fd) {
  std::string out_path = std::filesystem::temp_directory_path() / ("cm-out-" + std::to_string(getpid()));
  std::string err_path = out_path + ".err";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (stdout_fd >= 0) posix_spawn_file_actions_adddup2(&actions, stdout_fd, 1);
  else posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  std::vector<std::string> argv_s = EmulatorCommand();
  argv_s.push_back(CUDAMATCH_BINARY);
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv, envp;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_s = env;
  if (const char* no_openat2 = std::getenv("CUDAMATCH_NO_OPENAT2")) env_s.push_back(std::string("CUDAMATCH_NO_OPENAT2=") + no_openat2);
  // The suite run again over the environment cache (cmake/cache_suite.sh): its directory and mode.
  for (const char* name : {"CUDAMATCH_CACHE_DIR", "CUDAMATCH_CACHE"}) {
    std::string prefix = std::string(name) + "=";
    bool given = std::any_of(env.begin(), env.end(), [&](const std::string& e) { return e.rfind(prefix, 0) == 0; });
    if (const char* value = std::getenv(name); value != nullptr && !given) env_s.push_back(prefix + value);
  }
  for (std::string& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid;
  RunResult r;
  if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data()) != 0) return r;
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  waitpid(pid, &status, 0);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  int fd = open(out_path.c_str(), O_RDONLY);
  if (fd >= 0) {
    r.out = ReadAllFd(fd);
    close(fd);
  }
  fd = open(err_path.c_str(), O_RDONLY);
  r.err = ReadAllFd(fd);
  close(fd);
  unlink(out_path.c_str());
  unlink(err_path.c_str());
  return r;
}

int WithPermissionsEnforced(const std::function<void()>& body) {
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (geteuid() == 0) {
      // Out of the bounding set: programs this child starts never regain them.
      for (int cap : {CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH}) {
        if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) == 1 && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0) {
          _exit(kCannotEnforcePermissions);
        }
      }
      // Out of this process's own sets.
      __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
      __user_cap_data_struct data[2]{};
      if (syscall(SYS_capget, &header, data) != 0) _exit(kCannotEnforcePermissions);
      for (int cap : {CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH}) {
        data[cap / 32].effective &= ~(1u << (cap % 32));
        data[cap / 32].permitted &= ~(1u << (cap % 32));
      }
      if (syscall(SYS_capset, &header, data) != 0) _exit(kCannotEnforcePermissions);
    }
    body();
    _exit(::testing::Test::HasFailure() ? 1 : 0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "cudamatch-test-XXXXXX").string();
  char* p = mkdtemp(tmpl.data());
  if (p == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = p;
}

TempDir::~TempDir() {
  std::error_code ec;
  // Restore permissions that tests removed, so the tree can be deleted.
  for (auto it = std::filesystem::recursive_directory_iterator(path_, std::filesystem::directory_options::skip_permission_denied, ec);
       it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_symlink()) chmod(it->path().c_str(), 0755);
  }
  chmod(path_.c_str(), 0755);
  std::filesystem::remove_all(path_, ec);
}

}  // namespace cudamatch::testing
