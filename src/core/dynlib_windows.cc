#include <windows.h>

#include "core/dynlib.h"
#include "core/win_text.h"

namespace cudamatch {

// A bare name is searched only in the application directory and System32 (no current directory,
// no PATH: a DLL planted there is not loaded); a path is loaded from there, with its own directory
// searched for what it depends on.
DynamicLibrary LoadDynamicLibrary(const std::string& name) {
  DynamicLibrary lib;
  std::wstring wide = WideFromUtf8(name);
  bool is_path = name.find_first_of("/\\") != std::string::npos;
  DWORD flags = is_path ? LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_DEFAULT_DIRS
                        : LOAD_LIBRARY_SEARCH_APPLICATION_DIR | LOAD_LIBRARY_SEARCH_SYSTEM32;
  HMODULE module = LoadLibraryExW(wide.c_str(), nullptr, flags);
  if (module == nullptr) {
    lib.error = "LoadLibraryExW " + name + ": " + WindowsErrorText(GetLastError());
    return lib;
  }
  lib.handle = reinterpret_cast<void*>(module);
  return lib;
}

void* FindSymbol(const DynamicLibrary& lib, const char* name) {
  if (lib.handle == nullptr) return nullptr;
  return reinterpret_cast<void*>(GetProcAddress(static_cast<HMODULE>(lib.handle), name));
}

}  // namespace cudamatch
