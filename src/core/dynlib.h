// Loading a shared library at run time: dlopen/dlsym on Linux, LoadLibraryExW/GetProcAddress on
// Windows. Libraries are never unloaded (a driver library may keep threads running).
#pragma once

#include <string>

namespace cudamatch {

struct DynamicLibrary {
  void* handle = nullptr;  // null when it could not be loaded
  std::string error;       // when it could not: "dlopen NAME: <dlerror()>" / "LoadLibraryExW NAME: <reason>"
};

// `name` is a soname or path on Linux, a DLL name or path on Windows (UTF-8).
DynamicLibrary LoadDynamicLibrary(const std::string& name);

// The address of an exported symbol, or null.
void* FindSymbol(const DynamicLibrary& lib, const char* name);

}  // namespace cudamatch
