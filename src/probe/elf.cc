#include "probe/elf.h"

#include <algorithm>

#include "core/text.h"
#include "probe/le_bytes.h"

namespace cudamatch {

namespace {

constexpr size_t kEhdrSize = 64;
constexpr size_t kShdrSize = 64;
constexpr size_t kDynSize = 16;
constexpr int64_t kDtNull = 0, kDtNeeded = 1, kDtSoname = 14, kDtRpath = 15, kDtRunpath = 29;

struct Header {
  uint16_t type, machine, shentsize, shnum, shstrndx;
  uint64_t shoff;
};

Result<Header> ParseHeader(std::string_view b, uint64_t file_size, const ElfLimits& limits) {
  if (b.size() < kEhdrSize) return Err("ELF header truncated: " + std::to_string(b.size()) + " of 64 bytes");
  if (!LooksLikeElf(b)) return Err("not an ELF file (no \\x7fELF magic)");
  if (b[4] != 2) return Err("not a 64-bit ELF file (class " + std::to_string(static_cast<int>(b[4])) + ")");
  if (b[5] != 1) return Err("not a little-endian ELF file (data encoding " + std::to_string(static_cast<int>(b[5])) + ")");
  Header h{Le16(b, 16), Le16(b, 18), Le16(b, 58), Le16(b, 60), Le16(b, 62), Le64(b, 40)};
  if (h.shnum == 0) return h;  // no section headers (or the count is in section 0: not used by linkers here)
  if (h.shnum > limits.max_sections) {
    return Err(std::to_string(h.shnum) + " sections, over the limit of " + std::to_string(limits.max_sections));
  }
  if (h.shentsize != kShdrSize) return Err("section header size " + std::to_string(h.shentsize) + ", expected 64");
  if (h.shoff < kEhdrSize) return Err("section headers at " + Hex(h.shoff) + " overlap the ELF header");
  uint64_t table = uint64_t{h.shnum} * kShdrSize;
  if (h.shoff > file_size || table > file_size - h.shoff) {
    return Err("section headers at " + Hex(h.shoff) + " (" + std::to_string(h.shnum) + " x 64 bytes) run past the end of the " +
               std::to_string(file_size) + "-byte file");
  }
  if (h.shstrndx >= h.shnum) return Err("section name table index " + std::to_string(h.shstrndx) + " out of range");
  return h;
}

Result<ElfSection> ParseSection(std::string_view b, size_t at, uint64_t file_size) {
  ElfSection s;
  s.type = Le32(b, at + 4);
  s.offset = Le64(b, at + 24);
  s.size = Le64(b, at + 32);
  s.link = Le32(b, at + 40);
  if (s.type != kShtNobits && (s.offset > file_size || s.size > file_size - s.offset)) {
    return Err("section at " + Hex(s.offset) + " of " + std::to_string(s.size) + " bytes runs past the end of the " +
               std::to_string(file_size) + "-byte file");
  }
  return s;
}

// Sections with file content must not overlap each other.
Status CheckOverlaps(const std::vector<ElfSection>& sections) {
  std::vector<const ElfSection*> placed;
  for (const ElfSection& s : sections) {
    if (s.type != kShtNobits && s.type != 0 && s.size > 0) placed.push_back(&s);
  }
  std::sort(placed.begin(), placed.end(), [](auto* a, auto* b) { return a->offset < b->offset; });
  for (size_t i = 1; i < placed.size(); ++i) {
    const ElfSection& a = *placed[i - 1];
    const ElfSection& b = *placed[i];
    if (a.offset + a.size > b.offset) {
      return Err("sections \"" + a.name + "\" and \"" + b.name + "\" overlap at " + Hex(b.offset));
    }
  }
  return Status::Ok();
}

Status NameSections(const RandomAccessFile& f, const ElfLimits& limits, uint16_t shstrndx,
                    std::vector<ElfSection>& sections, const std::vector<uint32_t>& name_offsets) {
  const ElfSection& table = sections[shstrndx];
  if (table.type == kShtNobits) return Err("section name table has no content");
  if (table.size > limits.max_names_bytes) {
    return Err("section name table of " + std::to_string(table.size) + " bytes exceeds the " +
               std::to_string(limits.max_names_bytes) + "-byte limit");
  }
  auto names = f.ReadAt(table.offset, static_cast<size_t>(table.size));
  if (!names) return Error{names.error()};
  if (names->size() != table.size) return Err("section name table truncated");
  for (size_t i = 0; i < sections.size(); ++i) {
    uint32_t off = name_offsets[i];
    if (off >= names->size()) return Err("section " + std::to_string(i) + " name offset " + Hex(off) + " out of range");
    size_t end = names->find('\0', off);
    if (end == std::string::npos) return Err("section " + std::to_string(i) + " name not terminated");
    sections[i].name = names->substr(off, end - off);
  }
  return Status::Ok();
}

// A NUL-terminated string of .dynstr: a short read first (names are short), the rest up to `cap`
// only when no NUL was in it.
Result<std::string> ReadString(const RandomAccessFile& f, const ElfSection& strtab, uint64_t off, size_t cap) {
  if (off >= strtab.size) return Err("dynamic string offset " + Hex(off) + " outside .dynstr");
  size_t len = static_cast<size_t>(std::min<uint64_t>(cap, strtab.size - off));
  auto bytes = f.ReadAt(strtab.offset + off, std::min<size_t>(len, 256));
  if (!bytes) return Error{bytes.error()};
  if (bytes->find('\0') == std::string::npos && len > bytes->size()) bytes = f.ReadAt(strtab.offset + off, len);
  if (!bytes) return Error{bytes.error()};
  size_t end = bytes->find('\0');
  if (end == std::string::npos) return Err("dynamic string at " + Hex(off) + " longer than " + std::to_string(cap) + " bytes");
  bytes->resize(end);
  return std::move(*bytes);
}

// What the dynamic section adds up to, against the caps of ElfLimits.
struct DynamicTally {
  size_t needed = 0;       // DT_NEEDED entries seen
  size_t dirs = 0;         // RPATH / RUNPATH directories seen
  size_t string_bytes = 0; // bytes of strings read
  bool bytes_cut = false;
};

bool Wanted(int64_t tag) { return tag == kDtNeeded || tag == kDtSoname || tag == kDtRpath || tag == kDtRunpath; }

void AddDirs(std::string_view text, const ElfLimits& limits, DynamicTally& t, ElfInfo& info, int64_t tag) {
  auto& list = tag == kDtRpath ? info.rpath : info.runpath;
  for (std::string_view p : Split(text, ':')) {
    if (p.empty()) continue;
    if (t.dirs++ < limits.max_search_dirs) list.emplace_back(p);
  }
}

void NoteCuts(const ElfLimits& limits, const DynamicTally& t, ElfInfo& info) {
  if (t.needed > limits.max_needed) {
    info.cut.push_back(std::to_string(t.needed) + " DT_NEEDED entries: the first " + std::to_string(limits.max_needed) + " kept");
  }
  if (t.dirs > limits.max_search_dirs) {
    info.cut.push_back(std::to_string(t.dirs) + " DT_RPATH/DT_RUNPATH directories: the first " +
                       std::to_string(limits.max_search_dirs) + " kept");
  }
  if (t.bytes_cut) {
    info.cut.push_back("dynamic strings past " + std::to_string(limits.max_string_bytes) + " bytes in all: not read");
  }
}

Status ReadDynamic(const RandomAccessFile& f, const ElfLimits& limits, ElfInfo& info) {
  const ElfSection* dyn = nullptr;
  for (const ElfSection& s : info.sections) {
    if (s.type == kShtDynamic) dyn = &s;
  }
  if (dyn == nullptr) return Status::Ok();
  if (dyn->link >= info.sections.size()) return Err(".dynamic links to section " + std::to_string(dyn->link) + ", out of range");
  const ElfSection strtab = info.sections[dyn->link];
  uint64_t count = dyn->size / kDynSize;
  if (count > limits.max_dynamic_entries) {
    return Err(".dynamic has " + std::to_string(count) + " entries, over the limit of " + std::to_string(limits.max_dynamic_entries));
  }
  auto table = f.ReadAt(dyn->offset, static_cast<size_t>(count * kDynSize));
  if (!table) return Error{table.error()};
  if (table->size() != count * kDynSize) return Err(".dynamic truncated");
  DynamicTally t;
  for (size_t at = 0; at + kDynSize <= table->size(); at += kDynSize) {
    int64_t tag = static_cast<int64_t>(Le64(*table, at));
    uint64_t val = Le64(*table, at + 8);
    if (tag == kDtNull) break;
    if (!Wanted(tag)) continue;
    if (tag == kDtNeeded && t.needed++ >= limits.max_needed) continue;
    if (t.string_bytes >= limits.max_string_bytes) {
      t.bytes_cut = true;
      continue;
    }
    auto text = ReadString(f, strtab, val, limits.max_string);
    if (!text) return Error{text.error()};
    t.string_bytes += text->size() + 1;
    if (tag == kDtNeeded) info.needed.push_back(std::move(*text));
    if (tag == kDtSoname) info.soname = std::move(*text);
    if (tag == kDtRpath || tag == kDtRunpath) AddDirs(*text, limits, t, info, tag);
  }
  NoteCuts(limits, t, info);
  return Status::Ok();
}

constexpr size_t kSymSize = 24;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsSeqChar(char c) { return IsDigit(c) || (c >= 'A' && c <= 'Z'); }

// The end of a substitution S<seq-id>_ / S_ starting at `i`, or npos when it is no substitution.
size_t SubstitutionEnd(std::string_view n, size_t i) {
  size_t j = i + 1;
  while (j < n.size() && IsSeqChar(n[j])) ++j;
  return j < n.size() && n[j] == '_' ? j + 1 : std::string_view::npos;
}

constexpr uint8_t kStbWeak = 2;

void Classify(std::string_view name, bool defined, uint8_t binding, const ElfLimits& limits, TorchSymbols& out,
              size_t& dropped) {
  if (!IsTorchApiSymbol(name)) return;
  if (!defined && binding != kStbWeak) {
    if (out.needs.size() < limits.max_needed_symbols) out.needs.emplace_back(name);
    else ++dropped;
  }
  std::optional<bool> abi = MangledCxx11Abi(name);
  if (!abi) return;
  std::string& slot = defined ? (*abi ? out.defines_cxx11 : out.defines_old) : (*abi ? out.needs_cxx11 : out.needs_old);
  if (slot.empty()) slot = std::string(name);
}

}  // namespace

// Walks the mangled name a token at a time: a <source-name> (length, identifier) is skipped
// whole so that its letters are never read as codes; "Ss" is the old ABI's std::string, the
// identifier __cxx11 the new ABI's inline namespace (std::__cxx11::basic_string).
std::optional<bool> MangledCxx11Abi(std::string_view n) {
  std::optional<bool> out;
  size_t i = 0;
  while (i < n.size()) {
    if (IsDigit(n[i])) {
      size_t len = 0;
      while (i < n.size() && IsDigit(n[i]) && len < n.size()) len = len * 10 + static_cast<size_t>(n[i++] - '0');
      std::string_view id = n.substr(i, std::min(len, n.size() - i));
      if (id == "__cxx11") return true;
      if (id == "basic_string") out = false;
      i += id.size();
    } else if (n[i] == 'S' && i + 1 < n.size()) {
      if (n[i + 1] == 's') out = false;
      size_t end = SubstitutionEnd(n, i);
      i = end == std::string_view::npos ? i + 2 : end;
    } else {
      ++i;
    }
  }
  return out;
}

bool IsTorchApiSymbol(std::string_view name) {
  return StartsWith(name, "_ZN3c10") || StartsWith(name, "_ZN2at") || StartsWith(name, "_ZN5torch") ||
         StartsWith(name, "_ZNK3c10") || StartsWith(name, "_ZNK2at") || StartsWith(name, "_ZNK5torch");
}

Result<TorchSymbols> ReadTorchSymbols(const RandomAccessFile& f, const ElfInfo& info, const ElfLimits& limits) {
  TorchSymbols out;
  const ElfSection* sym = nullptr;
  for (const ElfSection& s : info.sections) {
    if (s.type == kShtDynsym) sym = &s;
  }
  if (sym == nullptr) return out;
  if (sym->link >= info.sections.size()) return Err(".dynsym links to section " + std::to_string(sym->link) + ", out of range");
  const ElfSection& strtab = info.sections[sym->link];
  if (strtab.type == kShtNobits) return Err(".dynsym's string table has no content");
  uint64_t count = sym->size / kSymSize;
  if (count > limits.max_symbols) {
    out.cut.push_back(std::to_string(count) + " dynamic symbols: the first " + std::to_string(limits.max_symbols) + " read");
    count = limits.max_symbols;
  }
  uint64_t names_size = std::min<uint64_t>(strtab.size, limits.max_symbol_names);
  if (names_size < strtab.size) {
    out.cut.push_back("dynamic symbol names past " + std::to_string(limits.max_symbol_names) + " bytes: not read");
  }
  auto names = f.ReadAt(strtab.offset, static_cast<size_t>(names_size));
  if (!names) return Error{names.error()};
  constexpr uint64_t kChunk = 4096;  // symbols a read
  size_t dropped = 0;
  for (uint64_t first = 0; first < count; first += kChunk) {
    uint64_t n = std::min(kChunk, count - first);
    auto table = f.ReadAt(sym->offset + first * kSymSize, static_cast<size_t>(n * kSymSize));
    if (!table) return Error{table.error()};
    if (table->size() != n * kSymSize) return Err(".dynsym truncated");
    for (size_t at = 0; at < table->size(); at += kSymSize) {
      uint32_t off = Le32(*table, at);
      if (off == 0 || off >= names->size()) continue;
      size_t end = names->find('\0', off);
      if (end == std::string::npos) continue;  // cut by the cap
      Classify(std::string_view(*names).substr(off, end - off), Le16(*table, at + 6) != 0,
               static_cast<uint8_t>(static_cast<unsigned char>((*table)[at + 4]) >> 4), limits, out, dropped);
    }
  }
  if (dropped > 0) {
    out.cut.push_back(std::to_string(dropped) + " torch symbols needed past the first " +
                      std::to_string(limits.max_needed_symbols) + ": not looked up");
  }
  return out;
}

namespace {

// The GNU hash of a symbol name (h = h * 33 + c from 5381, 32 bits).
uint32_t GnuHash(std::string_view name) {
  uint32_t h = 5381;
  for (char c : name) h = h * 33 + static_cast<unsigned char>(c);
  return h;
}

}  // namespace

Result<ElfSymbolIndex> ElfSymbolIndex::Open(const RandomAccessFile& f, const ElfInfo& info, const ElfLimits& limits) {
  const ElfSection* hash = nullptr;
  const ElfSection* sym = nullptr;
  for (const ElfSection& s : info.sections) {
    if (s.type == kShtGnuHash) hash = &s;
    if (s.type == kShtDynsym) sym = &s;
  }
  if (hash == nullptr) return Err("no .gnu.hash section");
  if (sym == nullptr) return Err("no .dynsym section");
  if (sym->link >= info.sections.size()) return Err(".dynsym links to section " + std::to_string(sym->link) + ", out of range");
  if (hash->size > limits.max_hash_bytes) {
    return Err(".gnu.hash of " + std::to_string(hash->size) + " bytes exceeds the " + std::to_string(limits.max_hash_bytes) +
               "-byte limit");
  }
  auto table = f.ReadAt(hash->offset, static_cast<size_t>(hash->size));
  if (!table) return Error{table.error()};
  if (table->size() != hash->size || table->size() < 16) return Err(".gnu.hash truncated");
  uint64_t nbuckets = Le32(*table, 0), bloom_words = Le32(*table, 8);
  ElfSymbolIndex index;
  index.symoffset_ = Le32(*table, 4);
  index.bloom_shift_ = Le32(*table, 12);
  uint64_t buckets_at = 16 + bloom_words * 8, chain_at = buckets_at + nbuckets * 4;
  if (nbuckets == 0 || bloom_words == 0 || chain_at > table->size()) return Err(".gnu.hash header does not fit its section");
  uint64_t symbols = sym->size / kSymSize;
  if (index.symoffset_ > symbols) return Err(".gnu.hash starts past the end of .dynsym");
  uint64_t chain_len = std::min<uint64_t>((table->size() - chain_at) / 4, symbols - index.symoffset_);
  index.file_ = &f;
  index.dynsym_ = *sym;
  index.dynstr_ = info.sections[sym->link];
  index.bloom_ = table->substr(16, static_cast<size_t>(bloom_words * 8));
  index.buckets_ = table->substr(static_cast<size_t>(buckets_at), static_cast<size_t>(nbuckets * 4));
  index.chain_ = table->substr(static_cast<size_t>(chain_at), static_cast<size_t>(chain_len * 4));
  return index;
}

Result<bool> ElfSymbolIndex::Defines(std::string_view name) const {
  uint32_t h = GnuHash(name);
  uint64_t words = bloom_.size() / 8;
  uint64_t word = Le64(bloom_, static_cast<size_t>((h / 64) % words) * 8);
  uint64_t mask = (uint64_t{1} << (h % 64)) | (uint64_t{1} << ((h >> bloom_shift_) % 64));
  if ((word & mask) != mask) return false;
  uint32_t index = Le32(buckets_, (h % (buckets_.size() / 4)) * 4);
  if (index == 0 || index < symoffset_) return false;
  for (uint64_t i = index - symoffset_; i < chain_.size() / 4; ++i) {
    uint32_t value = Le32(chain_, static_cast<size_t>(i) * 4);
    if ((value | 1) == (h | 1)) {
      auto entry = file_->ReadAt(dynsym_.offset + (i + symoffset_) * kSymSize, kSymSize);
      if (!entry) return Error{entry.error()};
      if (entry->size() != kSymSize) return Err(".dynsym truncated");
      auto text = ReadString(*file_, dynstr_, Le32(*entry, 0), name.size() + 1);
      bool defined = Le16(*entry, 6) != 0 && (static_cast<unsigned char>((*entry)[4]) >> 4) != 0;
      if (text && *text == name && defined) return true;
    }
    if (value & 1) break;
  }
  return false;
}

bool LooksLikeElf(std::string_view head) { return head.size() >= 4 && head.substr(0, 4) == "\x7f" "ELF"; }

const ElfSection* ElfInfo::Find(std::string_view name) const {
  for (const ElfSection& s : sections) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

Result<ElfInfo> ReadElf(const RandomAccessFile& f, const ElfLimits& limits) {
  auto head = f.ReadAt(0, kEhdrSize);
  if (!head) return Error{head.error()};
  auto h = ParseHeader(*head, f.size(), limits);
  if (!h) return Error{h.error()};
  ElfInfo info;
  info.type = h->type;
  info.machine = h->machine;
  if (h->shnum == 0) return info;
  auto table = f.ReadAt(h->shoff, size_t{h->shnum} * kShdrSize);
  if (!table) return Error{table.error()};
  if (table->size() != size_t{h->shnum} * kShdrSize) return Err("section headers truncated");
  std::vector<uint32_t> name_offsets;
  for (size_t i = 0; i < h->shnum; ++i) {
    auto s = ParseSection(*table, i * kShdrSize, f.size());
    if (!s) return Err("section " + std::to_string(i) + ": " + s.error());
    info.sections.push_back(std::move(*s));
    name_offsets.push_back(Le32(*table, i * kShdrSize));
  }
  if (Status st = NameSections(f, limits, h->shstrndx, info.sections, name_offsets); !st) return Error{st.error()};
  if (Status st = CheckOverlaps(info.sections); !st) return Error{st.error()};
  if (Status st = ReadDynamic(f, limits, info); !st) return Error{st.error()};
  return info;
}

}  // namespace cudamatch
