#include "cli/machine.h"

#include <gnu/libc-version.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>

#include "core/text.h"

namespace cudamatch {

void AddRootOption(Command& sub, MachineOptions& opt, std::string_view help) {
  sub.Option("--root", &opt.root, "DIR", help).on_value = [&opt](const std::string&) { opt.root_given = true; };
}

void AddDriverTimeoutOption(Command& sub, MachineOptions& opt) {
  sub.Option("--driver-timeout", &opt.driver_timeout, "SECONDS",
             "Seconds a call into the NVIDIA libraries may take before it is abandoned (default 2; "
             "CUDAMATCH_DRIVER_TIMEOUT)");
}

void AddMachineOptions(Command& sub, MachineOptions& opt) {
  AddRootOption(sub, opt, "Inspect the machine image under DIR (nothing of this host is loaded)");
  sub.Repeated("--python", &opt.pythons, "PYTHON", "Also inspect this interpreter or environment (repeatable)");
  AddDriverTimeoutOption(sub, opt);
}

Result<std::string> ValidateRoot(const std::string& root) {
  if (root.empty()) return Err("--root needs a directory, not an empty string");
  char* real = realpath(root.c_str(), nullptr);
  if (real == nullptr) return Err("--root " + Quote(root) + ": no such directory");
  std::string resolved = real;
  free(real);
  struct stat st, host;
  if (stat(resolved.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return Err("--root " + Quote(root) + ": not a directory");
  if (resolved == "/" || (stat("/", &host) == 0 && st.st_dev == host.st_dev && st.st_ino == host.st_ino)) {
    return Err("--root " + Quote(root) + " is this machine's own root; run without --root to inspect this machine");
  }
  return resolved;
}

Result<int> DriverTimeoutMs(const std::string& flag, const std::string& env) {
  const std::string& text = flag.empty() ? env : flag;
  if (text.empty()) return kDefaultDriverTimeoutMs;
  const char* what = flag.empty() ? "CUDAMATCH_DRIVER_TIMEOUT" : "--driver-timeout";
  char* end = nullptr;
  double seconds = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !std::isfinite(seconds) || seconds <= 0 || seconds > 600) {
    return Err(std::string(what) + " must be a number of seconds above 0 and at most 600, not " + Quote(text));
  }
  return std::max(1, static_cast<int>(seconds * 1000 + 0.5));  // rounded: seconds is above 0
}

namespace {

// The one place that decides whether this host's NVIDIA libraries are asked: only when the root
// is this machine's own "/". Under --root nothing is loaded and no process is started.
void AttachNvidiaLibraries(MachineProbe& m, ProbeInput& in, int timeout_ms) {
  if (m.fs->root() != "/") return;
  m.nvml = MakeRealNvml("libnvidia-ml.so.1", timeout_ms);
  m.cuda = MakeRealCuda("libcuda.so.1", timeout_ms);
  in.nvml = m.nvml.get();
  in.cuda = m.cuda.get();
}

FsOptions FsOptionsFrom(const Context& ctx) {
  FsOptions o;
  o.use_openat2 = ctx.Env("CUDAMATCH_NO_OPENAT2").empty();
  return o;
}

}  // namespace

namespace {

// The system of the tree to read: this machine's (Linux), or with --root, what --os names.
Result<Os> TreeOs(const MachineOptions& opt, const Context& ctx) {
  if (ctx.flags.os.empty() || ctx.platform.os == Os::kLinux) return Os::kLinux;
  if (ctx.platform.os == Os::kMacos) return Err("--os macos: only Linux and Windows trees can be inspected");
  if (!opt.root_given) return Err("--os windows inspects a Windows tree: give it with --root DIR (a mounted C: drive or an image)");
  return Os::kWindows;
}

}  // namespace

Result<MachineProbe> ProbeMachine(const MachineOptions& opt, const Context& ctx) {
  auto timeout_ms = DriverTimeoutMs(opt.driver_timeout, ctx.Env("CUDAMATCH_DRIVER_TIMEOUT"));
  if (!timeout_ms) return Error{timeout_ms.error()};
  auto tree_os = TreeOs(opt, ctx);
  if (!tree_os) return Error{tree_os.error()};
  std::string root = "/";
  if (opt.root_given) {
    auto valid = ValidateRoot(opt.root);
    if (!valid) return Error{valid.error()};
    root = *valid;
  }
  MachineProbe m;
  m.fs = MakeRealFs(root, FsOptionsFrom(ctx));
  bool own_root = m.fs->root() == "/";
  ProbeInput in;
  in.fs = m.fs.get();
  in.env = ctx.env;
  in.catalog = &ctx.catalog;
  in.extra_pythons = opt.pythons;
  in.os = *tree_os;
  std::string pwd = ctx.Env("PWD");
  if (pwd.empty() && own_root) {
    char buf[4096];
    if (getcwd(buf, sizeof(buf)) != nullptr) pwd = buf;
  }
  in.cwd = pwd.empty() ? "/" : pwd;
  AttachNvidiaLibraries(m, in, *timeout_ms);
  if (own_root) {
    utsname u;
    if (uname(&u) == 0) in.host_arch = u.machine;
    in.host_glibc = gnu_get_libc_version();
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n > 0) in.self_exe.assign(exe, static_cast<size_t>(n));
  }
  m.snapshot = TakeSnapshot(in);
  return m;
}

}  // namespace cudamatch
