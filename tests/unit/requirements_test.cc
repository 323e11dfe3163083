// Requirements files read the way pip reads them (pip's "Requirements File Format" page).
#include "plan/requirements.h"

#include <gtest/gtest.h>

#include <map>

#include "plan/check.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

IncludeReader Files(std::map<std::string, std::string> files) {
  return [files](const std::string& path) -> Result<std::string> {
    auto it = files.find(path);
    if (it == files.end()) return Err(path + ": cannot open");
    return it->second;
  };
}

TEST(Requirements, HashContinuationsAreOptionsOfTheRequirement) {
  PinSet p = ParseRequirements("req.txt",
                               "torch==2.0.1+cu118 \\\n    --hash=sha256:aaaa \\\n    --hash=sha256:bbbb\n"
                               "torchvision==0.15.2+cu118 --hash=sha256:cccc\n",
                               nullptr);
  EXPECT_TRUE(p.issues.empty());
  ASSERT_EQ(p.pins.size(), 2u);
  EXPECT_EQ(p.pins[0].specifier, "==2.0.1+cu118");
  EXPECT_EQ(p.pins[0].line, 1);
  EXPECT_EQ(p.pins[1].line, 4);
}

TEST(Requirements, NameAtUrlTakesVersionAndTagFromTheWheelName) {
  PinSet p = ParseRequirements(
      "req.txt", "torch @ https://download.pytorch.org/whl/cu118/torch-2.0.1%2Bcu118-cp310-cp310-linux_x86_64.whl\n", nullptr);
  ASSERT_EQ(p.pins.size(), 1u);
  EXPECT_EQ(p.pins[0].specifier, "==2.0.1+cu118");
  EXPECT_EQ(WheelVersion("torchvision-0.15.2+cu118-cp310-cp310-linux_x86_64.whl"), "0.15.2+cu118");
  EXPECT_EQ(WheelVersion("https://example.org/archive.zip"), "");
}

TEST(Requirements, BareNamesExtrasAndMarkers) {
  PinSet p = ParseRequirements("req.txt", "torch\ntorchvision[extra] >= 0.15 ; python_version >= \"3.8\"\nnumpy\n", nullptr);
  EXPECT_TRUE(p.issues.empty());
  ASSERT_EQ(p.pins.size(), 2u);
  EXPECT_EQ(p.pins[0].specifier, "");
  EXPECT_EQ(p.pins[1].specifier, ">=0.15");
  EXPECT_EQ(p.pins[1].marker, "python_version >= \"3.8\"");
}

TEST(Requirements, IncludesAreReadRelativeToTheIncludingFileAndCyclesReported) {
  PinSet p = ParseRequirements("dir/req.txt", "-r base.txt\n-c constraints.txt\ntorchaudio==2.0.2\n",
                               Files({{"dir/base.txt", "torch==2.0.1\n-r req.txt\n"},
                                      {"dir/constraints.txt", "torchvision==0.15.2\n"}}));
  ASSERT_EQ(p.pins.size(), 3u);
  EXPECT_EQ(p.pins[0].file, "dir/base.txt");
  ASSERT_EQ(p.issues.size(), 1u);
  EXPECT_EQ(p.issues[0].why, "req.include_cycle");
  EXPECT_EQ(p.issues[0].file, "dir/base.txt");
  EXPECT_EQ(p.issues[0].line, 2);
  PinSet missing = ParseRequirements("req.txt", "-r nowhere.txt\ntorch==2.0.1\n", Files({}));
  ASSERT_EQ(missing.issues.size(), 1u);
  EXPECT_EQ(missing.issues[0].why, "req.include_unreadable");
  EXPECT_EQ(missing.pins.size(), 1u);
}

TEST(Requirements, UnparsableLinesAreReportedWithTheirNumberAndTheRestChecked) {
  PinSet p = ParseRequirements("req.txt", "torch==2.0.1\n!!!\ntorchvision==0.15.x\ntorchaudio==2.0.2\n", nullptr);
  ASSERT_EQ(p.issues.size(), 2u);
  EXPECT_EQ(p.issues[0].line, 2);
  EXPECT_EQ(p.issues[1].line, 3);
  EXPECT_EQ(p.pins.size(), 2u);
  CheckResult r = CheckPins(testing::TheCatalog(), MachineSpec{}, p);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.problems[0].id, "req.unparsed");
  EXPECT_EQ(r.problems[0].fix, "");
}

TEST(Requirements, IndexLinesAreKeptInThePrintedCommand) {
  PinSet p = ParseRequirements("req.txt",
                               "--extra-index-url https://pypi.example.org/simple\ntorch==2.0.1\ntorchaudio==2.0.1\n", nullptr);
  EXPECT_EQ(p.extra_urls.size(), 1u);
  CheckResult r = CheckPins(testing::TheCatalog(), MachineSpec{}, p);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.install.find("--extra-index-url https://pypi.example.org/simple"), std::string::npos) << r.install;
}

TEST(Requirements, AKnownMirrorIndexIsRecognised) {
  PinSet p = ParseRequirements("req.txt", "-i https://pypi.tuna.tsinghua.edu.cn/simple\ntorch==2.3.1\ntorchvision==0.17.0\n",
                               nullptr);
  CheckResult r = CheckPins(testing::TheCatalog(), MachineSpec{}, p);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.install.find("-i https://pypi.tuna.tsinghua.edu.cn/simple"), std::string::npos) << r.install;
  EXPECT_EQ(r.install.find("--extra-index-url https://pypi.tuna"), std::string::npos) << r.install;
}

// A link loop (sub -> .) gives every include a new path: the include depth is bounded (found by
// fuzz_requirements as a stack overflow).
TEST(Requirements, IncludesThroughALinkLoopStopAtTheLimit) {
  PinSet set = ParseRequirements("req.txt", "-r sub/req.txt\ntorch==2.3.1\n",
                                 [](const std::string&) -> Result<std::string> { return std::string("-r sub/req.txt\ntorch==2.3.1\n"); });
  ASSERT_FALSE(set.issues.empty());
  EXPECT_EQ(set.issues.back().why, "req.include_limit");
  EXPECT_EQ(set.pins.size(), 16u);  // 16 files deep: the file and 15 nested copies
}

}  // namespace
}  // namespace cudamatch
