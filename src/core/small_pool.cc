#include "core/small_pool.h"

namespace cudamatch {

void SmallPool::Reset(char* base, size_t bytes) {
  size_t slabs = bytes / kSlabBytes;
  if (slabs > kMaxSlabs) slabs = kMaxSlabs;
  base_ = base;
  slabs_ = slabs;
  used_.store(0, std::memory_order_relaxed);
}

void* SmallPool::FromNewSlab(size_t c, Cache& cache) {
  size_t slab = used_.fetch_add(1, std::memory_order_relaxed);
  if (slab >= slabs_) {
    used_.store(slabs_, std::memory_order_relaxed);
    return nullptr;
  }
  class_of_[slab] = static_cast<uint8_t>(c);
  char* start = base_ + slab * kSlabBytes;
  size_t size = (c + 1) * kAlign;
  cache.next[c] = start + size;
  cache.end[c] = start + kSlabBytes;
  return start;
}

}  // namespace cudamatch
