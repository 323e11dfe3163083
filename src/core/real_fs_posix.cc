// The machine's filesystem seen from a root. Under an image root every path is opened relative
// to the root's descriptor: with openat2(RESOLVE_IN_ROOT) where the kernel has it, else by a walk
// that opens one component at a time relative to its parent with O_NOFOLLOW and follows at most
// 40 symbolic links, so that no path, however it changes during the scan, leads outside the root.
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
#include <map>

#include "core/fs.h"
#include "core/text.h"

namespace cudamatch {

namespace {

constexpr int kMaxSymlinkHops = 40;  // as the kernel (MAXSYMLINKS)
constexpr size_t kMaxDepth = 256;    // directories deep, in one walk
constexpr int kOpenat2Retries = 4;   // tries of openat2 that a concurrent rename made fail

FileType TypeOf(mode_t mode) {
  if (S_ISREG(mode)) return FileType::kRegular;
  if (S_ISDIR(mode)) return FileType::kDirectory;
  if (S_ISLNK(mode)) return FileType::kSymlink;
  return FileType::kOther;
}

FileInfo InfoOf(const struct stat& st) {
  FileInfo info{TypeOf(st.st_mode), static_cast<uint64_t>(st.st_size)};
  info.device = static_cast<uint64_t>(st.st_dev);
  info.inode = static_cast<uint64_t>(st.st_ino);
  info.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  info.ctime_ns = static_cast<int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec;
  return info;
}

std::string ErrnoText(int err) { return std::strerror(err); }

// Errors that mean "it is there, but could not be read", as opposed to "it is not there".
bool IsUnreadableErrno(int err) { return err == EACCES || err == EPERM || err == EIO; }

class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  Fd(Fd&& o) noexcept : fd_(o.release()) {}
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) {
      if (fd_ >= 0) close(fd_);
      fd_ = o.release();
    }
    return *this;
  }
  int get() const { return fd_; }
  bool ok() const { return fd_ >= 0; }
  int release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

