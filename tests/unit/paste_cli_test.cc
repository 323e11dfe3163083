// The whole binary on a paste: `doctor --from FILE --json` gives the findings, exits as doctor
// does, refuses --root, and opens that one file and nothing else (strace).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <regex>

#include "json_schema.h"
#include "test_util.h"

#ifndef _WIN32
#include <sys/wait.h>
#endif

// The sanitizer runtime of an instrumented build reads /proc/self (cmdline, environ, maps) itself.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

namespace cudamatch {
namespace {

using nlohmann::json;

constexpr const char* kWineSkip = "whole-binary runs with Linux paths";

// collect_env of a CUDA 12.1 build on a 470 driver (the layout of torch 2.x).
constexpr std::string_view kPaste =
    "Collecting environment information...\r\n"
    "PyTorch version: 2.3.1+cu121\r\n"
    "CUDA used to build PyTorch: 12.1\r\n"
    "OS: Ubuntu 20.04.6 LTS (x86_64)\r\n"
    "Python version: 3.10.14 (main, May  6 2024, 19:42:50) [GCC 11.2.0] (64-bit runtime)\r\n"
    "GPU models and configuration: GPU 0: Tesla V100-SXM2-32GB\r\n"
    "Nvidia driver version: 470.239.06\r\n";

std::vector<std::string> Ids(const json& j) {
  std::vector<std::string> ids;
  for (const json& f : j["findings"]) ids.push_back(f["id"]);
  return ids;
}

TEST(PasteCli, JsonHasTheFindingsAndThePaste) {
  if (testing::kWindowsBuild) GTEST_SKIP() << kWineSkip;
  testing::TempDir t;
  std::string path = t.Write("env.txt", std::string(kPaste));
  auto r = testing::RunCudamatch({"doctor", "--from", path, "--json"}, {"LANG=C.UTF-8", std::string(testing::kGoldenNow)});
  EXPECT_EQ(r.exit_code, 1) << r.err;  // an error finding, as doctor exits
  json j = json::parse(r.out);
  std::vector<std::string> ids = Ids(j);
  EXPECT_NE(std::find(ids.begin(), ids.end(), "torch.driver_too_old"), ids.end()) << r.out;
  EXPECT_EQ(j["paste"]["path"], path);
  EXPECT_EQ(j["paste"]["formats"], json::array({"collect_env"}));
  EXPECT_EQ(j["paste"]["lines"], 7);
  EXPECT_EQ(j["driver"]["userspace_source"], "line 7: Nvidia driver version: 470.239.06");
  auto never = testing::RunCudamatch({"doctor", "--from", path, "--fail-on", "never"}, {"LANG=C.UTF-8"});
  EXPECT_EQ(never.exit_code, 0);
  EXPECT_NE(never.out.find("Read from " + path + ": collect_env"), std::string::npos) << never.out;
  EXPECT_NE(never.out.find("Not checked"), std::string::npos);
}

// The paste object, with a conflict and a line that did not read, keeps to the schema.
// The Markdown report of a paste says what was read and what a paste cannot show, under the
// verdict, and its fix is the JSON's.
TEST(PasteCli, MarkdownSaysWhatThePasteHeldAndCannotShow) {
  if (testing::kWindowsBuild) GTEST_SKIP() << kWineSkip;
  testing::TempDir t;
  std::string path = t.Write("env.txt", std::string(kPaste));
  auto r = testing::RunCudamatch({"doctor", "--from", path, "--format", "markdown"}, {"LANG=C.UTF-8", std::string(testing::kGoldenNow)});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  size_t verdict = r.out.find("**1 error");
  size_t read = r.out.find("- Read from ");
  size_t gaps = r.out.find("- Not checked (a paste cannot show it): ");
  size_t findings = r.out.find("### Findings");
  ASSERT_NE(verdict, std::string::npos) << r.out;
  ASSERT_NE(read, std::string::npos) << r.out;
  ASSERT_NE(gaps, std::string::npos) << r.out;
  EXPECT_LT(verdict, read);
  EXPECT_LT(gaps, findings);
  EXPECT_NE(r.out.find("`torch.driver_too_old`"), std::string::npos) << r.out;
}

TEST(PasteCli, JsonKeepsToTheSchema) {
  if (testing::kWindowsBuild) GTEST_SKIP() << kWineSkip;
  testing::TempDir t;
  std::string path = t.Write("two.txt", std::string(kPaste) + "Nvidia driver version: 550.54.15\n"
                                                              "Versions of relevant libraries:\n[pip3] torch 2.3.1\n");
  auto r = testing::RunCudamatch({"doctor", "--from", path, "--json"}, {"LANG=C.UTF-8", std::string(testing::kGoldenNow)});
  json j = json::parse(r.out);
  json schema = json::parse(testing::ReadSource("docs/schema/cudamatch.schema.json"));
  // A pasted GPU has no PCI address: null there, as for any GPU without one.
  std::vector<std::string> errors = testing::Validate(schema, schema["$defs"]["doctor"], j);
  EXPECT_TRUE(errors.empty()) << ::testing::PrintToString(errors);
  EXPECT_TRUE(j["gpus"][0]["pci_bus_id"].is_null());
  EXPECT_EQ(j["driver"]["nvml"], "skipped.paste");
  ASSERT_EQ(j["paste"]["conflicts"].size(), 1u);
  EXPECT_EQ(j["paste"]["conflicts"][0]["fact"], "driver_version");
  EXPECT_EQ(j["paste"]["conflicts"][0]["second"]["line"], 8);
  ASSERT_EQ(j["paste"]["unparsed"].size(), 1u);
  EXPECT_EQ(j["paste"]["unparsed"][0]["line"], 10);
  std::vector<std::string> ids = Ids(j);
  EXPECT_NE(std::find(ids.begin(), ids.end(), "paste.conflicting_facts"), ids.end());
}

TEST(PasteCli, UsageErrors) {
  if (testing::kWindowsBuild) GTEST_SKIP() << kWineSkip;
  testing::TempDir t;
  std::string none = t.Write("notes.txt", "my GPU does not work\n");
  auto r = testing::RunCudamatch({"doctor", "--from", none}, {"LANG=C.UTF-8"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no known output in " + none), std::string::npos) << r.err;
  auto zh = testing::RunCudamatch({"doctor", "--from", none, "--lang", "zh"}, {"LANG=C.UTF-8"});
  EXPECT_NE(zh.err.find("没有可识别的输出"), std::string::npos) << zh.err;
  std::string paste = t.Write("env.txt", std::string(kPaste));
  auto both = testing::RunCudamatch({"doctor", "--from", paste, "--root", t.path()}, {"LANG=C.UTF-8"});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("--root"), std::string::npos);
  auto python = testing::RunCudamatch({"doctor", "--from", paste, "--python", "/usr/bin/python3"}, {"LANG=C.UTF-8"});
  EXPECT_EQ(python.exit_code, 2);
  EXPECT_NE(python.err.find("--python"), std::string::npos) << python.err;
  auto missing = testing::RunCudamatch({"doctor", "--from", t.path() + "/absent.txt"}, {"LANG=C.UTF-8"});
  EXPECT_EQ(missing.exit_code, 2);
}

TEST(PasteCli, StdinInUtf16) {
  if (testing::kWindowsBuild) GTEST_SKIP() << kWineSkip;
  testing::TempDir t;
  std::string utf16;
  for (char c : kPaste) {
    utf16 += c;
    utf16 += '\0';
  }
  std::string path = t.Write("env16.txt", utf16);
  std::string cmd = testing::BinaryForShell() + " doctor --from - --json <'" + path + "' >'" + t.path() + "/out.json'";
  int status = std::system(("env -i LANG=C.UTF-8 " + cmd).c_str());
  ASSERT_NE(status, -1);
  std::ifstream in(t.path() + "/out.json");
  json j = json::parse(in);
  EXPECT_EQ(j["paste"]["path"], "-");
  EXPECT_EQ(j["paste"]["encoding"], "utf-16le");
  std::vector<std::string> ids = Ids(j);
  EXPECT_NE(std::find(ids.begin(), ids.end(), "torch.driver_too_old"), ids.end());
}

#ifndef _WIN32
// After the dynamic loader, the only things opened are the root the file layer starts from, the
// paste, and cudamatch's own data in its cache directory (the index overlay `catalog update`
// writes, part of the catalog); no process is started and no library is loaded.
TEST(PasteCli, TraceShowsOnlyThePasteIsRead) {
  if (std::system("strace -V >/dev/null 2>&1") != 0) GTEST_SKIP() << "strace is not installed";
  if (!testing::EmulatorCommand().empty()) GTEST_SKIP() << "under qemu-user, strace sees the emulator's own system calls";
  testing::TempDir t;
  std::string path = t.Write("env.txt", std::string(kPaste));
  std::string log = t.path() + "/trace.log";
  std::string cache = t.path() + "/cache";
  std::string cmd = "env -i LANG=C.UTF-8 HOME=/root XDG_CACHE_HOME='" + cache + "' strace -f -y -qq -o '" + log + "' -e trace=%file,%process,mmap '" +
                    CUDAMATCH_BINARY + "' doctor --json --from '" + path + "' >/dev/null 2>&1";
  int status = std::system(cmd.c_str());
  std::ifstream in(log);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  if (!WIFEXITED(status) || WEXITSTATUS(status) > 1 || lines.empty()) GTEST_SKIP() << "strace cannot trace here";
  std::regex open_call(R"((open|openat|openat2|open_tree|stat|newfstatat|statx|access)\()");
  bool loaded = false;
  size_t paste_opens = 0;
  for (const std::string& l : lines) {
    if (l.find("CLONE_UNTRACED") != std::string::npos) continue;
    EXPECT_FALSE(std::regex_search(l, std::regex(R"((^|[^A-Za-z0-9_])(clone3?|v?fork)\()"))) << l;
    if (!std::regex_search(l, open_call)) continue;
    // The loader's own opens come first: ld.so.cache and the shared libraries.
    if (!loaded) {
      bool loader = l.find("ld.so") != std::string::npos || l.find(".so") != std::string::npos || l.find("execve(") != std::string::npos;
      if (loader) continue;
      loaded = true;
    }
    if (l.find("EBADF") != std::string::npos || l.find("(1</dev/") != std::string::npos || l.find("(2</dev/") != std::string::npos) {
      continue;  // stdout and stderr
    }
    if (l.find(path) != std::string::npos) {
      ++paste_opens;
      continue;
    }
    if (kSanitized && l.find("\"/proc/self/") != std::string::npos) continue;
    if (l.find("\"" + cache) != std::string::npos || l.find("<" + cache) != std::string::npos) {
      EXPECT_EQ(l.find("O_CREAT"), std::string::npos) << "nothing is written to the cache: " << l;
      EXPECT_EQ(l.find("O_WRONLY"), std::string::npos) << "nothing is written to the cache: " << l;
      EXPECT_EQ(l.find("/cudamatch/env"), std::string::npos) << "no environment is read from the cache: " << l;
      continue;
    }
    bool root = l.find("\"/\", O_RDONLY|O_CLOEXEC|O_PATH|O_DIRECTORY") != std::string::npos;
    EXPECT_TRUE(root) << "opened something other than the paste: " << l;
  }
  EXPECT_GT(paste_opens, 0u);
}
#endif

}  // namespace
}  // namespace cudamatch
