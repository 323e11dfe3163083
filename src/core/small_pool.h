// Small blocks for a process that lives milliseconds: most of what a run allocates is a string or
// a map node of under 256 bytes, freed soon after, and a general allocator spends more on each of
// them than the work that uses it. The pool hands out blocks of 16-byte size classes, each class
// carved from 64 KiB slabs of one region the caller reserves, and keeps freed blocks on a list per
// class for the next allocation of that class. Which slab belongs to which class is one table
// lookup, so a block needs no header and is found from its address alone. Memory is never
// returned to the system: a slab's blocks go back to its class only. Threads share the region and
// the table; each thread keeps its own free lists and current slabs (a `Cache`), so a block freed
// on another thread simply joins that thread's list.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace cudamatch {

class SmallPool {
 public:
  static constexpr size_t kAlign = 16;
  static constexpr size_t kMaxSmall = 256;  // larger requests are not the pool's
  static constexpr size_t kClasses = kMaxSmall / kAlign;
  static constexpr size_t kSlabBytes = 64 * 1024;
  static constexpr size_t kMaxSlabs = 1 << 14;  // a region of up to 1 GiB

  // One thread's free lists and the slab each class carves from. Zero-initialised is empty.
  struct Cache {
    void* free[kClasses];
    char* next[kClasses];
    char* end[kClasses];
  };

  constexpr SmallPool() = default;
  // Serve from [base, base + bytes): base aligned to kAlign; whole slabs only are used.
  void Reset(char* base, size_t bytes);

  // A block of at least `n` (1..kMaxSmall) bytes, aligned to kAlign; nullptr once the region is spent.
  void* Allocate(size_t n, Cache& cache) {
    size_t c = (n - 1) / kAlign;
    if (void* p = cache.free[c]) {
      cache.free[c] = *static_cast<void**>(p);
      return p;
    }
    size_t size = (c + 1) * kAlign;
    if (cache.next[c] != nullptr && static_cast<size_t>(cache.end[c] - cache.next[c]) >= size) {
      void* p = cache.next[c];
      cache.next[c] += size;
      return p;
    }
    return FromNewSlab(c, cache);
  }
  bool Owns(const void* p) const {
    auto a = reinterpret_cast<uintptr_t>(p);
    return a >= reinterpret_cast<uintptr_t>(base_) && a < reinterpret_cast<uintptr_t>(base_) + slabs_ * kSlabBytes;
  }
  // Block size of a block this pool gave out.
  size_t SizeOf(const void* p) const { return (class_of_[SlabOf(p)] + 1u) * kAlign; }
  // Takes back a block Allocate gave out (on any thread).
  void Free(void* p, Cache& cache) {
    size_t c = class_of_[SlabOf(p)];
    *static_cast<void**>(p) = cache.free[c];
    cache.free[c] = p;
  }

 private:
  size_t SlabOf(const void* p) const { return (reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(base_)) / kSlabBytes; }
  void* FromNewSlab(size_t c, Cache& cache);

  char* base_ = nullptr;
  size_t slabs_ = 0;
  std::atomic<size_t> used_{0};  // slabs handed to a class
  uint8_t class_of_[kMaxSlabs] = {};
};

}  // namespace cudamatch
