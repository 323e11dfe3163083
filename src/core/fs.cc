#include "core/fs.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "core/text.h"

namespace cudamatch {

// ---- paths ----

// Already normal: absolute, and no empty, "." or ".." component (the usual case, one scan).
static bool IsNormalPath(std::string_view path) {
  if (path.empty() || path[0] != '/') return false;
  if (path.size() == 1) return true;
  size_t start = 1;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    std::string_view part = path.substr(start, end - start);
    if (part.empty() || part == "." || part == "..") return false;
    start = end + 1;
  }
  return true;
}

std::string NormalizePath(std::string_view path) {
  if (IsNormalPath(path)) return std::string(path);
  std::vector<std::string_view> parts;
  for (std::string_view p : Split(path, '/')) {
    if (p.empty() || p == ".") continue;
    if (p == "..") {
      if (!parts.empty()) parts.pop_back();
      continue;
    }
    parts.push_back(p);
  }
  std::string out;
  for (std::string_view p : parts) {
    out += '/';
    out += p;
  }
  return out.empty() ? "/" : out;
}

std::string JoinPath(std::string_view base, std::string_view rel) {
  if (StartsWith(rel, "/")) return NormalizePath(rel);
  return NormalizePath(std::string(base) + "/" + std::string(rel));
}

std::string_view Dirname(std::string_view path) {
  size_t pos = path.find_last_of('/');
  if (pos == std::string_view::npos) return ".";
  if (pos == 0) return "/";
  return path.substr(0, pos);
}

std::string_view Basename(std::string_view path) {
  size_t pos = path.find_last_of('/');
  return pos == std::string_view::npos ? path : path.substr(pos + 1);
}

namespace {

constexpr int kMaxSymlinkHops = 40;

FileType TypeOf(mode_t mode) {
  if (S_ISREG(mode)) return FileType::kRegular;
  if (S_ISDIR(mode)) return FileType::kDirectory;
  if (S_ISLNK(mode)) return FileType::kSymlink;
  return FileType::kOther;
}

std::string ErrnoText(int err) { return std::strerror(err); }

class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  bool ok() const { return fd_ >= 0; }

 private:
  int fd_;
};

// Positional reads (pread) on a descriptor it owns.
class FdFile : public RandomAccessFile {
 public:
  FdFile(int fd, uint64_t size, std::string path) : fd_(fd), size_(size), path_(std::move(path)) {}
  uint64_t size() const override { return size_; }
  Result<std::string> ReadAt(uint64_t offset, size_t len) const override {
    if (offset >= size_) return std::string();
    std::string out(static_cast<size_t>(std::min<uint64_t>(len, size_ - offset)), '\0');
    size_t used = 0;
    while (used < out.size()) {
      ssize_t n = pread(fd_.get(), out.data() + used, out.size() - used, static_cast<off_t>(offset + used));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return Err(path_ + ": " + ErrnoText(errno));
      if (n == 0) break;  // the file shrank
      used += static_cast<size_t>(n);
    }
    out.resize(used);
    return out;
  }

 private:
  Fd fd_;
  uint64_t size_;
  std::string path_;
};

class RealFs : public Fs {
 public:
  explicit RealFs(std::string root) {
    char* real = realpath(root.c_str(), nullptr);
    root_ = NormalizePath(real != nullptr ? real : root);
    free(real);
    root_fd_ = open(root_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    own_root_ = root_ == "/";
  }
  ~RealFs() override {
    if (root_fd_ >= 0) close(root_fd_);
  }

  const std::string& root() const override { return root_; }

  Result<std::string> Read(std::string_view path, size_t max_bytes) const override {
    // Check the type before opening for reading, so FIFOs and devices are never opened; the
    // descriptor is checked again, as the file may change in between.
    struct stat st;
    if (own_root_) {
      if (stat(std::string(path).c_str(), &st) != 0) return Err(Describe(path) + ": " + ErrnoText(errno));
    } else {
      Fd probe(Open(path, O_PATH));
      if (!probe.ok() || fstat(probe.get(), &st) != 0) return Err(Describe(path) + ": " + ErrnoText(errno));
    }
    if (!S_ISREG(st.st_mode)) return Err(Describe(path) + ": not a regular file");
    Fd fd(Open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY));
    if (!fd.ok()) return Err(Describe(path) + ": " + ErrnoText(errno));
    struct stat st2;
    if (fstat(fd.get(), &st2) != 0 || !S_ISREG(st2.st_mode) || st2.st_ino != st.st_ino) {
      return Err(Describe(path) + ": changed while being opened");
    }
    return ReadAll(fd.get(), path, max_bytes, static_cast<size_t>(st2.st_size));
  }

