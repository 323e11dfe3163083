// The redaction of reports for strangers (report/redact.h) and the Markdown escaping of
// report/doctor_markdown.h, in process: each row of the replacement table, for prose and for
// the commands of each shell, which must still run after it.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/text.h"
#include "plan/diagnose.h"
#include "plan/remedy_text.h"
#include "report/doctor_markdown.h"
#include "report/redact.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

RedactionSet For(std::string_view text, std::map<std::string, std::string> env = {}) { return RedactionsFor(text, env); }

std::string Prose(std::string_view text, std::map<std::string, std::string> env = {}) {
  return Redact(text, For(text, std::move(env)), RedactFor::kProse);
}

TEST(MarkdownRedact, HomesBecomeTilde) {
  EXPECT_EQ(Prose("torch in /home/alice/miniconda3/envs/x"), "torch in ~/miniconda3/envs/x");
  EXPECT_EQ(Prose("/Users/ann/venv/bin/python"), "~/venv/bin/python");
  EXPECT_EQ(Prose("/root/.cache/pip and /root"), "~/.cache/pip and ~");
  EXPECT_EQ(Prose("(/home/alice)"), "(~)");
  EXPECT_EQ(Prose("/home/user/x"), "~/x");
  // Not a home: a longer word, a path under another directory, the shared folders.
  EXPECT_EQ(Prose("/rootfs/usr /srv/home/x /Users/Shared/x"), "/rootfs/usr /srv/home/x /Users/Shared/x");
}

TEST(MarkdownRedact, WindowsHomesBecomeUserProfile) {
  EXPECT_EQ(Prose("C:\\Users\\bob\\anaconda3\\envs\\ml"), "%USERPROFILE%\\anaconda3\\envs\\ml");
  EXPECT_EQ(Prose("d:/users/Bob/x"), "%USERPROFILE%/x");
  EXPECT_EQ(Prose("C:\\Users\\Public\\x"), "C:\\Users\\Public\\x");
}

TEST(MarkdownRedact, TheEnvironmentsHomeAndNamesToo) {
  std::map<std::string, std::string> env = {{"HOME", "/data/carol"}, {"USER", "carol"}};
  EXPECT_EQ(Prose("/data/carol/venv owned by carol (Carol) not carolyn", env), "~/venv owned by <user> (<user>) not carolyn");
  // The name found in one home path is redacted everywhere else.
  EXPECT_EQ(Prose("/home/dave/x; conda env 'dave-ml'"), "~/x; conda env '<user>-ml'");
}

TEST(MarkdownRedact, ImpersonalNamesStay) {
  std::map<std::string, std::string> env = {{"HOME", "/root"}, {"USER", "root"}, {"USERNAME", "admin"}};
  EXPECT_EQ(Prose("--root inspects an image of /root/x as admin", env), "--root inspects an image of ~/x as admin");
  // A name the report uses as a word: its home is redacted, the word stays.
  EXPECT_EQ(Prose("/home/cuda/venv: cuda 12.1", {{"USER", "cuda"}}), "~/venv: cuda 12.1");
}

TEST(MarkdownRedact, CredentialsInUrls) {
  std::string out = Prose("index https://carol:s3cret@pypi.corp.example/simple (PIP_INDEX_URL)");
  EXPECT_EQ(out.find("s3cret"), std::string::npos) << out;
  EXPECT_EQ(out.find("carol"), std::string::npos) << out;
  EXPECT_NE(out.find("pypi.corp.example/simple"), std::string::npos) << out;
}

TEST(MarkdownRedact, PosixCommandsStillExpandTheHome) {
  auto sh = [](std::string_view cmd) { return Redact(cmd, For(cmd), RedactFor::kPosix); };
  EXPECT_EQ(sh("/home/alice/env/bin/python -m pip install x"), "~/env/bin/python -m pip install x");
  // A quoted "~" does not expand: the quote moves behind "~/".
  EXPECT_EQ(sh("'/home/alice/my env/bin/python' -m pip install x"), "~/'my env/bin/python' -m pip install x");
  EXPECT_EQ(sh("export CUDA_HOME=/home/alice/cuda"), "export CUDA_HOME=~/cuda");
  EXPECT_EQ(sh("cd /home/alice && ls alice"), "cd ~ && ls $USER");
}

