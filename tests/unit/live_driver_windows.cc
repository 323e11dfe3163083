// The Windows build's live driver path, under wine or on Windows: the stand-in nvml.dll and
// nvcuda.dll (tests/fakes/windows) are loaded in a watched child that is this test binary started
// again; a hang or crash inside them becomes a fault, never a hung or crashed test.
#include <gtest/gtest.h>
#include <windows.h>

#include <chrono>

#include "derive/derive.h"
#include "probe/context.h"
#include "probe/nvidia_api.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

// Sets one variable for the fakes (children inherit it) while it lives.
class FakeMode {
 public:
  FakeMode(const char* name, const char* value) : name_(name) { SetEnvironmentVariableA(name, value); }
  ~FakeMode() { SetEnvironmentVariableA(name_, nullptr); }

 private:
  const char* name_;
};

TEST(WindowsLiveDriver, NvmlDllAnswersFromTheWatchedChild) {
  auto nvml = MakeRealNvml(FAKE_NVML_DLL);
  ASSERT_TRUE(nvml->Init().ok());
  EXPECT_EQ(nvml->DriverVersion().value(), "566.36");
  EXPECT_EQ(nvml->CudaDriverVersion().value(), 12070);
  auto gpus = nvml->Gpus();
  ASSERT_TRUE(gpus.ok());
  ASSERT_EQ(gpus->size(), 1u);
  EXPECT_EQ((*gpus)[0].name, "NVIDIA GeForce RTX 4080 Laptop GPU");
  EXPECT_EQ((*gpus)[0].pci_device_id, 0x27e0u);
  ASSERT_TRUE((*gpus)[0].cc);
  EXPECT_EQ((*gpus)[0].cc->major, 8);
  EXPECT_EQ((*gpus)[0].cc->minor, 9);
  EXPECT_EQ((*gpus)[0].memory_bytes, 12ull << 30);
}

TEST(WindowsLiveDriver, NvcudaDllGivesTheDriversCuda) {
  auto cuda = MakeRealCuda(FAKE_NVCUDA_DLL);
  EXPECT_EQ(cuda->DriverGetVersion().value(), 12070);
}

TEST(WindowsLiveDriver, NvmlInitStatusIsReported) {
  FakeMode mode("FAKE_NVML_INIT", "9");
  auto nvml = MakeRealNvml(FAKE_NVML_DLL);
  Status s = nvml->Init();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), "NVML_ERROR_DRIVER_NOT_LOADED: fake error text");
  EXPECT_FALSE(nvml->fault());
}

TEST(WindowsLiveDriver, AMissingDllIsAnErrorWithWindowsReason) {
  auto nvml = MakeRealNvml(std::string(FAKE_NVML_DLL) + ".missing");
  Status s = nvml->Init();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().rfind("LoadLibraryExW ", 0), 0u) << s.error();
  EXPECT_FALSE(nvml->fault());
}

TEST(WindowsLiveDriver, AHangingNvmlIsAbandonedAtTheTimeout) {
  FakeMode mode("FAKE_NVML_MODE", "block_init");
  auto start = std::chrono::steady_clock::now();
  auto nvml = MakeRealNvml(FAKE_NVML_DLL, 500);
  Status s = nvml->Init();
  auto took = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(s.ok());
  ASSERT_TRUE(nvml->fault());
  EXPECT_EQ(nvml->fault()->kind, LibraryFault::Kind::kTimedOut);
  EXPECT_EQ(s.error(), "NVML did not answer within 0.5 s");
  EXPECT_LT(took, std::chrono::seconds(10));
}

TEST(WindowsLiveDriver, ACrashingNvmlIsReportedAsAnAccessViolation) {
  FakeMode mode("FAKE_NVML_MODE", "crash_init");
  auto nvml = MakeRealNvml(FAKE_NVML_DLL);
  Status s = nvml->Init();
  ASSERT_FALSE(s.ok());
  ASSERT_TRUE(nvml->fault());
  EXPECT_EQ(nvml->fault()->kind, LibraryFault::Kind::kCrashed);
  EXPECT_EQ(s.error(), "NVML crashed with access violation (0xC0000005)");
}

TEST(WindowsLiveDriver, AHangingNvcudaIsAbandonedAtTheTimeout) {
  FakeMode mode("FAKE_CUDA_MODE", "block");
  auto cuda = MakeRealCuda(FAKE_NVCUDA_DLL, 400);
  auto v = cuda->DriverGetVersion();
  ASSERT_FALSE(v.ok());
  ASSERT_TRUE(cuda->fault());
  EXPECT_EQ(cuda->fault()->kind, LibraryFault::Kind::kTimedOut);
}

// The Windows probes on a fixture tree plus the live answers: what doctor on Windows does on C:\.
TEST(WindowsLiveDriver, TheSnapshotTakesDriverAndGpusFromNvml) {
  auto fs = testing::MakeTestFs(testing::SourceDir() + "/tests/fixtures/machines/win-pythonorg-cpu/root");
  auto nvml = MakeRealNvml(FAKE_NVML_DLL);
  auto cuda = MakeRealCuda(FAKE_NVCUDA_DLL);
  ProbeInput in;
  in.fs = fs.get();
  in.catalog = &testing::TheCatalog();
  in.os = Os::kWindows;
  in.nvml = nvml.get();
  in.cuda = cuda.get();
  Snapshot snap = TakeSnapshot(in);
  Derive(testing::TheCatalog(), snap);
  EXPECT_EQ(snap.driver.nvml, NvmlState::kOk);
  ASSERT_TRUE(snap.driver.userspace_version);
  EXPECT_EQ(snap.driver.userspace_version->text, "566.36");
  EXPECT_EQ(snap.driver.userspace_source, "NVML nvmlSystemGetDriverVersion");
  ASSERT_TRUE(snap.driver.cuda);
  EXPECT_EQ(snap.driver.cuda->MajorMinor(), "12.7");
  ASSERT_EQ(snap.gpus.size(), 1u);
  EXPECT_EQ(snap.gpus[0].name, "NVIDIA GeForce RTX 4080 Laptop GPU");
  EXPECT_EQ(snap.gpus[0].source, "NVML");
}

}  // namespace
}  // namespace cudamatch
