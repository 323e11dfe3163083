// The corpus of real pastes (tests/fixtures/pastes/*/, each with its thread's URL): every row of
// every expected.tsv holds. A row is
//   file<TAB>fact<TAB>KIND_NAME<TAB>name<TAB>value   a fact the readers must read from the file
//   file<TAB>finding<TAB>finding.id                 a finding doctor --from must give
//   file<TAB>resolution<TAB>text                    how the thread ended (for the reader; one per file)
// with `file` relative to the expected.tsv; "#" starts a comment. Every paste in the directory has
// rows, and its resolution.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/text.h"
#include "derive/derive.h"
#include "plan/diagnose.h"
#include "probe/paste.h"
#include "test_util.h"

namespace cudamatch {
namespace {

namespace fs = std::filesystem;

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::optional<PasteFactKind> KindNamed(std::string_view name) {
  for (int k = 0; k <= static_cast<int>(PasteFactKind::kUnparsed); ++k) {
    auto kind = static_cast<PasteFactKind>(k);
    if (PasteFactKindName(kind) == name) return kind;
  }
  return std::nullopt;
}

struct Read {
  std::vector<PasteFact> facts;
  std::vector<std::string> findings;
};

Read ReadOne(const fs::path& file) {
  Read r;
  PasteText text = DecodePaste(ReadFile(file));
  r.facts = ReadPaste(text);
  Snapshot snap = PasteSnapshot(text, r.facts, file.filename().string());
  Derive(testing::TheCatalog(), snap);
  for (const Finding& f : Diagnose(snap, testing::TheCatalog())) r.findings.push_back(f.id);
  return r;
}

// The rows of one expected.tsv that do not hold, each said with its line.
std::vector<std::string> Failures(const fs::path& expected) {
  std::vector<std::string> out;
  std::map<std::string, Read> read;
  std::set<std::string> resolved;
  int number = 0;
  const std::string text = ReadFile(expected);
  for (std::string_view line : Split(text, '\n')) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (Trim(line).empty() || line[0] == '#') continue;
    std::vector<std::string_view> cols = Split(line, '\t');
    std::string where = expected.string() + ":" + std::to_string(number) + ": ";
    if (cols.size() < 3) {
      out.push_back(where + "fewer than 3 columns");
      continue;
    }
    fs::path file = expected.parent_path() / std::string(cols[0]);
    if (!fs::exists(file)) {
      out.push_back(where + "no file " + file.string());
      continue;
    }
    auto [it, fresh] = read.try_emplace(file.string());
    if (fresh) it->second = ReadOne(file);
    const Read& r = it->second;
    if (cols[1] == "finding") {
      if (std::find(r.findings.begin(), r.findings.end(), cols[2]) == r.findings.end()) {
        out.push_back(where + "no finding " + std::string(cols[2]) + " (got " + Join(r.findings, ", ") + ")");
      }
    } else if (cols[1] == "fact" && cols.size() == 5) {
      auto kind = KindNamed(cols[2]);
      bool held = kind && std::any_of(r.facts.begin(), r.facts.end(), [&](const PasteFact& f) {
                    return f.kind == *kind && f.name == cols[3] && f.value == cols[4];
                  });
      if (!held) out.push_back(where + "no fact " + std::string(cols[2]) + " " + std::string(cols[3]) + "=" + std::string(cols[4]));
    } else if (cols[1] == "resolution" && cols.size() == 3 && !Trim(cols[2]).empty()) {
      resolved.insert(file.filename().string());
    } else {
      out.push_back(where + "neither a fact row (5 columns), a finding row nor a resolution");
    }
  }
  for (const auto& e : fs::directory_iterator(expected.parent_path())) {
    std::string name = e.path().filename().string();
    if (e.path().extension() != ".txt") continue;
    if (!read.count(e.path().string())) out.push_back(expected.string() + ": no rows for " + name);
    if (!resolved.count(name)) out.push_back(expected.string() + ": no resolution for " + name);
  }
  return out;
}

std::vector<fs::path> ExpectedFiles(const fs::path& dir) {
  std::vector<fs::path> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.path().filename() == "expected.tsv") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(PasteCorpus, EveryExpectedRowHolds) {
  std::vector<fs::path> files = ExpectedFiles(fs::path(testing::SourceDir()) / "tests/fixtures/pastes");
  for (const fs::path& f : files) {
    for (const std::string& failure : Failures(f)) ADD_FAILURE() << failure;
  }
  RecordProperty("expected_files", static_cast<int>(files.size()));
}

// The check itself: a row that holds passes, one that does not is said.
TEST(PasteCorpus, ARowThatDoesNotHoldFails) {
  testing::TempDir t;
  t.Write("pastes/a/env.txt",
          "PyTorch version: 2.3.1+cpu\nGPU models and configuration: GPU 0: NVIDIA GeForce RTX 3090\n"
          "Nvidia driver version: 550.54.15\n");
  t.Write("pastes/a/expected.tsv",
          "# https://example.invalid/thread\n"
          "env.txt\tfact\tdriver_version\t\t550.54.15\n"
          "env.txt\tfact\tgpu\t0\tNVIDIA GeForce RTX 3090\n"
          "env.txt\tfinding\ttorch.cpu_build\n"
          "env.txt\tfact\tdriver_version\t\t535.1\n"
          "env.txt\tfinding\ttorch.driver_too_old\n"
          "env.txt\tfact\tno_such_kind\t\tx\n"
          "gone.txt\tfinding\tx\n"
          "env.txt\tresolution\tThe reporter installed the CUDA build.\n");
  std::vector<fs::path> files = ExpectedFiles(fs::path(t.path()) / "pastes");
  ASSERT_EQ(files.size(), 1u);
  std::vector<std::string> failures = Failures(files[0]);
  ASSERT_EQ(failures.size(), 4u) << ::testing::PrintToString(failures);
  EXPECT_NE(failures[0].find(":5: no fact driver_version =535.1"), std::string::npos) << failures[0];
  EXPECT_NE(failures[1].find(":6: no finding torch.driver_too_old"), std::string::npos) << failures[1];
  EXPECT_NE(failures[2].find(":7: no fact no_such_kind"), std::string::npos);
  EXPECT_NE(failures[3].find(":8: no file"), std::string::npos);
  EXPECT_TRUE(ExpectedFiles(fs::path(t.path()) / "absent").empty());
}

}  // namespace
}  // namespace cudamatch
