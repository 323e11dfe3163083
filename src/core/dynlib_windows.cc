#include <windows.h>

#include "core/dynlib.h"
#include "core/win_text.h"

namespace cudamatch {

// A bare name is searched in System32 only (no application directory, no current directory, no
// PATH: a DLL planted there is not loaded); a path is loaded from there, with its own directory
// and System32 searched for what it depends on.
DynamicLibrary LoadDynamicLibrary(const std::string& name) {
  DynamicLibrary lib;
  std::wstring wide = WideFromUtf8(name);
  bool is_path = name.find_first_of("/\\") != std::string::npos;
  DWORD flags = is_path ? LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_SYSTEM32 : LOAD_LIBRARY_SEARCH_SYSTEM32;
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

std::string UntrustedLibraryReason(const std::string&) { return ""; }

LibraryChoice ChooseTrustedLibrary(std::string_view soname, const std::vector<std::string>& dirs) {
  LibraryChoice choice;
  for (const std::string& dir : dirs) {
    std::string path = dir + "\\" + std::string(soname);
    DWORD a = GetFileAttributesW(WideFromUtf8(path).c_str());
    if (a == INVALID_FILE_ATTRIBUTES || (a & FILE_ATTRIBUTE_DIRECTORY)) continue;
    choice.path = path;
    break;
  }
  return choice;
}

}  // namespace cudamatch
