// A defensive reader of ELF64 shared objects: the file header, the section headers and names, and
// the dynamic section's DT_NEEDED / DT_SONAME / DT_RPATH / DT_RUNPATH strings. It reads through a
// RandomAccessFile a header at a time (libtorch_cuda.so is ~2 GB; a few KB of it are read), and
// every count, offset and size is checked against the file and against fixed caps before use:
// a damaged file is an error naming what is wrong, never a crash or a long read.
// Layout: the System V ABI's ELF-64 object file format (little-endian only: x86-64, aarch64).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/fs.h"
#include "core/result.h"

namespace cudamatch {

inline constexpr uint32_t kShtNobits = 8;
inline constexpr uint32_t kShtDynamic = 6;
inline constexpr uint32_t kShtDynsym = 11;
inline constexpr uint32_t kShtGnuHash = 0x6ffffff6;

struct ElfSection {
  std::string name;
  uint32_t type = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
  uint32_t link = 0;  // for SHT_DYNAMIC: the string table's section index
};

struct ElfInfo {
  uint16_t type = 0;     // ET_DYN = 3, ET_EXEC = 2, ET_REL = 1
  uint16_t machine = 0;  // EM_X86_64 = 62, EM_AARCH64 = 183
  std::vector<ElfSection> sections;
  std::vector<std::string> needed;  // DT_NEEDED, in order
  std::string soname;               // DT_SONAME
  std::vector<std::string> rpath;   // DT_RPATH, split at ':'
  std::vector<std::string> runpath;  // DT_RUNPATH, split at ':'
  // What the caps of ElfLimits cut, one line each ("8190 DT_NEEDED entries: the first 1024 kept");
  // empty when nothing was.
  std::vector<std::string> cut;

  const ElfSection* Find(std::string_view name) const;
};

struct ElfLimits {
  uint32_t max_sections = 4096;
  uint64_t max_names_bytes = 1 << 20;  // the section-name string table
  uint32_t max_dynamic_entries = 8192;
  size_t max_string = 4096;  // one DT_NEEDED / RPATH string
  // Kept from one file, whatever its dynamic section repeats: DT_NEEDED names, RPATH and RUNPATH
  // directories (together), and the bytes of all the strings read from .dynstr.
  size_t max_needed = 1024;
  size_t max_search_dirs = 256;
  size_t max_string_bytes = 64 * 1024;
  // ReadTorchSymbols: the .dynsym entries and the .dynstr bytes read (libc10.so has ~5k symbols
  // and ~1 MB of names; an extension's _C.so a few times that).
  uint64_t max_symbols = 1 << 20;
  uint64_t max_symbol_names = 32 << 20;
  size_t max_needed_symbols = 8192;
  // ElfSymbolIndex: the .gnu.hash section read whole (libtorch_cpu.so's is a few hundred KB).
  uint64_t max_hash_bytes = 64 << 20;
};

// Symbols of torch's C++ API (names starting _ZN3c10, _ZN2at, _ZN5torch) whose mangled name
// spells std::string, by the C++ ABI it was compiled with: the first of each kind, "" for none.
//   new ABI (-D_GLIBCXX_USE_CXX11_ABI=1): _ZN3c106detail14torchCheckFailEPKcS2_jRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE
//   old ABI (=0):                         _ZN3c106detail14torchCheckFailEPKcS2_jRKSs
struct TorchSymbols {
  std::string needs_cxx11, needs_old;    // undefined here: what the file takes from torch
  std::string defines_cxx11, defines_old;  // defined here: what the file exports
  std::vector<std::string> cut;          // what the caps cut, as ElfInfo::cut
  // Every torch API symbol the file needs that the loader must find (undefined, bound globally:
  // a weak reference may stay unresolved), in .dynsym order, at most ElfLimits::max_needed_symbols.
  std::vector<std::string> needs;
};

// The C++ ABI a mangled name spells std::string in: true for std::__cxx11, false for the old
// std::string (Ss, or std::basic_string without __cxx11), nullopt when it names no string.
std::optional<bool> MangledCxx11Abi(std::string_view name);
bool IsTorchApiSymbol(std::string_view name);

// Reads .dynsym and its string table (the section headers' SHT_DYNSYM), within the caps.
Result<TorchSymbols> ReadTorchSymbols(const RandomAccessFile& file, const ElfInfo& info, const ElfLimits& limits = {});

// Lookups by name in a shared object's exported symbols through its GNU hash table (.gnu.hash,
// what linkers write by default): the table is read once, each lookup reads the .dynsym entry
// and the name of the candidates whose hash matches (usually one). Layout: the table's header
// (buckets, first hashed symbol, Bloom words, Bloom shift), the Bloom filter, the buckets, then
// one hash value a hashed symbol, its low bit marking the end of a bucket's chain. `file` must
// outlive the index.
class ElfSymbolIndex {
 public:
  // An error when the file has no .gnu.hash (only the older SysV .hash, or no dynamic symbols)
  // or when the table does not fit the file or the caps.
  static Result<ElfSymbolIndex> Open(const RandomAccessFile& file, const ElfInfo& info, const ElfLimits& limits = {});
  // Whether the file exports `name`: a dynamic symbol of that name, defined in one of its
  // sections and not local.
  Result<bool> Defines(std::string_view name) const;

 private:
  const RandomAccessFile* file_ = nullptr;
  ElfSection dynsym_, dynstr_;
  uint32_t symoffset_ = 0, bloom_shift_ = 0;
  std::string bloom_, buckets_, chain_;  // the table's parts, little-endian as in the file
};

// The headers of an ELF64 little-endian file; an error for anything else or anything damaged.
Result<ElfInfo> ReadElf(const RandomAccessFile& file, const ElfLimits& limits = {});

// Whether the first bytes are an ELF magic (a cheap test before ReadElf).
bool LooksLikeElf(std::string_view head);

}  // namespace cudamatch
