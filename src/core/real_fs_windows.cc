// The machine's filesystem seen from a root, on Windows. "/" is this machine: its system drive
// (C:\); any other root is a directory (a mounted image). A probe's path "/Program Files/x" is
// the file <root>\Program Files\x, opened with its UTF-16 name through the \\?\ prefix (no length
// limit, no reinterpretation). Reparse points (symbolic links, junctions, mount points) are never
// followed: a path through one is reported as such and not read, so nothing outside the root is
// reached through a link. Reads are bounded; only disk files are read (no pipes, no devices).
#include <windows.h>

#include <algorithm>
#include <map>

#include "core/fs.h"
#include "core/text.h"
#include "core/win_text.h"

namespace cudamatch {

namespace {

bool IsUnreadableError(DWORD err) {
  return err == ERROR_ACCESS_DENIED || err == ERROR_SHARING_VIOLATION || err == ERROR_LOCK_VIOLATION ||
         err == ERROR_CANT_ACCESS_FILE;
}

FileType TypeOf(DWORD attributes) {
  if (attributes & FILE_ATTRIBUTE_REPARSE_POINT) return FileType::kSymlink;
  if (attributes & FILE_ATTRIBUTE_DIRECTORY) return FileType::kDirectory;
  if (attributes & FILE_ATTRIBUTE_DEVICE) return FileType::kOther;
  return FileType::kRegular;
}

// The system drive's root ("C:\"), where Windows itself is installed.
std::wstring SystemDriveRoot() {
  wchar_t dir[MAX_PATH + 1];
  UINT n = GetSystemWindowsDirectoryW(dir, MAX_PATH);
  if (n >= 3 && dir[1] == L':') return std::wstring(dir, 2) + L"\\";
  return L"C:\\";
}

// "\work\img" on the current drive, "..\img": as an absolute path (D:\work\img).
std::wstring FullPath(const std::wstring& path) {
  DWORD n = GetFullPathNameW(path.c_str(), 0, nullptr, nullptr);
  if (n == 0) return path;
  std::wstring full(n, L'\0');
  n = GetFullPathNameW(path.c_str(), n, full.data(), nullptr);
  full.resize(n);
  return full;
}

class Handle {
 public:
  explicit Handle(HANDLE h = INVALID_HANDLE_VALUE) : h_(h) {}
  ~Handle() {
    if (ok()) CloseHandle(h_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  HANDLE get() const { return h_; }
  bool ok() const { return h_ != INVALID_HANDLE_VALUE && h_ != nullptr; }

 private:
  HANDLE h_;
};

// Positional reads (ReadFile at an offset) on a handle it owns.
class HandleFile : public RandomAccessFile {
 public:
  HandleFile(HANDLE h, uint64_t size, std::string path) : h_(h), size_(size), path_(std::move(path)) {}
  uint64_t size() const override { return size_; }
  Result<std::string> ReadAt(uint64_t offset, size_t len) const override {
    if (offset >= size_) return std::string();
    std::string out(static_cast<size_t>(std::min<uint64_t>(len, size_ - offset)), '\0');
    size_t used = 0;
    while (used < out.size()) {
      OVERLAPPED at{};
      uint64_t pos = offset + used;
      at.Offset = static_cast<DWORD>(pos);
      at.OffsetHigh = static_cast<DWORD>(pos >> 32);
      DWORD n = 0;
      DWORD want = static_cast<DWORD>(std::min<size_t>(out.size() - used, 1 << 20));
      if (!ReadFile(h_.get(), out.data() + used, want, &n, &at)) {
        DWORD err = GetLastError();
        if (err == ERROR_HANDLE_EOF) break;
        return Err(path_ + ": " + WindowsErrorText(err));
      }
      if (n == 0) break;  // the file shrank
      used += n;
    }
    out.resize(used);
    return out;
  }

 private:
  Handle h_;
  uint64_t size_;
  std::string path_;
};

class WindowsFs : public Fs {
 public:
  explicit WindowsFs(std::string root) : root_(std::move(root)) {
    std::wstring base = root_ == "/" ? SystemDriveRoot() : FullPath(WideFromUtf8(root_));
    std::replace(base.begin(), base.end(), L'/', L'\\');
    if (base.empty() || base.back() != L'\\') base += L'\\';
    base_ = base.rfind(L"\\\\", 0) == 0 ? L"\\\\?\\UNC\\" + base.substr(2) : L"\\\\?\\" + base;
  }

  const std::string& root() const override { return root_; }

  std::vector<Unreadable> unreadable() const override {
    std::vector<Unreadable> out;
    for (const auto& [path, reason] : unreadable_) out.push_back(Unreadable{path, reason});
    return out;
  }

  Result<std::string> Read(std::string_view path, size_t max_bytes) const override {
    auto file = OpenFile(path);
    if (!file) return Error{file.error()};
    return (*file)->ReadAt(0, max_bytes);
  }

  Result<std::unique_ptr<RandomAccessFile>> Open(std::string_view path) const override {
    auto file = OpenFile(path);
    if (!file) return Error{file.error()};
    return std::unique_ptr<RandomAccessFile>(std::move(*file));
  }

  Result<std::vector<std::string>> List(std::string_view path) const override {
    if (auto link = LinkOnTheWay(path, true)) return Err(Describe(path) + ": " + *link + " is a link (not followed)");
    WIN32_FIND_DATAW data;
    std::wstring pattern = Host(path) + (NormalizePath(path) == "/" ? L"*" : L"\\*");
    HANDLE find = FindFirstFileExW(pattern.c_str(), FindExInfoBasic, &data, FindExSearchNameMatch, nullptr,
                                   FIND_FIRST_EX_LARGE_FETCH);
    if (find == INVALID_HANDLE_VALUE) return Failed(path, GetLastError());
    std::vector<std::string> names;
    do {
      std::string name = Utf8FromWide(data.cFileName);
      if (name != "." && name != "..") names.push_back(std::move(name));
    } while (FindNextFileW(find, &data));
    FindClose(find);
    std::sort(names.begin(), names.end());
    return names;
  }

  FileInfo Stat(std::string_view path) const override {
    if (LinkOnTheWay(path, true)) return FileInfo{};
    return Attributes(path);
  }

  FileInfo LStat(std::string_view path) const override {
    if (LinkOnTheWay(path, false)) return FileInfo{};
    return Attributes(path);
  }

  Result<std::string> ReadLink(std::string_view path) const override {
    FileInfo info = LStat(path);
    if (info.type != FileType::kSymlink) return Err(Describe(path) + ": not a symbolic link");
    return Err(Describe(path) + ": a reparse point (its target is not read)");
  }

  Result<std::string> Resolve(std::string_view path) const override {
    if (auto link = LinkOnTheWay(path, true)) return Err(Describe(path) + ": " + *link + " is a link (not followed)");
    if (!Attributes(path).exists()) return Err(Describe(path) + ": no such file or directory");
    return NormalizePath(path);
  }

 private:
  std::string Describe(std::string_view path) const { return NormalizePath(path); }

  std::wstring Host(std::string_view path) const {
    std::wstring rel = WideFromUtf8(NormalizePath(path).substr(1));
    std::replace(rel.begin(), rel.end(), L'/', L'\\');
    return base_ + rel;
  }

  Error Failed(std::string_view path, DWORD err) const {
    NoteUnreadable(path, err);
    return Err(Describe(path) + ": " + WindowsErrorText(err));
  }

  void NoteUnreadable(std::string_view path, DWORD err) const {
    if (IsUnreadableError(err)) unreadable_.emplace(NormalizePath(path), WindowsErrorText(err));
  }

  FileInfo Attributes(std::string_view path) const {
    WIN32_FILE_ATTRIBUTE_DATA data;
    if (!GetFileAttributesExW(Host(path).c_str(), GetFileExInfoStandard, &data)) {
      NoteUnreadable(path, GetLastError());
      return FileInfo{};
    }
    uint64_t size = (static_cast<uint64_t>(data.nFileSizeHigh) << 32) | data.nFileSizeLow;
    return FileInfo{TypeOf(data.dwFileAttributes), size};
  }

  // The first component that is a reparse point (the last one too when `include_last`), or nullopt.
  std::optional<std::string> LinkOnTheWay(std::string_view path, bool include_last) const {
    std::string norm = NormalizePath(path);
    size_t pos = 0;
    while (norm != "/") {
      size_t next = norm.find('/', pos + 1);
      bool last = next == std::string::npos;
      std::string prefix = last ? norm : norm.substr(0, next);
      if (!last || include_last) {
        DWORD a = GetFileAttributesW(Host(prefix).c_str());
        if (a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_REPARSE_POINT)) return prefix;
      }
      if (last) break;
      pos = next;
    }
    return std::nullopt;
  }

  // A regular disk file, opened for reading without following a final reparse point.
  Result<std::unique_ptr<HandleFile>> OpenFile(std::string_view path) const {
    if (auto link = LinkOnTheWay(path, true)) return Err(Describe(path) + ": " + *link + " is a link (not followed)");
    HANDLE h = CreateFileW(Host(path).c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                           nullptr, OPEN_EXISTING, FILE_FLAG_OPEN_REPARSE_POINT | FILE_FLAG_BACKUP_SEMANTICS, nullptr);
    if (h == INVALID_HANDLE_VALUE) return Failed(path, GetLastError());
    BY_HANDLE_FILE_INFORMATION info;
    bool regular = GetFileType(h) == FILE_TYPE_DISK && GetFileInformationByHandle(h, &info) &&
                   !(info.dwFileAttributes & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_REPARSE_POINT | FILE_ATTRIBUTE_DEVICE));
    uint64_t size = regular ? (static_cast<uint64_t>(info.nFileSizeHigh) << 32) | info.nFileSizeLow : 0;
    auto file = std::make_unique<HandleFile>(h, size, Describe(path));
    if (!regular) return Err(Describe(path) + ": not a regular file");
    return file;
  }

