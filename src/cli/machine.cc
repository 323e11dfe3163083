#include "cli/machine.h"

#include <gnu/libc-version.h>
#include <sys/utsname.h>
#include <unistd.h>

namespace cudamatch {

void AddMachineOptions(CLI::App& sub, MachineOptions& opt) {
  sub.add_option("--root", opt.root, "Inspect the machine image under DIR (nothing of this host is loaded)");
  sub.add_option("--python", opt.pythons, "Also inspect this interpreter or environment (repeatable)")
      ->allow_extra_args(false);
}

MachineProbe ProbeMachine(const MachineOptions& opt, const Context& ctx) {
  MachineProbe m;
  m.fs = MakeRealFs(opt.root);
  bool own_root = m.fs->root() == "/";
  ProbeInput in;
  in.fs = m.fs.get();
  in.env = ctx.env;
  in.catalog = &ctx.catalog;
  in.extra_pythons = opt.pythons;
  std::string pwd = ctx.Env("PWD");
  if (pwd.empty() && own_root) {
    char buf[4096];
    if (getcwd(buf, sizeof(buf)) != nullptr) pwd = buf;
  }
  in.cwd = pwd.empty() ? "/" : pwd;
  if (own_root) {
    m.nvml = MakeRealNvml();
    m.cuda = MakeRealCuda();
    in.nvml = m.nvml.get();
    in.cuda = m.cuda.get();
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
