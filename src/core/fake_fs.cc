// FakeFs: an in-memory tree for tests.
#include <algorithm>

#include "core/fs.h"
#include "core/text.h"

namespace cudamatch {

namespace {
constexpr int kMaxSymlinkHops = 40;
}  // namespace

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

std::vector<Unreadable> FakeFs::unreadable() const {
  std::vector<Unreadable> out;
  for (const auto& [path, reason] : unreadable_) out.push_back(Unreadable{path, reason});
  return out;
}

Result<std::string> FakeFs::Resolve(std::string_view path) const { return ResolveImpl(path, true); }

Result<std::string> FakeFs::Read(std::string_view path, size_t max_bytes) const {
  reads_.emplace_back(NormalizePath(path));
  auto resolved = ResolveImpl(path, true);
  if (!resolved) return Error{resolved.error()};
  const Node* node = Find(*resolved);
  if (node->unreadable) {
    unreadable_.emplace(*resolved, "Permission denied");
    return Err(NormalizePath(path) + ": Permission denied");
  }
  if (node->type != FileType::kRegular) return Err(NormalizePath(path) + ": not a regular file");
  return node->content.substr(0, max_bytes);
}

Result<std::vector<std::string>> FakeFs::List(std::string_view path) const {
  auto resolved = ResolveImpl(path, true);
  if (!resolved) return Error{resolved.error()};
  const Node* node = Find(*resolved);
  if (node->type != FileType::kDirectory) return Err(NormalizePath(path) + ": Not a directory");
  if (node->unreadable) {
    unreadable_.emplace(*resolved, "Permission denied");
    return Err(NormalizePath(path) + ": Permission denied");
  }
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

Result<std::unique_ptr<RandomAccessFile>> FakeFs::Open(std::string_view path) const {
  auto content = Read(path, std::string::npos);
  if (!content) return Error{content.error()};
  return MakeStringFile(std::move(*content));
}

}  // namespace cudamatch
