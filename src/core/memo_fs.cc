#include "core/memo_fs.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <map>
#include <unordered_map>
#include <utility>

#include "core/text.h"

namespace cudamatch {

namespace {

// The memo's Stat and Resolve are answered from lstat where the path is no symbolic link (the same
// answer the layer below gives, with fewer calls).
// Files up to this size are remembered whole; all of them together up to kMaxBytes.
constexpr size_t kMaxFileBytes = 64 * 1024;
constexpr size_t kMaxBytes = 16 * 1024 * 1024;

class MemoFs : public Fs {
 public:
  MemoFs(std::unique_ptr<Fs> inner, DirProofs* proofs) : inner_(std::move(inner)), proofs_(proofs) {}

  Result<std::string> Read(std::string_view path, size_t max_bytes) const override {
    auto file = reads_.find(path);
    if (file != reads_.end()) {
      if (auto it = file->second.find(max_bytes); it != file->second.end()) return it->second;
    }
    Entry& e = At(path);
    if (ProvenMissing(e, path)) return NotFound(path);
    Result<std::string> r = inner_->Read(path, max_bytes);
    if (!r && Learning(e, path)) LStat(e, path);  // a missing file is learned
    size_t size = r ? r->size() : 0;
    if (size <= kMaxFileBytes && bytes_ + size <= kMaxBytes) {
      bytes_ += size;
      reads_[std::string(path)].emplace(max_bytes, r);
    }
    return r;
  }
  Result<std::unique_ptr<RandomAccessFile>> Open(std::string_view path) const override {
    if (ProvenMissing(At(path), path)) return NotFound(path);
    return inner_->Open(path);
  }
  Result<std::vector<std::string>> List(std::string_view path) const override {
    return Once(lists_, path, [&]() -> Result<std::vector<std::string>> {
      Entry& e = At(path);
      if (!Learning(e, path)) return inner_->List(path);
      std::string_view dir = path;
      FileInfo own = Stat(e, path);  // before the listing: a change after it is seen in the times
      if (!own.exists()) return NotFound(path);
      if (own.type != FileType::kDirectory) return inner_->List(path);
      if (const auto* names = proofs_->Listing(dir, own)) return *names;
      auto r = inner_->List(path);
      if (r) proofs_->LearnListing(dir, own, *r);
      return r;
    });
  }
  // What lstat says, unless the path is a link: one call for the two questions.
  FileInfo Stat(std::string_view path) const override { return Stat(At(path), path); }
  FileInfo LStat(std::string_view path) const override { return LStat(At(path), path); }
  Result<std::string> ReadLink(std::string_view path) const override {
    return Once(links_, path, [&] { return inner_->ReadLink(path); });
  }
  // A path that is no link, in a directory that resolves, resolves to that directory's path and
  // its own name: the directories of many environments share one resolution of their parents.
  Result<std::string> Resolve(std::string_view path) const override {
    return Once(resolved_, path, [&]() -> Result<std::string> {
      if (path.size() > 1 && IsNormalPath(path)) {
        FileInfo own = LStat(path);
        if (own.exists() && own.type != FileType::kSymlink) {
          if (auto dir = Resolve(Dirname(path))) return JoinPath(*dir, Basename(path));
        }
      }
      return inner_->Resolve(path);
    });
  }
  const std::string& root() const override { return inner_->root(); }
  std::vector<Unreadable> unreadable() const override { return inner_->unreadable(); }

 private:
  // What the memo knows of one path, found with one lookup: its lstat and stat, and the answers
  // about proofs that every path below a directory asks again.
  struct Entry {
    FileInfo lstat, stat;
    bool have_lstat = false, have_stat = false;
    int8_t learning = -1;       // Learning(path); -1: not asked yet
    int8_t known = -1;          // proofs_->Knows(path)
    int8_t missing_below = -1;  // ProvenBelow(path), for a directory no proof names
  };
  Entry& At(std::string_view path) const {
    auto it = entries_.find(path);
    if (it == entries_.end()) it = entries_.emplace(std::string(path), Entry{}).first;
    return it->second;  // stays where it is while entries are added (a node-based map)
  }

  FileInfo Stat(Entry& e, std::string_view path) const {
    if (!e.have_stat) {
      FileInfo own = LStat(e, path);
      e.stat = own.type == FileType::kSymlink ? inner_->Stat(path) : own;
      e.have_stat = true;
    }
    return e.stat;
  }
  FileInfo LStat(Entry& e, std::string_view path) const {
    if (e.have_lstat) return e.lstat;
    FileInfo info;
    if (!ProvenMissing(e, path)) {
      info = inner_->LStat(path);
      if (!info.exists() && Learning(e, path)) {
        std::string_view dir = Dirname(path);
        FileInfo parent = Stat(dir);  // the directory the name is looked up in; a missing one is learned in its parent
        if (parent.type == FileType::kDirectory) proofs_->LearnMissing(dir, parent, Basename(path));
      }
    }
    e.lstat = info;
    e.have_lstat = true;
    return info;
  }

  // Whether proofs may answer for `path`: an absolute, normalized path outside /proc, /sys, /dev.
  bool Learning(Entry& e, std::string_view path) const {
    if (e.learning < 0) e.learning = LearningPath(path) ? 1 : 0;
    return e.learning == 1;
  }
  bool LearningPath(std::string_view path) const {
    return proofs_ != nullptr && path.size() >= 2 && IsNormalPath(path) && !IsPseudoPath(path);
  }
  // A path an earlier run saw missing in a directory that lstat says is as it was, or below one.
  bool ProvenMissing(Entry& e, std::string_view path) const { return Learning(e, path) && ProvenBelow(path); }
  bool ProvenBelow(std::string_view path) const {  // `path` as Learning() takes it
    std::string_view dir = Dirname(path);
    Entry& d = At(dir);
    if (d.known < 0) d.known = proofs_->Knows(dir) ? 1 : 0;
    if (d.known == 1) {
      FileInfo parent = Stat(d, dir);
      return !parent.exists() || proofs_->ProvesMissing(dir, parent, Basename(path));
    }
    if (dir.size() <= 1) return false;
    // The answer for a directory serves every path below it (asked once a run, like a stat).
    if (d.missing_below < 0) d.missing_below = ProvenBelow(dir) ? 1 : 0;
    return d.missing_below == 1;
  }
  static Error NotFound(std::string_view path) { return Err(NormalizePath(path) + ": " + std::strerror(ENOENT)); }

  // Keyed by path, looked up without copying the path.
  struct PathHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return TextHash(s); }
  };
  template <typename T>
  using PathMap = std::unordered_map<std::string, T, PathHash, std::equal_to<>>;

  template <typename T, typename F>
  static T Once(PathMap<T>& memo, std::string_view path, F ask) {
    if (auto it = memo.find(path); it != memo.end()) return it->second;
    return memo.emplace(std::string(path), ask()).first->second;
  }

  std::unique_ptr<Fs> inner_;
  DirProofs* proofs_;
  mutable PathMap<Entry> entries_;
  mutable PathMap<std::map<size_t, Result<std::string>>> reads_;  // per path, per byte limit
  mutable size_t bytes_ = 0;
  mutable PathMap<Result<std::vector<std::string>>> lists_;
  mutable PathMap<Result<std::string>> links_, resolved_;
};

}  // namespace

std::unique_ptr<Fs> MakeMemoFs(std::unique_ptr<Fs> inner, DirProofs* proofs) {
  return std::make_unique<MemoFs>(std::move(inner), proofs);
}

}  // namespace cudamatch
