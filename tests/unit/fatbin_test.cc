// The ELF and fatbin readers on real objects built by nvcc (tests/fixtures/fatbin, see its
// README), on damaged copies of them and on a 2 GB file of which only the headers are read.
#include <gtest/gtest.h>

#include <map>

#include "probe/binaries.h"
#include "probe/elf.h"
#include "probe/fatbin.h"
#include "probe/le_bytes.h"
#include "tests/unit/fatbin_util.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::FatbinFixture;
using testing::SparseFile;

struct Expected {
  std::string file;
  std::vector<int> sass, ptx;
  uint64_t containers;
  uint64_t compressed;
};

const std::vector<Expected>& Fixtures() {
  static const std::vector<Expected> kAll = {
      {"sass_sm80.so", {80}, {}, 1, 0},
      {"ptx_compute90.so", {}, {90}, 1, 1},
      {"sass_ptx_sm75.so", {75}, {75}, 1, 1},
      {"multi_sm75_80_86_90_ptx90.so", {75, 80, 86, 90}, {90}, 1, 1},
      {"compressed_sm80_90.so", {80, 90}, {}, 1, 2},
      {"two_units_sm75_80.so", {75, 80}, {}, 2, 0},
      {"ext_cudart11_sm75_80.so", {75, 80}, {}, 2, 0},
      {"ext_cudart12_cudnn9_sm75_80.so", {75, 80}, {}, 2, 0},
      {"ext_cudart12_cudnn8_sm75_80.so", {75, 80}, {}, 2, 0},
      {"cudapkg_cudart11_sm75_80.so", {75, 80}, {}, 2, 0},
      {"cudapkg_cudart12_sm75_80.so", {75, 80}, {}, 2, 0},
      {"ext_torch_sm80.so", {80}, {}, 1, 0},
      {"ext_torch_sass_ptx_sm75.so", {75}, {75}, 1, 1},
  };
  return kAll;
}

Result<FatbinCode> CodeOf(const RandomAccessFile& f) {
  auto elf = ReadElf(f);
  if (!elf) return Error{elf.error()};
  const ElfSection* s = FatbinSection(*elf);
  if (s == nullptr) return Err("no fatbin section");
  return ReadFatbin(f, s->offset, s->size);
}

TEST(Fatbin, ReadsTheArchitecturesNvccWasAskedFor) {
  for (const Expected& e : Fixtures()) {
    auto file = MakeStringFile(FatbinFixture(e.file));
    auto code = CodeOf(*file);
    ASSERT_TRUE(code.ok()) << e.file << ": " << code.error();
    EXPECT_EQ(code->sass, e.sass) << e.file;
    EXPECT_EQ(code->ptx, e.ptx) << e.file;
    EXPECT_EQ(code->containers, e.containers) << e.file;
    EXPECT_EQ(code->compressed, e.compressed) << e.file;
    EXPECT_EQ(code->entries, (e.sass.size() + e.ptx.size()) * e.containers) << e.file;
    EXPECT_FALSE(code->partial) << e.file;
  }
}

// Architecture-specific code (sm_90a) and family-specific code (sm_100f) are flagged in the entry
// header; each runs on fewer GPUs than plain code of the same number.
TEST(Fatbin, ArchitectureAndFamilySpecificCodeIsToldApart) {
  auto file = MakeStringFile(testing::FatbinFixture("specific_sm90a_sm100f_ptx120a.so"));
  auto elf = ReadElf(*file);
  ASSERT_TRUE(elf.ok()) << elf.error();
  const ElfSection* s = FatbinSection(*elf);
  ASSERT_NE(s, nullptr);
  auto code = ReadFatbin(*file, s->offset, s->size);
  ASSERT_TRUE(code.ok()) << code.error();
  EXPECT_EQ(code->sass, std::vector<int>{90});
  EXPECT_EQ(code->sass_a, std::vector<int>{90});
  EXPECT_EQ(code->sass_f, std::vector<int>{100});
  EXPECT_TRUE(code->ptx.empty());
  EXPECT_EQ(code->ptx_a, std::vector<int>{120});
  EXPECT_EQ(FatbinCodeNames(*code), "sm_90 sm_90a sm_100f compute_120a");
}

