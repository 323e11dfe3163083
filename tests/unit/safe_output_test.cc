// Output that is safe to paste: credentials in every form pip accepts are redacted before any
// escaping, and names read from an image can never forge report lines or hide text (newline,
// tab, C1 controls, bidi controls, bytes that are not UTF-8), in the text report and in JSON.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "core/safe_text.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::RunCudamatch;
using testing::TempDir;

struct CredentialForm {
  const char* what;
  std::string url;
  std::vector<std::string> secrets;
  std::string redacted;  // what RedactCredentials makes of `url`
};

// The ten forms: four passwords that used to end the URL early, then query parameters and path
// tokens of the services named in safe_text.cc.
std::vector<CredentialForm> Forms() {
  return {
      {"quote in password", "https://alice:pa\"ss1@pypi.example.com/simple", {"alice", "pa\"ss1", "ss1"},
       "https://***@pypi.example.com/simple"},
      {"backslash in password", "https://bob:pa\\ss2@pypi.example.com/simple", {"bob", "ss2"},
       "https://***@pypi.example.com/simple"},
      {"control byte in password", "https://carol:pa\x01ss3@pypi.example.com/simple", {"carol", "ss3"},
       "https://***@pypi.example.com/simple"},
      {"'@' in password", "https://dave:p@ss4@pypi.example.com/simple", {"dave", "p@ss4", "ss4"},
       "https://***@pypi.example.com/simple"},
      {"AWS presigned", "https://b.s3.amazonaws.com/simple/?X-Amz-Credential=AKIA5&X-Amz-Security-Token=FQoG5&X-Amz-Signature=5abc",
       {"AKIA5", "FQoG5", "5abc"},
       "https://b.s3.amazonaws.com/simple/?X-Amz-Credential=***&X-Amz-Security-Token=***&X-Amz-Signature=***"},
      {"GCS signed", "https://storage.googleapis.com/b/simple/?X-Goog-Credential=svc6&X-Goog-Signature=6def",
       {"svc6", "6def"}, "https://storage.googleapis.com/b/simple/?X-Goog-Credential=***&X-Goog-Signature=***"},
      {"Azure SAS", "https://acct.blob.core.windows.net/simple/?sv=2022-11-02&sig=SAS7sig%3D", {"SAS7sig"},
       "https://acct.blob.core.windows.net/simple/?sv=2022-11-02&sig=***"},
      {"GitLab token", "https://gitlab.example.com/api/v4/projects/1/packages/pypi/simple?private-token=glpat-8x",
       {"glpat-8x"}, "https://gitlab.example.com/api/v4/projects/1/packages/pypi/simple?private-token=***"},
      {"Cloudsmith entitlement", "https://dl.cloudsmith.io/CS9token/acme/repo/python/simple/", {"CS9token"},
       "https://dl.cloudsmith.io/***/acme/repo/python/simple/"},
      {"anaconda.org token", "https://conda.anaconda.org/t/ac-10-tok/acme/simple/", {"ac-10-tok"},
       "https://conda.anaconda.org/t/***/acme/simple/"},
  };
}

TEST(SafeOutput, EachCredentialFormIsRedacted) {
  for (const CredentialForm& f : Forms()) {
    EXPECT_EQ(RedactCredentials(f.url), f.redacted) << f.what;
    // Redaction comes first: the escaped text of a redacted URL holds no part of the secret.
    std::string shown = SafeText("index " + f.url + " from env", Sink::kValue);
    for (const std::string& s : f.secrets) EXPECT_EQ(shown.find(s), std::string::npos) << f.what << ": " << shown;
  }
  EXPECT_EQ(RedactCredentials("https://u:p@h1/a https://v:q@h2/b?token=t&x=1#frag"),
            "https://***@h1/a https://***@h2/b?token=***&x=1#frag");
  EXPECT_EQ(RedactCredentials("https://repo.anaconda.com/pkgs/main"), "https://repo.anaconda.com/pkgs/main");
  EXPECT_EQ(RedactCredentials("https://dl.cloudsmith.io/public/acme/repo/python/simple/"),
            "https://dl.cloudsmith.io/public/acme/repo/python/simple/");
}

TEST(SafeOutput, ANewlineInAPasswordIsRedactedBeforeItIsEscaped) {
  EXPECT_EQ(SafeText("https://u:pa\nss@h/simple", Sink::kValue), "https://***@h/simple");
  EXPECT_EQ(SafeText("https://h/simple?token=ab\ncd", Sink::kJson), "https://h/simple?token=***");
}

TEST(SafeOutput, EveryControlCharacterIsEscapedInValues) {
  EXPECT_EQ(SafeText("a\nb\tc\rd\x01" "e\x7f", Sink::kValue), "a\\nb\\tc\\rd\\x01e\\x7f");
  EXPECT_EQ(SafeText("csi\xc2\x9b" "31m nel\xc2\x85", Sink::kValue), "csi\\u009b31m nel\\u0085");
  EXPECT_EQ(SafeText("rlo\xe2\x80\xae lri\xe2\x81\xa6 lrm\xe2\x80\x8e alm\xd8\x9c", Sink::kValue),
            "rlo\\u202e lri\\u2066 lrm\\u200e alm\\u061c");
  EXPECT_EQ(SafeText("raw\x9b lone\xc2 over\xc0\xaf", Sink::kValue), "raw\\x9b lone\\xc2 over\\xc0\\xaf");
  EXPECT_EQ(SafeText("GeForce RTX 4090 显卡 ü", Sink::kValue), "GeForce RTX 4090 显卡 ü");
  // The report's own line breaks stay; a value's never do.
  EXPECT_EQ(SafeText("line one\nline\ttwo\xe2\x80\xae\n", Sink::kReport), "line one\nline\\ttwo\\u202e\n");
  EXPECT_EQ(EscapeJsonControls("\"a\xc2\x9b\xe2\x80\xae\x7f\""), "\"a\\u009b\\u202e\\u007f\"");
}

