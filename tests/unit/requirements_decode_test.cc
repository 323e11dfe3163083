// Requirements files decoded the way pip decodes them (byte order marks, UTF-16, CR / CRLF / LF),
// includes bounded by bytes and pins in all, and a file without pins said so.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "plan/requirements.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

const std::string kText = "# pinned for CUDA 12.1\ntorch==2.3.1\ntorchvision==0.18.1\n";

std::vector<std::string> PinsOf(const std::string& bytes) {
  PinSet set = ParseRequirements("requirements.txt", bytes, nullptr);
  std::vector<std::string> out;
  for (const Pin& p : set.pins) out.push_back(p.name + p.specifier + "@" + std::to_string(p.line));
  return out;
}

const std::vector<std::string> kExpected = {"torch==2.3.1@2", "torchvision==0.18.1@3"};

std::string Utf16(const std::string& ascii, bool big_endian) {
  std::string out = big_endian ? "\xFE\xFF" : "\xFF\xFE";
  for (char c : ascii) {
    if (big_endian) out += '\0';
    out += c;
    if (!big_endian) out += '\0';
  }
  return out;
}

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
  return s;
}

TEST(RequirementsDecode, Utf8ByteOrderMarkKeepsTheFirstLine) {
  EXPECT_EQ(PinsOf("\xEF\xBB\xBFtorch==2.3.1\ntorchvision==0.18.1\n"),
            (std::vector<std::string>{"torch==2.3.1@1", "torchvision==0.18.1@2"}));
  EXPECT_EQ(PinsOf("\xEF\xBB\xBF" + kText), kExpected);
}

TEST(RequirementsDecode, Utf16LittleEndian) { EXPECT_EQ(PinsOf(Utf16(kText, false)), kExpected); }

TEST(RequirementsDecode, Utf16BigEndian) { EXPECT_EQ(PinsOf(Utf16(kText, true)), kExpected); }

TEST(RequirementsDecode, Utf16WithCrlfAndNonAsciiComment) {
  // "# café" in UTF-16 LE: é is U+00E9; a surrogate pair (U+1F600) in a comment too.
  std::string bytes = "\xFF\xFE" + std::string("#\0 \0c\0a\0f\0\xE9\0=\xD8\0\xDE\r\0\n\0", 18) +
                      Utf16("torch==2.3.1\r\n", false).substr(2);
  EXPECT_EQ(PinsOf(bytes), (std::vector<std::string>{"torch==2.3.1@2"}));
  EXPECT_EQ(DecodeRequirementsText(bytes), "# caf\xC3\xA9\xF0\x9F\x98\x80\ntorch==2.3.1\n");
}

TEST(RequirementsDecode, LineEnds) {
  EXPECT_EQ(PinsOf(kText), kExpected);                          // LF
  EXPECT_EQ(PinsOf(Replace(kText, "\n", "\r\n")), kExpected);   // CRLF
  EXPECT_EQ(PinsOf(Replace(kText, "\n", "\r")), kExpected);     // CR alone (classic Mac)
  EXPECT_EQ(DecodeRequirementsText("a\rb\r\nc\n\r"), "a\nb\nc\n\n");
}

TEST(RequirementsDecode, IncludedFilesAreDecodedToo) {
  PinSet set = ParseRequirements("req.txt", "-r sub.txt\n", [](const std::string&) -> Result<std::string> {
    return Utf16("torch==2.3.1\r\n", true);
  });
  ASSERT_EQ(set.pins.size(), 1u);
  EXPECT_EQ(set.pins[0].specifier, "==2.3.1");
  EXPECT_EQ(set.pins[0].file, "sub.txt");
}

// 256 lines including one 1 MB file would expand to 20 million pins: bytes and pins are capped.
TEST(RequirementsCaps, ManyIncludesOfOneLargeFileStopAtTheByteCap) {
  std::string big;
  while (big.size() < (1u << 20) - 16) big += "torch==2.3.1\n";
  std::string top;
  for (int i = 0; i < 256; ++i) top += "-r pins.txt\n";
  size_t reads = 0;
  PinSet set = ParseRequirements("req.txt", top, [&](const std::string&) -> Result<std::string> {
    ++reads;
    return big;
  });
  EXPECT_EQ(set.pins.size(), kMaxRequirementPins);
  size_t bytes_cut = 0, pins_cut = 0;
  for (const ParseIssue& i : set.issues) {
    bytes_cut += i.why == "req.bytes_limit";
    pins_cut += i.why == "req.pins_limit";
  }
  EXPECT_EQ(pins_cut, 1u);                                                    // noted once
  EXPECT_EQ(bytes_cut, 256u - (kMaxRequirementBytes - top.size()) / big.size());  // every include past the cap
  EXPECT_EQ(reads, 256u);
}

TEST(RequirementsCaps, PinsInOneFileStopAtThePinCap) {
  std::string text;
  for (size_t i = 0; i < kMaxRequirementPins + 500; ++i) text += "torch==2.3.1\n";
  PinSet set = ParseRequirements("req.txt", text, nullptr);
  EXPECT_EQ(set.pins.size(), kMaxRequirementPins);
  ASSERT_EQ(set.issues.size(), 1u);
  EXPECT_EQ(set.issues[0].why, "req.pins_limit");
  EXPECT_EQ(set.issues[0].line, static_cast<int>(kMaxRequirementPins) + 1);
}

#ifndef _WIN32
// `check -r FILE` for a file without pins: "no pins found in FILE", exit 1, no plan for torch.
TEST(RequirementsCheck, FileWithoutPinsIsNoPlan) {
  testing::TempDir t;
  for (const std::string& content : {std::string("numpy==1.26.4\n"), std::string("# nothing\n"), std::string()}) {
    std::string file = t.Write("requirements.txt", content);
    auto r = testing::RunCudamatch({"check", "--no-detect", "-r", file});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("no pins found in " + file), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("torch=="), std::string::npos) << r.out;
  }
}

TEST(RequirementsCheck, Utf16FileIsChecked) {
  testing::TempDir t;
  std::string file = t.Write("requirements.txt", Utf16("torch==2.3.1\r\ntorchvision==0.18.1\r\n", false));
  auto r = testing::RunCudamatch({"check", "--no-detect", "-r", file});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("consistent"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("torch 2.3.1"), std::string::npos) << r.out;
}
#endif

}  // namespace
}  // namespace cudamatch
