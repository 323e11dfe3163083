// Help and usage errors speak the user's language: every help text of the command table is in
// both message tables (the English one saying what the table declares), `--help --lang zh`,
// `cudamatch help [COMMAND]` and every usage error come out in Chinese when asked, and a path
// flag that names nothing is an error, never skipped.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "report/i18n.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::RunCudamatch;
using testing::RunResult;

std::map<std::string, std::string> Table(Lang lang) {
  std::map<std::string, std::string> out;
  for (const MessageEntry& e : EmbeddedMessages(lang)) out.emplace(e.id, e.text);
  return out;
}

bool HasCjk(const std::string& text) {
  return text.find("\xe4") != std::string::npos || text.find("\xe5") != std::string::npos ||
         text.find("\xe6") != std::string::npos || text.find("\xe7") != std::string::npos ||
         text.find("\xe8") != std::string::npos || text.find("\xe9") != std::string::npos;
}

// A help text declared in the command table without its rows: add "id<TAB>text" to both tables.
TEST(Help, EveryHelpTextIsInBothMessageTables) {
  RunResult r = RunCudamatch({"--generate", "help-ids"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto en = Table(Lang::kEn), zh = Table(Lang::kZh);
  std::istringstream in(r.out);
  int rows = 0;
  for (std::string line; std::getline(in, line); ++rows) {
    std::string id = line.substr(0, line.find(' ')), declared = line.substr(line.find(' ') + 1);
    ASSERT_TRUE(en.count(id)) << "messages/en.tsv lacks: " << id << "\t" << declared;
    EXPECT_EQ(en[id], declared) << id << ": en.tsv and the command table disagree";
    ASSERT_TRUE(zh.count(id)) << "messages/zh.tsv lacks " << id;
    if (HasCjk(declared) || declared.find(' ') == std::string::npos) continue;
    EXPECT_TRUE(HasCjk(zh[id]) || zh[id].find("==") != std::string::npos) << id << " is not translated: " << zh[id];
  }
  EXPECT_GT(rows, 40);
}

TEST(Help, HelpInChineseByFlagAndByLocale) {
  RunResult flag = RunCudamatch({"--help", "--lang", "zh"});
  ASSERT_EQ(flag.exit_code, 0);
  EXPECT_NE(flag.out.find("用法：cudamatch [OPTIONS] [COMMAND] [ARGS]"), std::string::npos) << flag.out;
  EXPECT_NE(flag.out.find("\n选项：\n"), std::string::npos) << flag.out;
  EXPECT_EQ(flag.out.find("Usage:"), std::string::npos) << flag.out;
  EXPECT_EQ(flag.out.find("Inspect this machine"), std::string::npos) << flag.out;
  RunResult locale = RunCudamatch({"plan", "--help"}, {"LANG=zh_CN.UTF-8"});
  EXPECT_NE(locale.out.find("只按选项描述机器，不做任何探测"), std::string::npos) << locale.out;
  EXPECT_NE(locale.out.find("全局选项："), std::string::npos) << locale.out;
}

TEST(Help, HelpSubcommandIsTheSameTextAsHelpFlags) {
  EXPECT_EQ(RunCudamatch({"help"}).out, RunCudamatch({"--help"}).out);
  EXPECT_EQ(RunCudamatch({"help", "plan"}).out, RunCudamatch({"plan", "--help"}).out);
  EXPECT_EQ(RunCudamatch({"help", "check", "--lang", "zh"}).out, RunCudamatch({"check", "--help", "--lang", "zh"}).out);
  RunResult top = RunCudamatch({"help"});
  EXPECT_EQ(top.exit_code, 0);
  EXPECT_NE(top.out.find("\n  help "), std::string::npos) << "help is listed among the commands:\n" << top.out;
  RunResult unknown = RunCudamatch({"help", "plna"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("'plna'"), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("'plan'"), std::string::npos) << unknown.err;
}

TEST(Help, UsageErrorsInChinese) {
  struct Case {
    std::vector<std::string> args;
    std::string zh;
  };
  for (const Case& c : std::vector<Case>{
           {{"plna"}, "未知命令 'plna'（是否想输入 'plan'？）；参见 --help"},
           {{"plan", "--pyton", "3.10"}, "plan 没有选项 '--pyton'（是否想输入 '--python'？）"},
           {{"--lang=zh", "--color", "sometimes"}, "--color 不接受取值 'sometimes'"},
           {{"plan", "--gpu"}, "--gpu 需要一个取值（NAME）"},
           {{"lookup"}, "lookup 需要 entity："},
           {{"doctor", "--root", "/nonexistent"}, "--root '/nonexistent'：没有这个目录"},
           {{"doctor", "--python", "/nonexistent/python"}, "--python '/nonexistent/python'：没有这个文件或目录"},
           {{"check"}, "check 需要锁定的版本"},
           {{"plan", "--no-detect", "--with", "torchvison"}, "--with 不接受取值 'torchvison'（是否想输入 'torchvision'？）"},
           {{"plan", "--no-detect", "--gpu", "RTX 9090"}, "未知的 GPU 'RTX 9090'"},
       }) {
    std::vector<std::string> args = c.args;
    if (args.front().rfind("--lang", 0) != 0) args.insert(args.end(), {"--lang", "zh"});
    RunResult r = RunCudamatch(args);
    EXPECT_EQ(r.exit_code, c.zh.find("GPU") != std::string::npos ? 1 : 2) << c.args.front();
    EXPECT_EQ(r.err.rfind("cudamatch: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.zh), std::string::npos) << r.err;
  }
  RunResult locale = RunCudamatch({"explian"}, {"LC_ALL=zh_CN.UTF-8"});
  EXPECT_NE(locale.err.find("未知命令 'explian'（是否想输入 'explain'？）"), std::string::npos) << locale.err;
}

// `doctor --python /nonexistent` used to run as if no --python were given.
TEST(Help, PathFlagsThatNameNothingAreErrors) {
  RunResult doctor = RunCudamatch({"doctor", "--python", "/nonexistent/bin/python3"});
  EXPECT_EQ(doctor.exit_code, 2);
  EXPECT_EQ(doctor.out, "");
  EXPECT_EQ(doctor.err, "cudamatch: error: --python '/nonexistent/bin/python3': no such file or directory\n");
  RunResult plan = RunCudamatch({"plan", "--python", "/nonexistent/bin/python3", "--lang", "zh"});
  EXPECT_EQ(plan.exit_code, 2);
  EXPECT_NE(plan.err.find("没有这个文件或目录"), std::string::npos) << plan.err;
  RunResult no_detect = RunCudamatch({"plan", "--no-detect", "--python", "/usr/bin/python3"});
  EXPECT_EQ(no_detect.exit_code, 2);
  EXPECT_NE(no_detect.err.find("give a version such as 3.10"), std::string::npos) << no_detect.err;
  std::string image = testing::SourceDir() + "/tests/fixtures/machines/gpu-server/root";
  RunResult in_image = RunCudamatch({"doctor", "--root", image, "--python", "/opt/nothing/bin/python"});
  EXPECT_EQ(in_image.exit_code, 2);
  EXPECT_NE(in_image.err.find("in the image under"), std::string::npos) << in_image.err;
  RunResult root = RunCudamatch({"doctor", "--root", "/nonexistent"});
  EXPECT_EQ(root.exit_code, 2);
  RunResult req = RunCudamatch({"check", "-r", "/nonexistent/requirements.txt"});
  EXPECT_EQ(req.exit_code, 2);
  EXPECT_NE(req.err.find("/nonexistent/requirements.txt"), std::string::npos) << req.err;
}

}  // namespace
}  // namespace cudamatch
