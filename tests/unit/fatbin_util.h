// Fatbin fixtures for tests and the benchmark: the committed objects of tests/fixtures/fatbin,
// and a large sparse file made from one of them with its fatbin section moved near the end.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "core/fs.h"

namespace cudamatch::testing {

// The bytes of tests/fixtures/fatbin/<name>.
std::string FatbinFixture(const std::string& name);

// An ELF object rebuilt as a `size`-byte file: the original bytes at 0, its .nv_fatbin section
// copied to an 8-byte-aligned offset 64 KiB before the end (the section header points there),
// zeros in between.
struct SparseLayout {
  std::string head;      // the object, with the section header patched
  std::string fatbin;    // the section's bytes
  uint64_t fatbin_offset = 0;
  uint64_t size = 0;
};
SparseLayout MoveFatbinNearEnd(const std::string& object, uint64_t size);

// A RandomAccessFile over a SparseLayout that counts what is read.
class SparseFile : public RandomAccessFile {
 public:
  static SparseFile WithFatbinNearEnd(const std::string& object, uint64_t size);
  uint64_t size() const override { return layout_.size; }
  Result<std::string> ReadAt(uint64_t offset, size_t len) const override;
  uint64_t bytes_read() const { return bytes_read_; }
  uint64_t reads() const { return reads_; }

 private:
  SparseLayout layout_;
  mutable uint64_t bytes_read_ = 0;
  mutable uint64_t reads_ = 0;
};

}  // namespace cudamatch::testing
