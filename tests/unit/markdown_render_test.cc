// `doctor --format markdown` rendered the way GitHub renders it: cmark-gfm (Debian's package)
// with its GitHub extensions turns the report of fixture machines into HTML, and the HTML is
// checked: every code block but the details one holds exactly the fix commands of the same
// run's JSON (redacted as the report redacts them), the <details> block closes after the
// details, and no home directory, user name or credential of the machine appears anywhere.
// A whole-binary test (excluded on WIN32 in CMakeLists.txt); skipped only without cmark-gfm.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>

#include "core/text.h"
#include "report/json.h"
#include "report/redact.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::SourceDir;

struct Machine {
  std::string name;
  std::vector<std::string> extra_env;
  std::vector<std::string> secrets;  // what must not appear in the markdown or its HTML
};

std::string Dir(const std::string& m) { return SourceDir() + "/tests/fixtures/machines/" + m; }

std::vector<std::string> EnvOf(const Machine& m) {
  std::vector<std::string> env;
  const std::string text = testing::ReadSource("tests/fixtures/machines/" + m.name + "/env");
  for (std::string_view line : Lines(text)) {
    if (!line.empty() && line.front() != '#') env.emplace_back(line);
  }
  env.insert(env.end(), m.extra_env.begin(), m.extra_env.end());
  return env;
}

testing::RunResult Doctor(const Machine& m, const std::string& format) {
  std::vector<std::string> args = {"doctor", "--root", Dir(m.name) + "/root", "--format", format};
  if (std::filesystem::exists(Dir(m.name) + "/os")) {
    args.emplace_back("--os");
    args.emplace_back(Trim(testing::ReadSource("tests/fixtures/machines/" + m.name + "/os")));
  }
  return testing::RunCudamatch(args, EnvOf(m));
}

bool HaveCmark() { return std::system("command -v cmark-gfm >/dev/null 2>&1") == 0; }

std::string ToHtml(const std::string& markdown) {
  testing::TempDir dir;
  std::string in = dir.Write("report.md", markdown);
  std::string cmd = "cmark-gfm --unsafe -e table -e autolink -e strikethrough -e tagfilter '" + in + "'";
  FILE* p = popen(cmd.c_str(), "r");
  std::string html;
  char buf[4096];
  for (size_t n; p != nullptr && (n = fread(buf, 1, sizeof(buf), p)) > 0;) html.append(buf, n);
  EXPECT_TRUE(p != nullptr && pclose(p) == 0) << cmd;
  return html;
}

std::string Unescape(std::string s) {
  for (auto [from, to] : {std::pair{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}, {"&amp;", "&"}}) {
    for (size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += std::strlen(to)) s.replace(pos, std::strlen(from), to);
  }
  return s;
}

struct CodeBlock {
  std::string lang, text;
  size_t at = 0;
};

std::vector<CodeBlock> CodeBlocks(const std::string& html) {
  std::vector<CodeBlock> out;
  std::regex re(R"re(<pre><code(?: class="language-([a-z]+)")?>([\s\S]*?)</code></pre>)re");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), re); it != std::sregex_iterator(); ++it) {
    out.push_back({(*it)[1].str(), Unescape((*it)[2].str()), static_cast<size_t>(it->position())});
  }
  return out;
}

RedactFor PlaceOf(const std::string& lang) {
  if (lang == "powershell") return RedactFor::kPowerShell;
  if (lang == "bat") return RedactFor::kCmd;
  return RedactFor::kPosix;
}

std::map<std::string, std::string> EnvMap(const std::vector<std::string>& env) {
  std::map<std::string, std::string> out;
  for (const std::string& kv : env) out[kv.substr(0, kv.find('='))] = kv.substr(kv.find('=') + 1);
  return out;
}

const std::vector<Machine>& Machines() {
  static const std::vector<Machine> kMachines = {
      // A credential planted in the index URL; alice is in the paths of her conda environments.
      {"gpu-server", {"PIP_INDEX_URL=https://carol:s3cret-token@pypi.corp.example/simple", "USER=alice"},
       {"alice", "/home/", "s3cret", "carol"}},
      {"win-conda-cu121", {"USERNAME=bob"}, {"bob", "C:\\Users\\", "C:\\\\Users"}},
      {"container-nomodule", {}, {"/root/"}},
      {"nvidia-wheels-missing", {}, {}},
  };
  return kMachines;
}

class MarkdownRender : public ::testing::TestWithParam<size_t> {};

