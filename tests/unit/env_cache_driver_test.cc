// libcuda's answer kept between runs (probe/env_cache_driver.h): asked once, then answered from
// the cache until the library file (replaced, repointed) or the kernel module changes; damaged
// entries, errors and faults are never used; --root and --no-cache write no answer.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <fstream>
#include <thread>

#include "core/cache_store.h"
#include "core/text.h"
#include "probe/env_cache_driver.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

namespace stdfs = std::filesystem;
using testing::TempDir;

// Answers `version` (or an error) and counts how often it was asked.
class CountingCuda : public CudaApi {
 public:
  CountingCuda(Result<int> answer, int* asked) : answer_(std::move(answer)), asked_(asked) {}
  Result<int> DriverGetVersion() override { return ++*asked_, answer_; }

 private:
  Result<int> answer_;
  int* asked_;
};

constexpr const char* kLib = "/usr/lib/x86_64-linux-gnu/libcuda.so.1";

class DriverCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = tmp_.Mkdir("root");
    tmp_.Write("root/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.14", std::string(4096, 'a'));
    tmp_.Symlink("libcuda.so.550.54.14", "root/usr/lib/x86_64-linux-gnu/libcuda.so.1");
    tmp_.Write("root/proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14\n");
    store_ = OpenCacheStore(tmp_.path() + "/cache");
    ASSERT_NE(store_, nullptr);
  }
  // One run: the version it gives and whether libcuda was asked.
  std::pair<Result<int>, int> Run(Result<int> answer = 12040) {
    auto fs = MakeRealFs(root_);
    int asked = 0;
    DriverCacheOptions o;
    o.tool_version = "test";
    auto now = std::chrono::system_clock::now().time_since_epoch();
    o.now_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(now).count();
    o.racy_ns = 0;
    auto cuda = MakeCachedCuda(std::make_unique<CountingCuda>(answer, &asked), store_.get(), fs.get(), kLib, o);
    cuda->Start();
    Result<int> v = cuda->DriverGetVersion();
    return {v, asked};
  }
  std::string Host(const std::string& p) const { return root_ + p; }
  std::vector<stdfs::path> Entries() const {
    std::vector<stdfs::path> out;
    for (const auto& e : stdfs::directory_iterator(tmp_.path() + "/cache")) out.push_back(e.path());
    return out;
  }

  TempDir tmp_;
  std::string root_;
  std::unique_ptr<CacheStore> store_;
};

void WaitATick() { std::this_thread::sleep_for(std::chrono::milliseconds(20)); }

TEST_F(DriverCacheTest, AskedOnceThenAnsweredFromTheCache) {
  auto [first, asked_first] = Run();
  EXPECT_EQ(first.value_or(0), 12040);
  EXPECT_EQ(asked_first, 1);
  auto [second, asked_second] = Run(99999);  // would the library be asked, it would say otherwise
  EXPECT_EQ(second.value_or(0), 12040);
  EXPECT_EQ(asked_second, 0);
}

TEST_F(DriverCacheTest, ALibraryOrKernelModuleChangeIsAskedAgain) {
  const std::string real = Host("/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.14");
  std::vector<std::pair<const char*, std::function<void()>>> changes = {
      {"replaced by rename, same size and time",
       [&] {
         auto mtime = stdfs::last_write_time(real);
         std::ofstream(real + ".new") << std::string(4096, 'b');
         stdfs::last_write_time(real + ".new", mtime);
         stdfs::rename(real + ".new", real);
       }},
      {"link repointed to a new driver",
       [&] {
         std::ofstream(Host("/usr/lib/x86_64-linux-gnu/libcuda.so.560.28.03")) << std::string(4096, 'a');
         stdfs::remove(Host(kLib));
         stdfs::create_symlink("libcuda.so.560.28.03", Host(kLib));
       }},
      {"kernel module updated",
       [&] {
         std::ofstream(Host("/proc/driver/nvidia/version"), std::ios::trunc)
             << "NVRM version: NVIDIA UNIX x86_64 Kernel Module  560.28.03\n";
       }},
      {"kernel module unloaded", [&] { stdfs::remove(Host("/proc/driver/nvidia/version")); }},
  };
  int answer = 12040;
  ASSERT_EQ(Run(answer).second, 1);
  for (const auto& [what, change] : changes) {
    SCOPED_TRACE(what);
    ASSERT_EQ(Run(99999).second, 0);  // answered from the cache until the change
    WaitATick();
    change();
    answer += 10;
    auto [after, asked] = Run(answer);
    EXPECT_EQ(asked, 1);
    EXPECT_EQ(after.value_or(0), answer);
  }
}

TEST_F(DriverCacheTest, DamagedEntriesAreIgnoredAndReplaced) {
  Run();
  ASSERT_EQ(Entries().size(), 1u);
  stdfs::path entry = Entries()[0];
  std::ifstream in(entry);
  const std::string good((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string other_version = good;
  other_version.replace(other_version.rfind("12040"), 5, "13000");  // checksum no longer matches
  for (const std::string& bad : {good.substr(0, good.size() / 2), std::string(), other_version,
                                 "cudamatch-driver-cache 0" + good.substr(24)}) {
    std::ofstream(entry, std::ios::trunc) << bad;
    auto [v, asked] = Run(12050);
    EXPECT_EQ(asked, 1);
    EXPECT_EQ(v.value_or(0), 12050);
    EXPECT_EQ(Run(99999).first.value_or(0), 12050);  // rewritten whole
  }
  EXPECT_FALSE(DecodeDriverEntry(good, "another key").has_value());
}

TEST_F(DriverCacheTest, ErrorsAndBareSonamesAreNotKept) {
  EXPECT_EQ(Run(Err("cuDriverGetVersion returned CUresult 999")).second, 1);
  EXPECT_EQ(Run(Err("cuDriverGetVersion returned CUresult 999")).second, 1);
  auto fs = MakeRealFs(root_);
  EXPECT_EQ(DriverCacheKey(*fs, "libcuda.so.1", {}), "");  // the loader would search for it
  EXPECT_NE(DriverCacheKey(*fs, kLib, {}), "");
  EXPECT_EQ(DriverCacheKey(*fs, "/usr/lib/none/libcuda.so.1", {}), "");
}

size_t Entries(const std::string& dir, std::string_view prefix) {
  if (!stdfs::exists(dir)) return 0;
  size_t n = 0;
  for (const auto& e : stdfs::directory_iterator(dir)) n += StartsWith(e.path().filename().string(), prefix);
  return n;
}

// --root loads nothing of this host, so no answer is kept even with --cache; --no-cache writes
// nothing at all on this machine either.
TEST(DriverCacheCli, NeverUnderRootNorWithNoCache) {
  TempDir t;
  std::string machine = testing::SourceDir() + "/tests/fixtures/machines/gpu-server/root";
  std::vector<std::string> env = {"CUDAMATCH_CACHE_DIR=" + t.path() + "/c", "CUDAMATCH_CACHE=", "HOME=/home/alice",
                                  "PATH=/usr/bin:/bin"};
  testing::RunCudamatch({"doctor", "--root", machine, "--cache"}, env);
  EXPECT_GE(Entries(t.path() + "/c", "env-"), 1u);
  EXPECT_EQ(Entries(t.path() + "/c", "driver-"), 0u);
  stdfs::remove_all(t.path() + "/c");
  testing::RunCudamatch({"doctor", "--no-cache"}, env);
  EXPECT_EQ(Entries(t.path() + "/c", ""), 0u);
}

}  // namespace
}  // namespace cudamatch
