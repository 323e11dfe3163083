#include <dlfcn.h>

#include <cstring>

#include "core/dynlib.h"

namespace cudamatch {

DynamicLibrary LoadDynamicLibrary(const std::string& name) {
  DynamicLibrary lib;
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
