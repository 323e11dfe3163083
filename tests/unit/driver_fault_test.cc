// A misbehaving driver: NVIDIA libraries that hang, crash, abort while loading, print, answer
// garbage or write unterminated strings. Every call runs in a watched child; doctor completes and
// says what happened. The fakes are built with the tests (tests/fakes/).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include <chrono>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "core/child.h"
#include "derive/derive.h"
#include "probe/context.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::RunCudamatch;
using testing::TempDir;

struct DoctorRun {
  int exit_code = -1;
  nlohmann::json json;
  std::string err;
  double seconds = 0;
};

// doctor on this machine, with a libcuda.so.1 on LD_LIBRARY_PATH that behaves as `mode` says.
DoctorRun DoctorWithFakeLibcuda(const std::string& mode, const std::vector<std::string>& extra_args = {}) {
  TempDir t;
  t.Symlink(FAKE_CUDA_MISBEHAVING_LIBRARY, "lib/libcuda.so.1");
  std::vector<std::string> args = {"doctor", "--json"};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  auto start = std::chrono::steady_clock::now();
  auto r = RunCudamatch(args, {"LANG=C.UTF-8", "PATH=/usr/bin:/bin", "HOME=" + t.path(), "LD_LIBRARY_PATH=" + t.path() + "/lib",
                               "FAKE_CUDA_MODE=" + mode, "CUDAMATCH_DRIVER_TIMEOUT=0.5"});
  DoctorRun run;
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.exit_code = r.exit_code;
  run.err = r.err;
  run.json = nlohmann::json::parse(r.out, nullptr, false);
  return run;
}

// The English evidence texts of the findings with this id.
std::string EvidenceOf(const nlohmann::json& j, const std::string& id) {
  std::string out;
  for (const auto& f : j["findings"]) {
    if (f["id"] != id) continue;
    for (const auto& e : f["evidence"]) out += e["text"].get<std::string>() + "\n";
  }
  return out;
}

// The rest of the report is there: the sections after the driver's.
void ExpectCompleteReport(const DoctorRun& r) {
  ASSERT_FALSE(r.json.is_discarded()) << r.err;
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.exit_code << r.err;
  EXPECT_TRUE(r.json.contains("pythons"));
  EXPECT_TRUE(r.json.contains("host"));
  EXPECT_TRUE(r.json["driver"]["libcuda"].size() >= 1u);
}

TEST(DriverFault, LibcudaThatBlocksIsAbandonedAfterTheBound) {
  DoctorRun r = DoctorWithFakeLibcuda("block");
  ExpectCompleteReport(r);
  EXPECT_LT(r.seconds, 30.0);  // far above the 0.5 s bound: the run ends, it does not hang
  EXPECT_NE(EvidenceOf(r.json, "driver.library_fault").find("libcuda did not answer within 0.5 s"), std::string::npos)
      << r.json["findings"].dump();
  bool listed = false;
  for (const auto& u : r.json["unreadable"]) listed = listed || u["path"] == "libcuda";
  EXPECT_TRUE(listed) << r.json["unreadable"].dump();
}

TEST(DriverFault, PlanAndCheckDoNotHangOnABlockingLibcuda) {
  TempDir t;
  t.Symlink(FAKE_CUDA_MISBEHAVING_LIBRARY, "lib/libcuda.so.1");
  std::vector<std::string> env = {"LANG=C.UTF-8", "PATH=/usr/bin:/bin", "LD_LIBRARY_PATH=" + t.path() + "/lib",
                                  "FAKE_CUDA_MODE=block", "CUDAMATCH_DRIVER_TIMEOUT=0.3"};
  auto plan = RunCudamatch({"plan", "--json"}, env);
  EXPECT_TRUE(nlohmann::json::accept(plan.out)) << plan.err;
  auto check = RunCudamatch({"check", "torch==2.3.1", "--json"}, env);
  EXPECT_TRUE(nlohmann::json::accept(check.out)) << check.err;
}

TEST(DriverFault, LibcudaThatCrashesIsAFinding) {
  DoctorRun r = DoctorWithFakeLibcuda("crash");
  ExpectCompleteReport(r);
  EXPECT_NE(EvidenceOf(r.json, "driver.library_fault").find("libcuda crashed with SIGSEGV"), std::string::npos)
      << r.json["findings"].dump();
}

