#include "core/text.h"

#include <gtest/gtest.h>

#include "report/style.h"

namespace cudamatch {
namespace {

TEST(Text, SplitsTrimsAndQuotes) {
  EXPECT_EQ(Split("a;;b", ';').size(), 3u);
  EXPECT_EQ(SplitNonEmpty(" a ; ;b", ';'), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(Trim("  x \t\n"), "x");
  EXPECT_EQ(Quote("a'b"), "'a\\'b'");
  EXPECT_EQ(Quote(std::string("\x01", 1)), "'\\x01'");
  EXPECT_EQ(Quote(std::string(200, 'x')).size(), 80u + 5u);
  EXPECT_EQ(ParseUint("0012"), 12);
  EXPECT_FALSE(ParseUint("-1").has_value());
  EXPECT_FALSE(ParseUint("").has_value());
  EXPECT_EQ(ParseHex("0x10de"), 0x10deu);
  EXPECT_EQ(ParseHex("2684"), 0x2684u);
  EXPECT_FALSE(ParseHex("xyz").has_value());
  EXPECT_EQ(EditDistance("lokup", "lookup"), 1u);
  EXPECT_EQ(AlnumKey("GeForce RTX-3090"), "geforcertx3090");
  EXPECT_EQ(Lines("a\r\nb\nc").size(), 3u);
}

TEST(Style, CountsWideCharactersAndSkipsEscapes) {
  EXPECT_EQ(DisplayWidth("abc"), 3u);
  EXPECT_EQ(DisplayWidth("驱动"), 4u);
  EXPECT_EQ(DisplayWidth("\033[1mab\033[0m"), 2u);
  std::string cols = RenderColumns({{"驱动", "x"}, {"ab", "y"}}, "");
  EXPECT_EQ(cols, "驱动  x\nab    y\n");
  // ASCII (control characters too) is one column a byte, mixed with wide text and escapes.
  EXPECT_EQ(DisplayWidth("a\tb"), 3u);
  EXPECT_EQ(DisplayWidth("cu121 驱动 \033[31mok\033[0m."), 14u);
  EXPECT_EQ(DisplayWidth(""), 0u);
}

// Checksum64 names and checks the tool's own cache files: every single-byte change, at every
// position of texts shorter and longer than a word, and every cut changes it.
TEST(Text, Checksum64SeesEveryChangedByteAndEveryCut) {
  EXPECT_EQ(Hex16(0x0123456789abcdefull), "fedcba9876543210");
  EXPECT_EQ(Hex16(Checksum64("x")).size(), 16u);
  std::string text = "cudamatch-env-cache 3\n/root/.pyenv/versions/3.11.7\ntorch 2.3.1+cu121\n";
  uint64_t whole = Checksum64(text);
  EXPECT_EQ(whole, Checksum64(std::string(text)));  // a function of the bytes only
  for (size_t i = 0; i < text.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string changed = text;
      changed[i] = static_cast<char>(changed[i] ^ (1 << bit));
      EXPECT_NE(Checksum64(changed), whole) << "byte " << i << " bit " << bit;
    }
    EXPECT_NE(Checksum64(std::string_view(text).substr(0, i)), whole) << "cut at " << i;
  }
  EXPECT_NE(Checksum64(std::string(8, '\0')), Checksum64(std::string(16, '\0')));
  EXPECT_NE(Checksum64(""), Checksum64(std::string(1, '\0')));
}

}  // namespace
}  // namespace cudamatch

namespace cudamatch {
namespace {

// Directory listings come sorted as text (3.10.4 before 3.6.15); versions sort as versions.
TEST(NaturalOrder, VersionsInNamesSortAsVersions) {
  std::vector<std::string> pyenv = {"3.10.4", "3.11.9", "3.6.15", "3.9.18", "miniconda3-4.7.12", "3.10.13"};
  SortNatural(pyenv);
  EXPECT_EQ(pyenv, (std::vector<std::string>{"3.6.15", "3.9.18", "3.10.4", "3.10.13", "3.11.9", "miniconda3-4.7.12"}));
  std::vector<std::string> cuda = {"cuda", "cuda-12.1", "cuda-11.8", "cuda-9.2"};
  SortNatural(cuda);
  EXPECT_EQ(cuda, (std::vector<std::string>{"cuda", "cuda-9.2", "cuda-11.8", "cuda-12.1"}));
  EXPECT_TRUE(NaturalLess("py39", "py310"));
  EXPECT_FALSE(NaturalLess("py310", "py39"));
  EXPECT_TRUE(NaturalLess("a01", "a1") != NaturalLess("a1", "a01"));  // a strict order: zeros decide
  EXPECT_FALSE(NaturalLess("3.10", "3.10"));
}

}  // namespace
}  // namespace cudamatch
