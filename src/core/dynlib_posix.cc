#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/dynlib.h"

namespace cudamatch {

namespace {

std::string ModeText(mode_t mode) {
  char text[16];
  std::snprintf(text, sizeof(text), "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

// Why `st` (of `what`, a file or a directory) is not trusted, or "".
std::string OwnerOrModeProblem(const std::string& what, const struct stat& st) {
  if (st.st_uid != 0 && st.st_uid != geteuid()) {
    return what + " belongs to another user (uid " + std::to_string(st.st_uid) + ")";
  }
  bool writable_by_others = (st.st_mode & (S_IWGRP | S_IWOTH)) != 0;
  bool sticky_dir = S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX) != 0;
  if (writable_by_others && !sticky_dir) return what + " is writable by group or others (mode " + ModeText(st.st_mode) + ")";
  return "";
}

std::string DirProblem(const std::string& dir) {
  struct stat st;
  if (stat(dir.c_str(), &st) != 0) return "its directory " + dir + " cannot be examined: " + std::strerror(errno);
  return OwnerOrModeProblem("its directory " + dir, st);
}

std::string ParentOf(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

// The path `path` resolves to, with the status of the file there: the kernel resolves it once
// (open with O_PATH, then /proc/self/fd says where it landed), which costs three calls where
// realpath(3) reads every component as a link. Without /proc, realpath and stat. "" with errno
// set when the path does not resolve.
std::string RealPath(const std::string& path, struct stat* st) {
  int fd = open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) return "";
  char buf[PATH_MAX];
  std::string link = "/proc/self/fd/" + std::to_string(fd);
  ssize_t n = readlink(link.c_str(), buf, sizeof(buf));
  bool ok = fstat(fd, st) == 0;
  int err = errno;
  close(fd);
  if (n > 0 && static_cast<size_t>(n) < sizeof(buf) && buf[0] == '/' && ok) return std::string(buf, static_cast<size_t>(n));
  if (!ok) {
    errno = err;
    return "";
  }
  char* real = realpath(path.c_str(), nullptr);
  if (real == nullptr) return "";
  std::string out = real;
  free(real);
  if (stat(out.c_str(), st) != 0) return "";
  return out;
}

}  // namespace

std::string UntrustedLibraryReason(const std::string& path) {
  if (path.empty() || path.front() != '/') return "not an absolute path";
  struct stat st;
  std::string real = RealPath(path, &st);
  if (real.empty()) return std::string("cannot be resolved: ") + std::strerror(errno);
  if (!S_ISREG(st.st_mode)) return real + " is not a regular file";
  if (std::string why = OwnerOrModeProblem("the file " + real, st); !why.empty()) return why;
  for (const std::string& dir : {ParentOf(path), ParentOf(real)}) {
    if (std::string why = DirProblem(dir); !why.empty()) return why;
  }
  return "";
}

LibraryChoice ChooseTrustedLibrary(std::string_view soname, const std::vector<std::string>& dirs) {
  LibraryChoice choice;
  for (const std::string& dir : dirs) {
    if (dir.empty() || dir.front() != '/') continue;
    std::string path = (dir.back() == '/' ? dir : dir + "/") + std::string(soname);
    struct stat st;
    if (lstat(path.c_str(), &st) != 0) continue;
    if (std::string why = UntrustedLibraryReason(path); !why.empty()) {
      choice.rejected.push_back(path + ": " + why);
      continue;
    }
    choice.path = path;
    break;
  }
  return choice;
}

DynamicLibrary LoadDynamicLibrary(const std::string& name) {
  DynamicLibrary lib;
  if (std::string why = UntrustedLibraryReason(name); !why.empty()) {
    lib.error = "dlopen " + name + ": not opened: " + why +
                " (only libraries found by absolute path in trusted directories are loaded)";
    return lib;
  }
  lib.handle = dlopen(name.c_str(), RTLD_LAZY | RTLD_LOCAL);
  if (lib.handle == nullptr) {
    const char* e = dlerror();
    lib.error = "dlopen " + name + ": " + (e != nullptr ? std::string(e, strnlen(e, 1024)) : "unknown dlopen error");
  }
  return lib;
}

void* FindSymbol(const DynamicLibrary& lib, const char* name) {
  return lib.handle == nullptr ? nullptr : dlsym(lib.handle, name);
}

}  // namespace cudamatch
