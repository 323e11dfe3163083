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
