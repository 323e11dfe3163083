// triton's bundled ptxas: its CUDA release read from the binary's text (never run), and
// triton.ptxas_too_old on the cases of public threads.
#include <gtest/gtest.h>

#include "diagnose/rules.h"
#include "plan/diagnose.h"
#include "probe/context.h"
#include "probe/parsers.h"
#include "report/doctor.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TheCatalog;

TEST(ToolRelease, ReadsTheLineNvidiaToolsCarry) {
  // The line as CUDA tools print it with --version (12.8.93: triton 3.5.0's ptxas, per
  // triton-lang/triton#10331), embedded among other bytes as in a binary's .rodata.
  std::string bytes = std::string("\0\x7f", 2) + "ptxas: NVIDIA (R) Ptx optimizing assembler" + std::string(1, '\0') +
                      "Cuda compilation tools, release 12.8, V12.8.93" + std::string(1, '\0') + "Build cuda_12.8";
  auto r = ParseToolRelease(bytes);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->version.ToString(), "12.8.93");
  EXPECT_EQ(r->line, "Cuda compilation tools, release 12.8, V12.8.93");
}

TEST(ToolRelease, ReadsARealNvccBuiltObject) {
  // tests/fixtures/fatbin objects were built by nvcc 13.0, which writes its release line into
  // the fatbin it embeds.
  auto r = ParseToolRelease(testing::ReadSource("tests/fixtures/fatbin/sass_sm80.so"));
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->version.MajorMinor(), "13.0");
}

TEST(ToolRelease, RejectsTextThatIsNotAReleaseLine) {
  EXPECT_FALSE(ParseToolRelease("Cuda compilation tools, release 12.8").has_value());
  EXPECT_FALSE(ParseToolRelease("Cuda compilation tools, release 12.8, V12.9.86").has_value());
  EXPECT_FALSE(ParseToolRelease("no version here").has_value());
}

// A venv with torch and triton, the ptxas files of its triton wheel holding `lines`.
struct Machine {
  FakeFs fs;
  std::string site = "/home/u/.venv/lib/python3.12/site-packages";
  void AddTriton(const std::string& version, const std::vector<std::pair<std::string, std::string>>& tools) {
    fs.AddFile("/home/u/.venv/pyvenv.cfg", "home = /usr/bin\nversion = 3.12.3\n");
    fs.AddFile("/home/u/.venv/bin/python3", "");
    std::string d = site + "/triton-" + version + ".dist-info";
    fs.AddFile(d + "/METADATA", "Metadata-Version: 2.1\nName: triton\nVersion: " + version + "\n");
    fs.AddFile(d + "/RECORD", "triton/__init__.py,sha256=x,1\n");
    fs.AddFile(d + "/INSTALLER", "pip\n");
    fs.AddFile(site + "/triton/__init__.py", "");
    for (const auto& [tool, line] : tools) {
      fs.AddFile(site + "/triton/backends/nvidia/bin/" + tool, std::string("\x7f" "ELF", 4) + std::string(64, '\0') + line);
    }
  }
  void AddToolkit(const std::string& version) {
    std::string root = "/usr/local/cuda-" + version;
    fs.AddFile(root + "/version.json", "{\"cuda\": {\"name\": \"CUDA SDK\", \"version\": \"" + version + ".0\"}}");
    fs.AddFile(root + "/bin/nvcc", "");
    fs.AddFile(root + "/bin/ptxas", "");
  }
  Snapshot Take(std::map<std::string, std::string> env = {}) {
    ProbeInput in;
    in.fs = &fs;
    in.catalog = &TheCatalog();
    in.env = {{"PATH", "/usr/bin:/bin"}, {"HOME", "/home/u"}, {"VIRTUAL_ENV", "/home/u/.venv"}};
    for (auto& kv : env) in.env[kv.first] = kv.second;
    Snapshot s = TakeSnapshot(in);
    GpuInfo g;
    g.name = gpu_name;
    g.cc = ComputeCapability::Parse(gpu_cc).value();
    g.source = "NVML";
    s.gpus = {g};
    return s;
  }
  std::string gpu_name = "NVIDIA GB10";
  std::string gpu_cc = "12.1";
};

