// The committed fatbin fixtures are what tests/fixtures/fatbin/make.sh makes: when nvcc 13 is
// here (CUDAMATCH_NVCC, else /usr/local/cuda-13.0/bin/nvcc), rebuild them and compare what the
// readers find in each fresh object with the committed one.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "probe/elf.h"
#include "probe/fatbin.h"
#include "tests/unit/fatbin_util.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

struct Seen {
  ElfInfo elf;
  FatbinCode code;
};

Seen Read(const std::string& bytes, const std::string& name) {
  auto file = MakeStringFile(bytes);
  auto elf = ReadElf(*file);
  EXPECT_TRUE(elf.ok()) << name << ": " << (elf.ok() ? "" : elf.error());
  if (!elf.ok()) return {};
  Seen s{*elf, {}};
  const ElfSection* sec = FatbinSection(*elf);
  EXPECT_NE(sec, nullptr) << name;
  if (sec == nullptr) return s;
  auto code = ReadFatbin(*file, sec->offset, sec->size);
  EXPECT_TRUE(code.ok()) << name;
  if (code.ok()) s.code = *code;
  return s;
}

TEST(FatbinFixtures, RebuiltObjectsCarryTheSameCode) {
  if (testing::kWindowsBuild) GTEST_SKIP() << "rebuilds the objects with a shell script and a Linux nvcc";
  const char* env = std::getenv("CUDAMATCH_NVCC");
  std::string nvcc = env != nullptr ? env : "/usr/local/cuda-13.0/bin/nvcc";
  if (!std::filesystem::exists(nvcc)) {
    GTEST_SKIP() << "no nvcc at " << nvcc << " (set CUDAMATCH_NVCC to an nvcc 13); the committed objects are used as they are";
  }
  testing::TempDir out;
  std::string dir = testing::SourceDir() + "/tests/fixtures/fatbin";
  std::string cmd = "'" + dir + "/make.sh' '" + out.path() + "' '" + nvcc + "' >/dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  int compared = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".so") continue;
    std::string name = e.path().filename().string();
    ASSERT_TRUE(std::filesystem::exists(out.path() + "/" + name)) << name << " is no longer made by make.sh";
    Seen committed = Read(testing::FatbinFixture(name), name);
    std::ifstream in(out.path() + "/" + name, std::ios::binary);
    Seen fresh = Read(std::string(std::istreambuf_iterator<char>(in), {}), name);
    EXPECT_EQ(fresh.code.sass, committed.code.sass) << name;
    EXPECT_EQ(fresh.code.ptx, committed.code.ptx) << name;
    EXPECT_EQ(fresh.code.containers, committed.code.containers) << name;
    EXPECT_EQ(fresh.code.compressed, committed.code.compressed) << name;
    EXPECT_EQ(fresh.elf.needed, committed.elf.needed) << name;
    EXPECT_EQ(fresh.elf.runpath, committed.elf.runpath) << name;
    EXPECT_EQ(fresh.elf.soname, committed.elf.soname) << name;
    ++compared;
  }
  EXPECT_GE(compared, 12);
}

}  // namespace
}  // namespace cudamatch