  std::string root_;
  std::wstring base_;  // \\?\C:\ or \\?\D:\images\win\ (always ends with a backslash)
  mutable std::map<std::string, std::string> unreadable_;
};

}  // namespace

std::unique_ptr<Fs> MakeRealFs(std::string root, FsOptions) { return std::make_unique<WindowsFs>(std::move(root)); }

// The named file is read as "/<name>" under its own directory, through the same layer.
Result<std::string> ReadInputFile(const std::string& path, size_t cap) {
  std::wstring wide = WideFromUtf8(path);
  DWORD n = GetFullPathNameW(wide.c_str(), 0, nullptr, nullptr);
  std::wstring full(n, L'\0');
  if (n == 0 || GetFullPathNameW(wide.c_str(), n, full.data(), nullptr) == 0) return Err(path + ": no such file");
  full.resize(wcslen(full.c_str()));
  size_t slash = full.find_last_of(L"\\/");
  if (slash == std::wstring::npos || slash + 1 == full.size()) return Err(path + ": no such file");
  WindowsFs fs(Utf8FromWide(full.substr(0, slash + 1)));
  std::string name = "/" + Utf8FromWide(full.substr(slash + 1));
  FileInfo info = fs.Stat(name);
  if (!info.exists()) return Err(path + ": no such file");
  if (info.type == FileType::kDirectory) return Err(path + ": is a directory");
  if (info.type != FileType::kRegular) return Err(path + ": not a regular file");
  if (info.size > cap) return Err(path + ": larger than " + std::to_string(cap) + " bytes");
  auto text = fs.Read(name, cap + 1);
  if (!text) return Err(path + ": " + text.error().substr(text.error().find(": ") + 2));
  if (text->size() > cap) return Err(path + ": larger than " + std::to_string(cap) + " bytes");
  return text;
}

}  // namespace cudamatch
