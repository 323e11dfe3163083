#include <gnu/libc-version.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdlib>

#include "cli/machine.h"
#include "cli/process.h"
#include "core/dynlib.h"
#include "core/text.h"

extern char** environ;

namespace cudamatch {

std::vector<std::string> ProcessArguments(int argc, char** argv) { return std::vector<std::string>(argv + 1, argv + argc); }

std::map<std::string, std::string> ProcessEnvironment() {
  std::map<std::string, std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string_view entry(*e);
    size_t eq = entry.find('=');
    if (eq != std::string_view::npos) env.emplace(std::string(entry.substr(0, eq)), std::string(entry.substr(eq + 1)));
  }
  return env;
}

bool PrepareOutput() {
  // A closed output pipe becomes EPIPE on write, handled in FinishOutput, instead of SIGPIPE.
  signal(SIGPIPE, SIG_IGN);
  return isatty(STDOUT_FILENO) == 1;
}

size_t TerminalColumns() {
  winsize w{};
  if (isatty(STDOUT_FILENO) != 1 || ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) != 0) return 0;
  return w.ws_col;
}

Os HostOs() { return Os::kLinux; }

HostFacts ThisHost() {
  HostFacts facts;
  utsname u;
  if (uname(&u) == 0) facts.arch = u.machine;
  facts.libc = gnu_get_libc_version();
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (n > 0) facts.self_exe.assign(exe, static_cast<size_t>(n));
  return facts;
}

std::string ProcessIdentity() {
  std::string out = "uid " + std::to_string(geteuid()) + " gid " + std::to_string(getegid()) + " groups";
  gid_t groups[256];
  int n = getgroups(256, groups);
  for (int i = 0; i < n; ++i) out += " " + std::to_string(groups[i]);
  struct stat st;
  if (stat("/proc/self/exe", &st) == 0) {
    out += " exe " + std::to_string(st.st_dev) + " " + std::to_string(st.st_ino) + " " + std::to_string(st.st_size) + " " +
           std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec) + " " +
           std::to_string(st.st_ctim.tv_sec) + "." + std::to_string(st.st_ctim.tv_nsec);
  }
  return out;
}

std::string WorkingDirectory(const std::string& pwd) {
  if (!pwd.empty()) return pwd;
  char buf[4096];
  if (getcwd(buf, sizeof(buf)) != nullptr) return buf;
  return "";
}

namespace {

std::string TrustedLibrary(const std::vector<std::string>& dirs, std::string_view soname) {
  LibraryChoice choice = ChooseTrustedLibrary(soname, dirs);
  if (!choice.path.empty()) return choice.path;
  if (!choice.rejected.empty()) return choice.rejected.front().substr(0, choice.rejected.front().find(": "));
  return std::string(soname);
}

}  // namespace

NvidiaLibraries NvidiaLibraryNames(const ProbeInput& in) {
  std::vector<std::string> dirs = LibraryDirs(in);  // ld.so.conf read once for both
  return {TrustedLibrary(dirs, "libnvidia-ml.so.1"), TrustedLibrary(dirs, "libcuda.so.1")};
}

bool IsDirectory(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

Result<std::string> ValidateRoot(const std::string& root, Lang lang) {
  if (root.empty()) return Err(Tr(lang, "path.root_empty"));
  char* real = realpath(root.c_str(), nullptr);
  if (real == nullptr) return Err(Tr(lang, "path.root_missing", {{"path", Quote(root)}}));
  std::string resolved = real;
  free(real);
  struct stat st, host;
  if (stat(resolved.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return Err(Tr(lang, "path.root_not_dir", {{"path", Quote(root)}}));
  if (resolved == "/" || (stat("/", &host) == 0 && st.st_dev == host.st_dev && st.st_ino == host.st_ino)) {
    return Err(Tr(lang, "path.root_is_own", {{"path", Quote(root)}}));
  }
  return resolved;
}

}  // namespace cudamatch
