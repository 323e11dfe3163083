// Broken and hostile machines: doctor finishes, reports what it could, reads nothing unbounded,
// blocks on nothing, runs nothing it scans, and writes nothing.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "probe/nvidia_api.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::RunCudamatch;
using testing::TempDir;

const std::string kSite = "home/u/venv/lib/python3.11/site-packages";

// A venv with a working torch, the base the hostile cases damage.
void BaseMachine(const TempDir& t) {
  t.Write("home/u/venv/pyvenv.cfg", "home = /usr/bin\nversion = 3.11.7\n");
  t.Write(kSite + "/torch/version.py", "__version__ = '2.3.1+cu121'\ncuda = '12.1'\nhip = None\n");
  t.Write("proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 01:44:30 UTC 2024\n");
}

int BaseExitCode();

nlohmann::json Doctor(const TempDir& t, int* exit_code = nullptr, double* seconds = nullptr) {
  auto start = std::chrono::steady_clock::now();
  auto r = RunCudamatch({"doctor", "--json", "--root", t.path()},
                        {"LANG=C.UTF-8", "HOME=/home/u", "VIRTUAL_ENV=/home/u/venv", "PATH=/usr/bin"});
  if (seconds) *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (exit_code) *exit_code = r.exit_code;
  // The damage alone does not change the verdict: same exit code as the undamaged machine.
  if (exit_code == nullptr) {
    EXPECT_EQ(r.exit_code, BaseExitCode()) << r.err;
  }
  return nlohmann::json::parse(r.out);
}

int BaseExitCode() {
  static const int code = [] {
    TempDir t;
    BaseMachine(t);
    int c = -1;
    Doctor(t, &c);
    return c;
  }();
  return code;
}

std::string TorchVersion(const nlohmann::json& j) {
  for (const auto& p : j["pythons"]) {
    if (p["prefix"] == "/home/u/venv" && p["packages"].contains("torch")) return p["packages"]["torch"]["version"].dump();
  }
  return "";
}

TEST(Hostile, SymlinkLoopsAndDanglingCudaLink) {
  TempDir t;
  BaseMachine(t);
  t.Symlink("loop-b", "usr/local/loop-a");
  t.Symlink("loop-a", "usr/local/loop-b");
  t.Symlink("cuda", "usr/local/cuda-loop");
  t.Symlink("cuda-loop", "usr/local/cuda");  // /usr/local/cuda is part of a loop
  t.Symlink("/usr/local/cuda-11.8", "opt/cuda");  // dangling
  t.Symlink("self", kSite + "/self");
  nlohmann::json j = Doctor(t);
  EXPECT_EQ(TorchVersion(j), "\"2.3.1+cu121\"");
  EXPECT_TRUE(j["toolkits"].empty());
  EXPECT_EQ(j["driver"]["kernel_version"], "550.54.14");
}

TEST(Hostile, TwoGigabyteVersionPyIsReadOnlyToTheCap) {
  TempDir t;
  BaseMachine(t);
  std::string path = t.Write(kSite + "/torch/version.py", "__version__ = '2.3.1+cu121'\ncuda = '12.1'\n");
  ASSERT_EQ(truncate(path.c_str(), 2LL << 30), 0);  // sparse: 2 GiB of zeros after the header
  double seconds = 0;
  nlohmann::json j = Doctor(t, nullptr, &seconds);
  EXPECT_EQ(TorchVersion(j), "\"2.3.1+cu121\"");
  EXPECT_LT(seconds, 5.0);
}

TEST(Hostile, BinaryGarbageInMetadata) {
  TempDir t;
  BaseMachine(t);
  std::string garbage;
  for (int i = 0; i < 4096; ++i) garbage += static_cast<char>((i * 131 + 7) % 256);
  t.Write(kSite + "/torch/version.py", garbage);
  t.Write(kSite + "/torch-2.3.1.dist-info/METADATA", garbage);
  t.Write(kSite + "/torchvision-0.18.1.dist-info/METADATA", "Name: torchvision\nVersion: \xff\xfe\x00garbage\n");
  t.Write("proc/driver/nvidia/gpus/0000:01:00.0/information", garbage);
  t.Write("usr/local/cuda-12.4/version.json", garbage);
  t.Write("usr/local/cuda-12.4/bin/nvcc", "");
  nlohmann::json j = Doctor(t);
  EXPECT_FALSE(j["pythons"].empty());
  EXPECT_EQ(j["driver"]["kernel_version"], "550.54.14");
}

