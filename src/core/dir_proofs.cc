#include "core/dir_proofs.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <type_traits>
#include <utility>

#include "core/text.h"

namespace cudamatch {

namespace {

constexpr std::string_view kMagic = "cudamatch-dir-proofs 2";
constexpr size_t kMaxListing = 1000;  // larger listings are not kept (site directories)

bool Same(const FileInfo& a, const FileInfo& b) {
  return a.type == b.type && a.device == b.device && a.inode == b.inode && a.size == b.size &&
         a.mtime_ns == b.mtime_ns && a.ctime_ns == b.ctime_ns;
}

bool Plain(std::string_view s) { return !s.empty() && s.find('\n') == std::string_view::npos; }

// The decimal number before the next space (digits, for a signed type an optional '-'), and
// the rest after that space; false for anything else or a value out of range.
template <typename T>
bool Number(std::string_view& rest, T& out) {
  size_t i = 0;
  bool negative = std::is_signed_v<T> && !rest.empty() && rest[0] == '-';
  if (negative) ++i;
  using U = std::make_unsigned_t<T>;
  const U limit = negative ? U(std::numeric_limits<T>::max()) + 1 : U(std::numeric_limits<T>::max());
  U value = 0;
  size_t digits = 0;
  for (; i < rest.size() && rest[i] >= '0' && rest[i] <= '9'; ++i, ++digits) {
    U d = static_cast<U>(rest[i] - '0');
    if (digits >= 18 && value > (limit - d) / 10) return false;  // 18 digits never overflow 63 bits
    value = value * 10 + d;
  }
  if (digits == 0 || i >= rest.size() || rest[i] != ' ') return false;
  out = negative ? static_cast<T>(U(0) - value) : static_cast<T>(value);
  rest.remove_prefix(i + 1);
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
  if (text.substr(a + 1, b - a - 1) != Hex16(Checksum64(body))) return false;
  ProofMap read;
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
      cur->missing.emplace_back(line.substr(2));
    } else if (cur != nullptr && line == "L") {
      cur->listed = true;
    } else if (cur != nullptr && cur->listed && line.size() > 2 && line.substr(0, 2) == "N ") {
      cur->names.emplace_back(line.substr(2));
    } else {
      return false;
    }
  }
  if (first) return false;
  for (auto& [path, proof] : read) {
    for (std::vector<std::string>* list : {&proof.names, &proof.missing}) {
      if (!std::is_sorted(list->begin(), list->end())) std::sort(list->begin(), list->end());
      list->erase(std::unique(list->begin(), list->end()), list->end());
    }
    proof.missing_used.assign(proof.missing.size(), false);
  }
  earlier_ = std::move(read);
  loaded_ = std::string(text);
  return true;
}

std::map<std::string, DirProof> DirProofs::Kept() const {
  std::map<std::string, DirProof> kept;  // in path order: one set of proofs, one text
  for (const auto& [path, e] : earlier_) {
    if (!e.listing_used && std::find(e.missing_used.begin(), e.missing_used.end(), true) == e.missing_used.end()) continue;
    DirProof& k = kept[path];
    k.dir = e.dir;
    for (size_t i = 0; i < e.missing.size(); ++i) {
      if (e.missing_used[i]) k.missing.push_back(e.missing[i]);
    }
    if (e.listing_used) {
      k.listed = true;
      k.names = e.names;
    }
  }
  for (const auto& [path, n] : next_) {
    auto at = kept.find(path);
    if (at == kept.end() || !Same(at->second.dir, n.dir)) {
      kept[path] = DirProof{n.dir, n.missing, n.listed, n.names, {}, false};
      continue;
    }
    DirProof& k = at->second;
    std::vector<std::string> both;
    std::set_union(k.missing.begin(), k.missing.end(), n.missing.begin(), n.missing.end(), std::back_inserter(both));
    k.missing = std::move(both);
    if (n.listed) {
      k.listed = true;
      k.names = n.names;
    }
  }
  return kept;
}