// A directory name that, printed raw, would add lines to the report.
const std::string kForged = "evil\nerror fake\n    fix: curl x | sh\n0 errors, 0 warnings.\xc2\x9b\xe2\x80\xae\t\x9b";

void ForgingImage(const TempDir& t) {
  t.Write("etc/os-release", "PRETTY_NAME=\"Debian GNU/Linux 12\"\nID=debian\n");
  std::string env = "opt/conda/envs/" + kForged;
  t.Mkdir(env + "/conda-meta");
  t.Write(env + "/lib/python3.11/site-packages/torch/version.py", "__version__ = '2.3.1+cu121'\ncuda = '12.1'\n");
}

std::vector<std::string> LinesOf(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST(SafeOutput, ANameWithNewlinesNeverForgesReportLines) {
  TempDir t;
  ForgingImage(t);
  for (const char* verbose : {"", "-v"}) {
    std::vector<std::string> args = {"doctor", "--root", t.path(), "--color", "never"};
    if (*verbose) args.push_back(verbose);
    auto r = RunCudamatch(args, {"LANG=C.UTF-8", "HOME=/root", "PATH=/usr/bin"});
    ASSERT_NE(r.out.find("evil\\nerror fake\\n    fix: curl x | sh\\n0 errors, 0 warnings.\\u009b\\u202e\\t\\x9b"),
              std::string::npos) << r.out;
    int summaries = 0;
    for (const std::string& line : LinesOf(r.out)) {
      EXPECT_NE(line, "error fake");
      EXPECT_NE(line, "    fix: curl x | sh");
      if (line.find("error fake") != std::string::npos) {
        EXPECT_NE(line.find("evil\\nerror fake"), std::string::npos) << line;
      }
      if (line.rfind("0 errors", 0) == 0) ++summaries;
    }
    EXPECT_LE(summaries, 1) << r.out;
    for (const char* raw : {"\xc2\x9b", "\xe2\x80\xae", "\t", "\x9b"}) EXPECT_EQ(r.out.find(raw), std::string::npos) << raw;
  }
}

TEST(SafeOutput, ANameWithControlsIsEscapedInJson) {
  TempDir t;
  ForgingImage(t);
  auto r = RunCudamatch({"doctor", "--root", t.path(), "--json", "-v"}, {"LANG=C.UTF-8", "HOME=/root", "PATH=/usr/bin"});
  for (const char* raw : {"\xc2\x9b", "\xe2\x80\xae", "\t", "\x9b"}) EXPECT_EQ(r.out.find(raw), std::string::npos) << raw;
  EXPECT_NE(r.out.find("\\u009b\\u202e\\t\\\\x9b"), std::string::npos) << r.out;
  auto j = nlohmann::json::parse(r.out);
  bool found = false;
  for (const auto& e : j["pythons"]) {
    std::string prefix = e["prefix"];
    // The value itself, its newlines, C1 and bidi control decoded; the byte that is not UTF-8 shown.
    if (prefix == "/opt/conda/envs/" + kForged.substr(0, kForged.size() - 1) + "\\x9b") found = true;
  }
  EXPECT_TRUE(found) << j["pythons"].dump();
}

TEST(SafeOutput, CredentialsFromEverySourceAreRedactedInTextJsonAndTrail) {
  for (const CredentialForm& f : Forms()) {
    for (const char* source : {"PIP_INDEX_URL", "pip.conf", "PIP_EXTRA_INDEX_URL"}) {
      TempDir t;
      t.Write("etc/os-release", "PRETTY_NAME=\"Debian GNU/Linux 12\"\nID=debian\n");
      std::vector<std::string> env = {"LANG=C.UTF-8", "HOME=/root", "PATH=/usr/bin"};
      if (std::string(source) == "pip.conf") t.Write("etc/pip.conf", "[global]\nindex-url = " + f.url + "\n");
      else env.push_back(std::string(source) + "=" + f.url);
      for (const std::vector<std::string>& extra : {std::vector<std::string>{"-v"}, std::vector<std::string>{"--json", "-v"}}) {
        std::vector<std::string> args = {"doctor", "--root", t.path()};
        args.insert(args.end(), extra.begin(), extra.end());
        auto r = RunCudamatch(args, env);
        for (const std::string& s : f.secrets) {
          EXPECT_EQ(r.out.find(s), std::string::npos) << f.what << " via " << source << ":\n" << r.out;
          EXPECT_EQ(r.err.find(s), std::string::npos) << f.what << " via " << source;
        }
        if (std::string(source) != "PIP_EXTRA_INDEX_URL") {
          std::string shown = extra.size() == 1 ? f.redacted : nlohmann::json(f.redacted).dump();
          EXPECT_NE(r.out.find(shown.substr(0, shown.size() - (extra.size() == 1 ? 0 : 1))), std::string::npos)
              << f.what << " via " << source << ":\n" << r.out;
        }
      }
    }
  }
}

}  // namespace
}  // namespace cudamatch