  Result<std::unique_ptr<RandomAccessFile>> Open(std::string_view path) const override {
    struct stat st;
    Fd probe(Open(path, O_PATH));
    if (!probe.ok() || fstat(probe.get(), &st) != 0) return Err(Describe(path) + ": " + ErrnoText(errno));
    if (!S_ISREG(st.st_mode)) return Err(Describe(path) + ": not a regular file");
    int fd = Open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return Err(Describe(path) + ": " + ErrnoText(errno));
    struct stat st2;
    if (fstat(fd, &st2) != 0 || !S_ISREG(st2.st_mode) || st2.st_ino != st.st_ino) {
      close(fd);
      return Err(Describe(path) + ": changed while being opened");
    }
    return std::unique_ptr<RandomAccessFile>(new FdFile(fd, static_cast<uint64_t>(st2.st_size), Describe(path)));
  }

  Result<std::vector<std::string>> List(std::string_view path) const override {
    int raw = Open(path, O_RDONLY | O_DIRECTORY);
    if (raw < 0) return Err(Describe(path) + ": " + ErrnoText(errno));
    DIR* dir = fdopendir(raw);
    if (dir == nullptr) {
      close(raw);
      return Err(Describe(path) + ": " + ErrnoText(errno));
    }
    std::vector<std::string> names;
    while (dirent* entry = readdir(dir)) {
      std::string_view name = entry->d_name;
      if (name != "." && name != "..") names.emplace_back(name);
    }
    closedir(dir);
    std::sort(names.begin(), names.end());
    return names;
  }

  FileInfo Stat(std::string_view path) const override {
    struct stat st;
    if (own_root_) {
      if (stat(std::string(path).c_str(), &st) != 0) return FileInfo{};
      return FileInfo{TypeOf(st.st_mode), static_cast<uint64_t>(st.st_size)};
    }
    Fd fd(Open(path, O_PATH));
    if (!fd.ok() || fstat(fd.get(), &st) != 0) return FileInfo{};
    return FileInfo{TypeOf(st.st_mode), static_cast<uint64_t>(st.st_size)};
  }

