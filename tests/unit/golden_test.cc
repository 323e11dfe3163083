// Golden whole-binary runs. Each tests/golden/<case>.args holds the arguments, one per line; a
// first line "@machine NAME" runs against tests/fixtures/machines/NAME (--root and its env
// file). The expected stdout, stderr and exit code are in <case>.out; the source directory is
// written as $SRC and the tool's version in JSON's meta as $VERSION; every run has the same
// time (CUDAMATCH_NOW, testing::kGoldenNow). CUDAMATCH_UPDATE_GOLDEN=1 rewrites the .out files that differ, and fails.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/text.h"
#include "report/i18n.h"
#include "tests/unit/no_placeholder.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::SourceDir;

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  for (size_t pos = 0; (pos = text.find(from, pos)) != std::string::npos; pos += to.size()) text.replace(pos, from.size(), to);
  return text;
}

struct GoldenCase {
  std::string name;
  std::vector<std::string> args;
  std::vector<std::string> env = {"LANG=C.UTF-8"};
};

GoldenCase Load(const std::filesystem::path& args_file) {
  GoldenCase c;
  c.name = args_file.stem().string();
  std::ifstream in(args_file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (StartsWith(line, "@machine ")) {
      std::string dir = SourceDir() + "/tests/fixtures/machines/" + line.substr(9);
      c.env.clear();
      std::ifstream env(dir + "/env");
      std::string kv;
      while (std::getline(env, kv)) {
        if (!kv.empty() && kv[0] != '#') c.env.push_back(kv);
      }
      c.args.push_back("--root");
      c.args.push_back(dir + "/root");
      continue;
    }
    c.args.push_back(Replace(line, "$SRC", SourceDir()));
  }
  c.env.push_back(std::string(testing::kGoldenNow));
  // Options of the subcommand go after it: move --root behind the first argument.
  if (c.args.size() > 2 && c.args[0] == "--root") std::rotate(c.args.begin(), c.args.begin() + 2, c.args.begin() + 3);
  return c;
}

std::string Render(const testing::RunResult& r) {
  std::string out = r.out;
  if (!r.err.empty()) out += "--- stderr\n" + r.err;
  out += "--- exit " + std::to_string(r.exit_code) + "\n";
  out = Replace(out, "\"cudamatch_version\": \"" CUDAMATCH_VERSION "\"", "\"cudamatch_version\": \"$VERSION\"");
  return Replace(out, SourceDir(), "$SRC");
}

std::vector<std::filesystem::path> Cases() {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(SourceDir() + "/tests/golden")) {
    if (e.path().extension() == ".args") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> CaseNames() {
  std::vector<std::string> names;
  for (const auto& file : Cases()) names.push_back(file.stem().string());
  return names;
}

// One test per case. CUDAMATCH_UPDATE_GOLDEN=1 rewrites a differing .out file and fails, so
// every regenerated golden is read (git diff tests/golden) before it is committed.
class GoldenRun : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenRun, MatchesStoredOutput) {
  std::filesystem::path file = SourceDir() + "/tests/golden/" + GetParam() + ".args";
  GoldenCase c = Load(file);
  std::string actual = Render(testing::RunCudamatch(c.args, c.env));
  std::filesystem::path expected_file = file;
  expected_file.replace_extension(".out");
  std::ifstream in(expected_file, std::ios::binary);
  std::ostringstream expected;
  expected << in.rdbuf();
  if (expected.str() == actual) return;
  if (std::getenv("CUDAMATCH_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(expected_file, std::ios::binary) << actual;
    FAIL() << "rewrote " << expected_file.filename() << ": read `git diff tests/golden`, then run again without "
           << "CUDAMATCH_UPDATE_GOLDEN";
  }
  EXPECT_EQ(expected.str(), actual) << "golden case " << c.name
                                    << " (CUDAMATCH_UPDATE_GOLDEN=1 rewrites it; the run still fails)";
}

std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Cases, GoldenRun, ::testing::ValuesIn(CaseNames()), TestName);

TEST(Golden, EveryCaseHasArgumentsAndOutput) {
  size_t outs = 0;
  for (const auto& e : std::filesystem::directory_iterator(SourceDir() + "/tests/golden")) {
    if (e.path().extension() != ".out") continue;
    ++outs;
    std::filesystem::path args = e.path();
    EXPECT_TRUE(std::filesystem::exists(args.replace_extension(".args"))) << e.path() << " has no .args";
  }
  EXPECT_EQ(outs, Cases().size()) << "every .args needs its .out";
  EXPECT_GE(outs, 20u);
}

// What a person reads never shows the code's own words: no message id (a missing translation
// prints its id) and no NVML status code, which the text turns into a sentence ("nvml.<code>").
// Reads the stored outputs, which GoldenRun holds equal to the binary's.
TEST(Golden, TextShowsNoMessageIdsOrStatusCodes) {
  std::vector<std::string> words;
  size_t codes = 0;
  for (const MessageEntry& m : EmbeddedMessages(Lang::kEn)) {
    words.push_back(m.id);
    if (StartsWith(m.id, "nvml.")) {
      words.push_back(m.id.substr(5));
      ++codes;
    }
  }
  ASSERT_GE(words.size(), 200u);
  ASSERT_GE(codes, 3u);
  int text_cases = 0;
  for (const auto& file : Cases()) {
    std::string name = file.stem().string() + ".out";
    std::string text = testing::ReadSource("tests/golden/" + name);
    if (StartsWith(text, "{")) continue;  // JSON carries codes on purpose
    ++text_cases;
    for (const std::string& w : words) EXPECT_EQ(text.find(w), std::string::npos) << name << " shows \"" << w << "\"";
  }
  EXPECT_GE(text_cases, 10);
}

// No stored text output shows a "?" for an unknown value, an empty list or a leftover {placeholder}.
TEST(Golden, TextShowsNoPlaceholders) {
  int text_cases = 0;
  for (const auto& file : Cases()) {
    std::string name = file.stem().string() + ".out";
    std::string text = testing::ReadSource("tests/golden/" + name);
    if (StartsWith(text, "{")) continue;
    ++text_cases;
    testing::ExpectNoPlaceholders(text, name);
  }
  EXPECT_GE(text_cases, 10);
}

// What the Chinese output shows keeps Chinese punctuation where the code joins pieces (a label
// and its text): no space after a full-width colon. Reads the stored -zh outputs.
TEST(Golden, ChineseOutputHasNoSpaceAfterFullWidthColon) {
  int zh_cases = 0;
  for (const auto& file : Cases()) {
    std::string name = file.stem().string();
    if (!EndsWith(name, "-zh")) continue;
    ++zh_cases;
    std::string text = testing::ReadSource("tests/golden/" + name + ".out");
    for (std::string_view line : Lines(text)) {
      std::string_view content = line.substr(std::min(line.find_first_not_of(' '), line.size()));  // a wrapped line's indent is not a join
      EXPECT_EQ(content.find("： "), std::string::npos) << name << ": " << line;
      EXPECT_EQ(content.find(" （"), std::string::npos) << name << ": " << line;
    }
  }
  EXPECT_GE(zh_cases, 5);
}

}  // namespace
}  // namespace cudamatch
