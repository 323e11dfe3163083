// Each fixture machine states what a correct doctor reports on it, as data: the facts in
// tests/fixtures/machines/<m>/expected.tsv were written from the captured files (SOURCES.md), not
// from cudamatch's output. This test runs `cudamatch doctor --json` on the machine and checks them.
//
// A machine whose directory holds a file `os` (its text: "windows") is read with --os windows.
//
// expected.tsv: "kind<TAB>key<TAB>value" lines, '#' comments. Kinds:
//   driver   kernel|userspace|cuda|container|wsl   the value ("none" for null)
//   gpu      <pci bus id>                          "<compute capability>"
//   toolkit  <path>                                "<version>" or "<version> active"
//   python   <prefix>                              "<version>" or "<version> active"
//   package  <prefix> <name>                       "<version>"
//   finding  <id>                                  "<env prefix>" or "" (one line per finding)
//   extension <prefix> <name>                      "<version>" (a distribution shipping CUDA code)
//   ptxas    <prefix> <tool>                       "<CUDA version>" of a ptxas its triton bundles
//                                                  (tool: ptxas, ptxas-blackwell, ptxas-thor)
//   verdict  <prefix>                              the summary's verdict on its torch, and the id of
//                                                  the finding that stops it: "cannot_run driver.missing"
//   counts   errors|warnings                       the summary's counts
// gpu, toolkit, python, extension, ptxas and finding lines list everything doctor may report: anything else it
// reports (a phantom toolkit, an unexpected finding) fails the test; so do verdict lines, on a
// machine that lists any.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "core/text.h"
#include "report/json.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::SourceDir;

using Facts = std::map<std::string, std::multiset<std::string>>;  // "kind\tkey" -> values

std::string Dir(const std::string& machine) { return SourceDir() + "/tests/fixtures/machines/" + machine; }

Facts ParseExpected(const std::string& text) {
  Facts facts;
  for (std::string_view line : Lines(text)) {
    if (Trim(line).empty() || line.front() == '#') continue;
    std::vector<std::string> cols;
    for (std::string_view col : Split(line, '\t')) cols.emplace_back(col);
    EXPECT_GE(cols.size(), 2u) << "bad line: " << line;
    if (cols.size() < 2) continue;
    facts[cols[0] + "\t" + cols[1]].insert(cols.size() > 2 ? cols[2] : "");
  }
  return facts;
}

std::string Text(const Json& j) { return j.is_null() ? "none" : j.is_string() ? j.get<std::string>() : j.dump(); }

std::string Active(const Json& j, const std::string& version) {
  return version + (j.value("active", false) ? " active" : "");
}

Facts ActualFacts(const Json& doc) {
  Facts facts;
  const Json& d = doc["driver"];
  facts["driver\tkernel"].insert(Text(d["kernel_version"]));
  facts["driver\tuserspace"].insert(Text(d["userspace_version"]));
  facts["driver\tcuda"].insert(Text(d["cuda"]));
  facts["driver\tcontainer"].insert(Text(d["container"]));
  facts["driver\twsl"].insert(Text(d["wsl"]));
  for (const Json& g : doc["gpus"]) facts["gpu\t" + Text(g["pci_bus_id"])].insert(Text(g["compute_capability"]));
  for (const Json& t : doc["toolkits"]) facts["toolkit\t" + Text(t["path"])].insert(Active(t, Text(t["version"])));
  for (const Json& p : doc["pythons"]) {
    std::string prefix = Text(p["prefix"]);
    facts["python\t" + prefix].insert(Active(p, Text(p["version"])));
    for (const auto& [name, pkg] : p["packages"].items()) facts["package\t" + prefix + " " + name].insert(Text(pkg["version"]));
    for (const Json& x : p["extensions"]) facts["extension\t" + prefix + " " + Text(x["name"])].insert(Text(x["version"]));
    for (const Json& x : p["triton_ptxas"]) facts["ptxas\t" + prefix + " " + Text(x["tool"])].insert(Text(x["version"]));
  }
  if (const Json& j = doc["host"]["jetson"]; j.is_object()) {
    for (const char* key : {"l4t", "soc", "jetpack", "wheels", "gpu_module"}) facts[std::string("jetson\t") + key].insert(Text(j[key]));
  }
  for (const Json& g : doc["gpus"]) facts["gpu_name\t" + Text(g["index"])].insert(Text(g["name"]) + " " + Text(g["name_origin"]));
  const Json& summary = doc["summary"];
  for (const Json& e : summary["environments"]) {
    facts["verdict\t" + Text(e["prefix"])].insert(Text(e["verdict"]) + (e["reason"].is_null() ? "" : " " + Text(e["reason"])));
  }
  facts["counts\terrors"].insert(Text(summary["errors"]));
  facts["counts\twarnings"].insert(Text(summary["warnings"]));
  for (const Json& f : doc["findings"]) {
    const Json& args = f["args"];
    facts["finding\t" + Text(f["id"])].insert(args.contains("env") ? Text(args["env"]) : "");
  }
  return facts;
}

