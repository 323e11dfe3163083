#include <fcntl.h>
#include <io.h>
#include <windows.h>

#include <cstdio>
#include <cstdlib>

#include "cli/machine.h"
#include "cli/process.h"
#include "core/text.h"
#include "core/win_text.h"
#include "probe/win_paths.h"

namespace cudamatch {

namespace {

UINT g_console_cp = 0;

void RestoreConsoleCodePage() {
  if (g_console_cp != 0) SetConsoleOutputCP(g_console_cp);
}

std::string FullPath(const std::string& path) {
  std::wstring wide = WideFromUtf8(path);
  DWORD n = GetFullPathNameW(wide.c_str(), 0, nullptr, nullptr);
  if (n == 0) return "";
  std::wstring full(n, L'\0');
  n = GetFullPathNameW(wide.c_str(), n, full.data(), nullptr);
  full.resize(n);
  return Utf8FromWide(full);
}

// "C:\" of the drive Windows is installed on.
std::string SystemDrive() {
  wchar_t dir[MAX_PATH + 1];
  UINT n = GetSystemWindowsDirectoryW(dir, MAX_PATH);
  if (n >= 3 && dir[1] == L':') return Utf8FromWide(std::wstring(dir, 2)) + "\\";
  return "C:\\";
}

// C:\Users\me\x on the system drive as "/Users/me/x"; empty for any other drive.
std::string UnderRoot(const std::string& full) {
  std::string drive = SystemDrive();
  if (full.size() < drive.size() || ToLower(full.substr(0, drive.size())) != ToLower(drive)) return "";
  std::string rest = "/" + full.substr(drive.size());
  for (char& c : rest) c = c == '\\' ? '/' : c;
  return NormalizePath(rest);
}

std::string Upper(std::string s) {
  for (char& c : s) c = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  return s;
}

}  // namespace

std::vector<std::string> ProcessArguments(int, char**) {
  int count = 0;
  wchar_t** wide = CommandLineToArgvW(GetCommandLineW(), &count);
  std::vector<std::string> args;
  for (int i = 1; wide != nullptr && i < count; ++i) args.push_back(Utf8FromWide(wide[i]));
  if (wide != nullptr) LocalFree(wide);
  return args;
}

std::map<std::string, std::string> ProcessEnvironment() {
  std::map<std::string, std::string> env;
  wchar_t* block = GetEnvironmentStringsW();
  for (const wchar_t* e = block; e != nullptr && *e != L'\0'; e += wcslen(e) + 1) {
    std::string entry = Utf8FromWide(e);
    size_t eq = entry.find('=', 1);  // "=C:=C:\x" entries (per-drive directories) start with '='
    if (eq == std::string::npos || entry[0] == '=') continue;
    env.emplace(Upper(entry.substr(0, eq)), entry.substr(eq + 1));
  }
  if (block != nullptr) FreeEnvironmentStringsW(block);
  return env;
}

bool PrepareOutput() {
  _setmode(_fileno(stdout), _O_BINARY);
  _setmode(_fileno(stderr), _O_BINARY);
  HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);
  DWORD mode = 0;
  bool console = GetConsoleMode(out, &mode) != 0;
  if (GetConsoleMode(GetStdHandle(STD_ERROR_HANDLE), &mode) || console) {
    g_console_cp = GetConsoleOutputCP();
    SetConsoleOutputCP(CP_UTF8);
    std::atexit(RestoreConsoleCodePage);
  }
  if (!console || !GetConsoleMode(out, &mode)) return false;
  return SetConsoleMode(out, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING) != 0;
}

size_t TerminalColumns() {
  CONSOLE_SCREEN_BUFFER_INFO info;
  if (!GetConsoleScreenBufferInfo(GetStdHandle(STD_OUTPUT_HANDLE), &info)) return 0;
  return static_cast<size_t>(info.srWindow.Right - info.srWindow.Left + 1);
}

Os HostOs() { return Os::kWindows; }

HostFacts ThisHost() {
  HostFacts facts;
  SYSTEM_INFO info;
  GetNativeSystemInfo(&info);
  if (info.wProcessorArchitecture == PROCESSOR_ARCHITECTURE_AMD64) facts.arch = "x86_64";
  if (info.wProcessorArchitecture == PROCESSOR_ARCHITECTURE_ARM64) facts.arch = "aarch64";
  std::wstring exe(32768, L'\0');
  exe.resize(GetModuleFileNameW(nullptr, exe.data(), static_cast<DWORD>(exe.size())));
  facts.self_exe = UnderRoot(Utf8FromWide(exe));
  return facts;
}

std::string ProcessIdentity() { return ""; }

// PWD (set by MSYS and Cygwin shells, in their own notation) is not a Windows path: not used.
std::string WorkingDirectory(const std::string&) { return UnderRoot(FullPath(".")); }

// System32\nvml.dll where the driver put one, else the newest nv* package of the driver store;
// cuDriverGetVersion from System32\nvcuda.dll.
// Both by absolute path (System32 as Windows reports it), never searched for by bare name.
namespace {
std::string SystemDirectoryFile(const char* name) {
  wchar_t dir[MAX_PATH];
  UINT n = GetSystemDirectoryW(dir, MAX_PATH);
  if (n == 0 || n >= MAX_PATH) return name;  // a bare name: LoadDynamicLibrary searches System32 only
  return Utf8FromWide(std::wstring(dir, n)) + "\\" + name;
}
}  // namespace

NvidiaLibraries NvidiaLibraryNames(const ProbeInput& in) {
  const Fs& fs = *in.fs;
  NvidiaLibraries libs{SystemDirectoryFile("nvml.dll"), SystemDirectoryFile("nvcuda.dll")};
  if (FindCaseless(fs, "/Windows/System32/nvml.dll")) return libs;
  for (const std::string& pkg : ListCaseless(fs, "/Windows/System32/DriverStore/FileRepository", "nv")) {
    if (auto p = FindCaseless(fs, pkg + "/nvml.dll")) {
      std::string host = SystemDrive() + p->substr(1);
      for (char& c : host) c = c == '/' ? '\\' : c;
      libs.nvml = host;
    }
  }
  return libs;
}

bool IsDirectory(const std::string& path) {
  DWORD a = GetFileAttributesW(WideFromUtf8(path).c_str());
  return a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_DIRECTORY);
}

Result<std::string> ValidateRoot(const std::string& root, Lang lang) {
  if (root.empty()) return Err(Tr(lang, "path.root_empty"));
  std::string full = FullPath(root);
  if (full.empty() || GetFileAttributesW(WideFromUtf8(full).c_str()) == INVALID_FILE_ATTRIBUTES) {
    return Err(Tr(lang, "path.root_missing", {{"path", Quote(root)}}));
  }
  if (!IsDirectory(full)) return Err(Tr(lang, "path.root_not_dir", {{"path", Quote(root)}}));
  if (UnderRoot(full) == "/") {
    return Err(Tr(lang, "path.root_is_own", {{"path", Quote(root)}}));
  }
  return full;
}

}  // namespace cudamatch