const Finding* Find(const std::vector<Finding>& fs, std::string_view id) {
  for (const Finding& f : fs) {
    if (f.id == id) return &f;
  }
  return nullptr;
}

std::vector<Finding> Rules(const Snapshot& s) { return Diagnose(s, TheCatalog()); }

const char* k128 = "Cuda compilation tools, release 12.8, V12.8.93";
const char* k129 = "Cuda compilation tools, release 12.9, V12.9.86";

TEST(TritonPtxasProbe, ReadsTheBundledPtxasVersion) {
  Machine m;
  m.AddTriton("3.5.0", {{"ptxas", k128}});
  Snapshot s = m.Take();
  const PythonEnv* env = nullptr;
  for (const PythonEnv& e : s.pythons) {
    if (!e.triton_ptxas.empty()) env = &e;
  }
  ASSERT_NE(env, nullptr);
  ASSERT_EQ(env->triton_ptxas.size(), 1u);
  EXPECT_EQ(env->triton_ptxas[0].tool, "ptxas");
  EXPECT_EQ(env->triton_ptxas[0].version->ToString(), "12.8.93");
  EXPECT_EQ(env->triton_ptxas[0].path, m.site + "/triton/backends/nvidia/bin/ptxas");
}

// triton-lang/triton#8539 (and #9181): DGX Spark (GB10, 12.1), pytorch-triton 3.5.0 whose
// ptxas is CUDA 12.8's: "ptxas fatal : Value 'sm_121a' is not defined for option 'gpu-name'".
// Resolved by TRITON_PTXAS_PATH=/usr/local/cuda/bin/ptxas (CUDA 13.0 on the machine).
TEST(TritonPtxasRule, DgxSparkWithTriton35PointsAtTheToolkitPtxas) {
  Machine m;
  m.AddTriton("3.5.0", {{"ptxas", k128}});
  m.AddToolkit("13.0");
  std::vector<Finding> fs = Rules(m.Take());
  const Finding* f = Find(fs, "triton.ptxas_too_old");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->need.kind, RemedyNeed::Kind::kSetEnv);
  ASSERT_EQ(f->need.names.size(), 1u);
  EXPECT_EQ(f->need.names[0], "TRITON_PTXAS_PATH");
  EXPECT_EQ(f->need.path, "/usr/local/cuda-13.0/bin/ptxas");
  bool cites = false;
  for (const auto& [k, v] : f->args) cites |= (k == "first" && v == "12.9");
  EXPECT_TRUE(cites);
}

TEST(TritonPtxasRule, WithNoNewToolkitTheFixNamesTheCudaToInstall) {
  Machine m;
  m.AddTriton("3.5.0", {{"ptxas", k128}});
  m.AddToolkit("12.8");
  const Finding* f = nullptr;
  std::vector<Finding> fs = Rules(m.Take());
  f = Find(fs, "triton.ptxas_too_old");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->need.kind, RemedyNeed::Kind::kNone);
}

// The thread's resolution: with TRITON_PTXAS_PATH naming CUDA 13.0's ptxas, nothing is left.
TEST(TritonPtxasRule, AnOverrideThatTargetsTheGpuClearsIt) {
  Machine m;
  m.AddTriton("3.5.0", {{"ptxas", k128}});
  m.fs.AddFile("/usr/local/cuda-13.0/bin/ptxas", "Cuda compilation tools, release 13.0, V13.0.88");
  m.fs.AddFile("/usr/local/cuda-13.0/version.json", "{\"cuda\": {\"version\": \"13.0.2\"}}");
  std::vector<Finding> fs = Rules(m.Take({{"TRITON_PTXAS_PATH", "/usr/local/cuda-13.0/bin/ptxas"}}));
  EXPECT_EQ(Find(fs, "triton.ptxas_too_old"), nullptr);
}

