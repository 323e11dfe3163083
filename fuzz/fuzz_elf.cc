// ELF and fatbin headers of shared objects, and RECORD files: never crash, never read without
// bound, and what is found is consistent (architecture lists sorted and unique, no more distinct
// architectures than entries read). The first byte picks the reader: odd = the whole input is an
// ELF file (section headers, names, dynamic section, then its fatbin section), even = the rest
// is a raw .nv_fatbin section; RECORD parsing runs on every input.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "probe/binaries.h"
#include "probe/elf.h"
#include "probe/fatbin.h"

using namespace cudamatch;  // NOLINT: fuzz entry point

namespace {

void Check(const FatbinCode& code) {
  for (const auto* list : {&code.sass, &code.ptx}) {
    if (!std::is_sorted(list->begin(), list->end())) std::abort();
    if (std::adjacent_find(list->begin(), list->end()) != list->end()) std::abort();
  }
  if (code.sass.size() + code.ptx.size() > code.entries) std::abort();
  if (code.compressed > code.entries || code.other > code.entries) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  SharedObjectsInRecord(bytes);
  auto file = MakeStringFile(bytes);
  if ((data[0] & 1) == 0) {
    if (auto code = ReadFatbin(*file, 0, file->size())) Check(*code);
    return 0;
  }
  auto elf = ReadElf(*file);
  if (!elf) return 0;
  if (const ElfSection* s = FatbinSection(*elf)) {
    if (auto code = ReadFatbin(*file, s->offset, s->size)) Check(*code);
  }
  return 0;
}