// Where a walk ended: the directory that holds the final component, and its name ("." for the
// root itself), with every symbolic link resolved.
struct WalkEnd {
  Fd parent;
  std::string name;
  std::string path;  // inside the root: "/usr/lib/libcuda.so.550.54.14"
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
  RealFs(std::string root, FsOptions options) : have_openat2_(options.use_openat2) {
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

  std::vector<Unreadable> unreadable() const override {
    std::vector<Unreadable> out;
    for (const auto& [path, reason] : unreadable_) out.push_back(Unreadable{path, reason});
    return out;
  }

  Result<std::string> Read(std::string_view path, size_t max_bytes) const override {
    struct stat st;
    auto fd = OpenRegular(path, &st);
    if (!fd) return Err(fd.error());
    Fd owned(*fd);
    return ReadAll(owned.get(), path, max_bytes, static_cast<size_t>(st.st_size));
  }

  Result<std::unique_ptr<RandomAccessFile>> Open(std::string_view path) const override {
    struct stat st;
    auto fd = OpenRegular(path, &st);
    if (!fd) return Err(fd.error());
    return std::unique_ptr<RandomAccessFile>(new FdFile(*fd, static_cast<uint64_t>(st.st_size), Describe(path)));
  }

  Result<std::vector<std::string>> List(std::string_view path) const override {
    int raw = Open(path, O_RDONLY | O_DIRECTORY);
    if (raw < 0) return Failed(path);
    DIR* dir = fdopendir(raw);
    if (dir == nullptr) {
      close(raw);
      return Failed(path);
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
    if (!StatPath(path, &st)) {
      NoteUnreadable(path, errno);
      return FileInfo{};
    }
    return InfoOf(st);
  }

  FileInfo LStat(std::string_view path) const override {
    std::string norm = NormalizePath(path);
    struct stat st;
    if (own_root_) {
      if (lstat(norm.c_str(), &st) != 0) return NoteUnreadable(norm, errno), FileInfo{};
      return InfoOf(st);
    }
    if (norm == "/") return Stat(norm);
    Fd parent(Open(Dirname(norm), O_PATH | O_DIRECTORY));
    std::string name(Basename(norm));
    if (!parent.ok() || fstatat(parent.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      return NoteUnreadable(norm, errno), FileInfo{};
    }
    return InfoOf(st);
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
    if (!own_root_ && !have_openat2_) {
      auto end = Walk(path, true);
      if (!end) return Err(Describe(path) + ": " + ErrnoText(errno));
      return end->path;
    }
    // The kernel resolves: open the path (inside the root) and ask /proc where it landed.
    Fd fd(Open(path, O_PATH));
    if (!fd.ok()) {
      if (errno == ELOOP) return Err(Describe(path) + ": too many levels of symbolic links");
      return Err(Describe(path) + ": " + ErrnoText(errno));
    }
    char buf[4096];
    std::string link = "/proc/self/fd/" + std::to_string(fd.get());
    ssize_t n = readlink(link.c_str(), buf, sizeof(buf));
    if (n > 0 && buf[0] == '/') {
      std::string host(buf, static_cast<size_t>(n));
      if (own_root_) return host;
      if (host == root_) return std::string("/");
      if (StartsWith(host, root_ + "/")) return host.substr(root_.size());
    }
    auto end = Walk(path, true);  // no /proc, or the root is reached by another name
    if (!end) return Err(Describe(path) + ": " + ErrnoText(errno));
    return end->path;
  }

 private:
  std::string Describe(std::string_view path) const { return NormalizePath(path); }

  Error Failed(std::string_view path) const {
    int err = errno;
    NoteUnreadable(path, err);
    return Err(Describe(path) + ": " + ErrnoText(err));
  }

  // Records a place that exists but could not be read. A path that cannot even be looked up
  // is recorded as the directory that cannot be searched.
  void NoteUnreadable(std::string_view path, int err) const {
    if (!IsUnreadableErrno(err)) return;
    std::string norm = NormalizePath(path);
    std::string place = norm;
    while (place != "/") {
      Fd probe(Open(place, O_PATH));
      if (probe.ok()) break;
      place = std::string(Dirname(place));
    }
    unreadable_.emplace(place, ErrnoText(err));
    errno = err;
  }

  // A regular file opened for reading, its type checked on the descriptor that is read: the path
  // is opened once with O_PATH (which opens no FIFO or device), that descriptor is checked, and
  // the same file is then opened for reading through it (/proc/self/fd), so a FIFO or device
  // swapped in after the check is never opened (and that descriptor needs no second fstat: it
  // opens the very inode checked). Without /proc the path is opened again and must still be the
  // file checked. `st` is the file's status.
  Result<int> OpenRegular(std::string_view path, struct stat* st) const {
    Fd checked(Open(path, O_PATH));
    if (!checked.ok() || fstat(checked.get(), st) != 0) return Failed(path);
    if (!S_ISREG(st->st_mode)) return Err(Describe(path) + ": not a regular file");
    std::string self = "/proc/self/fd/" + std::to_string(checked.get());
    int fd = open(self.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    bool reopened = fd >= 0;
    if (!reopened && errno == ENOENT) fd = Open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return Failed(path);
    if (reopened) return fd;  // the file the checked descriptor names: no second check needed
    struct stat st2;
    if (fstat(fd, &st2) != 0 || !S_ISREG(st2.st_mode) || st2.st_ino != st->st_ino || st2.st_dev != st->st_dev) {
      close(fd);
      return Err(Describe(path) + ": changed while being opened");
    }
    *st = st2;
    return fd;
  }

  bool StatPath(std::string_view path, struct stat* st) const {
    if (own_root_) return stat(NormalizePath(path).c_str(), st) == 0;
    Fd fd(Open(path, O_PATH));
    return fd.ok() && fstat(fd.get(), st) == 0;
  }

  // Opens `path` with symbolic links resolved inside the root.
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
      // EAGAIN: a rename or mount anywhere on the system raced a ".." of this path and the
      // kernel could not prove it stayed inside; a retry usually succeeds, and after a few the
      // walk below (which needs no such proof) answers this one path.
      bool raced = false;
      for (int attempt = 0; attempt < kOpenat2Retries; ++attempt) {
        long fd = syscall(SYS_openat2, root_fd_, rel.c_str(), &how, sizeof(how));
        if (fd >= 0) return static_cast<int>(fd);
        raced = errno == EAGAIN;
        if (!raced) break;
      }
      if (!raced) {
        if (errno != ENOSYS && errno != EPERM) return -1;
        have_openat2_ = false;
      }
    }
    auto end = Walk(path, true);
    if (!end) return -1;
    // O_NOFOLLOW: if the last component became a link since the walk, this fails (or, with
    // O_PATH, opens the link itself, which is no regular file or directory).
    return openat(end->parent.get(), end->name.c_str(), flags | O_CLOEXEC | O_NOFOLLOW);
  }

  // Resolves `path` component by component, each opened relative to its parent's descriptor
  // with O_NOFOLLOW; links are read and their targets walked the same way; ".." never climbs
  // above the root. Linear in the path and link lengths. nullopt with errno set on failure.
  std::optional<WalkEnd> Walk(std::string_view path, bool follow_last) const {
    std::vector<std::string> todo;
    PushComponents(NormalizePath(path), todo);
    std::vector<Fd> dirs;
    dirs.emplace_back(fcntl(root_fd_, F_DUPFD_CLOEXEC, 0));
    std::vector<std::string> names;
    int hops = 0;
    while (!todo.empty()) {
      std::string part = std::move(todo.back());
      todo.pop_back();
      if (part == ".") continue;
      if (part == "..") {
        if (dirs.size() > 1) dirs.pop_back(), names.pop_back();
        continue;
      }
      Fd next(openat(dirs.back().get(), part.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
      struct stat st;
      if (!next.ok() || fstat(next.get(), &st) != 0) return std::nullopt;
      bool last = todo.empty();
      if (S_ISLNK(st.st_mode) && (!last || follow_last)) {
        if (!FollowLink(next.get(), hops, todo, dirs, names)) return std::nullopt;
        continue;
      }
      if (!last && !S_ISDIR(st.st_mode)) return errno = ENOTDIR, std::nullopt;
      if (dirs.size() > kMaxDepth) return errno = ENAMETOOLONG, std::nullopt;
      dirs.push_back(std::move(next));
      names.push_back(std::move(part));
    }
    return Finish(dirs, names);
  }

  static void PushComponents(std::string_view path, std::vector<std::string>& todo) {
    std::vector<std::string_view> pieces = Split(path, '/');
    for (auto it = pieces.rbegin(); it != pieces.rend(); ++it) {
      if (!it->empty()) todo.emplace_back(*it);
    }
  }

  bool FollowLink(int link_fd, int& hops, std::vector<std::string>& todo, std::vector<Fd>& dirs,
                  std::vector<std::string>& names) const {
    if (++hops > kMaxSymlinkHops) return errno = ELOOP, false;
    char buf[PATH_MAX];
    ssize_t n = readlinkat(link_fd, "", buf, sizeof(buf));
    if (n < 0) return false;
    if (static_cast<size_t>(n) >= sizeof(buf)) return errno = ENAMETOOLONG, false;
    std::string_view target(buf, static_cast<size_t>(n));
    if (StartsWith(target, "/")) {
      dirs.resize(1);
      names.clear();
    }
    PushComponents(target, todo);
    return true;
  }

  static std::optional<WalkEnd> Finish(std::vector<Fd>& dirs, std::vector<std::string>& names) {
    WalkEnd end;
    for (const std::string& n : names) end.path += "/" + n;
    if (names.empty()) {
      end.path = "/";
      end.parent = std::move(dirs.front());
      end.name = ".";
      return end;
    }
    end.parent = std::move(dirs[dirs.size() - 2]);
    end.name = names.back();
    return end;
  }

  Result<std::string> ReadAll(int fd, std::string_view path, size_t max_bytes, size_t hint) const {
    std::string out;
    out.resize(std::min(max_bytes, std::max<size_t>(hint + 1, 4096)));
    size_t used = 0;
    while (used < max_bytes) {
      if (used == out.size()) out.resize(std::min(max_bytes, out.size() * 2));
      ssize_t n = read(fd, out.data() + used, out.size() - used);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return Failed(path);
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
  mutable std::map<std::string, std::string> unreadable_;
};

}  // namespace

std::unique_ptr<Fs> MakeRealFs(std::string root, FsOptions options) {
  return std::make_unique<RealFs>(std::move(root), options);
}

Result<std::string> ReadInputFile(const std::string& path, size_t cap) {
  std::string absolute = path;
  if (!StartsWith(path, "/")) {
    char buf[PATH_MAX];
    if (getcwd(buf, sizeof(buf)) == nullptr) return Err(path + ": " + ErrnoText(errno));
    absolute = std::string(buf) + "/" + path;
  }
  auto fs = MakeRealFs("/");
  FileInfo info = fs->Stat(absolute);
  if (!info.exists()) return Err(path + ": no such file");
  if (info.type == FileType::kDirectory) return Err(path + ": is a directory");
  if (info.type != FileType::kRegular) return Err(path + ": not a regular file");
  if (info.size > cap) return Err(path + ": larger than " + std::to_string(cap) + " bytes");
  auto text = fs->Read(absolute, cap + 1);
  if (!text) return Err(path + ": " + text.error().substr(text.error().find(": ") + 2));
  if (text->size() > cap) return Err(path + ": larger than " + std::to_string(cap) + " bytes");
  return text;
}

}  // namespace cudamatch