TEST(DriverFault, LibcudaWhoseConstructorAbortsIsAFinding) {
  DoctorRun r = DoctorWithFakeLibcuda("abort_load");
  ExpectCompleteReport(r);
  EXPECT_NE(EvidenceOf(r.json, "driver.library_fault").find("libcuda crashed with SIGABRT"), std::string::npos)
      << r.json["findings"].dump();
}

TEST(DriverFault, LibcudaGarbageIsReportedNotUsed) {
  DoctorRun r = DoctorWithFakeLibcuda("garbage");
  ExpectCompleteReport(r);
  EXPECT_NE(r.json["driver"]["cuda"], "999.99");
  EXPECT_NE(EvidenceOf(r.json, "driver.implausible_value").find("libcuda cuDriverGetVersion gave 999990"), std::string::npos)
      << r.json["findings"].dump();
}

// libcuda's child works while the other probes run; its trail entries still stand among the
// driver's, before the GPU and Python probes' entries.
TEST(DriverFault, LibcudaAnsweringInTheBackgroundKeepsTheDriverTrailTogether) {
  DoctorRun r = DoctorWithFakeLibcuda("");
  ExpectCompleteReport(r);
  EXPECT_EQ(r.json["driver"]["cuda"], "12.2");
  std::vector<std::string> probes;
  size_t libcuda_at = 0;
  for (const auto& e : r.json["trail"]) {
    if (probes.empty() || probes.back() != e["probe"]) probes.push_back(e["probe"]);
    if (e["source"] == "libcuda:cuDriverGetVersion") libcuda_at = probes.size();
  }
  ASSERT_GT(libcuda_at, 0u) << r.json["trail"].dump();
  EXPECT_EQ(probes[libcuda_at - 1], "driver");
  EXPECT_EQ(std::count(probes.begin(), probes.end(), "driver"), 1) << r.json["trail"].dump();
}

TEST(DriverFault, LibraryOutputNeverMixesIntoTheReport) {
  DoctorRun r = DoctorWithFakeLibcuda("print");
  ExpectCompleteReport(r);
  EXPECT_EQ(r.json["driver"]["cuda"], "12.2");
  EXPECT_EQ(r.err.find("libcuda says hello"), std::string::npos) << r.err;
}

TEST(DriverFault, DriverTimeoutFlagIsValidated) {
  auto r = RunCudamatch({"doctor", "--driver-timeout", "soon"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--driver-timeout"), std::string::npos) << r.err;
  auto env = RunCudamatch({"doctor"}, {"LANG=C.UTF-8", "CUDAMATCH_DRIVER_TIMEOUT=-1"});
  EXPECT_EQ(env.exit_code, 2);
  EXPECT_NE(env.err.find("CUDAMATCH_DRIVER_TIMEOUT"), std::string::npos) << env.err;
}

// ---- the NVML stand-in, through the real dlopen path ----

class NvmlMode {
 public:
  explicit NvmlMode(const char* mode) { setenv("FAKE_NVML_MODE", mode, 1); }
  ~NvmlMode() { unsetenv("FAKE_NVML_MODE"); }
};

TEST(DriverFault, UnterminatedNvmlStringsAreCutAtTheirBuffer) {
  NvmlMode mode("unterminated");
  auto nvml = MakeRealNvml(FAKE_NVML_LIBRARY);
  ASSERT_TRUE(nvml->Init().ok());
  auto gpus = nvml->Gpus().value();
  ASSERT_EQ(gpus.size(), 1u);
  EXPECT_EQ(gpus[0].name, std::string(96, 'X'));  // the buffer, and not one byte of what follows it
  EXPECT_EQ(gpus[0].uuid, std::string(96, 'X'));
  EXPECT_EQ(gpus[0].pci_bus_id, std::string(32, 'Y'));
  EXPECT_EQ(nvml->DriverVersion().value(), std::string(96, 'X'));
}

TEST(DriverFault, NvmlThatCrashesOrBlocksInInitIsAFault) {
  {
    NvmlMode mode("crash_init");
    auto nvml = MakeRealNvml(FAKE_NVML_LIBRARY, 500);
    Status s = nvml->Init();
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error(), "NVML crashed with SIGSEGV");
    ASSERT_TRUE(nvml->fault().has_value());
  }
  {
    NvmlMode mode("block_init");
    auto nvml = MakeRealNvml(FAKE_NVML_LIBRARY, 300);
    Status s = nvml->Init();
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error(), "NVML did not answer within 0.3 s");
    EXPECT_EQ(nvml->fault()->kind, LibraryFault::Kind::kTimedOut);
  }
}

