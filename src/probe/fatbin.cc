#include "probe/fatbin.h"

#include <algorithm>
#include <tuple>

#include "probe/le_bytes.h"

namespace cudamatch {

namespace {

constexpr size_t kContainerHeader = 16;
constexpr size_t kEntryHeaderMin = 64;
constexpr uint16_t kKindPtx = 1;
constexpr uint16_t kKindElf = 2;
constexpr uint64_t kFlagCompressed = 0x2000;      // public descriptions of fatbinary.h
constexpr uint64_t kFlagCompressedZstd = 0x8000;  // nvcc 13.0 (-compress-mode, the default for PTX)
constexpr uint64_t kFlagArchSpecific = 0x100000;    // sm_90a / compute_90a (nvcc 13.0 objects)
constexpr uint64_t kFlagFamilySpecific = 0x200000;  // sm_100f / compute_100f (nvcc 13.0 objects)
constexpr size_t kMaxPadding = 256;              // zero bytes tolerated between containers

// Reads through a one-block cache: a container header and its first entry header, or the
// headers of small entries, come from one read.
class BlockReader {
 public:
  explicit BlockReader(const RandomAccessFile& f) : f_(f) {}
  Result<std::string> ReadAt(uint64_t pos, size_t len) {
    if (!(pos >= start_ && pos - start_ + len <= block_.size())) {
      auto b = f_.ReadAt(pos, std::max(len, kBlock));
      if (!b) return b;
      block_ = std::move(*b);
      start_ = pos;
    }
    if (pos - start_ >= block_.size()) return std::string();
    return block_.substr(static_cast<size_t>(pos - start_), len);
  }

