// File access under a root. Every probe reads through an Fs: the real one treats `--root DIR` as
// "/" (symbolic links resolve inside it, as under chroot) and never blocks on FIFOs or devices;
// tests use FakeFs, an in-memory tree that records what was read.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace cudamatch {

enum class FileType { kMissing, kRegular, kDirectory, kSymlink, kOther };

// A place that exists but could not be read (permission denied, I/O error).
struct Unreadable {
  std::string path;
  std::string reason;
};

struct FileInfo {
  FileType type = FileType::kMissing;
  uint64_t size = 0;
  // What tells one version of a file from another (the environment cache's validation): zero
  // where the file system does not say (FakeFs, Windows).
  uint64_t device = 0;
  uint64_t inode = 0;
  int64_t mtime_ns = 0;
  int64_t ctime_ns = 0;
  bool exists() const { return type != FileType::kMissing; }
};

// An open regular file read at positions: large binaries are read a header at a time, never whole.
class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;
  virtual uint64_t size() const = 0;
  // Up to `len` bytes at `offset` (fewer at the end of the file; none past it).
  virtual Result<std::string> ReadAt(uint64_t offset, size_t len) const = 0;
};

// A RandomAccessFile over bytes in memory (tests, fuzzing, FakeFs).
std::unique_ptr<RandomAccessFile> MakeStringFile(std::string bytes);

class Fs {
 public:
  virtual ~Fs() = default;

  // At most `max_bytes` of a regular file; an error for anything else (directory, FIFO, device).
  virtual Result<std::string> Read(std::string_view path, size_t max_bytes) const = 0;
  // A regular file opened for positional reads; an error for anything else.
  virtual Result<std::unique_ptr<RandomAccessFile>> Open(std::string_view path) const = 0;
  // Entry names of a directory, sorted, without "." and "..".
  virtual Result<std::vector<std::string>> List(std::string_view path) const = 0;
  // Type after following symbolic links (inside the root).
  virtual FileInfo Stat(std::string_view path) const = 0;
  // Type of the path itself, not following a final symbolic link.
  virtual FileInfo LStat(std::string_view path) const = 0;
  // The target of a symbolic link, as stored.
  virtual Result<std::string> ReadLink(std::string_view path) const = 0;
  // The path with every symbolic link resolved inside the root.
  virtual Result<std::string> Resolve(std::string_view path) const = 0;
  // The root as given ("/" for this machine).
  virtual const std::string& root() const = 0;
  // Every place so far that exists but could not be read, sorted by path, each once.
  virtual std::vector<Unreadable> unreadable() const = 0;

  bool IsDir(std::string_view path) const { return Stat(path).type == FileType::kDirectory; }
  bool IsFile(std::string_view path) const { return Stat(path).type == FileType::kRegular; }
  bool Exists(std::string_view path) const { return Stat(path).exists(); }
};

struct FsOptions {
  // openat2(RESOLVE_IN_ROOT) where the kernel has it. Off (CUDAMATCH_NO_OPENAT2=1, for tests),
  // paths are resolved by the component-by-component walk that kernels without it get.
  bool use_openat2 = true;
};

// The machine's filesystem seen from `root` ("/" or an image directory).
std::unique_ptr<Fs> MakeRealFs(std::string root, FsOptions options = {});

// A file a user named (check -r, --catalog tables), relative to the working directory or
// absolute: through the same layer as every probe, a regular file of at most `cap` bytes, checked
// before it is opened; anything else is an error.
Result<std::string> ReadInputFile(const std::string& path, size_t cap);

// An in-memory tree for tests. Paths are absolute.
class FakeFs : public Fs {
 public:
  FakeFs();
  void AddFile(std::string path, std::string content);
  void AddDir(std::string path);
  void AddSymlink(std::string path, std::string target);
  void AddSpecial(std::string path);  // a FIFO or device
  void MakeUnreadable(std::string path);

  Result<std::string> Read(std::string_view path, size_t max_bytes) const override;
  Result<std::unique_ptr<RandomAccessFile>> Open(std::string_view path) const override;
  Result<std::vector<std::string>> List(std::string_view path) const override;
  FileInfo Stat(std::string_view path) const override;
  FileInfo LStat(std::string_view path) const override;
  Result<std::string> ReadLink(std::string_view path) const override;
  Result<std::string> Resolve(std::string_view path) const override;
  const std::string& root() const override { return root_; }
  std::vector<Unreadable> unreadable() const override;

  // Every path passed to Read or Open, in order.
  const std::vector<std::string>& reads() const { return reads_; }

 private:
  struct Node {
    FileType type = FileType::kMissing;
    std::string content;  // file content or link target
    bool unreadable = false;
  };
  const Node* Find(const std::string& path) const;
  Result<std::string> ResolveImpl(std::string_view path, bool follow_last) const;

  std::string root_ = "/";
  std::map<std::string, Node> nodes_;
  size_t symlinks_ = 0;  // with none, paths resolve by a single lookup
  mutable std::vector<std::string> reads_;
  mutable std::map<std::string, std::string> unreadable_;
};

// Path helpers for absolute, '/'-separated paths.
std::string JoinPath(std::string_view base, std::string_view rel);
std::string NormalizePath(std::string_view path);  // collapses "//", "." and ".."
// Whether `path` is what NormalizePath gives for it: absolute, and no empty, "." or ".." component.
bool IsNormalPath(std::string_view path);
std::string_view Dirname(std::string_view path);
std::string_view Basename(std::string_view path);
// Whether `path` (normalized) is in /proc, /sys or /dev, whose directories' and files' times do
// not follow what they hold.
bool IsPseudoPath(std::string_view path);

}  // namespace cudamatch
