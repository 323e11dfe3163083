// docs/schema/cudamatch.schema.json is checked against what the binary prints: every stored JSON
// golden and fresh runs of every command and kind validate against it, and the fields it
// declares are the ones docs/schema/fields-v<schema_version>.txt records, so a field removed or
// given another type (another meaning) fails here unless schema_version is bumped.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "core/text.h"
#include "report/json.h"
#include "tests/unit/json_schema.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using nlohmann::json;
using testing::SourceDir;

const json& Schema() {
  static const json schema = json::parse(testing::ReadSource("docs/schema/cudamatch.schema.json"));
  return schema;
}

std::string Errors(const std::vector<std::string>& errors) { return Join(errors, "\n"); }

std::string Machine(const std::string& name) { return SourceDir() + "/tests/fixtures/machines/" + name; }

std::vector<std::string> MachineEnv(const std::string& name) {
  std::vector<std::string> env = {"LANG=C.UTF-8", std::string(testing::kGoldenNow)};
  std::string text = testing::ReadSource("tests/fixtures/machines/" + name + "/env");
  for (std::string_view kv : Split(text, '\n')) {
    if (!kv.empty() && kv[0] != '#') env.emplace_back(kv);
  }
  return env;
}

// The JSON a run printed on stdout, validated; its kind.
std::string ExpectValid(const testing::RunResult& r, const std::string& what) {
  json j = json::parse(r.out, nullptr, false);
  if (j.is_discarded()) {
    ADD_FAILURE() << what << ": stdout is not JSON: " << r.out << r.err;
    return "";
  }
  EXPECT_EQ(Errors(testing::Validate(Schema(), Schema(), j)), "") << what;
  return j.value("kind", "");
}

TEST(JsonSchema, IsDraft202012AndNamesTheSchemaVersion) {
  EXPECT_EQ(Schema()["$schema"], "https://json-schema.org/draft/2020-12/schema");
  int defs = 0;
  for (auto it = Schema()["$defs"].begin(); it != Schema()["$defs"].end(); ++it) {
    if (it.key() == "meta") continue;
    ++defs;
    EXPECT_EQ(it.value()["properties"]["schema_version"]["const"], kSchemaVersion) << it.key();
    EXPECT_EQ(it.value()["properties"]["meta"]["$ref"], "#/$defs/meta") << it.key();
  }
  EXPECT_EQ(defs, static_cast<int>(Schema()["oneOf"].size()));
}

TEST(JsonSchema, EveryStoredJsonGoldenValidates) {
  int checked = 0;
  for (const auto& e : std::filesystem::directory_iterator(SourceDir() + "/tests/golden")) {
    if (e.path().extension() != ".out") continue;
    std::string text = testing::ReadSource("tests/golden/" + e.path().filename().string());
    if (!StartsWith(text, "{")) continue;
    std::string out = text.substr(0, text.find("\n--- "));
    json j = json::parse(out);
    EXPECT_EQ(Errors(testing::Validate(Schema(), Schema(), j)), "") << e.path().filename();
    ++checked;
  }
  EXPECT_GE(checked, 6);
}

