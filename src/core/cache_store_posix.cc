#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <ctime>
#include <utility>
#include <vector>

#include "core/cache_store.h"
#include "core/fs.h"

namespace cudamatch {

namespace {

// The effective user, asked once: every cache file and directory is checked against it.
uid_t Me() {
  static const uid_t me = geteuid();
  return me;
}

// Not a link, owned by this user, nobody else may write or enter.
bool OwnPrivateDir(int fd) {
  struct stat st;
  return fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == Me() && (st.st_mode & 077) == 0;
}

// Nobody but its owner (this user or root) may add, remove or rename entries in it.
bool SafeParent(int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode)) return false;
  if (st.st_uid != Me() && st.st_uid != 0) return false;
  return (st.st_mode & 022) == 0 || (st.st_mode & S_ISVTX) != 0;
}

// Opens `dir`, making it (0700) when missing; the parent is made too when missing.
int OpenOrMake(const std::string& dir, int flags) {
  int fd = open(dir.c_str(), flags | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0 || errno != ENOENT) return fd;
  if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) return -1;
  return open(dir.c_str(), flags | O_DIRECTORY | O_CLOEXEC);
}

class PosixCacheStore : public CacheStore {
 public:
  explicit PosixCacheStore(int dir_fd) : fd_(dir_fd) {}
  ~PosixCacheStore() override { close(fd_); }

  std::optional<std::string> Get(const std::string& name, size_t cap) const override {
    int fd = openat(fd_, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    struct stat st;
    std::optional<std::string> out;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == Me() && static_cast<uint64_t>(st.st_size) <= cap) {
      std::string text(static_cast<size_t>(st.st_size), '\0');
      size_t used = 0;
      while (used < text.size()) {
        ssize_t n = read(fd, text.data() + used, text.size() - used);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        used += static_cast<size_t>(n);
      }
      if (used == text.size()) out = std::move(text);
    }
    close(fd);
    return out;
  }

  bool Put(const std::string& name, const std::string& content) const override {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    std::string tmp = name + ".tmp." + std::to_string(getpid()) + "." + std::to_string(now.tv_nsec);
    int fd = openat(fd_, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) return false;
    size_t used = 0;
    while (used < content.size()) {
      ssize_t n = write(fd, content.data() + used, content.size() - used);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      used += static_cast<size_t>(n);
    }
    bool ok = close(fd) == 0 && used == content.size();
    if (ok) ok = renameat(fd_, tmp.c_str(), fd_, name.c_str()) == 0;
    if (!ok) unlinkat(fd_, tmp.c_str(), 0);
    return ok;
  }

  void Trim(const std::string& prefix, size_t keep) const override {
    int fd = openat(fd_, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR* dir = fd < 0 ? nullptr : fdopendir(fd);
    if (dir == nullptr) {
      if (fd >= 0) close(fd);
      return;
    }
    std::vector<std::pair<struct timespec, std::string>> files;
    while (struct dirent* e = readdir(dir)) {
      std::string name = e->d_name;
      struct stat st;
      if (name.compare(0, prefix.size(), prefix) != 0 || name.find(".tmp.") != std::string::npos) continue;
      if (fstatat(fd_, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) && st.st_uid == Me()) {
        files.emplace_back(st.st_mtim, std::move(name));
      }
    }
    closedir(dir);
    if (files.size() <= keep) return;
    std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) {
      return a.first.tv_sec != b.first.tv_sec ? a.first.tv_sec < b.first.tv_sec : a.first.tv_nsec < b.first.tv_nsec;
    });
    for (size_t i = 0; i + keep < files.size(); ++i) unlinkat(fd_, files[i].second.c_str(), 0);
  }

 private:
  int fd_;
};

}  // namespace

std::unique_ptr<CacheStore> OpenCacheStore(const std::string& dir) {
  std::string norm = NormalizePath(dir);
  if (dir.empty() || dir[0] != '/' || norm == "/") return nullptr;
  int parent = OpenOrMake(std::string(Dirname(norm)), O_RDONLY);
  if (parent < 0) return nullptr;
  std::string name(Basename(norm));
  int fd = -1;
  if (SafeParent(parent)) {
    if (mkdirat(parent, name.c_str(), 0700) == 0 || errno == EEXIST) {
      fd = openat(parent, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    }
  }
  close(parent);
  if (fd < 0) return nullptr;
  if (!OwnPrivateDir(fd)) {
    close(fd);
    return nullptr;
  }
  return std::make_unique<PosixCacheStore>(fd);
}

}  // namespace cudamatch
