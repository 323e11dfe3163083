// The contract for install scripts and CI, through the binary: `plan --print`, `doctor
// --fail-on`, `check --require gpu`, JSON's meta and usage errors under --json.
#include <gtest/gtest.h>

#include <regex>

#include <nlohmann/json.hpp>

#include "core/clock.h"
#include "core/text.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using nlohmann::json;
using testing::RunCudamatch;
using testing::RunResult;
using testing::SourceDir;

const std::vector<std::string> kEnv = {"LANG=C.UTF-8", std::string(testing::kGoldenNow)};

std::vector<std::string> MachineEnv(const std::string& name) {
  std::vector<std::string> env = kEnv;
  std::string text = testing::ReadSource("tests/fixtures/machines/" + name + "/env");
  for (std::string_view kv : Split(text, '\n')) {
    if (!kv.empty() && kv[0] != '#') env.emplace_back(kv);
  }
  return env;
}

RunResult OnMachine(const std::string& name, std::vector<std::string> args) {
  args.insert(args.begin() + 1, {"--root", SourceDir() + "/tests/fixtures/machines/" + name + "/root"});
  return RunCudamatch(args, MachineEnv(name));
}

TEST(PlanPrintCli, PrintsExactlyOneLine) {
  for (const char* field : {"index-url", "pip-args", "torch-backend", "variant", "cuda", "driver-cuda"}) {
    RunResult r = OnMachine("gpu-server", {"plan", "--print", field});
    EXPECT_EQ(r.exit_code, 0) << field << r.err;
    EXPECT_EQ(r.err, "") << field;
    ASSERT_FALSE(r.out.empty()) << field;
    EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << field << ": " << r.out;
  }
  EXPECT_EQ(OnMachine("gpu-server", {"plan", "--print", "driver-cuda"}).out, "12.4\n");  // driver 550.54.14
}

TEST(PlanPrintCli, NothingFitsPrintsNothingAndExits1) {
  RunResult r = RunCudamatch({"plan", "--no-detect", "--cc", "2.0", "--python", "3.10", "--print", "pip-args"}, kEnv);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("No torch build fits"), std::string::npos) << r.err;
}

TEST(PlanPrintCli, WithJsonIsTheWholePlan) {
  RunResult whole = OnMachine("gpu-server", {"plan", "--json"});
  RunResult printed = OnMachine("gpu-server", {"plan", "--print", "variant", "--json"});
  EXPECT_EQ(printed.exit_code, whole.exit_code);
  EXPECT_EQ(printed.out, whole.out);
  EXPECT_EQ(json::parse(printed.out)["kind"], "plan");
}

TEST(PlanPrintCli, UnknownFieldIsAUsageErrorThatNamesTheNearest) {
  RunResult r = RunCudamatch({"plan", "--print", "varient"}, kEnv);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("did you mean 'variant'?"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("index-url, pip-args, torch-backend, variant"), std::string::npos) << r.err;
}

TEST(PlanPrintCli, HelpListsTheFields) {
  RunResult r = RunCudamatch({"plan", "--help"}, kEnv);
  EXPECT_NE(r.out.find("--print FIELD"), std::string::npos);
  EXPECT_NE(r.out.find("torch-backend"), std::string::npos);
}

TEST(DoctorFailOn, SetsTheExitStatus) {
  // gpu-server: one warning; driver-mismatch: an error.
  EXPECT_EQ(OnMachine("gpu-server", {"doctor"}).exit_code, 0);
  EXPECT_EQ(OnMachine("gpu-server", {"doctor", "--fail-on", "error"}).exit_code, 0);
  EXPECT_EQ(OnMachine("gpu-server", {"doctor", "--fail-on", "warning"}).exit_code, 1);
  EXPECT_EQ(OnMachine("gpu-server", {"doctor", "--fail-on", "never"}).exit_code, 0);
  EXPECT_EQ(OnMachine("driver-mismatch", {"doctor"}).exit_code, 1);
  EXPECT_EQ(OnMachine("driver-mismatch", {"doctor", "--fail-on", "never", "--json"}).exit_code, 0);
  EXPECT_EQ(OnMachine("pypi-cu12", {"doctor", "--fail-on", "warning"}).exit_code, 0);
  EXPECT_EQ(RunCudamatch({"doctor", "--fail-on", "warnings"}, kEnv).exit_code, 2);
}

TEST(CheckRequireGpu, FailsOnACpuBuildWhereNoGpuIsSeen) {
  std::vector<std::string> base = {"check", "--no-detect", "--python", "3.11", "torch==2.5.1+cpu"};
  EXPECT_EQ(RunCudamatch(base, kEnv).exit_code, 0);  // plain check: a CPU build for a CPU machine
  std::vector<std::string> required = base;
  required.insert(required.end(), {"--require", "gpu"});
  RunResult r = RunCudamatch(required, kEnv);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("--require gpu: these pins install 2.5.1+cpu, a CPU-only build"), std::string::npos) << r.out;
  required.push_back("--json");
  json j = json::parse(RunCudamatch(required, kEnv).out);
  EXPECT_EQ(j["ok"], false);
  EXPECT_EQ(j["problems"][0]["id"], "check.require_gpu");
}

