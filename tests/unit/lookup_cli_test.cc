// lookup gpu / lookup driver through the binary: the answer comes first, the default view fits
// a screen of 100 columns, --os is honoured, and --all keeps the full matrix.
#include <gtest/gtest.h>

#include "core/text.h"
#include "report/style.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::RunCudamatch;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  for (std::string_view l : Split(text, '\n')) out.emplace_back(l);
  while (!out.empty() && out.back().empty()) out.pop_back();
  return out;
}

size_t IndexOf(const std::vector<std::string>& lines, const std::string& needle) {
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find(needle) != std::string::npos) return i;
  }
  return lines.size();
}

TEST(LookupCli, GpuDefaultViewFitsAScreen) {
  for (const char* gpu : {"RTX 3090", "GTX 1080", "GTX 780", "RTX 5090"}) {
    auto r = RunCudamatch({"lookup", "gpu", gpu, "--os", "linux", "--arch", "x86_64"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> lines = Lines(r.out);
    EXPECT_LE(lines.size(), 20u) << gpu << ":\n" << r.out;
    for (const std::string& l : lines) EXPECT_LE(DisplayWidth(l), 100u) << gpu << ": " << l;
  }
}

TEST(LookupCli, GpuAnswerComesFirst) {
  auto r = RunCudamatch({"lookup", "gpu", "GTX 1080", "--os", "linux", "--arch", "x86_64", "--lang", "en"});
  std::vector<std::string> lines = Lines(r.out);
  EXPECT_LT(IndexOf(lines, "Newest torch that runs: 2.14.0+cu126"), 3u) << r.out;
  EXPECT_LT(IndexOf(lines, "--index-url https://download.pytorch.org/whl/cu126"), 4u) << r.out;
}

TEST(LookupCli, DriverAnswerComesBeforeAnyVariantRow) {
  auto r = RunCudamatch({"lookup", "driver==470.82.01", "--os", "linux", "--arch", "x86_64"});
  std::vector<std::string> lines = Lines(r.out);
  size_t answer = IndexOf(lines, "Newest torch that runs: 2.7.1+cu118");
  EXPECT_LT(answer, 5u) << r.out;
  EXPECT_LT(answer, IndexOf(lines, "cu80")) << r.out;
  EXPECT_LE(lines.size(), 20u) << r.out;
  for (const std::string& l : lines) EXPECT_LE(DisplayWidth(l), 100u) << l;
}

TEST(LookupCli, GpuHonoursOs) {
  auto windows = RunCudamatch({"lookup", "gpu", "RTX 3090", "--os", "windows"});
  EXPECT_NE(windows.out.find("windows-x86_64"), std::string::npos) << windows.out;
  EXPECT_EQ(windows.out.find("linux-x86_64"), std::string::npos) << windows.out;
  auto linux = RunCudamatch({"lookup", "gpu", "RTX 3090", "--os", "linux", "--arch", "x86_64"});
  EXPECT_NE(linux.out, windows.out);
}

TEST(LookupCli, DriverHonoursOsInJson) {
  auto r = RunCudamatch({"lookup", "driver==566.36", "--os", "windows", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"platform\": \"windows-x86_64\""), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"name\": \"cu80\""), std::string::npos) << "cu80 has no Windows wheel";
}

TEST(LookupCli, AllKeepsTheFullMatrix) {
  auto r = RunCudamatch({"lookup", "gpu", "RTX 3090", "--all", "--os", "linux", "--arch", "x86_64"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines = Lines(r.out);
  EXPECT_GT(lines.size(), 100u);
  EXPECT_LT(IndexOf(lines, "Newest torch that runs"), IndexOf(lines, "1.0.0   linux-x86_64"));
  auto d = RunCudamatch({"lookup", "driver==470.82.01", "--all", "--os", "linux", "--arch", "x86_64"});
  EXPECT_NE(d.out.find("cu80     8.0   runs"), std::string::npos) << d.out;
}

TEST(LookupCli, BadPythonIsAUsageError) {
  auto r = RunCudamatch({"lookup", "gpu", "RTX 3090", "--python", "three"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--python"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cudamatch