std::string DirProofs::Save() const {
  std::map<std::string, DirProof> kept = Kept();
  std::vector<const std::pair<const std::string, DirProof>*> dirs;
  dirs.reserve(kept.size());
  for (const auto& entry : kept) dirs.push_back(&entry);
  std::string body = root_ + "\n";
  body.reserve(loaded_.size() + 4096);
  auto line = [&body](std::string_view mark, std::string_view text) {
    body += mark;
    body += text;
    body += '\n';
  };
  for (const auto* entry : dirs) {
    const DirProof& p = entry->second;
    const FileInfo& i = p.dir;
    body += "D ";
    for (uint64_t n : {i.device, i.inode, i.size}) {
      body += std::to_string(n);
      body += ' ';
    }
    body += std::to_string(i.mtime_ns);
    body += ' ';
    body += std::to_string(i.ctime_ns);
    line(" ", entry->first);
    for (const std::string& m : p.missing) line("M ", m);
    if (p.listed) {
      body += "L\n";
      for (const std::string& n : p.names) line("N ", n);
    }
  }
  return std::string(kMagic) + "\n" + Hex16(Checksum64(body)) + "\n" + body;
}

// Nothing learned that was not loaded, and every loaded proof used whole.
bool DirProofs::Unchanged() const {
  if (!next_.empty()) return false;
  for (const auto& [path, e] : earlier_) {
    if (e.listed != e.listing_used) return false;
    if (std::find(e.missing_used.begin(), e.missing_used.end(), false) != e.missing_used.end()) return false;
    if (!e.listed && e.missing.empty()) return false;
  }
  return true;
}

bool DirProofs::Trusted(const FileInfo& info) const {
  return info.type == FileType::kDirectory && info.inode != 0 && info.mtime_ns != 0 && info.ctime_ns != 0 &&
         info.mtime_ns < now_ns_ - racy_ns_ && info.ctime_ns < now_ns_ - racy_ns_;
}

DirProof* DirProofs::Next(std::string_view dir, const FileInfo& info) {
  if (!Trusted(info) || !Plain(dir)) return nullptr;
  auto it = next_.find(dir);
  if (it == next_.end()) it = next_.emplace(std::string(dir), DirProof{}).first;
  DirProof& p = it->second;
  if (!Same(p.dir, info)) p = DirProof{info, {}, false, {}};
  return &p;
}

DirProof* DirProofs::Valid(std::string_view dir, const FileInfo& now) {
  auto it = earlier_.find(dir);
  if (it == earlier_.end() || !Same(it->second.dir, now)) return nullptr;
  return &it->second;
}

// What a proof answers is kept for the next run (only that: a large listing that answered
// whether one name is there is kept as that name).
bool DirProofs::ProvesMissing(std::string_view dir, const FileInfo& now, std::string_view name) {
  DirProof* p = Valid(dir, now);
  if (p == nullptr) return false;
  auto at = std::lower_bound(p->missing.begin(), p->missing.end(), name);
  if (at != p->missing.end() && *at == name) {
    p->missing_used[static_cast<size_t>(at - p->missing.begin())] = true;
    return true;
  }
  bool missing = p->listed && !std::binary_search(p->names.begin(), p->names.end(), name);
  if (missing) LearnMissing(dir, now, name);
  return missing;
}

const std::vector<std::string>* DirProofs::Listing(std::string_view dir, const FileInfo& now) {
  DirProof* p = Valid(dir, now);
  if (p == nullptr || !p->listed) return nullptr;
  p->listing_used = true;
  return &p->names;
}

void DirProofs::LearnMissing(std::string_view dir, const FileInfo& info, std::string_view name) {
  if (!Plain(name)) return;
  if (DirProof* e = Trusted(info) ? Valid(dir, info) : nullptr) {  // known already: used
    auto at = std::lower_bound(e->missing.begin(), e->missing.end(), name);
    if (at != e->missing.end() && *at == name) {
      e->missing_used[static_cast<size_t>(at - e->missing.begin())] = true;
      return;
    }
  }
  if (DirProof* p = Next(dir, info)) {
    auto at = std::lower_bound(p->missing.begin(), p->missing.end(), name);
    if (at == p->missing.end() || *at != name) p->missing.emplace(at, name);
  }
}

void DirProofs::LearnListing(std::string_view dir, const FileInfo& info, const std::vector<std::string>& names) {
  if (names.size() > kMaxListing || !std::all_of(names.begin(), names.end(), Plain)) return;
  if (DirProof* e = Trusted(info) ? Valid(dir, info) : nullptr; e != nullptr && e->listed) {
    std::vector<std::string> sorted = names;
    std::sort(sorted.begin(), sorted.end());
    if (sorted == e->names) {
      e->listing_used = true;
      return;
    }
  }
  if (DirProof* p = Next(dir, info)) {
    p->listed = true;
    p->names = names;
    std::sort(p->names.begin(), p->names.end());
  }
}

std::string DirProofsName(std::string_view root) { return "dirs-" + Hex16(Checksum64(root)); }

}  // namespace cudamatch