TEST(Fatbin, CodeNamesListSassThenPtx) {
  auto code = CodeOf(*MakeStringFile(FatbinFixture("multi_sm75_80_86_90_ptx90.so")));
  ASSERT_TRUE(code.ok());
  EXPECT_EQ(FatbinCodeNames(*code), "sm_75 sm_80 sm_86 sm_90 compute_90");
}

TEST(Elf, ReadsNeededAndRunpath) {
  auto elf11 = ReadElf(*MakeStringFile(FatbinFixture("ext_cudart11_sm75_80.so")));
  ASSERT_TRUE(elf11.ok()) << elf11.error();
  EXPECT_EQ(elf11->machine, 62);
  EXPECT_EQ(elf11->type, 3);
  EXPECT_EQ(elf11->soname, "_C.so");
  EXPECT_NE(std::find(elf11->needed.begin(), elf11->needed.end(), "libcudart.so.11.0"), elf11->needed.end());
  EXPECT_NE(std::find(elf11->needed.begin(), elf11->needed.end(), "libc10_cuda.so"), elf11->needed.end());
  auto elf8 = ReadElf(*MakeStringFile(FatbinFixture("ext_cudart12_cudnn8_sm75_80.so")));
  ASSERT_TRUE(elf8.ok()) << elf8.error();
  std::vector<std::string> path = elf8->runpath.empty() ? elf8->rpath : elf8->runpath;
  EXPECT_EQ(path, std::vector<std::string>{"$ORIGIN/../nvidia/cudnn/lib"});
  EXPECT_NE(std::find(elf8->needed.begin(), elf8->needed.end(), "libcudnn.so.8"), elf8->needed.end());
}

TEST(Elf, ObjectsWithoutGpuCodeHaveNoFatbinSection) {
  // The test binary itself: an ELF64 executable without GPU code.
  if (testing::kWindowsBuild) GTEST_SKIP() << "reads /proc/self/exe, an ELF file; the Windows test binary is a PE file";
  auto fs = MakeRealFs("/");
  auto self = fs->Open("/proc/self/exe");
  ASSERT_TRUE(self.ok()) << self.error();
  auto elf = ReadElf(**self);
  ASSERT_TRUE(elf.ok()) << elf.error();
  EXPECT_FALSE(elf->sections.empty());
  EXPECT_EQ(FatbinSection(*elf), nullptr);
}

// ---- damaged input: an error that says what is wrong, never a crash ----

std::string Patched(std::string bytes, size_t at, uint64_t value, size_t width) {
  for (size_t i = 0; i < width; ++i) bytes[at + i] = static_cast<char>((value >> (8 * i)) & 0xff);
  return bytes;
}

struct Layout {
  uint64_t shoff;
  size_t fatbin_header;  // offset of the .nv_fatbin section header
  uint64_t fatbin;       // the section's file offset
};

Layout LayoutOf(const std::string& bytes) {
  auto elf = ReadElf(*MakeStringFile(bytes));
  EXPECT_TRUE(elf.ok());
  Layout l{Le64(bytes, 40), 0, 0};
  for (size_t i = 0; i < elf->sections.size(); ++i) {
    if (elf->sections[i].name == ".nv_fatbin") {
      l.fatbin_header = static_cast<size_t>(l.shoff + i * 64);
      l.fatbin = elf->sections[i].offset;
    }
  }
  return l;
}

std::string ErrorOf(const std::string& bytes) {
  auto code = CodeOf(*MakeStringFile(bytes));
  return code.ok() ? "" : code.error();
}