// Fresh runs: every command, and every kind the schema declares, on fixture machines and flags.
TEST(JsonSchema, FreshRunsOfEveryCommandValidate) {
  std::set<std::string> kinds;
  for (const char* m : {"gpu-server", "win-pythonorg-cpu", "container-nodev", "jetson-orin", "wsl", "venv-cpu"}) {
    for (std::vector<std::string> args : {std::vector<std::string>{"doctor", "-v"}, {"plan"}, {"check", "torch==2.5.1"}}) {
      args.insert(args.begin() + 1, {"--root", Machine(m) + "/root", "--json"});
      kinds.insert(ExpectValid(testing::RunCudamatch(args, MachineEnv(m)), std::string(m) + " " + args[0]));
    }
  }
  const std::vector<std::vector<std::string>> lines = {
      {"lookup", "torch==2.3.1"}, {"lookup", "torchvision==0.18.1"}, {"lookup", "cuda==12.4"},
      {"lookup", "driver==470.82.01"}, {"lookup", "gpu", "RTX 3090"}, {"lookup", "gpu", "RTX 9090"},
      {"table", "torch"}, {"table", "cuda"}, {"table", "driver"}, {"table", "gpu"}, {"catalog"}, {"explain"},
      {"explain", "layers"}, {"plan", "--no-detect", "--cc", "2.0", "--python", "3.10"},
      {"plan", "--no-detect", "--python", "3.11", "--print", "pip-args"},
      {"check", "--no-detect", "--python", "3.11", "--require", "gpu", "torch==2.5.1+cpu"},
      {"plan", "--print", "varient"}, {"nonsense"}, {"check", "--no-detect"}};
  for (std::vector<std::string> args : lines) {
    std::string what = Join(args, " ");
    args.push_back("--json");
    kinds.insert(ExpectValid(testing::RunCudamatch(args, {"LANG=C.UTF-8", std::string(testing::kGoldenNow)}), what));
  }
  for (const char* kind : {"doctor", "plan", "check", "torch", "torchvision", "cuda", "driver", "gpu", "table", "catalog",
                           "explain", "error"}) {
    EXPECT_TRUE(kinds.count(kind)) << "no fresh run printed kind " << kind;
  }
}

TEST(JsonSchema, ValidatorCatchesARemovedOrRetypedField) {
  auto r = testing::RunCudamatch({"lookup", "cuda==12.4", "--json"}, {"LANG=C.UTF-8", std::string(testing::kGoldenNow)});
  json j = json::parse(r.out);
  ASSERT_EQ(Errors(testing::Validate(Schema(), Schema(), j)), "");
  json removed = j;
  removed.erase("min_driver_linux");
  EXPECT_NE(Errors(testing::Validate(Schema(), Schema(), removed)), "");
  json retyped = j;
  retyped["found"] = "yes";
  EXPECT_NE(Errors(testing::Validate(Schema(), Schema(), retyped)), "");
  json no_meta = j;
  no_meta.erase("meta");
  EXPECT_NE(Errors(testing::Validate(Schema(), Schema(), no_meta)), "");
}

// The fields of a schema_version are a promise: the schema may add fields (recorded here as
// they come), never drop one or change its type while schema_version stays.
TEST(JsonSchema, FieldsMatchTheRecordOfThisSchemaVersion) {
  std::string record_path = "docs/schema/fields-v" + std::to_string(kSchemaVersion) + ".txt";
  ASSERT_TRUE(std::filesystem::exists(SourceDir() + "/" + record_path))
      << "schema_version " << kSchemaVersion << " has no field record " << record_path;
  std::vector<std::string> recorded;
  std::string record_text = testing::ReadSource(record_path);
  for (std::string_view line : Split(record_text, '\n')) {
    if (!line.empty() && line[0] != '#') recorded.emplace_back(line);
  }
  std::vector<std::string> declared = testing::DeclaredFields(Schema());
  std::set<std::string> have(declared.begin(), declared.end()), promised(recorded.begin(), recorded.end());
  for (const std::string& f : recorded) {
    EXPECT_TRUE(have.count(f)) << "field removed or changed without a schema_version bump: " << f;
  }
  std::vector<std::string> added;
  for (const std::string& f : declared) {
    if (!promised.count(f)) added.push_back(f);
  }
  if (!added.empty() && std::getenv("CUDAMATCH_UPDATE_GOLDEN") != nullptr) {
    std::ofstream out(SourceDir() + "/" + record_path, std::ios::app);
    for (const std::string& f : added) out << f << "\n";
  }
  EXPECT_TRUE(added.empty()) << "new fields: record them in " << record_path
                             << " (CUDAMATCH_UPDATE_GOLDEN=1 appends them):\n" << Join(added, "\n");
}

}  // namespace
}  // namespace cudamatch