TEST(DriverFault, ImplausibleNvmlValuesAreReportedNeverUsed) {
  NvmlMode mode("garbage");
  auto nvml = MakeRealNvml(FAKE_NVML_LIBRARY);
  FakeFs fs;
  fs.AddFile("/proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 01:44:30 UTC 2024\n");
  fs.AddFile("/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.550.54.14", "");
  fs.AddSymlink("/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1", "libnvidia-ml.so.550.54.14");
  ProbeInput in;
  in.fs = &fs;
  in.catalog = &testing::TheCatalog();
  in.nvml = nvml.get();
  Snapshot s = TakeSnapshot(in);
  Derive(testing::TheCatalog(), s);
  ASSERT_TRUE(s.driver.cuda.has_value());
  EXPECT_EQ(s.driver.cuda->MajorMinor(), "12.4");  // the catalog's branch 550, not 999.99
  EXPECT_NE(s.driver.cuda_source.find("catalog"), std::string::npos);
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].cc->ToString(), "8.9");  // from the catalog by name, not -15.3
  std::vector<std::string> values;
  for (const ImplausibleValue& v : s.implausible) values.push_back(v.value);
  EXPECT_EQ(values, (std::vector<std::string>{"'\\x1b]0;owned\\x07'", "999990", "-15.3"}));
}

// ---- the watched child itself ----

TEST(WatchedChild, AnswersCrashesAndTimeouts) {
  ChildOutcome ok = RunInChild([] { return std::string("answer"); }, 2000);
  EXPECT_EQ(ok.kind, ChildOutcome::Kind::kAnswered);
  EXPECT_EQ(ok.reply, "answer");
  ChildOutcome crash = RunInChild([]() -> std::string { std::abort(); }, 2000);
  EXPECT_EQ(crash.kind, ChildOutcome::Kind::kSignaled);
  EXPECT_EQ(SignalName(crash.signal), "SIGABRT");
  ChildOutcome hang = RunInChild([]() -> std::string { while (true) pause(); }, 200);
  EXPECT_EQ(hang.kind, ChildOutcome::Kind::kTimedOut);
  ChildOutcome exited = RunInChild([]() -> std::string { _exit(3); }, 2000);
  EXPECT_EQ(exited.kind, ChildOutcome::Kind::kExited);
  EXPECT_EQ(exited.exit_status, 3);
}

// The bound counts from the start: a child that answered in time is an answer even when the
// caller collects it later than the bound; one still running then is killed.
TEST(WatchedChild, StartedChildIsJudgedByItsOwnBound) {
  PendingChild quick = StartChild([] { return std::string("answer"); }, 300);
  PendingChild stuck = StartChild([]() -> std::string { while (true) pause(); }, 300);
  ASSERT_TRUE(quick.started());
  usleep(500 * 1000);  // the caller's own work, longer than the bound
  ChildOutcome a = FinishChild(quick);
  EXPECT_EQ(a.kind, ChildOutcome::Kind::kAnswered);
  EXPECT_EQ(a.reply, "answer");
  EXPECT_FALSE(quick.started());
  EXPECT_EQ(FinishChild(stuck).kind, ChildOutcome::Kind::kTimedOut);
  EXPECT_EQ(FinishChild(stuck).kind, ChildOutcome::Kind::kNotStarted);
}

TEST(WatchedChild, ChildNeverCollectedIsKilledAndReaped) {
  { PendingChild stuck = StartChild([]() -> std::string { while (true) pause(); }, 60000); }
  errno = 0;
  EXPECT_EQ(waitpid(-1, nullptr, WNOHANG), -1);  // no child left, not even a zombie
  EXPECT_EQ(errno, ECHILD);
}

TEST(WatchedChild, WireCarriesAnyBytes) {
  WireWriter w;
  w.Put("name", std::string("a\tb\nc\0d", 7));
  w.Put("n", 12040);
  WireRecords r = ParseWire(w.text());
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].second, std::string("a\tb\nc\0d", 7));
  EXPECT_EQ(r[1].second, "12040");
  EXPECT_TRUE(ParseWire("name\t99:short\n").empty());
}

}  // namespace
}  // namespace cudamatch