  FileInfo LStat(std::string_view path) const override {
    std::string norm = NormalizePath(path);
    struct stat st;
    if (own_root_) {
      if (lstat(norm.c_str(), &st) != 0) return FileInfo{};
      return FileInfo{TypeOf(st.st_mode), static_cast<uint64_t>(st.st_size)};
    }
    if (norm == "/") return Stat(norm);
    Fd parent(Open(Dirname(norm), O_PATH | O_DIRECTORY));
    std::string name(Basename(norm));
    if (!parent.ok() || fstatat(parent.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      return FileInfo{};
    }
    return FileInfo{TypeOf(st.st_mode), static_cast<uint64_t>(st.st_size)};
  }

  Result<std::string> ReadLink(std::string_view path) const override {
    std::string norm = NormalizePath(path);
    char buf[4096];
    ssize_t n;
    if (own_root_) {
      n = readlink(norm.c_str(), buf, sizeof(buf));
    } else {
      Fd parent(Open(Dirname(norm), O_PATH | O_DIRECTORY));
      if (!parent.ok()) return Err(Describe(path) + ": " + ErrnoText(errno));
      std::string name(Basename(norm));
      n = readlinkat(parent.get(), name.c_str(), buf, sizeof(buf));
    }
    if (n < 0) return Err(Describe(path) + ": " + ErrnoText(errno));
    return std::string(buf, static_cast<size_t>(n));
  }

  Result<std::string> Resolve(std::string_view path) const override {
    // The kernel resolves: open the path (inside the root) and ask /proc where it landed.
    Fd fd(Open(path, O_PATH));
    if (!fd.ok()) {
      if (errno == ELOOP) return Err(Describe(path) + ": too many levels of symbolic links");
      if (errno == ENOENT || errno == ENOTDIR) return Err(Describe(path) + ": no such file or directory");
      return ResolveByHand(path);
    }
    char buf[4096];
    std::string link = "/proc/self/fd/" + std::to_string(fd.get());
    ssize_t n = readlink(link.c_str(), buf, sizeof(buf));
    if (n <= 0 || buf[0] != '/') return ResolveByHand(path);
    std::string host(buf, static_cast<size_t>(n));
    if (own_root_) return host;
    if (host == root_) return std::string("/");
    if (!StartsWith(host, root_ + "/")) return ResolveByHand(path);
    return host.substr(root_.size());
  }

  // Component by component, for kernels without openat2 or without /proc.
  Result<std::string> ResolveByHand(std::string_view path) const {
    std::string done = "/";
    std::vector<std::string> todo;
    const std::string normalized = NormalizePath(path);
    for (std::string_view p : Split(normalized, '/')) {
      if (!p.empty()) todo.emplace_back(p);
    }
    std::reverse(todo.begin(), todo.end());
    int hops = 0;
    while (!todo.empty()) {
      std::string part = std::move(todo.back());
      todo.pop_back();
      if (part == ".") continue;
      if (part == "..") {
        done = std::string(Dirname(done));
        continue;
      }
      std::string next = JoinPath(done, part);
      FileInfo info = LStat(next);
      if (!info.exists()) return Err(Describe(path) + ": no such file or directory");
      if (info.type != FileType::kSymlink) {
        done = next;
        continue;
      }
      if (++hops > kMaxSymlinkHops) return Err(Describe(path) + ": too many levels of symbolic links");
      auto target = ReadLink(next);
      if (!target) return Error{target.error()};
      if (StartsWith(*target, "/")) done = "/";
      std::vector<std::string_view> pieces = Split(*target, '/');
      for (auto it = pieces.rbegin(); it != pieces.rend(); ++it) {
        if (!it->empty()) todo.emplace_back(*it);
      }
    }
    return done;
  }

 private:
  std::string Describe(std::string_view path) const { return NormalizePath(path); }

  // Opens `path` with symbolic links resolved inside the root (openat2 RESOLVE_IN_ROOT; where the
  // kernel lacks it, the path is resolved by hand first).
  int Open(std::string_view path, int flags) const {
    if (root_fd_ < 0) {
      errno = ENOENT;
      return -1;
    }
    std::string rel = NormalizePath(path).substr(1);
    if (rel.empty()) rel = ".";
    if (own_root_) return openat(root_fd_, rel.c_str(), flags | O_CLOEXEC);
    if (have_openat2_) {
      open_how how{};
      how.flags = static_cast<uint64_t>(flags | O_CLOEXEC);
      how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
      long fd = syscall(SYS_openat2, root_fd_, rel.c_str(), &how, sizeof(how));
      if (fd >= 0 || (errno != ENOSYS && errno != EPERM)) return static_cast<int>(fd);
      have_openat2_ = false;
    }
    if (own_root_) return openat(root_fd_, rel.c_str(), flags | O_CLOEXEC);
    auto resolved = ResolveByHand(path);
    if (!resolved) {
      errno = ENOENT;
      return -1;
    }
    std::string inner = resolved->substr(1);
    return openat(root_fd_, inner.empty() ? "." : inner.c_str(), flags | O_CLOEXEC | O_NOFOLLOW);
  }

  Result<std::string> ReadAll(int fd, std::string_view path, size_t max_bytes, size_t hint) const {
    std::string out;
    out.resize(std::min(max_bytes, std::max<size_t>(hint + 1, 4096)));
    size_t used = 0;
    while (used < max_bytes) {
      if (used == out.size()) out.resize(std::min(max_bytes, out.size() * 2));
      ssize_t n = read(fd, out.data() + used, out.size() - used);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return Err(Describe(path) + ": " + ErrnoText(errno));
      if (n == 0) break;
      used += static_cast<size_t>(n);
      if (used < out.size() && used >= hint) break;  // a short read at the size fstat gave: EOF
    }
    out.resize(used);
    return out;
  }

  std::string root_;
  bool own_root_ = false;
  int root_fd_ = -1;
  mutable bool have_openat2_ = true;
};

}  // namespace

namespace {

class StringFile : public RandomAccessFile {
 public:
  explicit StringFile(std::string bytes) : bytes_(std::move(bytes)) {}
  uint64_t size() const override { return bytes_.size(); }
  Result<std::string> ReadAt(uint64_t offset, size_t len) const override {
    if (offset >= bytes_.size()) return std::string();
    return bytes_.substr(static_cast<size_t>(offset), len);
  }

 private:
  std::string bytes_;
};

}  // namespace

std::unique_ptr<RandomAccessFile> MakeStringFile(std::string bytes) {
  return std::make_unique<StringFile>(std::move(bytes));
}

std::unique_ptr<Fs> MakeRealFs(std::string root) { return std::make_unique<RealFs>(std::move(root)); }

// ---- FakeFs ----

FakeFs::FakeFs() { nodes_["/"] = Node{FileType::kDirectory, "", false}; }

void FakeFs::AddDir(std::string path) {
  path = NormalizePath(path);
  while (true) {
    nodes_.try_emplace(path, Node{FileType::kDirectory, "", false});
    if (path == "/") break;
    path = std::string(Dirname(path));
  }
}

void FakeFs::AddFile(std::string path, std::string content) {
  path = NormalizePath(path);
  AddDir(std::string(Dirname(path)));
  nodes_[path] = Node{FileType::kRegular, std::move(content), false};
}

