// Whether a --root tree is an image of the system asked for, before anything is probed: an empty
// directory (an unmounted mount point), a root that cannot be listed, or a tree of the other
// system would otherwise be reported as a machine with nothing wrong.
//
// Signals, read from the tree's top directory only:
//   Windows: a "Windows" directory (any case: C:\Windows of a mounted drive or an image).
//   Linux:   etc/os-release or usr/lib/os-release (os-release(5)), or any of the top-level
//            directories a Linux tree has and cudamatch reads: etc, usr, proc, sys, dev, home,
//            opt, root, var (a container export or a partial copy may lack /etc/os-release).
#include <algorithm>

#include "cli/machine.h"
#include "core/text.h"

namespace cudamatch {

namespace {

bool LooksLinux(const Fs& fs, const std::vector<std::string>& names) {
  if (fs.IsFile("/etc/os-release") || fs.IsFile("/usr/lib/os-release")) return true;
  for (const char* dir : {"etc", "usr", "proc", "sys", "dev", "home", "opt", "root", "var"}) {
    if (std::find(names.begin(), names.end(), dir) != names.end() && fs.IsDir(std::string("/") + dir)) return true;
  }
  return false;
}

}  // namespace

Status CheckTree(const Fs& fs, Os os, const std::string& shown_root) {
  std::string root = "--root " + Quote(shown_root);
  auto names = fs.List("/");
  if (!names) return Err(root + " cannot be read (" + names.error() + "): nothing in it could be checked");
  if (names->empty()) {
    return Err(root + " is empty (an unmounted mount point?): no etc/os-release, usr/ or Windows directory to check");
  }
  bool windows_dir = std::any_of(names->begin(), names->end(),
                                 [&](const std::string& n) { return ToLower(n) == "windows" && fs.IsDir("/" + n); });
  if (os == Os::kWindows && !windows_dir) {
    std::string hint = LooksLinux(fs, *names) ? "; it looks like a Linux tree: leave out --os windows" : "";
    return Err(root + " has no Windows directory, so it is not a Windows tree (--os windows)" + hint);
  }
  if (os == Os::kLinux && !LooksLinux(fs, *names)) {
    if (windows_dir) return Err(root + " is a Windows tree (it has a Windows directory): give --os windows");
    return Err(root + " holds nothing of a Linux tree: no etc/os-release, usr/lib/os-release, etc/, usr/, proc/, "
               "sys/, dev/, home/, opt/, root/ or var/");
  }
  return Status::Ok();
}

}  // namespace cudamatch
