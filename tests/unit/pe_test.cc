// The PE version-resource reader (probe/pe.h) on a real mingw-built DLL, on every truncation and
// on damaged headers, and NVIDIA's Windows driver numbering.
#include <gtest/gtest.h>

#include "probe/le_bytes.h"
#include "probe/pe.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

// Made by tests/fixtures/machines/make_windows_dlls.sh: FILEVERSION 32,0,15,6636.
std::string Dll() {
  return testing::ReadSource("tests/fixtures/machines/win-pythonorg-cpu/root/Windows/System32/nvcuda.dll");
}

Result<PeFileVersion> Read(std::string bytes) { return ReadPeFileVersion(*MakeStringFile(std::move(bytes))); }

void Put32(std::string& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

TEST(PeReader, ReadsTheVersionResourceOfAMingwDll) {
  auto v = Read(Dll());
  ASSERT_TRUE(v) << v.error();
  EXPECT_EQ(v->ToString(), "32.0.15.6636");
  auto driver = WindowsDriverFromFileVersion(*v);
  ASSERT_TRUE(driver);
  EXPECT_EQ(driver->text, "566.36");
}

TEST(PeReader, EveryTruncationIsAnErrorNotACrash) {
  std::string dll = Dll();
  ASSERT_GT(dll.size(), 1024u);
  // Below the end of the version block nothing is found; from there on (the section's padding)
  // the version is read whole.
  std::optional<size_t> first_ok;
  for (size_t n = 0; n <= dll.size(); ++n) {
    bool ok = static_cast<bool>(Read(dll.substr(0, n)));
    if (ok && !first_ok) first_ok = n;
    if (first_ok) {
      EXPECT_TRUE(ok) << n;
    }
  }
  ASSERT_TRUE(first_ok);
  EXPECT_GT(*first_ok, 0x800u);  // past the headers and into .rsrc (raw data at 0x800)
}

TEST(PeReader, ImplausibleHeadersAreNamed) {
  std::string dll = Dll();
  std::string far = dll;
  Put32(far, 0x3c, 0xfffffff0u);
  EXPECT_NE(Read(far).error().find("implausible"), std::string::npos);
  uint32_t pe = Le32(dll, 0x3c);
  std::string sections = dll;
  sections[pe + 6] = static_cast<char>(0xff);
  sections[pe + 7] = static_cast<char>(0xff);
  EXPECT_NE(Read(sections).error().find("sections"), std::string::npos);
  std::string no_mz = dll;
  no_mz[0] = 'X';
  EXPECT_NE(Read(no_mz).error().find("MZ"), std::string::npos);
  std::string elf = "\x7f" "ELF" + std::string(60, '\0');
  EXPECT_FALSE(Read(elf));
}

TEST(PeReader, ByteFlipsNeverCrash) {
  std::string dll = Dll();
  uint32_t seed = 12345;
  int still_read = 0;
  for (int i = 0; i < 4000; ++i) {
    std::string b = dll;
    for (int k = 0; k < 4; ++k) {
      seed = seed * 1103515245u + 12345u;
      b[(seed >> 8) % b.size()] = static_cast<char>(seed >> 24);
    }
    if (auto v = Read(b)) {
      (void)WindowsDriverFromFileVersion(*v);
      ++still_read;
    }
  }
  // Most flips land in bytes the reader never looks at (code, padding, strings).
  EXPECT_GT(still_read, 1000);
}

TEST(PeReader, VersionBlockNeedsItsKeyAndSignature) {
  EXPECT_FALSE(ParseVersionInfo(""));
  EXPECT_FALSE(ParseVersionInfo(std::string(200, '\0')));
  std::string block(92, '\0');
  block[0] = 92;
  block[2] = 52;
  std::u16string key = u"VS_VERSION_INFO";
  for (size_t i = 0; i < key.size(); ++i) block[6 + 2 * i] = static_cast<char>(key[i]);
  EXPECT_NE(ParseVersionInfo(block).error().find("signature"), std::string::npos);
  Put32(block, 40, 0xFEEF04BD);
  Put32(block, 48, (31u << 16) | 0);
  Put32(block, 52, (15u << 16) | 1694);
  auto v = ParseVersionInfo(block);
  ASSERT_TRUE(v) << v.error();
  EXPECT_EQ(v->ToString(), "31.0.15.1694");
}

TEST(PeReader, WindowsDriverNumbering) {
  struct Case {
    std::array<uint16_t, 4> parts;
    const char* driver;  // "" for none
  };
  for (const Case& c : std::vector<Case>{
           {{32, 0, 15, 6636}, "566.36"},  // nvcuda.dll of 566.36
           {{31, 0, 15, 1694}, "516.94"},
           {{30, 0, 14, 7242}, "472.42"},  // nvcuda64.dll in a real dxdiag listing
           {{8, 17, 14, 7242}, "472.42"},  // nvml.dll of the same driver
           {{27, 21, 14, 5671}, "456.71"},
           {{1, 0, 0, 1}, ""},             // too few digits
           {{1, 0, 10, 123}, ""},          // "00123": not a driver number
           {{1, 0, 15, 10000}, ""},        // the fourth field has four digits at most
       }) {
    auto d = WindowsDriverFromFileVersion(PeFileVersion{c.parts});
    EXPECT_EQ(d ? d->text : "", c.driver) << PeFileVersion{c.parts}.ToString();
  }
}

}  // namespace
}  // namespace cudamatch