 private:
  static constexpr size_t kBlock = 4096;
  const RandomAccessFile& f_;
  std::string block_;
  uint64_t start_ = 0;
};

uint64_t Align8(uint64_t v) { return (v + 7) & ~uint64_t{7}; }

std::string At(uint64_t pos) { return " at " + Hex(pos); }

void AddUnique(std::vector<int>& list, int arch) {
  auto it = std::lower_bound(list.begin(), list.end(), arch);
  if (it == list.end() || *it != arch) list.insert(it, arch);
}

// One entry header at `pos` inside a container ending at `end`; returns the next entry's position.
Result<uint64_t> ReadEntry(BlockReader& f, uint64_t pos, uint64_t end, const FatbinLimits& limits,
                           FatbinCode& code) {
  if (end - pos < kEntryHeaderMin) return Err("fatbin entry header truncated" + At(pos));
  auto b = f.ReadAt(pos, kEntryHeaderMin);
  if (!b) return Error{b.error()};
  if (b->size() < kEntryHeaderMin) return Err("fatbin entry header cut off by the end of the file" + At(pos));
  uint16_t kind = Le16(*b, 0);
  uint32_t header = Le32(*b, 4);
  uint64_t payload = Le64(*b, 8);
  uint32_t arch = Le32(*b, 28);
  uint64_t flags = Le64(*b, 40);
  if (header < kEntryHeaderMin || header > limits.max_entry_header) {
    return Err("fatbin entry header size " + std::to_string(header) + At(pos));
  }
  uint64_t room = end - pos;
  if (header > room || payload > room - header) {
    return Err("fatbin entry of " + std::to_string(payload) + " bytes" + At(pos) + " runs past its container's end " + Hex(end));
  }
  ++code.entries;
  if (flags & (kFlagCompressed | kFlagCompressedZstd)) ++code.compressed;
  if (arch == 0 || arch > 10000 || (kind != kKindPtx && kind != kKindElf)) {
    ++code.other;
  } else {
    bool elf = kind == kKindElf;
    std::vector<int>& list = (flags & kFlagArchSpecific)     ? (elf ? code.sass_a : code.ptx_a)
                             : (flags & kFlagFamilySpecific) ? (elf ? code.sass_f : code.ptx_f)
                                                             : (elf ? code.sass : code.ptx);
    AddUnique(list, static_cast<int>(arch));
  }
  return pos + header + payload;
}

// Zero padding before the next container: the position of the next non-zero 8-byte word.
Result<uint64_t> SkipPadding(BlockReader& f, uint64_t pos, uint64_t end) {
  auto b = f.ReadAt(pos, static_cast<size_t>(std::min<uint64_t>(kMaxPadding, end - pos)));
  if (!b) return Error{b.error()};
  size_t i = 0;
  while (i + 8 <= b->size() && Le64(*b, i) == 0) i += 8;
  if (i == b->size() && pos + i == end) return end;  // trailing padding
  if (i == 0 || i + 8 > b->size()) return Err("no fatbin container magic" + At(pos));
  return pos + i;
}

}  // namespace

Result<FatbinCode> ReadFatbin(const RandomAccessFile& file, uint64_t offset, uint64_t size, const FatbinLimits& limits) {
  if (offset > file.size() || size > file.size() - offset) {
    return Err("fatbin of " + std::to_string(size) + " bytes" + At(offset) + " runs past the end of the " +
               std::to_string(file.size()) + "-byte file");
  }
  BlockReader f(file);
  FatbinCode code;
  const uint64_t end = offset + size;
  uint64_t pos = offset;
  while (end - pos >= kContainerHeader) {
    auto h = f.ReadAt(pos, kContainerHeader);
    if (!h) return Error{h.error()};
    if (h->size() < kContainerHeader) return Err("fatbin container header cut off" + At(pos));
    if (Le32(*h, 0) != kFatbinMagic) {
      auto next = SkipPadding(f, pos, end);
      if (!next) return Error{next.error()};
      pos = *next;
      continue;
    }
    uint16_t header = Le16(*h, 6);
    uint64_t body = Le64(*h, 8);
    if (header < kContainerHeader || header > end - pos) return Err("fatbin container header size " + std::to_string(header) + At(pos));
    if (body > end - pos - header) {
      return Err("fatbin container of " + std::to_string(body) + " bytes" + At(pos) + " runs past the section's end " + Hex(end));
    }
    if (code.containers >= limits.max_containers) {
      code.partial = true;
      return code;
    }
    ++code.containers;
    uint64_t cend = pos + header + body;
    bool first_only = code.containers > limits.full_containers;
    code.sampled += first_only ? 1 : 0;
    for (uint64_t e = pos + header; e < cend && !(first_only && e > pos + header);) {
      if (code.entries >= limits.max_entries) {
        code.partial = true;
        return code;
      }
      auto next = ReadEntry(f, e, cend, limits, code);
      if (!next) return Error{next.error()};
      e = *next;
    }
    pos = std::min(end, Align8(cend));
  }
  return code;
}

const ElfSection* FatbinSection(const ElfInfo& elf) {
  if (const ElfSection* s = elf.Find(".nv_fatbin")) return s;
  return elf.Find("__nv_relfatbin");
}

std::string FatbinCodeNames(const FatbinCode& code) {
  // By architecture; at one architecture plain code first, then "a", then "f".
  std::vector<std::tuple<int, int, std::string>> names;
  auto add = [&](const std::vector<int>& list, const char* prefix, int rank, const char* suffix) {
    for (int a : list) names.emplace_back(a, rank, prefix + std::to_string(a) + suffix);
  };
  add(code.sass, "sm_", 0, "");
  add(code.sass_a, "sm_", 1, "a");
  add(code.sass_f, "sm_", 2, "f");
  size_t sass = names.size();
  add(code.ptx, "compute_", 0, "");
  add(code.ptx_a, "compute_", 1, "a");
  add(code.ptx_f, "compute_", 2, "f");
  std::sort(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(sass));
  std::sort(names.begin() + static_cast<std::ptrdiff_t>(sass), names.end());
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : " ") + std::get<2>(n);
  return out;
}

std::string FatbinCoverage(const FatbinCode& code) {
  std::string out = std::to_string(code.containers) + " fatbin containers, " + std::to_string(code.entries) + " entries read";
  if (code.sampled > 0) out += ", first entry only of " + std::to_string(code.sampled) + " containers";
  if (code.partial) out += ", stopped at the read limit";
  return out;
}

}  // namespace cudamatch
