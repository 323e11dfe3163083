#include "core/memo_fs.h"

#include <map>
#include <utility>

namespace cudamatch {

namespace {

// The memo's Stat and Resolve are answered from lstat where the path is no symbolic link (the same
// answer the layer below gives, with fewer calls).
// Files up to this size are remembered whole; all of them together up to kMaxBytes.
constexpr size_t kMaxFileBytes = 64 * 1024;
constexpr size_t kMaxBytes = 16 * 1024 * 1024;

class MemoFs : public Fs {
 public:
  explicit MemoFs(std::unique_ptr<Fs> inner) : inner_(std::move(inner)) {}

  Result<std::string> Read(std::string_view path, size_t max_bytes) const override {
    auto key = std::pair(std::string(path), max_bytes);
    if (auto it = reads_.find(key); it != reads_.end()) return it->second;
    Result<std::string> r = inner_->Read(path, max_bytes);
    size_t size = r ? r->size() : 0;
    if (size <= kMaxFileBytes && bytes_ + size <= kMaxBytes) {
      bytes_ += size;
      reads_.emplace(std::move(key), r);
    }
    return r;
  }
  Result<std::unique_ptr<RandomAccessFile>> Open(std::string_view path) const override { return inner_->Open(path); }
  Result<std::vector<std::string>> List(std::string_view path) const override {
    return Once(lists_, path, [&] { return inner_->List(path); });
  }
  // What lstat says, unless the path is a link: one call for the two questions.
  FileInfo Stat(std::string_view path) const override {
    return Once(stats_, path, [&] {
      FileInfo own = LStat(path);
      return own.type == FileType::kSymlink ? inner_->Stat(path) : own;
    });
  }
  FileInfo LStat(std::string_view path) const override {
    return Once(lstats_, path, [&] { return inner_->LStat(path); });
  }
  Result<std::string> ReadLink(std::string_view path) const override {
    return Once(links_, path, [&] { return inner_->ReadLink(path); });
  }
  // A path that is no link, in a directory that resolves, resolves to that directory's path and
  // its own name: the directories of many environments share one resolution of their parents.
  Result<std::string> Resolve(std::string_view path) const override {
    return Once(resolved_, path, [&]() -> Result<std::string> {
      if (path.size() > 1 && path[0] == '/' && NormalizePath(path) == path) {
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
  template <typename T, typename F>
  static T Once(std::map<std::string, T, std::less<>>& memo, std::string_view path, F ask) {
    if (auto it = memo.find(path); it != memo.end()) return it->second;
    return memo.emplace(std::string(path), ask()).first->second;
  }

  std::unique_ptr<Fs> inner_;
  mutable std::map<std::pair<std::string, size_t>, Result<std::string>> reads_;
  mutable size_t bytes_ = 0;
  mutable std::map<std::string, Result<std::vector<std::string>>, std::less<>> lists_;
  mutable std::map<std::string, FileInfo, std::less<>> stats_, lstats_;
  mutable std::map<std::string, Result<std::string>, std::less<>> links_, resolved_;
};

}  // namespace

std::unique_ptr<Fs> MakeMemoFs(std::unique_ptr<Fs> inner) { return std::make_unique<MemoFs>(std::move(inner)); }

}  // namespace cudamatch
