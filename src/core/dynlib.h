// Loading a shared library at run time: dlopen/dlsym on Linux, LoadLibraryExW/GetProcAddress on
// Windows. Libraries are never unloaded (a driver library may keep threads running).
//
// Only trusted files are loaded. On Linux a library is opened by absolute path only (a bare
// soname would be searched by the dynamic loader, which takes an empty or relative
// LD_LIBRARY_PATH element as the working directory), and only when the file and the directories
// holding it (as named and once links are resolved) are trusted: owned by root or by this
// process's user and not writable by group or others (a directory with the sticky bit, such as
// /tmp, may be writable by others: nobody can replace a file in it that they do not own). On
// Windows a bare DLL name is searched in System32 only; a path is loaded as given.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cudamatch {

struct DynamicLibrary {
  void* handle = nullptr;  // null when it could not be loaded
  std::string error;       // when it could not: "dlopen NAME: <dlerror()>" / "LoadLibraryExW NAME: <reason>"
};

// `name` is an absolute path on Linux (anything else is refused), a DLL name or path on Windows
// (UTF-8).
DynamicLibrary LoadDynamicLibrary(const std::string& name);

// The address of an exported symbol, or null.
void* FindSymbol(const DynamicLibrary& lib, const char* name);

// Why the library file at `path` may not be loaded ("its directory /x is writable by others
// (mode 0777)"), or "" when it may. Linux: the checks above; Windows: always "".
std::string UntrustedLibraryReason(const std::string& path);

// The first `soname` in `dirs` (absolute directories, in the loader's order) that may be loaded.
struct LibraryChoice {
  std::string path;                   // absolute; empty when none may be
  std::vector<std::string> rejected;  // "PATH: reason" for each one found but not trusted
};
LibraryChoice ChooseTrustedLibrary(std::string_view soname, const std::vector<std::string>& dirs);

}  // namespace cudamatch
