// The one CLI contract: results on stdout, errors on stderr as "cudamatch: error: ...", exit 0
// ok, 1 findings / not found / no plan, 2 usage; --json everywhere with schema_version.
#include <gtest/gtest.h>

#include <regex>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "diagnose/rules.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::RunCudamatch;

TEST(Cli, LookupTorchVisionAndAudio) {
  auto r = RunCudamatch({"lookup", "torch==1.13.0", "--json", "--os", "linux", "--arch", "x86_64"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema_version"], 2);
  EXPECT_EQ(j["torchvision"], "0.14.0");
  EXPECT_EQ(j["torchaudio"], "0.13.0");
  EXPECT_EQ(j["python"]["min"], "3.7");
  bool cu117 = false;
  for (const auto& v : j["variants"]) {
    if (v["name"] == "cu117") {
      cu117 = true;
      EXPECT_EQ(v["cuda"], "11.7");
      EXPECT_EQ(v["pypi_default"], true);
      EXPECT_EQ(v["min_driver_linux"], "515.43.04");
      EXPECT_EQ(v["min_driver_linux_minor_compat"], "450.80.02");
      EXPECT_EQ(v["install"]["pip"], "pip install torch==1.13.0 torchvision==0.14.0 torchaudio==0.13.0");
      EXPECT_NE(std::find(v["arch_list"].begin(), v["arch_list"].end(), "sm_86"), v["arch_list"].end());
    }
  }
  EXPECT_TRUE(cu117);
  auto v = RunCudamatch({"lookup", "torchvision==0.14.0", "--json"});
  EXPECT_EQ(nlohmann::json::parse(v.out)["torch"], "1.13.0");
  auto a = RunCudamatch({"lookup", "torchaudio==0.13.0", "--json"});
  EXPECT_EQ(nlohmann::json::parse(a.out)["torch"], "1.13.0");
}

TEST(Cli, LookupCudaDriverGpu) {
  auto c = nlohmann::json::parse(RunCudamatch({"lookup", "cuda==12.4", "--json"}).out);
  EXPECT_EQ(c["min_driver_linux"], "550.54.14");
  EXPECT_EQ(c["min_driver_windows"], "551.61");
  EXPECT_EQ(c["minor_compat_min_driver_linux"], "525.60.13");
  auto d = nlohmann::json::parse(RunCudamatch({"lookup", "driver==470.82.01", "--json"}).out);
  EXPECT_EQ(d["driver"], "470.82.01");
  EXPECT_EQ(d["max_cuda"], "11.4");
  for (const char* q : {"RTX 3090", "sm_86", "2204", "rtx3090"}) {
    auto g = RunCudamatch({"lookup", "gpu", q, "--json"});
    ASSERT_EQ(g.exit_code, 0) << q << g.err;
    auto j = nlohmann::json::parse(g.out);
    EXPECT_EQ(j["compute_capability"], "8.6") << q;
    EXPECT_EQ(j["architecture"], "Ampere") << q;
  }
  auto cc = nlohmann::json::parse(RunCudamatch({"lookup", "gpu", "8.6", "--json"}).out);
  EXPECT_EQ(cc["compute_capability"], "8.6");
}

// A version after (or outside) the data is not in the catalog, with its date: an answer, exit 0.
TEST(Cli, VersionsNotInTheCatalogAreAGapWithTheNearestKnownOnes) {
  auto r = RunCudamatch({"lookup", "torchvision==1.4.0"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("Not in the catalog: torchvision 1.4.0 (data of "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0.14.0 (torch 1.13.0)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("does not exist"), std::string::npos) << r.out;
  auto t = RunCudamatch({"lookup", "torch==9.9.9", "--json"});
  EXPECT_EQ(t.exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(t.out)["found"], false);
  EXPECT_EQ(RunCudamatch({"lookup", "cuda==99.1"}).exit_code, 0);
  auto g = RunCudamatch({"lookup", "gpu", "RTX 3099 Tii"});
  EXPECT_EQ(g.exit_code, 1);
  EXPECT_NE(g.out.find("3090"), std::string::npos) << g.out;  // did you mean
  // A GPU is no version: not "没有这个版本：GPU 'RTX 9090'".
  auto zh = RunCudamatch({"lookup", "gpu", "RTX 9090", "--lang", "zh"});
  EXPECT_EQ(zh.out.rfind("未知的 GPU 'RTX 9090'（内置数据中没有）。\n", 0), 0u) << zh.out;
  EXPECT_EQ(zh.out.find("版本"), std::string::npos) << zh.out;
}

TEST(Cli, MalformedInputIsAUsageErrorQuotingIt) {
  auto r = RunCudamatch({"lookup", "torch==1.x"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("cudamatch: error: malformed version '1.x'"), std::string::npos) << r.err;
  auto d = RunCudamatch({"lookup", "driver==abc"});
  EXPECT_EQ(d.exit_code, 2);
  EXPECT_NE(d.err.find("'abc'"), std::string::npos);
  auto e = RunCudamatch({"lookup", "tensorflow==2.0"});
  EXPECT_EQ(e.exit_code, 2);
}

TEST(Cli, UnknownCommandSuggestsTheNearest) {
  auto r = RunCudamatch({"lokup", "torch==2.0.0"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("did you mean 'lookup'"), std::string::npos) << r.err;
  auto t = RunCudamatch({"explain", "minor-compt"});
  EXPECT_EQ(t.exit_code, 2);
  EXPECT_NE(t.err.find("minor-compat"), std::string::npos) << t.err;
}

TEST(Cli, TableWithFilters) {
  auto r = RunCudamatch({"table", "torch", "--since", "2.0", "--cuda", "12.4", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_FALSE(j["rows"].empty());
  for (const auto& row : j["rows"]) {
    EXPECT_NE(std::find(row["variants"].begin(), row["variants"].end(), "cu124"), row["variants"].end()) << row["torch"];
  }
  EXPECT_EQ(RunCudamatch({"table", "cuda"}).exit_code, 0);
  EXPECT_EQ(RunCudamatch({"table", "driver"}).exit_code, 0);
  EXPECT_EQ(RunCudamatch({"table", "gpu", "--cc", "8.9"}).exit_code, 0);
  EXPECT_EQ(RunCudamatch({"table", "tensors"}).exit_code, 2);
}

TEST(Cli, CatalogShowsDateCountsAndSources) {
  auto j = nlohmann::json::parse(RunCudamatch({"catalog", "--json"}).out);
  EXPECT_FALSE(j["data_date"].get<std::string>().empty());
  EXPECT_EQ(j["tables"].size(), 20u);
  EXPECT_GT(j["sources"].size(), 50u);
  // Per-platform counts, each platform with rows once, x86_64 Linux first.
  ASSERT_GE(j["platforms"].size(), 4u);
  EXPECT_EQ(j["platforms"][0]["platform"], "linux-x86_64");
  std::set<std::string> platforms;
  for (const auto& p : j["platforms"]) {
    platforms.insert(p["platform"].get<std::string>());
    EXPECT_GT(p["variants"].get<int>(), 0);
    EXPECT_LE(p["releases_with_pypi_default"].get<int>(), p["releases"].get<int>());
  }
  EXPECT_TRUE(platforms.count("windows-x86_64") && platforms.count("linux-aarch64") && platforms.count("macos-arm64"));
  auto text = RunCudamatch({"catalog"});
  EXPECT_NE(text.out.find("Wheels per platform"), std::string::npos);
  EXPECT_NE(text.out.find("data as of " + j["data_date"].get<std::string>()), std::string::npos);
}

// A copy of every built-in table in `t`, for --catalog.
void CopyCatalog(const testing::TempDir& t) {
  for (const auto& e : std::filesystem::directory_iterator(testing::SourceDir() + "/catalog")) {
    if (e.path().extension() == ".tsv") std::filesystem::copy_file(e.path(), t.path() + "/" + e.path().filename().string());
  }
}

TEST(Cli, CatalogDirOverridesAndMalformedFileIsNamed) {
  testing::TempDir t;
  CopyCatalog(t);
  std::filesystem::remove(t.path() + "/driver_branches.tsv");
  t.Write("driver_branches.tsv", "branch\tmax_cuda\tsource\tnotes\n535\t12.2\tnv-cuda-rn-13.2.2-table3\tx\n999\t99.9\tnv-cuda-rn-13.2.2-table3\tnewer data\n");
  auto r = RunCudamatch({"lookup", "driver==999.1", "--json", "--catalog", t.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["max_cuda"], "99.9");
  t.Write("driver_branches.tsv", "branch\tmax_cuda\tsource\tnotes\n535\tnope\tnv-cuda-rn-13.2.2-table3\tx\n");
  auto bad = RunCudamatch({"catalog", "--catalog", t.path()});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("driver_branches.tsv:2:2:"), std::string::npos) << bad.err;
}

TEST(Cli, MissingOrIncompleteCatalogDirIsAnError) {
  testing::TempDir t;
  auto missing = RunCudamatch({"lookup", "torch==2.3.1", "--catalog", t.path() + "/nowhere"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("no such directory"), std::string::npos) << missing.err;
  t.Write("driver_branches.tsv", "branch\tmax_cuda\tsource\tnotes\n");
  auto incomplete = RunCudamatch({"lookup", "torch==2.3.1", "--catalog", t.path()});
  EXPECT_EQ(incomplete.exit_code, 2);
  EXPECT_NE(incomplete.err.find("needs every table"), std::string::npos) << incomplete.err;
}

TEST(Cli, CatalogTableThatIsAFifoOrDeviceIsRefusedWithoutReading) {
  testing::TempDir t;
  CopyCatalog(t);
  std::filesystem::remove(t.path() + "/gpus.tsv");
  ASSERT_EQ(mkfifo((t.path() + "/gpus.tsv").c_str(), 0600), 0);
  auto fifo = RunCudamatch({"lookup", "torch==2.3.1", "--catalog", t.path()});
  EXPECT_EQ(fifo.exit_code, 2);
  EXPECT_NE(fifo.err.find("not a regular file"), std::string::npos) << fifo.err;
  std::filesystem::remove(t.path() + "/gpus.tsv");
  std::filesystem::create_symlink("/dev/zero", t.path() + "/gpus.tsv");
  auto zero = RunCudamatch({"lookup", "torch==2.3.1", "--catalog", t.path()});
  EXPECT_EQ(zero.exit_code, 2);
  EXPECT_NE(zero.err.find("not a regular file"), std::string::npos) << zero.err;
}

TEST(Cli, PlanAndCheckWhatIf) {
  auto p = RunCudamatch({"plan", "--no-detect", "--driver", "470.82.01", "--gpu", "RTX 3090", "--python", "3.10", "--json"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  auto j = nlohmann::json::parse(p.out);
  EXPECT_EQ(j["variant"], "cu118");
  EXPECT_FALSE(j["caveats"].empty());
  EXPECT_FALSE(j["rejected"].empty());
  EXPECT_TRUE(j["commands"]["pip"].is_string());
  auto none = RunCudamatch({"plan", "--no-detect", "--python", "3.13", "--torch", "==1.13.*", "--json"});
  EXPECT_EQ(none.exit_code, 1);
  auto n = nlohmann::json::parse(none.out);
  EXPECT_TRUE(n["torch"].is_null());
  EXPECT_FALSE(n["rejected"].empty());
  EXPECT_EQ(n["suggestions"][0]["id"], "suggest.python");
  auto c = RunCudamatch({"check", "--no-detect", "torch==1.13.0", "torchvision==1.4.0", "--json"});
  EXPECT_EQ(c.exit_code, 1);
  auto cj = nlohmann::json::parse(c.out);
  EXPECT_EQ(cj["ok"], false);
  EXPECT_EQ(cj["problems"][0]["fix"], "torchvision==0.14.0");
  // An unknown GPU is "not found" (exit 1), as `lookup gpu` says; a malformed flag stays a usage error.
  EXPECT_EQ(RunCudamatch({"plan", "--no-detect", "--gpu", "RTX 9999 Ultra"}).exit_code, 1);
  EXPECT_EQ(RunCudamatch({"check", "--no-detect", "--gpu", "RTX 9999 Ultra", "torch==2.3.1"}).exit_code, 1);
  EXPECT_EQ(RunCudamatch({"lookup", "gpu", "RTX 9999 Ultra"}).exit_code, 1);
  EXPECT_EQ(RunCudamatch({"plan", "--no-detect", "--driver", "not-a-driver"}).exit_code, 2);
}

TEST(Cli, ChineseByFlagAndByLocale) {
  auto a = RunCudamatch({"explain", "layers", "--lang", "zh"});
  auto b = RunCudamatch({"explain", "layers"}, {"LANG=zh_CN.UTF-8"});
  auto e = RunCudamatch({"explain", "layers"});
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out, e.out);
  EXPECT_NE(a.out.find("CUDA"), std::string::npos);
  // JSON is language-neutral (one fixed run time: the two runs may straddle a second).
  std::vector<std::string> env = {"LANG=C.UTF-8", std::string(testing::kGoldenNow)};
  EXPECT_EQ(RunCudamatch({"lookup", "torch==2.3.1", "--json", "--lang", "zh"}, env).out,
            RunCudamatch({"lookup", "torch==2.3.1", "--json"}, env).out);
}

// --json is --format json on every command, byte for byte; --format text is the default.
TEST(Cli, FormatJsonAndJsonAreTheSameOnEveryCommand) {
  std::string root = testing::SourceDir() + "/tests/fixtures/machines/gpu-server/root";
  std::vector<std::vector<std::string>> commands = {
      {"doctor", "--root", root},
      {"lookup", "torch==2.3.1"},
      {"table", "cuda"},
      {"catalog"},
      {"plan", "--no-detect", "--driver", "470.82.01", "--gpu", "RTX 3090", "--python", "3.10"},
      {"check", "--no-detect", "torch==1.13.0", "torchvision==1.4.0"},
      {"explain", "layers"},
  };
  const std::vector<std::string> env = {"LANG=C.UTF-8", std::string(testing::kGoldenNow)};  // one meta.run_time
  for (std::vector<std::string> args : commands) {
    auto text = RunCudamatch(args, env);
    std::vector<std::string> as_text = args, as_json = args, as_format = args;
    as_text.insert(as_text.end(), {"--format", "text"});
    as_json.push_back("--json");
    as_format.push_back("--format=json");
    auto t = RunCudamatch(as_text, env);
    auto j = RunCudamatch(as_json, env);
    auto f = RunCudamatch(as_format, env);
    EXPECT_EQ(text.out, t.out) << args[0];
    EXPECT_EQ(text.exit_code, t.exit_code) << args[0];
    EXPECT_EQ(j.out, f.out) << args[0];
    EXPECT_EQ(j.exit_code, f.exit_code) << args[0];
    EXPECT_EQ(j.err, f.err) << args[0];
    EXPECT_TRUE(nlohmann::json::parse(f.out).contains("schema_version")) << args[0];
  }
  auto both = RunCudamatch({"catalog", "--json", "--format", "text"});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_EQ(nlohmann::json::parse(both.out)["error"]["id"], "usage.conflicting_format");  // --json was asked
  EXPECT_NE(both.err.find("cudamatch: error: --json is --format json"), std::string::npos) << both.err;
  auto bad = RunCudamatch({"catalog", "--format", "jsn"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("unknown value 'jsn' for --format (did you mean 'json'?); allowed: text, json"), std::string::npos)
      << bad.err;
}

TEST(Cli, ClosedSetFlagsNameTheNearMiss) {
  auto lang = RunCudamatch({"catalog", "--lang", "zhh"});
  EXPECT_EQ(lang.exit_code, 2);
  EXPECT_NE(lang.err.find("unknown value 'zhh' for --lang (did you mean 'zh'?); allowed: en, zh"), std::string::npos) << lang.err;
  auto os = RunCudamatch({"lookup", "torch==2.3.1", "--os", "windos"});
  EXPECT_NE(os.err.find("(did you mean 'windows'?); allowed: linux, windows, macos"), std::string::npos) << os.err;
  EXPECT_EQ(RunCudamatch({"lookup", "torch==2.3.1", "--os", "win", "--arch", "amd64"}).exit_code, 0) << "other spellings";
  EXPECT_EQ(RunCudamatch({"lookup", "cuda==12.4", "--lang", "zh_CN"}).out, RunCudamatch({"lookup", "cuda==12.4", "--lang", "zh"}).out);
}

TEST(Cli, ColorOnlyWhenAsked) {
  auto never = RunCudamatch({"lookup", "cuda==12.4"});
  EXPECT_EQ(never.out.find("\033["), std::string::npos);
  auto always = RunCudamatch({"lookup", "cuda==12.4", "--color", "always"});
  EXPECT_NE(always.out.find("\033["), std::string::npos);
  EXPECT_EQ(RunCudamatch({"lookup", "cuda==12.4", "--color", "sometimes"}).exit_code, 2);
}

// docs/json.md is the JSON contract: it names every key doctor writes at the top level and every
// finding id.
TEST(Cli, JsonDocumentationNamesEveryDoctorKeyAndFindingId) {
  std::ifstream in(testing::SourceDir() + "/docs/json.md");
  std::stringstream text;
  text << in.rdbuf();
  std::string doc = text.str();
  std::string doctor = doc.substr(doc.find("## `doctor`"));
  doctor = doctor.substr(0, doctor.find("\n## ", 3));
  auto r = RunCudamatch({"doctor", "--json", "--root", testing::SourceDir() + "/tests/fixtures/machines/gpu-server/root"});
  auto j = nlohmann::json::parse(r.out);
  size_t keys = 0;
  for (const auto& [key, value] : j.items()) {
    if (key == "schema_version" || key == "kind") continue;  // described for every command
    EXPECT_NE(doctor.find("| `" + key + "` |"), std::string::npos) << key;
    ++keys;
  }
  EXPECT_GE(keys, 12u);
  // Finding ids are not listed by hand: the section points to the table, and every id it names
  // is one of the table's.
  size_t at = doctor.find("Finding ids:");
  ASSERT_NE(at, std::string::npos);
  std::string para = doctor.substr(at, doctor.find("\n`topic`", at) - at);
  EXPECT_NE(para.find("src/diagnose/finding_table.cc"), std::string::npos);
  std::regex named("`([a-z]+\\.[a-z_]+)`");
  size_t ids = 0;
  for (auto it = std::sregex_iterator(para.begin(), para.end(), named); it != std::sregex_iterator(); ++it) {
    std::string id = (*it)[1];
    if (id == "en.tsv" || id == "zh.tsv") continue;
    EXPECT_NE(FindFinding(id), nullptr) << id << " is named in docs/json.md but is no finding";
    ++ids;
  }
  EXPECT_GE(ids, 4u);
}

// PyPI's linux-aarch64 torch wheel is the CPU build up to 2.11 and the CUDA 13.0 build from 2.12.
TEST(Cli, CheckKnowsThePypiWheelOfLinuxAarch64) {
  auto cpu = RunCudamatch({"check", "--no-detect", "--os", "linux", "--arch", "aarch64", "torch==2.7.0"});
  EXPECT_EQ(cpu.exit_code, 0) << cpu.out << cpu.err;
  EXPECT_NE(cpu.out.find("torch 2.7.0+cpu"), std::string::npos) << cpu.out;
  auto cuda = RunCudamatch({"check", "--no-detect", "--os", "linux", "--arch", "aarch64", "torch==2.12.0"});
  EXPECT_EQ(cuda.exit_code, 0) << cuda.out << cuda.err;
  EXPECT_NE(cuda.out.find("torch 2.12.0+cu130"), std::string::npos) << cuda.out;
}

TEST(Cli, OsMacosMeansAppleSiliconUnlessArchSaysOtherwise) {
  auto arm = RunCudamatch({"plan", "--no-detect", "--os", "macos", "--python", "3.13"});
  EXPECT_EQ(arm.exit_code, 0) << arm.out << arm.err;
  EXPECT_NE(arm.out.find("macos-arm64"), std::string::npos) << arm.out;
  EXPECT_NE(arm.out.find("MPS"), std::string::npos) << arm.out;
  auto intel = RunCudamatch({"plan", "--no-detect", "--os", "macos", "--arch", "x86_64", "--python", "3.13"});
  EXPECT_NE(intel.out.find("macos-x86_64"), std::string::npos) << intel.out << intel.err;
}

TEST(Cli, CheckNamesTheTorchPinItsCorrectionMoves) {
  auto r = RunCudamatch({"check", "--no-detect", "--os", "linux", "--arch", "aarch64", "--gpu", "GH200", "--driver",
                         "570.86.10", "torch==2.4.0"});  // 2.4.0: no linux-aarch64 CUDA build
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("These move the torch pin from 2.4.0 to "), std::string::npos) << r.out;
}

}  // namespace
}  // namespace cudamatch
