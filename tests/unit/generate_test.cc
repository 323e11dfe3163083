// The man page and completions that `cudamatch --generate` writes (and the build installs):
// they render and complete in the real programs (man, bash, zsh, fish).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include "tests/unit/test_util.h"

namespace cudamatch::testing {
namespace {

const std::vector<std::string> kCommands = {"doctor", "lookup", "table", "catalog", "plan", "check", "explain", "help"};

struct Shell {
  int status = -1;
  std::string out;
};

Shell RunShell(const std::string& cmd) {
  Shell r;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) r.out.append(buf, n);
  r.status = pclose(p);
  return r;
}

bool HaveProgram(const std::string& name) { return RunShell("command -v " + name + " >/dev/null").status == 0; }

std::string Generated(const TempDir& dir, const std::string& kind, const std::string& file) {
  RunResult r = RunCudamatch({"--generate", kind});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  return dir.Write(file, r.out);
}

std::set<std::string> Lines(const std::string& text) {
  std::set<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.insert(line);
  }
  return out;
}

// The words bash offers for the command line `words` (bash syntax; the last word is the one
// being completed), the way bash calls a completion function.
std::set<std::string> BashComplete(const TempDir& dir, const std::string& script, const std::string& words) {
  std::string driver = dir.Write("complete.sh", "source " + script + "\nCOMP_WORDS=(" + words +
                                                    ")\nCOMP_CWORD=$((${#COMP_WORDS[@]} - 1))\n_cudamatch\n"
                                                    "printf '%s\\n' \"${COMPREPLY[@]}\"\n");
  Shell r = RunShell("bash --norc --noprofile " + driver);
  EXPECT_EQ(r.status, 0) << r.out;
  return Lines(r.out);
}