TEST(Hostile, TenThousandEntriesInSitePackages) {
  TempDir t;
  BaseMachine(t);
  for (int i = 0; i < 10000; ++i) {
    std::string dir = t.path() + "/" + kSite + "/pkg" + std::to_string(i) + "-1.0.dist-info";
    ASSERT_EQ(mkdir(dir.c_str(), 0755), 0);
  }
  double seconds = 0;
  nlohmann::json j = Doctor(t, nullptr, &seconds);
  EXPECT_EQ(TorchVersion(j), "\"2.3.1+cu121\"");
  EXPECT_LT(seconds, 5.0);
}

TEST(Hostile, FifosWhereFilesAreExpectedNeverBlock) {
  TempDir t;
  BaseMachine(t);
  std::filesystem::remove(t.path() + "/proc/driver/nvidia/version");
  for (const std::string& rel : std::vector<std::string>{"proc/driver/nvidia/version", kSite + "/torchvision/version.py", "etc/os-release",
                                "home/u/.conda/environments.txt"}) {
    std::filesystem::create_directories(std::filesystem::path(t.path() + "/" + rel).parent_path());
    ASSERT_EQ(mkfifo((t.path() + "/" + rel).c_str(), 0600), 0) << rel;
  }
  double seconds = 0;
  nlohmann::json j = Doctor(t, nullptr, &seconds);
  EXPECT_LT(seconds, 5.0);
  EXPECT_EQ(TorchVersion(j), "\"2.3.1+cu121\"");
  bool recorded = false;
  for (const auto& e : j["trail"]) {
    recorded = recorded || (e["source"] == "/proc/driver/nvidia/version" && e["outcome"] == "error");
  }
  EXPECT_TRUE(recorded);
}

TEST(Hostile, UnreadableDirectoriesAreReportedNotFatal) {
  TempDir t;
  BaseMachine(t);
  chmod((t.path() + "/" + kSite).c_str(), 0);
  auto as_user = [&] {
    nlohmann::json j = Doctor(t);
    ASSERT_FALSE(j["pythons"].empty());
    const nlohmann::json& env = j["pythons"][0];
    ASSERT_TRUE(env.contains("packages")) << env.dump();
    EXPECT_FALSE(env["packages"].contains("torch")) << env.dump();  // unseen, not invented
    EXPECT_NE(j.dump().find("Permission denied"), std::string::npos);
  };
  int status = testing::WithPermissionsEnforced(as_user);
  if (status == testing::kCannotEnforcePermissions) GTEST_SKIP() << "root here may not give up CAP_DAC_OVERRIDE";
  EXPECT_EQ(status, 0) << "the child process failed (above)";
}

// The scanned environment tries to run code through version.py, a .pth file and
// sitecustomize.py; each would create a marker file. None may appear.
TEST(Safety, ScanningNeverRunsTheEnvironmentsCode) {
  TempDir t;
  BaseMachine(t);
  std::string marker = t.path() + "/pwned";
  std::string payload = "import os\nopen('" + marker + "', 'w').write('x')\n";
  t.Write(kSite + "/torch/version.py", payload + "__version__ = '2.3.1+cu121'\ncuda = '12.1'\n");
  t.Write(kSite + "/evil.pth", "import os; open('" + marker + "', 'w').write('x')\n");
  t.Write(kSite + "/sitecustomize.py", payload);
  t.Write("home/u/venv/bin/python3.11", "#!/bin/sh\ntouch " + marker + "\n");
  chmod((t.path() + "/home/u/venv/bin/python3.11").c_str(), 0755);
  t.Write("usr/local/cuda-12.4/bin/nvcc", "#!/bin/sh\ntouch " + marker + "\n");
  chmod((t.path() + "/usr/local/cuda-12.4/bin/nvcc").c_str(), 0755);
  Doctor(t);
  // Also this machine's own root with the hostile environment given by --python.
  RunCudamatch({"doctor", "--python", t.path() + "/home/u/venv", "--json"}, {"LANG=C.UTF-8", "PATH=/usr/bin:/bin"});
  EXPECT_FALSE(std::filesystem::exists(marker));
}

