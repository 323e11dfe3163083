#include "core/small_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <random>
#include <set>
#include <vector>

namespace cudamatch {
namespace {

struct Region {
  explicit Region(size_t bytes) : memory(new SmallPool), storage(bytes + SmallPool::kAlign) {
    char* data = storage.data();
    data += (SmallPool::kAlign - reinterpret_cast<uintptr_t>(data) % SmallPool::kAlign) % SmallPool::kAlign;
    memory->Reset(data, bytes);
  }
  std::unique_ptr<SmallPool> memory;
  std::vector<char> storage;
  SmallPool::Cache cache{};
};

TEST(SmallPool, BlocksAreAlignedInsideTheRegionAndOfTheirClassSize) {
  Region r(1 << 20);
  for (size_t n : {size_t{1}, size_t{15}, size_t{16}, size_t{17}, size_t{100}, size_t{255}, SmallPool::kMaxSmall}) {
    void* p = r.memory->Allocate(n, r.cache);
    ASSERT_NE(p, nullptr) << n;
    EXPECT_TRUE(r.memory->Owns(p));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % SmallPool::kAlign, 0u) << n;
    EXPECT_GE(r.memory->SizeOf(p), n);
    EXPECT_LT(r.memory->SizeOf(p), n + SmallPool::kAlign);
  }
  int outside = 0;
  EXPECT_FALSE(r.memory->Owns(&outside));
  EXPECT_FALSE(r.memory->Owns(nullptr));
}

TEST(SmallPool, AFreedBlockIsTheNextOfItsClassAndNoOtherClassGetsIt) {
  Region r(1 << 20);
  void* a = r.memory->Allocate(40, r.cache);
  void* b = r.memory->Allocate(40, r.cache);
  EXPECT_NE(a, b);
  r.memory->Free(a, r.cache);
  void* other = r.memory->Allocate(200, r.cache);
  EXPECT_NE(other, a);
  EXPECT_EQ(r.memory->Allocate(33, r.cache), a);  // 33 and 40 bytes share the 48-byte class
  EXPECT_NE(r.memory->Allocate(40, r.cache), a);
}

TEST(SmallPool, ASpentRegionSaysSoAndKeepsWhatItGaveOut) {
  Region r(2 * SmallPool::kSlabBytes);
  std::vector<void*> got;
  while (void* p = r.memory->Allocate(SmallPool::kMaxSmall, r.cache)) got.push_back(p);
  EXPECT_EQ(got.size(), 2 * SmallPool::kSlabBytes / SmallPool::kMaxSmall);
  EXPECT_EQ(r.memory->Allocate(16, r.cache), nullptr);  // no slab left for another class
  r.memory->Free(got.back(), r.cache);
  EXPECT_EQ(r.memory->Allocate(SmallPool::kMaxSmall, r.cache), got.back());
}

// Many live blocks of mixed sizes, freed and taken again in random order: no two live blocks
// overlap and each keeps what was written into it.
TEST(SmallPool, LiveBlocksNeverOverlapAndKeepTheirBytes) {
  Region r(64 << 20);
  std::mt19937 random(7);
  struct Live {
    unsigned char* p;
    size_t n;
    unsigned char fill;
  };
  std::vector<Live> live;
  for (int step = 0; step < 200000; ++step) {
    if (!live.empty() && random() % 5 < 2) {
      size_t k = random() % live.size();
      Live l = live[k];
      for (size_t i = 0; i < l.n; ++i) ASSERT_EQ(l.p[i], l.fill) << "step " << step;
      r.memory->Free(l.p, r.cache);
      live[k] = live.back();
      live.pop_back();
    } else {
      size_t n = 1 + random() % SmallPool::kMaxSmall;
      auto* p = static_cast<unsigned char*>(r.memory->Allocate(n, r.cache));
      ASSERT_NE(p, nullptr);
      unsigned char fill = static_cast<unsigned char>(random());
      std::memset(p, fill, n);
      live.push_back({p, n, fill});
    }
  }
  std::sort(live.begin(), live.end(), [](const Live& a, const Live& b) { return a.p < b.p; });
  for (size_t i = 1; i < live.size(); ++i) EXPECT_LE(live[i - 1].p + live[i - 1].n, live[i].p);
  for (const Live& l : live) {
    for (size_t i = 0; i < l.n; ++i) ASSERT_EQ(l.p[i], l.fill);
  }
}

// Two caches (as two threads have): a block given out through one and freed through the other is
// reused through the other.
TEST(SmallPool, ABlockFreedThroughAnotherCacheJoinsThatCache) {
  Region r(1 << 20);
  SmallPool::Cache other{};
  void* p = r.memory->Allocate(64, r.cache);
  r.memory->Free(p, other);
  EXPECT_EQ(r.memory->Allocate(64, other), p);
  EXPECT_NE(r.memory->Allocate(64, r.cache), p);
}

}  // namespace
}  // namespace cudamatch
