// The doctor text report read top-down, on the fixture machines: its first five lines say the
// machine, each torch environment's verdict and the counts that expected.tsv states (verdict and
// counts lines, written from the machine's facts), in English and Chinese; and every line fits
// the width (100 columns off a terminal, COLUMNS when set), but for a command or a path, which
// stays whole on a line of its own.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/text.h"
#include "report/i18n.h"
#include "report/json.h"
#include "report/style.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::SourceDir;

std::string Dir(const std::string& m) { return SourceDir() + "/tests/fixtures/machines/" + m; }

testing::RunResult Doctor(const std::string& m, const std::string& lang, const std::vector<std::string>& extra_env = {},
                          bool json = false) {
  std::vector<std::string> args = {"doctor", "--root", Dir(m) + "/root", "--lang", lang};
  if (json) args.emplace_back("--json");
  if (std::filesystem::exists(Dir(m) + "/os")) {
    args.emplace_back("--os");
    args.emplace_back(Trim(testing::ReadSource("tests/fixtures/machines/" + m + "/os")));
  }
  std::vector<std::string> env;
  std::string env_file = testing::ReadSource("tests/fixtures/machines/" + m + "/env");
  for (std::string_view line : Lines(env_file)) {
    if (!line.empty() && line.front() != '#') env.emplace_back(line);
  }
  env.insert(env.end(), extra_env.begin(), extra_env.end());
  return testing::RunCudamatch(args, env);
}

// expected.tsv's "verdict" and "counts" lines.
struct Expected {
  std::vector<std::pair<std::string, std::string>> verdicts;  // prefix, "cannot_run driver.missing"
  std::string errors, warnings;
};

Expected ReadExpected(const std::string& m) {
  Expected e;
  std::string text = testing::ReadSource("tests/fixtures/machines/" + m + "/expected.tsv");
  for (std::string_view line : Lines(text)) {
    std::vector<std::string> cols;
    for (std::string_view c : Split(line, '\t')) cols.emplace_back(c);
    if (cols.size() != 3) continue;
    if (cols[0] == "verdict") e.verdicts.emplace_back(cols[1], cols[2]);
    if (cols[0] == "counts") (cols[1] == "errors" ? e.errors : e.warnings) = cols[2];
  }
  return e;
}

std::vector<std::string> Summarized() {
  std::vector<std::string> out;
  for (const auto& d : std::filesystem::directory_iterator(SourceDir() + "/tests/fixtures/machines")) {
    std::string m = d.path().filename().string();
    if (d.is_directory() && !ReadExpected(m).verdicts.empty()) out.push_back(m);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string NoSpaces(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c != ' ') out += c;
  }
  return out;
}

// The text of a message as messages/<lang>.tsv writes it, up to its first placeholder: what every
// rendering of it starts with.
std::string Lead(Lang L, const std::string& id) {
  std::string table = testing::ReadSource(L == Lang::kZh ? "messages/zh.tsv" : "messages/en.tsv");
  size_t at = table.find("\n" + id + "\t");
  if (at == std::string::npos) return "[" + id + "]";
  std::string text = table.substr(at + id.size() + 2, table.find('\n', at + 1) - at - id.size() - 2);
  return text.substr(0, text.find('{'));
}

std::string CountText(Lang L, const char* what, const std::string& n) {
  return Tr(L, std::string("doctor.") + what + (n == "1" ? "_one" : "_many"), {{"n", n}});
}