TEST(CheckRequireGpu, FailsOnACpuBuildOnAGpuMachineOnce) {
  RunResult r = RunCudamatch({"check", "--no-detect", "--python", "3.11", "--gpu", "RTX 3090", "--driver", "550.54.14",
                              "torch==2.5.1+cpu", "--require", "gpu", "--json"}, kEnv);
  EXPECT_EQ(r.exit_code, 1);
  json j = json::parse(r.out);
  ASSERT_EQ(j["problems"].size(), 1u) << r.out;  // check.cpu_on_gpu says it; --require adds no second problem
  EXPECT_EQ(j["problems"][0]["id"], "check.cpu_on_gpu");
}

TEST(CheckRequireGpu, AcceptsAGpuBuild) {
  EXPECT_EQ(RunCudamatch({"check", "--no-detect", "--python", "3.11", "torch==2.5.1+cu124", "--require", "gpu"}, kEnv)
                .exit_code, 0);
  // torch 2.5.1 from PyPI on Linux is its CUDA 12.4 build
  EXPECT_EQ(RunCudamatch({"check", "--no-detect", "--python", "3.11", "torch==2.5.1", "--require", "gpu"}, kEnv).exit_code,
            0);
  // on Windows PyPI's torch is the CPU build
  EXPECT_EQ(RunCudamatch({"check", "--no-detect", "--os", "windows", "--python", "3.11", "torch==2.5.1", "--require",
                          "gpu"}, kEnv).exit_code, 1);
}

TEST(JsonMeta, CarriesVersionCatalogDateAndRunTime) {
  auto j = nlohmann::ordered_json::parse(RunCudamatch({"lookup", "cuda==12.4", "--json"}, kEnv).out);
  ASSERT_TRUE(j.contains("meta"));
  EXPECT_EQ(j.items().begin().key(), "schema_version");
  EXPECT_EQ((--j.end()).key(), "meta");
  EXPECT_EQ(j["meta"]["cudamatch_version"], CUDAMATCH_VERSION);
  EXPECT_EQ(j["meta"]["catalog_data_date"], testing::TheCatalog().data_date);
  EXPECT_EQ(j["meta"]["catalog_built_in"], true);
  EXPECT_TRUE(j["meta"]["index_overlay_date"].is_null());
  EXPECT_EQ(j["meta"]["run_time"], "2026-01-01T00:00:00Z");
}

TEST(JsonMeta, RunTimeIsTheClockWithoutCudamatchNow) {
  std::int64_t before = NowSeconds();
  json j = json::parse(RunCudamatch({"explain", "--json"}, {"LANG=C.UTF-8"}).out);
  std::string t = j["meta"]["run_time"];
  EXPECT_TRUE(std::regex_match(t, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)"))) << t;
  EXPECT_GE(t, Rfc3339Utc(before));
  EXPECT_LE(t, Rfc3339Utc(NowSeconds()));
}

TEST(JsonMeta, BadCudamatchNowIsAnError) {
  RunResult r = RunCudamatch({"explain", "--json"}, {"LANG=C.UTF-8", "CUDAMATCH_NOW=yesterday"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("CUDAMATCH_NOW 'yesterday'"), std::string::npos) << r.err;
}

TEST(JsonUsageError, IsAnObjectOnStdoutWithExit2) {
  struct Case {
    std::vector<std::string> args;
    const char* id;
  } cases[] = {{{"plan", "--bogus", "--json"}, "usage.unknown_option"},
               {{"--format", "json", "nonsense"}, "usage.unknown_command"},
               {{"--format=json", "plan", "--print", "varient"}, "usage.unknown_value"},
               {{"--json", "plan", "--driver"}, "usage.missing_value"},
               {{"--json", "--format", "text", "explain"}, "usage.conflicting_format"},
               {{"check", "--json"}, "usage.invalid"}};
  for (const Case& c : cases) {
    RunResult r = RunCudamatch(c.args, kEnv);
    EXPECT_EQ(r.exit_code, 2) << c.id;
    json j = json::parse(r.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << c.id << ": " << r.out;
    EXPECT_EQ(j["kind"], "error");
    EXPECT_EQ(j["error"]["id"], c.id) << r.out;
    EXPECT_EQ(j["error"]["exit_code"], 2);
    EXPECT_FALSE(j["error"]["message"].get<std::string>().empty());
    EXPECT_NE(r.err.find("cudamatch: error: "), std::string::npos) << c.id;
  }
  RunResult text = RunCudamatch({"plan", "--bogus"}, kEnv);
  EXPECT_EQ(text.exit_code, 2);
  EXPECT_EQ(text.out, "");  // without --json, stdout stays empty
}

}  // namespace
}  // namespace cudamatch