// The same machine in doctor --json: the bundled ptxas under the environment, the override under
// host with its variable, the toolkit's bin/ptxas beside its version (triton-lang/triton#8539).
TEST(TritonPtxasJson, ListsBundledOverrideAndToolkitPtxas) {
  Machine m;
  m.AddTriton("3.5.0", {{"ptxas", k128}});
  m.fs.AddFile("/usr/local/cuda-13.0/bin/ptxas", "Cuda compilation tools, release 13.0, V13.0.88");
  m.fs.AddFile("/usr/local/cuda-13.0/bin/nvcc", "");
  m.fs.AddFile("/usr/local/cuda-13.0/version.json", "{\"cuda\": {\"version\": \"13.0.2\"}}");
  Snapshot s = m.Take({{"TRITON_PTXAS_PATH", "/usr/local/cuda-13.0/bin/ptxas"}});
  Json j = DoctorJson(s, Rules(s));
  const Json* env = nullptr;
  for (const Json& p : j["pythons"]) {
    if (!p["triton_ptxas"].empty()) env = &p;
  }
  ASSERT_NE(env, nullptr);
  EXPECT_EQ((*env)["triton_ptxas"][0]["version"], "12.8.93");
  EXPECT_EQ((*env)["triton_ptxas"][0]["version_line"], k128);
  EXPECT_TRUE((*env)["triton_ptxas"][0]["var"].is_null());
  ASSERT_EQ(j["host"]["triton_ptxas_env"].size(), 1u);
  EXPECT_EQ(j["host"]["triton_ptxas_env"][0]["var"], "TRITON_PTXAS_PATH");
  EXPECT_EQ(j["host"]["triton_ptxas_env"][0]["version"], "13.0.88");
  bool toolkit = false;
  for (const Json& t : j["toolkits"]) toolkit |= t["ptxas"] == "/usr/local/cuda-13.0/bin/ptxas";
  EXPECT_TRUE(toolkit);
  for (const Json& f : j["findings"]) EXPECT_NE(f["id"], "triton.ptxas_too_old");
}

// triton-lang/triton#10331: triton 3.6.0 adds ptxas-blackwell (12.9.86) for 10.0 and newer, which
// assembles sm_121a: GB10 needs no variable.
TEST(TritonPtxasRule, Triton36BlackwellPtxasServesGb10) {
  Machine m;
  m.AddTriton("3.6.0", {{"ptxas", k128}, {"ptxas-blackwell", k129}});
  EXPECT_EQ(Find(Rules(m.Take()), "triton.ptxas_too_old"), nullptr);
}

// triton-lang/triton#8959: on Thor (11.0) triton 3.6 takes ptxas-blackwell (CUDA 12.9), which
// does not know sm_110a; TRITON_PTXAS_BLACKWELL_PATH is the variable that replaces it.
TEST(TritonPtxasRule, ThorWithTriton36NamesTheBlackwellVariable) {
  Machine m;
  m.gpu_name = "NVIDIA Thor";
  m.gpu_cc = "11.0";
  m.AddTriton("3.6.0", {{"ptxas", k128}, {"ptxas-blackwell", k129}});
  m.AddToolkit("13.0");
  const Finding* f = nullptr;
  std::vector<Finding> fs = Rules(m.Take());
  f = Find(fs, "triton.ptxas_too_old");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(f->need.names.size(), 1u);
  EXPECT_EQ(f->need.names[0], "TRITON_PTXAS_BLACKWELL_PATH");
  EXPECT_EQ(f->need.path, "/usr/local/cuda-13.0/bin/ptxas");
}

TEST(TritonPtxasRule, AnOlderGpuIsServedByTheBundledPtxas) {
  Machine m;
  m.gpu_name = "NVIDIA H100 80GB HBM3";
  m.gpu_cc = "9.0";
  m.AddTriton("3.5.0", {{"ptxas", k128}});
  EXPECT_EQ(Find(Rules(m.Take()), "triton.ptxas_too_old"), nullptr);
}

}  // namespace
}  // namespace cudamatch
