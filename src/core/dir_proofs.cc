#include "core/dir_proofs.h"

#include <algorithm>
#include <charconv>
#include <utility>

namespace cudamatch {

namespace {

constexpr std::string_view kMagic = "cudamatch-dir-proofs 1";
constexpr size_t kMaxListing = 1000;  // larger listings are not kept (site directories)

uint64_t Fnv1a(std::string_view text) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  return h;
}

std::string Hex(uint64_t h) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < 16; ++i, h >>= 4) out += kHex[h & 15];
  return out;
}

bool Same(const FileInfo& a, const FileInfo& b) {
  return a.type == b.type && a.device == b.device && a.inode == b.inode && a.size == b.size &&
         a.mtime_ns == b.mtime_ns && a.ctime_ns == b.ctime_ns;
}

bool Plain(std::string_view s) { return !s.empty() && s.find('\n') == std::string_view::npos; }

template <typename T>
bool Number(std::string_view& rest, T& out) {
  size_t sp = rest.find(' ');
  if (sp == std::string_view::npos) return false;
  auto r = std::from_chars(rest.data(), rest.data() + sp, out);
  if (r.ec != std::errc() || r.ptr != rest.data() + sp) return false;
  rest.remove_prefix(sp + 1);
  return true;
}

// "D 2049 1311 4096 1764650000123456789 1764650000123456789 /home/u/miniconda3/envs/a"
bool ParseDir(std::string_view rest, std::string& path, FileInfo& info) {
  info.type = FileType::kDirectory;
  if (!Number(rest, info.device) || !Number(rest, info.inode) || !Number(rest, info.size) ||
      !Number(rest, info.mtime_ns) || !Number(rest, info.ctime_ns) || rest.empty()) {
    return false;
  }
  path = std::string(rest);
  return true;
}

}  // namespace

DirProofs::DirProofs(std::string root, int64_t now_ns, int64_t racy_ns)
    : root_(std::move(root)), now_ns_(now_ns), racy_ns_(racy_ns) {}

bool DirProofs::Load(std::string_view text) {
  size_t a = text.find('\n'), b = a == std::string_view::npos ? a : text.find('\n', a + 1);
  if (b == std::string_view::npos || text.substr(0, a) != kMagic) return false;
  std::string_view body = text.substr(b + 1);
  if (text.substr(a + 1, b - a - 1) != Hex(Fnv1a(body))) return false;
  std::map<std::string, DirProof, std::less<>> read;
  DirProof* cur = nullptr;
  bool first = true;
  while (!body.empty()) {
    size_t nl = body.find('\n');
    if (nl == std::string_view::npos) return false;
    std::string_view line = body.substr(0, nl);
    body.remove_prefix(nl + 1);
    if (first) {
      if (line != root_) return false;
      first = false;
    } else if (line.size() > 2 && line.substr(0, 2) == "D ") {
      std::string path;
      FileInfo info;
      if (!ParseDir(line.substr(2), path, info)) return false;
      cur = &read[path];
      cur->dir = info;
    } else if (cur != nullptr && line.size() > 2 && line.substr(0, 2) == "M ") {
      cur->missing.emplace(line.substr(2));
    } else if (cur != nullptr && line == "L") {
      cur->listed = true;
    } else if (cur != nullptr && cur->listed && line.size() > 2 && line.substr(0, 2) == "N ") {
      cur->names.emplace_back(line.substr(2));
    } else {
      return false;
    }
  }
  if (first) return false;
  for (auto& [path, proof] : read) std::sort(proof.names.begin(), proof.names.end());
  earlier_ = std::move(read);
  loaded_ = std::string(text);
  return true;
}

std::string DirProofs::Save() const {
  std::string body = root_ + "\n";
  for (const auto& [path, p] : next_) {
    const FileInfo& i = p.dir;
    body += "D " + std::to_string(i.device) + " " + std::to_string(i.inode) + " " + std::to_string(i.size) + " " +
            std::to_string(i.mtime_ns) + " " + std::to_string(i.ctime_ns) + " " + path + "\n";
    for (const std::string& m : p.missing) body += "M " + m + "\n";
    if (p.listed) {
      body += "L\n";
      for (const std::string& n : p.names) body += "N " + n + "\n";
    }
  }
  return std::string(kMagic) + "\n" + Hex(Fnv1a(body)) + "\n" + body;
}

bool DirProofs::Trusted(const FileInfo& info) const {
  return info.type == FileType::kDirectory && info.inode != 0 && info.mtime_ns != 0 && info.ctime_ns != 0 &&
         info.mtime_ns < now_ns_ - racy_ns_ && info.ctime_ns < now_ns_ - racy_ns_;
}

DirProof* DirProofs::Next(const std::string& dir, const FileInfo& info) {
  if (!Trusted(info) || !Plain(dir)) return nullptr;
  DirProof& p = next_[dir];
  if (!Same(p.dir, info)) p = DirProof{info, {}, false, {}};
  return &p;
}

const DirProof* DirProofs::Valid(const std::string& dir, const FileInfo& now) {
  auto it = earlier_.find(dir);
  if (it == earlier_.end() || !Same(it->second.dir, now)) return nullptr;
  return &it->second;
}

// What a proof answers is kept for the next run (only that: a large listing that answered
// whether one name is there is kept as that name).
bool DirProofs::ProvesMissing(const std::string& dir, const FileInfo& now, std::string_view name) {
  const DirProof* p = Valid(dir, now);
  if (p == nullptr) return false;
  bool missing = p->missing.count(name) != 0 || (p->listed && !std::binary_search(p->names.begin(), p->names.end(), name));
  if (missing) LearnMissing(dir, now, name);
  return missing;
}

const std::vector<std::string>* DirProofs::Listing(const std::string& dir, const FileInfo& now) {
  const DirProof* p = Valid(dir, now);
  if (p == nullptr || !p->listed) return nullptr;
  LearnListing(dir, now, p->names);
  return &p->names;
}

void DirProofs::LearnMissing(const std::string& dir, const FileInfo& info, std::string_view name) {
  if (!Plain(name)) return;
  if (DirProof* p = Next(dir, info)) p->missing.emplace(name);
}

void DirProofs::LearnListing(const std::string& dir, const FileInfo& info, const std::vector<std::string>& names) {
  if (names.size() > kMaxListing || !std::all_of(names.begin(), names.end(), Plain)) return;
  if (DirProof* p = Next(dir, info)) {
    p->listed = true;
    p->names = names;
    std::sort(p->names.begin(), p->names.end());
  }
}

std::string DirProofsName(std::string_view root) { return "dirs-" + Hex(Fnv1a(root)); }

}  // namespace cudamatch
