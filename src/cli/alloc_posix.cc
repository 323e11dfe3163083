// The executable's operator new and delete: blocks of up to SmallPool::kMaxSmall bytes come from
// a SmallPool over one reserved region (address space only: pages are backed as they are first
// written, like the heap's), the rest from malloc. The region is reserved on the first request;
// if the system refuses it, everything comes from malloc. Sanitizer and fuzz builds keep the
// system allocator (CUDAMATCH_SYSTEM_ALLOCATOR), so that they see every block.
#ifndef CUDAMATCH_SYSTEM_ALLOCATOR

#include <sys/mman.h>

#include <cstdlib>
#include <new>

#include "core/small_pool.h"

namespace {

constexpr size_t kRegionBytes = size_t{256} << 20;

cudamatch::SmallPool pool;  // constant-initialised: ready before any static constructor runs
thread_local cudamatch::SmallPool::Cache cache;
bool reserved = false;  // the first request (at start, on the one thread there is) reserves

void* Allocate(size_t n) {
  if (n - 1 < cudamatch::SmallPool::kMaxSmall) {
    if (!reserved) {
      reserved = true;
      void* region = mmap(nullptr, kRegionBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (region != MAP_FAILED) pool.Reset(static_cast<char*>(region), kRegionBytes);
    }
    if (void* p = pool.Allocate(n, cache)) return p;
  }
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}

void* AllocateOrNull(size_t n) noexcept {
  try {
    return Allocate(n);
  } catch (...) {
    return nullptr;
  }
}

void Free(void* p) {
  if (pool.Owns(p)) pool.Free(p, cache);
  else std::free(p);
}

}  // namespace

void* operator new(size_t n) { return Allocate(n); }
void* operator new[](size_t n) { return Allocate(n); }
void* operator new(size_t n, const std::nothrow_t&) noexcept { return AllocateOrNull(n); }
void* operator new[](size_t n, const std::nothrow_t&) noexcept { return AllocateOrNull(n); }
void operator delete(void* p) noexcept { Free(p); }
void operator delete[](void* p) noexcept { Free(p); }
void operator delete(void* p, size_t) noexcept { Free(p); }
void operator delete[](void* p, size_t) noexcept { Free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { Free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { Free(p); }

#endif  // CUDAMATCH_SYSTEM_ALLOCATOR