TEST_P(MarkdownRender, CodeBlocksDetailsAndRedaction) {
  if (!HaveCmark()) GTEST_SKIP() << "cmark-gfm is not installed (Debian package cmark-gfm; scripts/setup.sh --test installs it)";
  const Machine& m = Machines()[GetParam()];
  testing::RunResult md = Doctor(m, "markdown");
  testing::RunResult json = Doctor(m, "json");
  ASSERT_EQ(md.exit_code, json.exit_code) << md.err;
  ASSERT_TRUE(md.err.empty()) << md.err;
  std::string html = ToHtml(md.out);
  ASSERT_FALSE(html.empty());

  // The commands the JSON names, in the order of its findings (most severe first, as the report).
  std::vector<std::string> fixes;
  Json j = Json::parse(json.out);
  for (const Json& f : j["findings"]) {
    for (const char* key : {"fix", "fix_next"}) {
      if (f[key].is_string()) fixes.push_back(f[key].get<std::string>());
    }
  }
  std::vector<CodeBlock> blocks = CodeBlocks(html);
  ASSERT_FALSE(blocks.empty());
  CodeBlock details = blocks.back();
  blocks.pop_back();
  EXPECT_EQ(details.lang, "text");
  ASSERT_EQ(blocks.size(), fixes.size()) << html;
  RedactionSet set = RedactionsFor(md.out + json.out, EnvMap(EnvOf(m)));
  for (size_t i = 0; i < blocks.size(); ++i) {
    EXPECT_TRUE(blocks[i].lang == "sh" || blocks[i].lang == "powershell" || blocks[i].lang == "bat") << blocks[i].lang;
    EXPECT_EQ(blocks[i].text, Redact(fixes[i], set, PlaceOf(blocks[i].lang)) + "\n") << m.name << " block " << i;
  }

  // One details block, closed after the details it holds, and nothing of the report after it.
  size_t open = html.find("<details>"), close = html.find("</details>");
  ASSERT_NE(open, std::string::npos) << html;
  ASSERT_NE(close, std::string::npos) << html;
  EXPECT_EQ(html.find("<details>", open + 1), std::string::npos);
  EXPECT_LT(open, details.at);
  EXPECT_LT(details.at, close);
  EXPECT_NE(html.find("<summary>"), std::string::npos);
  EXPECT_EQ(Trim(html.substr(close + 10)), "");
  EXPECT_EQ(html.find("raw HTML omitted"), std::string::npos);

  for (const std::string& secret : m.secrets) {
    EXPECT_EQ(ToLower(md.out).find(ToLower(secret)), std::string::npos) << m.name << " shows " << secret << ":\n" << md.out;
    EXPECT_EQ(ToLower(html).find(ToLower(secret)), std::string::npos) << m.name << " shows " << secret;
  }
  // No line ends in spaces (a hard line break on GitHub).
  for (std::string_view line : Lines(md.out)) EXPECT_FALSE(EndsWith(line, " ")) << m.name << ": \"" << line << "\"";
}

INSTANTIATE_TEST_SUITE_P(Machines, MarkdownRender, ::testing::Range<size_t>(0, 4),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                           std::string name = Machines()[info.param].name;
                           for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

// The planted credential reaches the report's host section, redacted, so the check above is not
// empty: the index host is shown, its user and token are not.
TEST(MarkdownRender, PlantedIndexIsShownRedacted) {
  testing::RunResult md = Doctor(Machines()[0], "markdown");
  EXPECT_NE(md.out.find("pypi.corp.example/simple"), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("~/miniconda3/envs/torch23"), std::string::npos) << md.out;
}

// Other commands have no Markdown view: a usage error in both languages.
TEST(MarkdownRender, OnlyDoctorHasIt) {
  testing::RunResult en = testing::RunCudamatch({"lookup", "torch==2.3.1", "--format", "markdown"});
  EXPECT_EQ(en.exit_code, 2);
  EXPECT_TRUE(en.out.empty()) << en.out;
  EXPECT_NE(en.err.find("--format markdown is for doctor"), std::string::npos) << en.err;
  testing::RunResult zh = testing::RunCudamatch({"lookup", "torch==2.3.1", "--format", "markdown", "--lang", "zh"});
  EXPECT_EQ(zh.exit_code, 2);
  EXPECT_NE(zh.err.find("只用于 doctor"), std::string::npos) << zh.err;
}

}  // namespace
}  // namespace cudamatch
