#include "tests/unit/fatbin_util.h"

#include <algorithm>
#include <stdexcept>

#include "probe/elf.h"
#include "probe/le_bytes.h"
#include "tests/unit/test_util.h"

namespace cudamatch::testing {

std::string FatbinFixture(const std::string& name) { return ReadSource("tests/fixtures/fatbin/" + name); }

SparseLayout MoveFatbinNearEnd(const std::string& object, uint64_t size) {
  auto elf = ReadElf(*MakeStringFile(object));
  if (!elf) throw std::runtime_error(elf.error());
  uint64_t shoff = Le64(object, 40);
  SparseLayout out;
  out.head = object;
  out.size = size;
  for (size_t i = 0; i < elf->sections.size(); ++i) {
    const ElfSection& s = elf->sections[i];
    if (s.name != ".nv_fatbin") continue;
    out.fatbin = object.substr(static_cast<size_t>(s.offset), static_cast<size_t>(s.size));
    out.fatbin_offset = (size - 65536 - s.size) & ~uint64_t{7};
    size_t at = static_cast<size_t>(shoff + i * 64 + 24);
    for (size_t b = 0; b < 8; ++b) out.head[at + b] = static_cast<char>((out.fatbin_offset >> (8 * b)) & 0xff);
  }
  if (out.fatbin.empty()) throw std::runtime_error("no .nv_fatbin section");
  return out;
}

SparseFile SparseFile::WithFatbinNearEnd(const std::string& object, uint64_t size) {
  SparseFile f;
  f.layout_ = MoveFatbinNearEnd(object, size);
  return f;
}

Result<std::string> SparseFile::ReadAt(uint64_t offset, size_t len) const {
  ++reads_;
  if (offset >= layout_.size) return std::string();
  len = static_cast<size_t>(std::min<uint64_t>(len, layout_.size - offset));
  bytes_read_ += len;
  std::string out(len, '\0');
  auto copy = [&](const std::string& piece, uint64_t at) {
    uint64_t begin = std::max(offset, at), end = std::min(offset + len, at + piece.size());
    for (uint64_t p = begin; p < end; ++p) out[static_cast<size_t>(p - offset)] = piece[static_cast<size_t>(p - at)];
  };
  copy(layout_.head, 0);
  copy(layout_.fatbin, layout_.fatbin_offset);
  return out;
}

}  // namespace cudamatch::testing
