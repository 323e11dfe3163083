// Which GPU code a CUDA library carries, from the fatbin nvcc embeds in it: SASS for sm_XX
// (cubin ELF images) and PTX for compute_XX. Only headers are read: a container header, then
// each entry's header, skipping the entry's payload (see FatbinLimits for what is sampled).
//
// Layout (little-endian), as observed in objects built by nvcc 13.0 (tests/fixtures/fatbin) and
// as public descriptions of CUDA's fatbinary.h give it:
//   .nv_fatbin section (shared objects; `__nv_relfatbin` in relocatable objects): one or more
//   containers, each 8-byte aligned:
//     container header, 16 bytes: u32 magic 0xBA55ED50, u16 version (1), u16 header size (16),
//                                  u64 size of the entries that follow
//     entry header (64 bytes or more): u16 kind (1 = PTX, 2 = ELF/SASS), u16 version,
//                                  u32 header size, u64 payload size, u32 (compressed size),
//                                  u32, u16 minor, u16 major (PTX ISA version for PTX),
//                                  u32 architecture (75 = sm_75, 120 = sm_120), u32, u32,
//                                  u64 flags (0x2000 or 0x8000: payload compressed; 0x100000:
//                                  architecture-specific code, sm_90a; 0x200000: family-specific
//                                  code, sm_100f), ...
//     then the payload, and the next entry.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/fs.h"
#include "core/result.h"
#include "probe/elf.h"

namespace cudamatch {

inline constexpr uint32_t kFatbinMagic = 0xBA55ED50;

struct FatbinCode {
  std::vector<int> sass;  // architecture numbers, sorted, unique: 75, 80, 86, 90, 100, 120
  std::vector<int> ptx;
  // Architecture-specific code (sm_90a, compute_90a) runs on exactly that compute capability;
  // family-specific code (sm_100f) on the later ones of its major (10.0 and 10.3). Same numbers.
  std::vector<int> sass_a, ptx_a, sass_f, ptx_f;
  uint64_t containers = 0;
  uint64_t entries = 0;
  uint64_t compressed = 0;  // entries whose payload is compressed
  uint64_t other = 0;       // entries of another kind (neither SASS nor PTX)
  uint64_t sampled = 0;     // containers of which only the first entry was read
  bool partial = false;     // a cap stopped the walk before the section's end
};

struct FatbinLimits {
  uint64_t max_entries = 100000;
  uint64_t max_containers = 100000;
  // Every entry of the first containers is read; of later ones only the first entry (which
  // shares a read with the container header). A build compiles its translation units for one
  // architecture list, so later containers repeat it; a unit built for other architectures
  // (kernels only for sm_90a, say) still shows with its first entry.
  uint64_t full_containers = 64;
  uint32_t max_entry_header = 4096;
};

// The containers in [offset, offset + size) of the file.
Result<FatbinCode> ReadFatbin(const RandomAccessFile& file, uint64_t offset, uint64_t size,
                              const FatbinLimits& limits = {});

// The section holding a library's fatbin (".nv_fatbin", else "__nv_relfatbin"), or null.
const ElfSection* FatbinSection(const ElfInfo& elf);

// "sm_75 sm_80 sm_90 sm_90a compute_90".
std::string FatbinCodeNames(const FatbinCode& code);
// How much was read, for evidence: "2000 fatbin containers, 10000 entries" and, when sampled,
// "first entry only of 1936 containers".
std::string FatbinCoverage(const FatbinCode& code);

}  // namespace cudamatch