void FakeFs::AddSymlink(std::string path, std::string target) {
  path = NormalizePath(path);
  AddDir(std::string(Dirname(path)));
  nodes_[path] = Node{FileType::kSymlink, std::move(target), false};
  ++symlinks_;
}

void FakeFs::AddSpecial(std::string path) {
  path = NormalizePath(path);
  AddDir(std::string(Dirname(path)));
  nodes_[path] = Node{FileType::kOther, "", false};
}

void FakeFs::MakeUnreadable(std::string path) { nodes_[NormalizePath(path)].unreadable = true; }

const FakeFs::Node* FakeFs::Find(const std::string& path) const {
  auto it = nodes_.find(path);
  return it == nodes_.end() ? nullptr : &it->second;
}

Result<std::string> FakeFs::ResolveImpl(std::string_view path, bool follow_last) const {
  if (symlinks_ == 0) {
    std::string norm = NormalizePath(path);
    if (Find(norm) == nullptr) return Err(norm + ": no such file or directory");
    return norm;
  }
  std::vector<std::string> todo;
  const std::string normalized = NormalizePath(path);
  for (std::string_view p : Split(normalized, '/')) {
    if (!p.empty()) todo.emplace_back(p);
  }
  std::reverse(todo.begin(), todo.end());
  std::string done = "/";
  int hops = 0;
  while (!todo.empty()) {
    std::string part = std::move(todo.back());
    todo.pop_back();
    if (part == "..") {
      done = std::string(Dirname(done));
      continue;
    }
    std::string next = JoinPath(done, part);
    const Node* node = Find(next);
    if (node == nullptr) return Err(next + ": no such file or directory");
    if (node->type != FileType::kSymlink || (todo.empty() && !follow_last)) {
      done = next;
      continue;
    }
    if (++hops > kMaxSymlinkHops) return Err(std::string(path) + ": too many levels of symbolic links");
    if (StartsWith(node->content, "/")) done = "/";
    std::vector<std::string_view> pieces = Split(node->content, '/');
    for (auto it = pieces.rbegin(); it != pieces.rend(); ++it) {
      if (!it->empty() && *it != ".") todo.emplace_back(*it);
    }
  }
  return done;
}

Result<std::string> FakeFs::Resolve(std::string_view path) const { return ResolveImpl(path, true); }

Result<std::string> FakeFs::Read(std::string_view path, size_t max_bytes) const {
  reads_.emplace_back(NormalizePath(path));
  auto resolved = ResolveImpl(path, true);
  if (!resolved) return Error{resolved.error()};
  const Node* node = Find(*resolved);
  if (node->unreadable) return Err(NormalizePath(path) + ": Permission denied");
  if (node->type != FileType::kRegular) return Err(NormalizePath(path) + ": not a regular file");
  return node->content.substr(0, max_bytes);
}

Result<std::unique_ptr<RandomAccessFile>> FakeFs::Open(std::string_view path) const {
  auto content = Read(path, std::string::npos);
  if (!content) return Error{content.error()};
  return MakeStringFile(std::move(*content));
}

Result<std::vector<std::string>> FakeFs::List(std::string_view path) const {
  auto resolved = ResolveImpl(path, true);
  if (!resolved) return Error{resolved.error()};
  const Node* node = Find(*resolved);
  if (node->type != FileType::kDirectory) return Err(NormalizePath(path) + ": Not a directory");
  if (node->unreadable) return Err(NormalizePath(path) + ": Permission denied");
  std::string prefix = *resolved == "/" ? "/" : *resolved + "/";
  std::vector<std::string> names;
  for (auto it = nodes_.lower_bound(prefix); it != nodes_.end() && StartsWith(it->first, prefix); ++it) {
    std::string_view rest = std::string_view(it->first).substr(prefix.size());
    if (!rest.empty() && rest.find('/') == std::string_view::npos) names.emplace_back(rest);
  }
  return names;
}

FileInfo FakeFs::Stat(std::string_view path) const {
  auto resolved = ResolveImpl(path, true);
  if (!resolved) return FileInfo{};
  const Node* node = Find(*resolved);
  return FileInfo{node->type, node->content.size()};
}

FileInfo FakeFs::LStat(std::string_view path) const {
  auto resolved = ResolveImpl(path, false);
  if (!resolved) return FileInfo{};
  const Node* node = Find(*resolved);
  return FileInfo{node->type, node->content.size()};
}

Result<std::string> FakeFs::ReadLink(std::string_view path) const {
  auto resolved = ResolveImpl(path, false);
  if (!resolved) return Error{resolved.error()};
  const Node* node = Find(*resolved);
  if (node->type != FileType::kSymlink) return Err(NormalizePath(path) + ": not a symbolic link");
  return node->content;
}

}  // namespace cudamatch
