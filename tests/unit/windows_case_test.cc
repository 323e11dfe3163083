// A Windows image copied from a case-sensitive filesystem can hold two names Windows takes for one
// file (/windows/system32/nvcuda.dll and /WINDOWS/SYSTEM32/NVCUDA.DLL): both are reported and the
// choice is explained.
#include <gtest/gtest.h>

#include "probe/context.h"
#include "probe/win_paths.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

TEST(WindowsCaseTwins, AllCaselessMatchesAreFound) {
  FakeFs fs;
  fs.AddFile("/windows/system32/nvcuda.dll", "a");
  fs.AddFile("/WINDOWS/SYSTEM32/NVCUDA.DLL", "b");
  fs.AddFile("/WINDOWS/SYSTEM32/nvml.dll", "c");
  EXPECT_EQ(FindAllCaseless(fs, "/Windows/System32/nvcuda.dll"),
            (std::vector<std::string>{"/WINDOWS/SYSTEM32/NVCUDA.DLL", "/windows/system32/nvcuda.dll"}));
  EXPECT_EQ(FindAllCaseless(fs, "/Windows/System32/nvml.dll"), std::vector<std::string>{"/WINDOWS/SYSTEM32/nvml.dll"});
  EXPECT_TRUE(FindAllCaseless(fs, "/Windows/System32/missing.dll").empty());
}

TEST(WindowsCaseTwins, DriverProbeReportsBothAndWhichWasRead) {
  FakeFs fs;
  fs.AddFile("/windows/system32/nvcuda.dll", "not a PE file");
  fs.AddFile("/WINDOWS/SYSTEM32/NVCUDA.DLL", "not a PE file either");
  ProbeInput in;
  in.fs = &fs;
  in.os = Os::kWindows;
  in.catalog = &testing::TheCatalog();
  in.env = {{"SystemDrive", "C:"}};
  Snapshot snap;
  ProbeWindowsDriver(in, snap);
  ASSERT_EQ(snap.driver.libcuda_paths.size(), 1u);
  const std::string chosen = snap.driver.libcuda_paths[0];
  EXPECT_EQ(chosen, "/WINDOWS/SYSTEM32/NVCUDA.DLL");
  const Evidence* twin = nullptr;
  for (const Evidence& e : snap.trail) {
    if (e.source == "/windows/system32/nvcuda.dll" && e.outcome == Evidence::Outcome::kSkipped) twin = &e;
  }
  ASSERT_NE(twin, nullptr);
  EXPECT_NE(twin->detail.find("only in case"), std::string::npos) << twin->detail;
  EXPECT_NE(twin->detail.find(chosen + " was read"), std::string::npos) << twin->detail;
}

}  // namespace
}  // namespace cudamatch