class SummaryBlock : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(SummaryBlock, FirstFiveLinesSayTheMachineEachVerdictAndTheCounts) {
  const auto& [m, lang_name] = GetParam();
  if (testing::kWindowsBuild && !std::filesystem::exists(Dir(m) + "/os")) GTEST_SKIP() << testing::kLinuxTreeSkip;
  Lang L = ParseLang(lang_name).value();
  Expected want = ReadExpected(m);
  auto run = Doctor(m, lang_name);
  std::vector<std::string> top;  // the first five lines, continuation lines joined to their line
  size_t physical = 0;
  for (std::string_view line : Lines(run.out)) {
    if (++physical > 5) break;
    if (StartsWith(line, "    ") && !top.empty()) top.back() += NoSpaces(line);
    else top.push_back(NoSpaces(line));
  }
  ASSERT_FALSE(top.empty()) << run.out;
  EXPECT_TRUE(StartsWith(top[0], NoSpaces(Lead(L, "doctor.summary.machine")))) << run.out;
  bool windows = std::filesystem::exists(Dir(m) + "/os") && Trim(testing::ReadSource("tests/fixtures/machines/" + m + "/os")) == "windows";
  for (const auto& [tree_prefix, verdict] : want.verdicts) {
    // expected.tsv names the tree's path (as the JSON does); the text writes it as the machine's
    // user does, C:\Users\... in a Windows tree (its SystemDrive is C: in these fixtures).
    std::string prefix = tree_prefix;
    if (windows) {
      for (char& c : prefix) c = c == '/' ? '\\' : c;
      prefix = "C:" + prefix;
    }
    std::string name = verdict.substr(0, verdict.find(' '));
    std::string phrase = NoSpaces(Lead(L, "doctor.verdict." + name));
    if (name == "cannot_run") phrase += NoSpaces(Lead(L, "summary.reason." + verdict.substr(verdict.find(' ') + 1)));
    bool said = std::any_of(top.begin(), top.end(), [&](const std::string& line) {
      return line.find(NoSpaces(prefix)) != std::string::npos && line.find(phrase) != std::string::npos;
    });
    EXPECT_TRUE(said) << m << " " << lang_name << ": no line of the first five says " << prefix << ": " << phrase << "\n" << run.out;
  }
  std::string counts = NoSpaces(Tr(L, "doctor.summary", {{"errors", CountText(L, "errors", want.errors)},
                                                         {"warnings", CountText(L, "warnings", want.warnings)}}));
  EXPECT_TRUE(std::find(top.begin(), top.end(), counts) != top.end()) << m << " " << lang_name << ": no " << counts << "\n" << run.out;
}

std::string CaseName(const ::testing::TestParamInfo<std::tuple<std::string, std::string>>& info) {
  std::string name = std::get<0>(info.param) + "_" + std::get<1>(info.param);
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Machines, SummaryBlock,
                         ::testing::Combine(::testing::ValuesIn(Summarized()), ::testing::Values("en", "zh")), CaseName);

TEST(SummaryBlock, AtLeastFiveMachinesStateTheirVerdicts) { EXPECT_GE(Summarized().size(), 5u); }

// The commands the findings print, one per line of their fix.
std::vector<std::string> Commands(const std::string& m) {
  std::vector<std::string> out;
  Json doc = Json::parse(Doctor(m, "en", {}, true).out);
  for (const Json& f : doc["findings"]) {
    for (const char* key : {"fix", "fix_next"}) {
      if (!f[key].is_string()) continue;
      std::string fix = f[key].get<std::string>();
      for (std::string_view line : Lines(fix)) out.emplace_back(line);
    }
  }
  return out;
}

TEST(DoctorText, FitsTheWidthWithCommandsWholeOnTheirLines) {
  if (testing::kWindowsBuild) GTEST_SKIP() << testing::kLinuxTreeSkip;
  for (const char* m : {"gpu-server", "cudnn-shadow", "flash-attn-no-sm", "win-pythonorg-cpu", "container-nomodule"}) {
    std::vector<std::string> commands = Commands(m);
    for (const char* lang : {"en", "zh"}) {
      for (size_t width : {size_t{100}, size_t{72}}) {
        std::vector<std::string> env;
        if (width != 100) env.push_back("COLUMNS=" + std::to_string(width));
        std::string out = Doctor(m, lang, env).out;
        for (std::string_view line : Lines(out)) {
          std::string_view text = Trim(line);
          bool command = std::find(commands.begin(), commands.end(), text) != commands.end();
          bool one_word = text.find(' ') == std::string_view::npos;
          EXPECT_TRUE(DisplayWidth(line) <= width || command || one_word)
              << m << " " << lang << " COLUMNS " << width << ": " << DisplayWidth(line) << " columns: " << line;
        }
        for (const std::string& c : commands) {
          bool whole = out.find(": " + c + "\n") != std::string::npos || out.find("：" + c + "\n") != std::string::npos ||
                       out.find("\n      " + c + "\n") != std::string::npos;
          EXPECT_TRUE(whole) << m << " " << lang << ": the command is broken: " << c << "\n" << out;
        }
      }
    }
  }
}

}  // namespace
}  // namespace cudamatch