TEST(Elf, DamagedHeadersAreErrorsThatSayWhy) {
  std::string good = FatbinFixture("sass_sm80.so");
  Layout l = LayoutOf(good);
  EXPECT_NE(ErrorOf("MZ" + std::string(100, '\0')).find("not an ELF file"), std::string::npos);
  EXPECT_NE(ErrorOf(good.substr(0, 40)).find("ELF header truncated"), std::string::npos);
  EXPECT_NE(ErrorOf(Patched(good, 4, 1, 1)).find("not a 64-bit"), std::string::npos);
  EXPECT_NE(ErrorOf(Patched(good, 5, 2, 1)).find("not a little-endian"), std::string::npos);
  EXPECT_NE(ErrorOf(Patched(good, 60, 60000, 2)).find("over the limit"), std::string::npos);
  EXPECT_NE(ErrorOf(Patched(good, 60, 4000, 2)).find("run past the end"), std::string::npos);
  EXPECT_NE(ErrorOf(Patched(good, 40, 8, 8)).find("overlap the ELF header"), std::string::npos);
  EXPECT_NE(ErrorOf(Patched(good, 58, 40, 2)).find("section header size 40"), std::string::npos);
  EXPECT_NE(ErrorOf(Patched(good, 62, 999, 2)).find("name table index"), std::string::npos);
  // The fatbin section claims to reach past the end of the file.
  EXPECT_NE(ErrorOf(Patched(good, l.fatbin_header + 32, 1ull << 40, 8)).find("runs past the end"), std::string::npos);
  // ... or to start where another section lies.
  EXPECT_NE(ErrorOf(Patched(good, l.fatbin_header + 24, 0, 8)).find("overlap"), std::string::npos);
}

TEST(Fatbin, DamagedContainersAreErrorsThatSayWhy) {
  std::string good = FatbinFixture("sass_sm80.so");
  Layout l = LayoutOf(good);
  size_t c = static_cast<size_t>(l.fatbin);
  EXPECT_NE(ErrorOf(Patched(good, c, 0x12345678, 4)).find("no fatbin container magic"), std::string::npos);
  EXPECT_NE(ErrorOf(Patched(good, c + 8, 1ull << 50, 8)).find("runs past the section's end"), std::string::npos);
  EXPECT_NE(ErrorOf(Patched(good, c + 6, 2, 2)).find("container header size 2"), std::string::npos);
  // The entry: absurd header size, payload past the container.
  EXPECT_NE(ErrorOf(Patched(good, c + 16 + 4, 1u << 30, 4)).find("entry header size"), std::string::npos);
  EXPECT_NE(ErrorOf(Patched(good, c + 16 + 8, 1ull << 33, 8)).find("runs past its container's end"), std::string::npos);
}

TEST(Fatbin, EveryTruncationIsAnErrorOrAnAnswer) {
  std::string good = FatbinFixture("two_units_sm75_80.so");
  size_t errors = 0;
  for (size_t len = 0; len < good.size(); len += (len < 256 ? 1 : 97)) {
    std::string cut = good.substr(0, len);
    auto code = CodeOf(*MakeStringFile(cut));
    if (!code.ok()) {
      ++errors;
      EXPECT_FALSE(code.error().empty());
    }
  }
  EXPECT_GT(errors, 300u);
}

TEST(Fatbin, EntryCapStopsTheWalkAndSaysSo) {
  auto file = MakeStringFile(FatbinFixture("multi_sm75_80_86_90_ptx90.so"));
  auto elf = ReadElf(*file);
  ASSERT_TRUE(elf.ok());
  const ElfSection* s = FatbinSection(*elf);
  FatbinLimits limits;
  limits.max_entries = 2;
  auto code = ReadFatbin(*file, s->offset, s->size, limits);
  ASSERT_TRUE(code.ok());
  EXPECT_TRUE(code->partial);
  EXPECT_EQ(code->entries, 2u);
  EXPECT_EQ(code->sass, (std::vector<int>{75, 80}));
}

