// The man page and completions that `cudamatch --generate` writes (and the build installs):
// they render and complete in the real programs (man, bash, zsh, fish).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <set>
#include <sstream>

#include "tests/unit/test_util.h"

namespace cudamatch::testing {
namespace {

const std::vector<std::string> kCommands = {"doctor", "lookup", "table", "catalog", "plan", "check", "explain"};

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
  EXPECT_EQ(BashComplete(dir, script, "cudamatch plan --no"), std::set<std::string>{"--no-detect"});
  EXPECT_EQ(BashComplete(dir, script, "cudamatch plan --gpu 'RTX 4090' --py"), std::set<std::string>{"--python"});
  EXPECT_EQ(BashComplete(dir, script, "cudamatch doctor --ro"), std::set<std::string>{"--root"});
  EXPECT_EQ(BashComplete(dir, script, "cudamatch check --req"), std::set<std::string>{"--requirement"});
  EXPECT_EQ(BashComplete(dir, script, "cudamatch lookup --js"), std::set<std::string>{"--json"});  // global
  EXPECT_EQ(BashComplete(dir, script, "cudamatch doctor --no"), std::set<std::string>{"--no-cache"});  // not plan's --no-detect
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
    EXPECT_EQ(BashComplete(dir, script, "cudamatch plan --format ''"), (std::set<std::string>{"text", "json"}));
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

}  // namespace
}  // namespace cudamatch::testing