// Nothing is written: the tree, the working directory and the home directory are unchanged
// (but for the environment cache in ~/.cache/cudamatch, unless --no-cache).
TEST(Safety, WritesNothing) {
  TempDir t;
  BaseMachine(t);
  auto listing = [&] {
    std::vector<std::string> entries;
    for (const auto& e : std::filesystem::recursive_directory_iterator(t.path())) {
      entries.push_back(e.path().string() + " " + std::to_string(e.is_regular_file() ? e.file_size() : 0));
    }
    std::sort(entries.begin(), entries.end());
    return entries;
  };
  auto before = listing();
  RunCudamatch({"doctor", "--root", t.path()}, {"LANG=C.UTF-8", "HOME=" + t.path(), "PWD=" + t.path()});
  RunCudamatch({"doctor", "--json", "--no-cache"}, {"LANG=C.UTF-8", "HOME=" + t.path(), "PWD=" + t.path()});
  EXPECT_EQ(before, listing());
  // With the environment cache (the default on this machine), only ~/.cache/cudamatch is written.
  RunCudamatch({"doctor", "--json"}, {"LANG=C.UTF-8", "HOME=" + t.path(), "PWD=" + t.path()});
  std::vector<std::string> after;
  for (const std::string& e : listing()) {
    if (e.rfind(t.path() + "/.cache", 0) != 0) after.push_back(e);
  }
  EXPECT_EQ(before, after);
}

// The real dlopen path, with stand-in libraries built for the tests.
TEST(NvidiaLibraries, EveryDocumentedNvmlErrorIsNamed) {
  for (int code : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 999}) {
    setenv("FAKE_NVML_INIT", std::to_string(code).c_str(), 1);
    auto nvml = MakeRealNvml(FAKE_NVML_LIBRARY);
    Status s = nvml->Init();
    ASSERT_FALSE(s.ok()) << code;
    EXPECT_NE(s.error().find(NvmlStatusName(code)), std::string::npos) << s.error();
    EXPECT_NE(s.error().find("fake error text"), std::string::npos);
    EXPECT_EQ(NvmlStatusName(code).find("NVML status"), std::string::npos) << code;
  }
  unsetenv("FAKE_NVML_INIT");
  auto nvml = MakeRealNvml(FAKE_NVML_LIBRARY);
  ASSERT_TRUE(nvml->Init().ok());
  EXPECT_EQ(nvml->DriverVersion().value(), "550.54.14");
  EXPECT_EQ(nvml->CudaDriverVersion().value(), 12040);
  auto gpus = nvml->Gpus().value();
  ASSERT_EQ(gpus.size(), 1u);
  EXPECT_EQ(gpus[0].pci_device_id, 0x2684u);
  EXPECT_EQ(gpus[0].cc->ToString(), "8.9");
  EXPECT_EQ(*gpus[0].memory_bytes, 24ull << 30);
}

TEST(NvidiaLibraries, InvalidLibraryAndMissingSymbolAreErrors) {
  TempDir t;
  std::string bogus = t.Write("libnvidia-ml.so.1", "this is not an ELF file");
  Status s = MakeRealNvml(bogus)->Init();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().find("dlopen"), std::string::npos) << s.error();
  auto cuda = MakeRealCuda(FAKE_CUDA_NOSYMBOL_LIBRARY)->DriverGetVersion();
  ASSERT_FALSE(cuda.ok());
  EXPECT_NE(cuda.error().find("has no cuDriverGetVersion"), std::string::npos);
  EXPECT_FALSE(MakeRealCuda(t.path() + "/missing.so")->DriverGetVersion().ok());
}

}  // namespace
}  // namespace cudamatch