TEST(Fatbin, LaterContainersAreSampledByTheirFirstEntry) {
  std::string object = FatbinFixture("multi_sm75_80_86_90_ptx90.so");
  auto elf = ReadElf(*MakeStringFile(object));
  ASSERT_TRUE(elf.ok());
  const ElfSection* s = FatbinSection(*elf);
  std::string one = object.substr(static_cast<size_t>(s->offset), static_cast<size_t>(s->size));
  std::string many;
  for (int i = 0; i < 100; ++i) many += one;
  // The last container holds only SASS for sm_100: its first entry shows it.
  std::string last = one;
  last[16 + 28] = 100;
  many += last;
  auto file = MakeStringFile(many);
  auto code = ReadFatbin(*file, 0, file->size());
  ASSERT_TRUE(code.ok()) << code.error();
  EXPECT_EQ(code->containers, 101u);
  EXPECT_EQ(code->sampled, 101u - 64u);
  EXPECT_EQ(code->entries, 64u * 5 + 37u);
  EXPECT_EQ(code->sass, (std::vector<int>{75, 80, 86, 90, 100}));
  EXPECT_EQ(code->ptx, std::vector<int>{90});
  EXPECT_EQ(FatbinCoverage(*code), "101 fatbin containers, 357 entries read, first entry only of 37 containers");
}

// ---- a 2 GB library: only headers are read ----

TEST(Fatbin, ATwoGigabyteLibraryIsReadAHeaderAtATime) {
  SparseFile big = SparseFile::WithFatbinNearEnd(FatbinFixture("multi_sm75_80_86_90_ptx90.so"), 2ull << 30);
  EXPECT_EQ(big.size(), 2ull << 30);
  auto code = CodeOf(big);
  ASSERT_TRUE(code.ok()) << code.error();
  EXPECT_EQ(code->sass, (std::vector<int>{75, 80, 86, 90}));
  EXPECT_EQ(code->ptx, std::vector<int>{90});
  EXPECT_LT(big.bytes_read(), 32u * 1024) << big.reads() << " reads";
  EXPECT_LT(big.reads(), 20u);
}

}  // namespace
}  // namespace cudamatch

namespace cudamatch {
namespace {

// RECORD files are read in 64 KiB blocks: a line cut by a block's end is still one line, and
// lines without ".so" cost nothing.
TEST(Record, SharedObjectsAcrossBlockBoundaries) {
  std::string record;
  while (record.size() < 64 * 1024 - 20) record += "pkg/module_" + std::to_string(record.size()) + ".py,sha256=x,10\n";
  record += "pkg/_C.cpython-311-x86_64-linux-gnu.so,sha256=y,20\n";  // crosses the first block's end
  while (record.size() < 200 * 1024) record += "pkg/data_" + std::to_string(record.size()) + ".json,,\n";
  record += "\"pkg/a,b.so.1\",sha256=z,30\n../outside.so,,\npkg/last.so,,";  // quoted; outside; no line end
  auto file = MakeStringFile(record);
  auto objects = SharedObjectsInRecordFile(*file);
  ASSERT_TRUE(objects.ok()) << objects.error();
  EXPECT_EQ(*objects, (std::vector<std::string>{"pkg/_C.cpython-311-x86_64-linux-gnu.so", "pkg/a,b.so.1", "pkg/last.so"}));
  EXPECT_EQ(*objects, SharedObjectsInRecord(record));
}

TEST(Record, OversizedRecordIsAnError) {
  auto file = MakeStringFile(std::string(kRecordCap + 1, 'a'));
  auto objects = SharedObjectsInRecordFile(*file);
  ASSERT_FALSE(objects.ok());
  EXPECT_NE(objects.error().find("larger than 4 MiB"), std::string::npos) << objects.error();
}

}  // namespace
}  // namespace cudamatch