TEST(Generate, UnknownKindIsAUsageError) {
  RunResult r = RunCudamatch({"--generate", "powershell"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("man, bash, zsh or fish"), std::string::npos) << r.err;
}

TEST(Generate, ManPageRendersEveryCommandAndFlag) {
  if (!HaveProgram("man") || !HaveProgram("groff")) GTEST_SKIP() << "man and groff are not installed (man-db, groff-base)";
  TempDir dir;
  Generated(dir, "man", "cudamatch.1");
  Shell page = RunShell("cd " + dir.path() + " && MANPAGER=cat MANWIDTH=100 LC_ALL=C.UTF-8 man ./cudamatch.1");
  ASSERT_EQ(page.status, 0) << page.out;
  for (const char* section : {"NAME", "SYNOPSIS", "COMMANDS", "GLOBAL OPTIONS", "EXIT STATUS"}) {
    EXPECT_NE(page.out.find("\n" + std::string(section) + "\n"), std::string::npos) << section;
  }
  for (const std::string& cmd : kCommands) EXPECT_NE(page.out.find("   " + cmd + "\n"), std::string::npos) << cmd;
  for (const char* flag : {"--no-detect", "--root", "--json", "--catalog", "--mirror", "--requirement"}) {
    EXPECT_NE(page.out.find(flag), std::string::npos) << flag;
  }
  EXPECT_EQ(page.out.find("--generate"), std::string::npos) << "hidden options stay out of the page";
  Shell warnings = RunShell("groff -man -Tutf8 -ww -z " + dir.path() + "/cudamatch.1");
  EXPECT_EQ(warnings.status, 0);
  EXPECT_EQ(warnings.out, "") << "groff warnings";
}

TEST(Generate, BashCompletesCommands) {
  if (!HaveProgram("bash")) GTEST_SKIP() << "bash is not installed";
  TempDir dir;
  std::string script = Generated(dir, "bash", "cudamatch.bash");
  Shell reg = RunShell("bash --norc --noprofile -c 'source " + script + "; complete -p cudamatch'");
  EXPECT_EQ(reg.out, "complete -o default -F _cudamatch cudamatch\n");
  std::set<std::string> all = BashComplete(dir, script, "cudamatch ''");
  for (const std::string& cmd : kCommands) EXPECT_TRUE(all.count(cmd)) << cmd;
  EXPECT_EQ(BashComplete(dir, script, "cudamatch pl"), std::set<std::string>{"plan"});
  EXPECT_EQ(BashComplete(dir, script, "cudamatch --json ex"), std::set<std::string>{"explain"});
}

TEST(Generate, BashCompletesEachCommandsFlags) {
  if (!HaveProgram("bash")) GTEST_SKIP() << "bash is not installed";
  TempDir dir;
  std::string script = Generated(dir, "bash", "cudamatch.bash");
  EXPECT_EQ(BashComplete(dir, script, "cudamatch plan --no-d"), std::set<std::string>{"--no-detect"});
  EXPECT_EQ(BashComplete(dir, script, "cudamatch plan --gpu 'RTX 4090' --py"), std::set<std::string>{"--python"});
  EXPECT_EQ(BashComplete(dir, script, "cudamatch doctor --ro"), std::set<std::string>{"--root"});
  EXPECT_EQ(BashComplete(dir, script, "cudamatch check --req"), (std::set<std::string>{"--require", "--requirement"}));
  EXPECT_EQ(BashComplete(dir, script, "cudamatch lookup --js"), std::set<std::string>{"--json"});  // global
  EXPECT_EQ(BashComplete(dir, script, "cudamatch doctor --no"), (std::set<std::string>{"--no-cache", "--no-overlay"}));  // not plan's --no-detect
  EXPECT_EQ(BashComplete(dir, script, "cudamatch --gen"), std::set<std::string>{});      // hidden
  // After an option that takes a value bash offers nothing itself (-o default completes files).
  EXPECT_EQ(BashComplete(dir, script, "cudamatch doctor --root ''"), std::set<std::string>{});
}

// Closed-set options and arguments complete to exactly their allowed values, in every shell.
TEST(Generate, CompletionsOfferExactlyTheAllowedValues) {
  TempDir dir;
  if (HaveProgram("bash")) {
    std::string script = Generated(dir, "bash", "cudamatch.bash");
    EXPECT_EQ(BashComplete(dir, script, "cudamatch --lang ''"), (std::set<std::string>{"en", "zh"}));
    EXPECT_EQ(BashComplete(dir, script, "cudamatch plan --format ''"), (std::set<std::string>{"text", "json", "markdown"}));
    EXPECT_EQ(BashComplete(dir, script, "cudamatch --color ''"), (std::set<std::string>{"auto", "always", "never"}));
    EXPECT_EQ(BashComplete(dir, script, "cudamatch --os w"), std::set<std::string>{"windows"});
    EXPECT_EQ(BashComplete(dir, script, "cudamatch --arch ''"), (std::set<std::string>{"x86_64", "aarch64"}));
    EXPECT_EQ(BashComplete(dir, script, "cudamatch explain minor"), std::set<std::string>{"minor-compat"});
  }
  if (HaveProgram("fish")) {
    std::string script = Generated(dir, "fish", "cudamatch.fish");
    Shell words = RunShell("HOME=" + dir.path() + " fish --no-config -c 'source " + script +
                           "; complete -C \"cudamatch --lang \"'");
    std::set<std::string> offered;
    for (const std::string& line : Lines(words.out)) offered.insert(line.substr(0, line.find('\t')));
    EXPECT_EQ(offered, (std::set<std::string>{"en", "zh"})) << words.out;
  }
  RunResult zsh = RunCudamatch({"--generate", "zsh"});
  EXPECT_NE(zsh.out.find("'--lang[Language of human output (default\\: from LANG)]:lang:(en zh)'"), std::string::npos) << zsh.out;
}

TEST(Generate, ZshAndFishScriptsParse) {
  TempDir dir;
  int checked = 0;
  if (HaveProgram("zsh")) {
    Shell r = RunShell("zsh -n " + Generated(dir, "zsh", "_cudamatch"));
    EXPECT_EQ(r.status, 0) << r.out;
    ++checked;
  }
  if (HaveProgram("fish")) {
    std::string script = Generated(dir, "fish", "cudamatch.fish");
    Shell r = RunShell("fish --no-execute " + script);
    EXPECT_EQ(r.status, 0) << r.out;
    Shell words = RunShell("HOME=" + dir.path() + " fish --no-config -c 'source " + script +
                           "; complete -C \"cudamatch plan --no-d\"'");
    EXPECT_NE(words.out.find("--no-detect"), std::string::npos) << words.out;
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "neither zsh nor fish is installed";
}

// "cmd   # comment" lines of the README's Examples section.
std::vector<std::pair<std::string, std::string>> ReadmeExamples() {
  std::ifstream in(SourceDir() + "/README.md");
  std::stringstream text;
  text << in.rdbuf();
  std::string all = text.str();
  size_t start = all.find("## Examples\n\n```sh\n");
  EXPECT_NE(start, std::string::npos);
  start = all.find('\n', all.find("```sh", start)) + 1;
  std::istringstream block(all.substr(start, all.find("```", start) - start));
  std::vector<std::pair<std::string, std::string>> out;
  for (std::string line; std::getline(block, line);) {
    size_t hash = line.find(" # ");
    std::string cmd = line.substr(0, hash), comment = hash == std::string::npos ? "" : line.substr(hash + 3);
    while (!cmd.empty() && cmd.back() == ' ') cmd.pop_back();
    out.emplace_back(cmd, comment);
  }
  return out;
}

std::string RoffText(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '-' ? std::string("\\-") : c == '\\' ? std::string("\\e") : std::string(1, c);
  return out;
}

// The man page's EXAMPLES are the README's, in order, each with what it answers.
TEST(Generate, ManExamplesAreTheReadmes) {
  RunResult man = RunCudamatch({"--generate", "man"});
  size_t at = man.out.find(".SH EXAMPLES\n");
  ASSERT_NE(at, std::string::npos) << man.out;
  std::string section = man.out.substr(at, man.out.find(".SH ", at + 1) - at);
  std::string expected = ".SH EXAMPLES\n";
  auto examples = ReadmeExamples();
  ASSERT_GE(examples.size(), 8u);
  for (const auto& [cmd, comment] : examples) {
    EXPECT_FALSE(comment.empty()) << cmd << ": every README example says what it answers";
    expected += ".TP\n\\fB" + RoffText(cmd) + "\\fR\n" + RoffText(comment) + "\n";
  }
  EXPECT_EQ(section, expected);
}

// `table` and `help` complete their topics; values after each closed-set global option.
TEST(Generate, BashCompletesTopicsOfTableAndHelp) {
  if (!HaveProgram("bash")) GTEST_SKIP() << "bash is not installed";
  TempDir dir;
  std::string script = Generated(dir, "bash", "cudamatch.bash");
  EXPECT_EQ(BashComplete(dir, script, "cudamatch table ''"), (std::set<std::string>{"torch", "cuda", "driver", "gpu"}));
  EXPECT_EQ(BashComplete(dir, script, "cudamatch help pl"), std::set<std::string>{"plan"});
  std::set<std::string> help = BashComplete(dir, script, "cudamatch help ''");
  for (const std::string& cmd : kCommands) EXPECT_TRUE(help.count(cmd)) << cmd;
  EXPECT_EQ(BashComplete(dir, script, "cudamatch explain nvidia"), (std::set<std::string>{"nvidia-smi", "nvidia-wheels"}));
  EXPECT_EQ(BashComplete(dir, script, "cudamatch plan --lang z"), std::set<std::string>{"zh"});
  EXPECT_EQ(BashComplete(dir, script, "cudamatch check --arch a"), std::set<std::string>{"aarch64"});
  EXPECT_EQ(BashComplete(dir, script, "cudamatch doctor --color n"), std::set<std::string>{"never"});
}

TEST(Generate, ZshAndFishOfferTopicsAndValues) {
  RunResult zsh = RunCudamatch({"--generate", "zsh"});
  EXPECT_NE(zsh.out.find("'1: :(torch cuda driver gpu)'"), std::string::npos) << zsh.out;
  EXPECT_NE(zsh.out.find("'1: :(doctor lookup table catalog plan check explain help)'"), std::string::npos) << zsh.out;
  EXPECT_NE(zsh.out.find(":os:(linux windows macos)'"), std::string::npos) << zsh.out;
  RunResult fish = RunCudamatch({"--generate", "fish"});
  EXPECT_NE(fish.out.find("-a 'torch cuda driver gpu'"), std::string::npos) << fish.out;
  EXPECT_NE(fish.out.find("-l arch -x -a 'x86_64 aarch64'"), std::string::npos) << fish.out;
  EXPECT_NE(fish.out.find("-l color -x -a 'auto always never'"), std::string::npos) << fish.out;
  if (HaveProgram("fish")) {
    TempDir dir;
    std::string script = Generated(dir, "fish", "cudamatch.fish");
    Shell words = RunShell("HOME=" + dir.path() + " fish --no-config -c 'source " + script + "; complete -C \"cudamatch table \"'");
    EXPECT_NE(words.out.find("driver"), std::string::npos) << words.out;
  }
}

}  // namespace
}  // namespace cudamatch::testing