TEST(MarkdownRedact, PowerShellRunsTheRedactedPath) {
  auto ps = [](std::string_view cmd) { return Redact(cmd, For(cmd), RedactFor::kPowerShell); };
  EXPECT_EQ(ps("C:\\Users\\bob\\ml\\python.exe -m pip install x"), "& \"$env:USERPROFILE\\ml\\python.exe\" -m pip install x");
  EXPECT_EQ(ps("& 'C:\\Users\\bob\\my env\\python.exe' -m pip"), "& \"$env:USERPROFILE\\my env\\python.exe\" -m pip");
  EXPECT_EQ(ps("uv pip install --python C:\\Users\\bob\\ml\\python.exe x"), "uv pip install --python $env:USERPROFILE\\ml\\python.exe x");
  EXPECT_EQ(ps("$env:CUDA_HOME = 'x'; C:\\Users\\bob\\p.exe -V"), "$env:CUDA_HOME = 'x'; & \"$env:USERPROFILE\\p.exe\" -V");
}

TEST(MarkdownRedact, CmdUsesUserProfile) {
  std::string cmd = "\"C:\\Users\\bob\\my env\\python.exe\" -m pip install x";
  EXPECT_EQ(Redact(cmd, For(cmd), RedactFor::kCmd), "\"%USERPROFILE%\\my env\\python.exe\" -m pip install x");
}

TEST(MarkdownRedact, KeepsLinesAndTheLastLineBreak) {
  EXPECT_EQ(Prose("a /home/alice\nb\n"), "a ~\nb\n");
  EXPECT_EQ(Prose("a\nb"), "a\nb");
  EXPECT_EQ(Prose(""), "");
}

TEST(MarkdownEscape, SpecialsAreLiteral) {
  EXPECT_EQ(EscapeMarkdown("sm_80 <user> a|b *x* `c` ~/d [l](u) #1 & !"),
            "sm\\_80 \\<user\\> a\\|b \\*x\\* \\`c\\` \\~/d \\[l\\](u) \\#1 \\& \\!");
  EXPECT_EQ(EscapeMarkdown("C:\\x"), "C:\\\\x");
  EXPECT_EQ(EscapeMarkdown("two\nlines"), "two lines");
}

TEST(MarkdownEscape, FenceOutgrowsBackticks) {
  EXPECT_EQ(FenceFor("pip install x"), "```");
  EXPECT_EQ(FenceFor("a ```` b ` c"), "`````");
}

// A machine whose driver is too old for its torch, in a venv under erin's home: the report leads
// with the verdict, the fix command stands alone in its block, redacted, and the details close
// the report. In process, so that it runs on every build (the whole-binary checks are
// markdown_render_test.cc).
TEST(MarkdownReport, VerdictFixBlockAndDetails) {
  Snapshot s = testing::MachineWithDriver("470.82.01", "11.4");
  s.driver.libcuda_paths = {"/usr/lib/x86_64-linux-gnu/libcuda.so.1"};
  GpuInfo g;
  g.index = 0;
  g.name = "NVIDIA A10G";
  g.cc = ComputeCapability::Parse("8.6").value();
  g.source = "NVML";
  s.gpus.push_back(g);
  PythonEnv env;
  env.prefix = "/home/erin/venv";
  env.kind = PythonKind::kVenv;
  env.version = PyVersion::Parse("3.11").value();
  PackageInfo torch;
  torch.name = "torch";
  torch.version = Pep440::Parse("2.6.0+cu126").value();
  torch.variant = Variant::Parse("cu126").value();
  torch.cuda = CudaVersion::Parse("12.6").value();
  env.packages["torch"] = torch;
  s.pythons.push_back(env);
  std::vector<Finding> findings = Diagnose(s, testing::TheCatalog());
  auto error = std::find_if(findings.begin(), findings.end(), [](const Finding& f) { return f.severity == Severity::kError; });
  ASSERT_NE(error, findings.end());

  std::map<std::string, std::string> run_env = {{"HOME", "/home/erin"}};
  std::string md = RenderDoctorMarkdown(s, findings, TextOptions{}, run_env);
  EXPECT_TRUE(StartsWith(md, "## ")) << md;
  EXPECT_EQ(ToLower(md).find("erin"), std::string::npos) << md;
  EXPECT_NE(md.find("\\~/venv: "), std::string::npos) << md;  // prose escapes the tilde
  std::string fix = RemedyText(error->remedy);
  ASSERT_FALSE(fix.empty());
  std::string block = "```sh\n" + Redact(fix, RedactionsFor(md + fix, run_env), RedactFor::kPosix) + "\n```\n";
  EXPECT_NE(md.find(block), std::string::npos) << block << "\n" << md;
  EXPECT_LT(md.find("**1 error"), md.find("#### "));
  EXPECT_TRUE(EndsWith(md, "```\n\n</details>\n")) << md;
  EXPECT_LT(md.find("<details>"), md.find("```text\n"));
}

}  // namespace
}  // namespace cudamatch
