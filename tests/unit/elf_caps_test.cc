// Caps on what one ELF file's dynamic section can multiply, and a RUNPATH expansion that ends
// whatever the directory names hold. The hostile files are written byte by byte here.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/fs.h"
#include "probe/binaries.h"
#include "probe/elf.h"

namespace cudamatch {
namespace {

void Put(std::string& b, size_t at, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) b[at + i] = static_cast<char>((v >> (8 * i)) & 0xFF);
}

// An ELF64 little-endian shared object with sections null, .dynstr, .dynamic, .shstrtab; the
// dynamic section holds `entries` (tag, value) pairs and a DT_NULL.
std::string ElfWithDynamic(const std::string& dynstr, const std::vector<std::pair<int64_t, uint64_t>>& entries) {
  const std::string shstr = std::string("\0.dynstr\0.dynamic\0.shstrtab\0", 28);
  size_t dynstr_at = 64, dyn_at = dynstr_at + dynstr.size(), dyn_size = (entries.size() + 1) * 16;
  dyn_at = (dyn_at + 7) / 8 * 8;
  size_t shstr_at = dyn_at + dyn_size, shdr_at = (shstr_at + shstr.size() + 7) / 8 * 8;
  std::string b(shdr_at + 4 * 64, '\0');
  b.replace(0, 4, "\x7f" "ELF");
  b[4] = 2;  // 64-bit
  b[5] = 1;  // little-endian
  b[6] = 1;
  Put(b, 16, 3, 2);   // ET_DYN
  Put(b, 18, 62, 2);  // x86-64
  Put(b, 40, shdr_at, 8);
  Put(b, 52, 64, 2);
  Put(b, 58, 64, 2);
  Put(b, 60, 4, 2);
  Put(b, 62, 3, 2);
  b.replace(dynstr_at, dynstr.size(), dynstr);
  for (size_t i = 0; i < entries.size(); ++i) {
    Put(b, dyn_at + i * 16, static_cast<uint64_t>(entries[i].first), 8);
    Put(b, dyn_at + i * 16 + 8, entries[i].second, 8);
  }
  b.replace(shstr_at, shstr.size(), shstr);
  auto section = [&](int i, uint32_t name, uint32_t type, size_t off, size_t size, uint32_t link) {
    size_t at = shdr_at + static_cast<size_t>(i) * 64;
    Put(b, at, name, 4);
    Put(b, at + 4, type, 4);
    Put(b, at + 24, off, 8);
    Put(b, at + 32, size, 8);
    Put(b, at + 40, link, 4);
  };
  section(1, 1, 3, dynstr_at, dynstr.size(), 0);        // SHT_STRTAB
  section(2, 9, kShtDynamic, dyn_at, dyn_size, 1);
  section(3, 18, 3, shstr_at, shstr.size(), 0);
  return b;
}

constexpr int64_t kNeeded = 1, kRpath = 15;

bool HasCut(const ElfInfo& info, const std::string& what) {
  for (const std::string& c : info.cut) {
    if (c.find(what) != std::string::npos) return true;
  }
  return false;
}

// 8190 DT_NEEDED entries in one ~135 KB file, all naming one string.
TEST(ElfCaps, ThousandsOfNeededEntriesKeepTheCap) {
  std::vector<std::pair<int64_t, uint64_t>> entries(8190, {kNeeded, 1});
  auto info = ReadElf(*MakeStringFile(ElfWithDynamic(std::string("\0libcudart.so.12\0", 17), entries)));
  ASSERT_TRUE(info.ok()) << info.error();
  ElfLimits limits;
  EXPECT_EQ(info->needed.size(), limits.max_needed);
  EXPECT_TRUE(HasCut(*info, "8190 DT_NEEDED entries: the first 1024 kept"));
}

TEST(ElfCaps, LongStringsStopAtTheByteCap) {
  std::string name = "lib" + std::string(4000, 'x') + ".so";
  std::vector<std::pair<int64_t, uint64_t>> entries(1000, {kNeeded, 1});
  auto info = ReadElf(*MakeStringFile(ElfWithDynamic("\0" + name + std::string(1, '\0'), entries)));
  ASSERT_TRUE(info.ok()) << info.error();
  ElfLimits limits;
  size_t per = name.size() + 1;
  EXPECT_EQ(info->needed.size(), (limits.max_string_bytes + per - 1) / per);
  EXPECT_TRUE(HasCut(*info, "not read"));
}

// 8000 DT_RPATH strings of many directories: the directories kept are capped.
TEST(ElfCaps, ThousandsOfRpathStringsKeepTheDirectoryCap) {
  std::string dirs;
  for (int i = 0; i < 20; ++i) dirs += "/opt/d" + std::to_string(i) + ":";
  std::vector<std::pair<int64_t, uint64_t>> entries(8000, {kRpath, 1});
  auto info = ReadElf(*MakeStringFile(ElfWithDynamic("\0" + dirs + std::string(1, '\0'), entries)));
  ASSERT_TRUE(info.ok()) << info.error();
  ElfLimits limits;
  EXPECT_EQ(info->rpath.size(), limits.max_search_dirs);
  EXPECT_TRUE(HasCut(*info, "DT_RPATH/DT_RUNPATH directories: the first 256 kept"));
}

TEST(ElfCaps, OrdinaryFileHasNoCut) {
  auto info = ReadElf(*MakeStringFile(ElfWithDynamic(std::string("\0libc.so.6\0/opt/x:$ORIGIN\0", 27),
                                                     {{kNeeded, 1}, {kRpath, 11}})));
  ASSERT_TRUE(info.ok()) << info.error();
  EXPECT_EQ(info->needed, std::vector<std::string>{"libc.so.6"});
  EXPECT_EQ(info->rpath, (std::vector<std::string>{"/opt/x", "$ORIGIN"}));
  EXPECT_TRUE(info->cut.empty());
}

// An environment under a directory named "$ORIGIN": the expansion ends and finds the library.
TEST(RunpathExpansion, OriginInsideTheDirectoryNameIsNotExpandedAgain) {
  FakeFs fs;
  const std::string site = "/home/u/$ORIGIN/env/lib/python3.11/site-packages";
  fs.AddFile(site + "/torch/lib/libtorch_cuda.so", "x");
  fs.AddFile(site + "/nvidia/cudnn/lib/libcudnn.so.9", "x");
  ProbeInput in;
  in.fs = &fs;
  PythonEnv env;
  BinaryInfo lib;
  lib.path = site + "/torch/lib/libtorch_cuda.so";
  lib.needed = {"libcudnn.so.9"};
  lib.rpath = {"$ORIGIN/../../nvidia/cudnn/lib", "${ORIGIN}/$ORIGIN"};
  std::vector<RuntimeLib> libs = ResolveTorchRuntime(in, env, site, {lib});
  ASSERT_EQ(libs.size(), 1u);
  EXPECT_EQ(libs[0].path, site + "/nvidia/cudnn/lib/libcudnn.so.9");
  EXPECT_EQ(libs[0].origin, LibOrigin::kRpath);
}

}  // namespace
}  // namespace cudamatch