std::vector<std::string> Machines() {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(SourceDir() + "/tests/fixtures/machines")) {
    if (e.is_directory()) names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> MachineEnv(const std::string& machine) {
  std::vector<std::string> env;
  std::string text = testing::ReadSource("tests/fixtures/machines/" + machine + "/env");
  for (std::string_view line : Lines(text)) {
    if (!line.empty() && line.front() != '#') env.emplace_back(line);
  }
  return env;
}

class FixtureMachine : public ::testing::TestWithParam<std::string> {};

TEST_P(FixtureMachine, DoctorReportsTheExpectedFacts) {
  const std::string& m = GetParam();
  ASSERT_TRUE(std::filesystem::exists(Dir(m) + "/expected.tsv")) << m << " states no expected facts";
  ASSERT_TRUE(std::filesystem::exists(Dir(m) + "/SOURCES.md")) << m << " names no sources";
  Facts expected = ParseExpected(testing::ReadSource("tests/fixtures/machines/" + m + "/expected.tsv"));
  std::vector<std::string> args = {"doctor", "--json", "--root", Dir(m) + "/root"};
  if (testing::kWindowsBuild && !std::filesystem::exists(Dir(m) + "/os")) GTEST_SKIP() << testing::kLinuxTreeSkip;
  if (std::filesystem::exists(Dir(m) + "/os")) {
    args.push_back("--os");
    args.emplace_back(Trim(testing::ReadSource("tests/fixtures/machines/" + m + "/os")));
  }
  auto run = testing::RunCudamatch(args, MachineEnv(m));
  ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.err;
  Facts actual = ActualFacts(Json::parse(run.out));
  size_t checked = 0;
  for (const auto& [key, values] : expected) {
    ++checked;
    auto it = actual.find(key);
    EXPECT_TRUE(it != actual.end() && it->second == values)
        << m << ": " << key << " expected [" << Join(std::vector<std::string>(values.begin(), values.end()), "|")
        << "], doctor says [" << (it == actual.end() ? "nothing" : Join({it->second.begin(), it->second.end()}, "|")) << "]";
  }
  bool lists_verdicts = std::any_of(expected.begin(), expected.end(), [](const auto& kv) { return StartsWith(kv.first, "verdict\t"); });
  for (const auto& [key, values] : actual) {
    bool listed_kind = (lists_verdicts && StartsWith(key, "verdict\t")) || StartsWith(key, "gpu\t") || StartsWith(key, "toolkit\t") || StartsWith(key, "python\t") ||
                       StartsWith(key, "finding\t") || StartsWith(key, "extension\t") || StartsWith(key, "ptxas\t");
    EXPECT_TRUE(!listed_kind || expected.count(key)) << m << ": doctor reports " << key << " ("
                                                      << *values.begin() << "), which expected.tsv does not list";
  }
  EXPECT_GE(checked, 5u) << m << ": too few facts to check";
}

std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Machines, FixtureMachine, ::testing::ValuesIn(Machines()), TestName);

}  // namespace
}  // namespace cudamatch
