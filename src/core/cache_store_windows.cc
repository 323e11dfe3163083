// Windows: the store lives in %LOCALAPPDATA%\cudamatch (cache_store.cc), a directory only this
// user may use by Windows' default ACLs on the profile. The directory is made when missing and
// used only when it is a real directory (not a junction or symbolic link); it is held open for
// the store's life, so it cannot be renamed or removed meanwhile. Files are opened without
// following reparse points and must be regular files; each write goes to a temporary file in the
// same directory, is flushed, then moved over the old file in one step.
#include <windows.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/cache_store.h"
#include "core/win_text.h"

namespace cudamatch {

namespace {

// "C:\dir" or "C:/dir", or a UNC path "\\server\share\dir".
bool IsAbsoluteWindowsPath(const std::wstring& p) {
  bool drive = p.size() >= 3 && ((p[0] >= L'A' && p[0] <= L'Z') || (p[0] >= L'a' && p[0] <= L'z')) && p[1] == L':' &&
               (p[2] == L'\\' || p[2] == L'/');
  bool unc = p.size() >= 3 && p[0] == L'\\' && p[1] == L'\\';
  return drive || unc;
}

bool IsSeparator(wchar_t c) { return c == L'\\' || c == L'/'; }

// A bare file name: no separators, drive or stream colons, and not "." or "..".
bool IsPlainName(const std::string& name) {
  if (name.empty() || name == "." || name == "..") return false;
  return name.find_first_of("\\/:") == std::string::npos;
}

// Makes `dir` when missing; its parent too (as the POSIX store does).
void MakeDirAndParent(const std::wstring& dir) {
  if (CreateDirectoryW(dir.c_str(), nullptr) || GetLastError() != ERROR_PATH_NOT_FOUND) return;
  size_t cut = dir.find_last_of(L"\\/");
  if (cut == std::wstring::npos || cut < 3) return;
  CreateDirectoryW(dir.substr(0, cut).c_str(), nullptr);
  CreateDirectoryW(dir.c_str(), nullptr);
}

// The file's attributes and size through its handle; false when unknown.
bool HandleInfo(HANDLE h, BY_HANDLE_FILE_INFORMATION* info) { return GetFileInformationByHandle(h, info) != 0; }

class WindowsCacheStore : public CacheStore {
 public:
  WindowsCacheStore(HANDLE dir_handle, std::wstring dir) : handle_(dir_handle), dir_(std::move(dir)) {}
  ~WindowsCacheStore() override { CloseHandle(handle_); }

  std::optional<std::string> Get(const std::string& name, size_t cap) const override {
    if (!IsPlainName(name)) return std::nullopt;
    HANDLE h = CreateFileW(PathOf(name).c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_DELETE, nullptr,
                           OPEN_EXISTING, FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
    if (h == INVALID_HANDLE_VALUE) return std::nullopt;
    std::optional<std::string> out;
    BY_HANDLE_FILE_INFORMATION info;
    if (HandleInfo(h, &info) && RegularFile(info)) {
      uint64_t size = (static_cast<uint64_t>(info.nFileSizeHigh) << 32) | info.nFileSizeLow;
      if (size <= cap) out = ReadAll(h, static_cast<size_t>(size));
    }
    CloseHandle(h);
    return out;
  }

  bool Put(const std::string& name, const std::string& content) const override {
    if (!IsPlainName(name)) return false;
    LARGE_INTEGER tick;
    QueryPerformanceCounter(&tick);
    std::wstring tmp = PathOf(name + ".tmp." + std::to_string(GetCurrentProcessId()) + "." +
                              std::to_string(static_cast<unsigned long long>(tick.QuadPart)));
    HANDLE h = CreateFileW(tmp.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h == INVALID_HANDLE_VALUE) return false;
    bool ok = WriteAll(h, content) && FlushFileBuffers(h);
    ok = CloseHandle(h) && ok;
    if (ok) {
      ok = MoveFileExW(tmp.c_str(), PathOf(name).c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH) != 0;
    }
    if (!ok) DeleteFileW(tmp.c_str());
    return ok;
  }

  void Trim(const std::string& prefix, size_t keep) const override {
    WIN32_FIND_DATAW found;
    HANDLE search = FindFirstFileW((dir_ + L"\\" + WideFromUtf8(prefix) + L"*").c_str(), &found);
    if (search == INVALID_HANDLE_VALUE) return;
    std::vector<std::pair<uint64_t, std::wstring>> files;
    do {
      std::wstring name = found.cFileName;
      if ((found.dwFileAttributes & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_REPARSE_POINT)) != 0) continue;
      if (name.find(L".tmp.") != std::wstring::npos) continue;
      uint64_t written = (static_cast<uint64_t>(found.ftLastWriteTime.dwHighDateTime) << 32) | found.ftLastWriteTime.dwLowDateTime;
      files.emplace_back(written, std::move(name));
    } while (FindNextFileW(search, &found));
    FindClose(search);
    if (files.size() <= keep) return;
    std::sort(files.begin(), files.end());
    for (size_t i = 0; i + keep < files.size(); ++i) DeleteFileW((dir_ + L"\\" + files[i].second).c_str());
  }

 private:
  static bool RegularFile(const BY_HANDLE_FILE_INFORMATION& info) {
    return (info.dwFileAttributes & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_REPARSE_POINT | FILE_ATTRIBUTE_DEVICE)) == 0;
  }

  static std::optional<std::string> ReadAll(HANDLE h, size_t size) {
    std::string text(size, '\0');
    size_t used = 0;
    while (used < size) {
      DWORD want = static_cast<DWORD>(size - used > (1u << 30) ? (1u << 30) : size - used);
      DWORD got = 0;
      if (!ReadFile(h, text.data() + used, want, &got, nullptr) || got == 0) break;
      used += got;
    }
    if (used != size) return std::nullopt;
    return text;
  }

  static bool WriteAll(HANDLE h, const std::string& content) {
    size_t used = 0;
    while (used < content.size()) {
      size_t left = content.size() - used;
      DWORD want = static_cast<DWORD>(left > (1u << 30) ? (1u << 30) : left);
      DWORD put = 0;
      if (!WriteFile(h, content.data() + used, want, &put, nullptr) || put == 0) return false;
      used += put;
    }
    return true;
  }

  std::wstring PathOf(const std::string& name) const { return dir_ + L"\\" + WideFromUtf8(name); }

  HANDLE handle_;
  std::wstring dir_;
};

}  // namespace

std::unique_ptr<CacheStore> OpenCacheStore(const std::string& dir) {
  std::wstring wide = WideFromUtf8(dir);
  while (wide.size() > 3 && IsSeparator(wide.back())) wide.pop_back();
  if (!IsAbsoluteWindowsPath(wide) || wide.size() <= 3) return nullptr;  // not a drive's root
  MakeDirAndParent(wide);
  // Held without FILE_SHARE_DELETE: nobody may rename or remove the directory while it is in use.
  HANDLE h = CreateFileW(wide.c_str(), FILE_LIST_DIRECTORY | FILE_READ_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE,
                         nullptr, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
  if (h == INVALID_HANDLE_VALUE) return nullptr;
  BY_HANDLE_FILE_INFORMATION info;
  bool real_dir = HandleInfo(h, &info) && (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0 &&
                  (info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) == 0;
  if (!real_dir) {
    CloseHandle(h);
    return nullptr;
  }
  return std::make_unique<WindowsCacheStore>(h, std::move(wide));
}

}  // namespace cudamatch
