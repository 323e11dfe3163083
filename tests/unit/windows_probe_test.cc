// Windows trees read from Linux: caseless paths, Windows PATH and environment, and the probes
// over an in-memory tree.
#include <gtest/gtest.h>

#include "derive/derive.h"
#include "probe/context.h"
#include "probe/win_paths.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

TEST(WinPaths, MapsSystemDrivePathsIntoTheTree) {
  EXPECT_EQ(WindowsToRootPath("C:\\Program Files\\NVIDIA", ""), "/Program Files/NVIDIA");
  EXPECT_EQ(WindowsToRootPath("c:/Users/ann/", "C:"), "/Users/ann");
  EXPECT_EQ(WindowsToRootPath("\"C:\\a b\\bin\"", ""), "/a b/bin");
  EXPECT_EQ(WindowsToRootPath("E:\\Python312", "E:"), "/Python312");
  EXPECT_EQ(WindowsToRootPath("C:\\..\\..\\etc", ""), "/etc");  // stays inside the root
  EXPECT_FALSE(WindowsToRootPath("D:\\tools", ""));
  EXPECT_FALSE(WindowsToRootPath("C:relative", ""));
  EXPECT_FALSE(WindowsToRootPath("\\\\server\\share", ""));
  EXPECT_FALSE(WindowsToRootPath("%SystemRoot%\\system32", ""));
  EXPECT_FALSE(WindowsToRootPath("", ""));
}

TEST(WinPaths, FindsNamesInAnyCase) {
  FakeFs fs;
  fs.AddFile("/Windows/System32/nvcuda.dll", "x");
  fs.AddFile("/Users/ann/AppData/Local/Programs/Python/Python312/python.exe", "");
  EXPECT_EQ(FindCaseless(fs, "/WINDOWS/system32/NVCUDA.DLL"), "/Windows/System32/nvcuda.dll");
  EXPECT_EQ(FindCaseless(fs, "/windows/System32"), "/Windows/System32");
  EXPECT_FALSE(FindCaseless(fs, "/Windows/System32/nvml.dll"));
  EXPECT_EQ(FindCaseless(fs, "/"), "/");
  auto pythons = ListCaseless(fs, "/users/ANN/appdata/local/programs/python", "python3");
  ASSERT_EQ(pythons.size(), 1u);
  EXPECT_EQ(pythons[0], "/Users/ann/AppData/Local/Programs/Python/Python312");
}

TEST(WinPaths, EnvironmentNamesAreCaseless) {
  ProbeInput in;
  in.env = {{"Path", "C:\\a;;C:\\B\\;D:\\c"}, {"CUDA_PATH_V12_1", "x"}, {"cuda_path_v11_8", "y"}};
  EXPECT_EQ(WinEnv(in, "PATH"), "C:\\a;;C:\\B\\;D:\\c");
  EXPECT_EQ(WinEnvPrefixed(in, "CUDA_PATH_V").size(), 2u);
  FakeFs fs;
  fs.AddDir("/b");
  in.fs = &fs;
  std::vector<WinPathDir> dirs = WinPathDirs(in);
  ASSERT_EQ(dirs.size(), 3u);
  EXPECT_EQ(dirs[0].path, "");  // C:\a does not exist
  EXPECT_EQ(dirs[1].path, "/b");
  EXPECT_EQ(dirs[1].written, "C:\\B\\");
  EXPECT_EQ(dirs[2].path, "");  // another drive
}

// A tree stored in other cases than Windows writes them, with a Store Python and a venv.
struct WindowsTree {
  FakeFs fs;
  Catalog catalog;
  ProbeInput Input() {
    ProbeInput in;
    in.fs = &fs;
    in.os = Os::kWindows;
    in.catalog = &catalog;
    in.cwd = "C:\\work";
    in.env = {{"Path", "C:\\work\\.venv\\Scripts;C:\\PROGRAM FILES\\python311\\scripts"}, {"SystemDrive", "C:"}};
    return in;
  }
};

TEST(WindowsProbes, PythonsAreFoundCaselesslyWithTheirVersionsAndPackages) {
  WindowsTree t;
  t.fs.AddFile("/program files/Python311/python.exe", "");
  t.fs.AddFile("/program files/Python311/python311.dll", "");
  t.fs.AddFile("/program files/Python311/Scripts/pip.exe", "");
  t.fs.AddFile("/program files/Python311/lib/site-packages/torch/version.py",
               "__version__ = '2.5.1+cu124'\ncuda: Optional[str] = '12.4'\n");
  t.fs.AddFile("/Work/.venv/pyvenv.cfg", "home = C:\\Program Files\\Python311\nversion = 3.11.9\n");
  t.fs.AddFile("/Work/.venv/Scripts/python.exe", "");
  t.fs.AddFile("/Users/ann/AppData/Local/Packages/PythonSoftwareFoundation.Python.3.12_qbz5n2kfra8p0/LocalCache/"
               "local-packages/Python312/site-packages/README.txt",
               "");
  Snapshot snap;
  ProbeInput in = t.Input();
  ProbeWindowsPythons(in, snap);
  ProbeWindowsPathTools(in, snap);
  DerivePackages(snap);
  std::map<std::string, const PythonEnv*> by_prefix;
  for (const PythonEnv& e : snap.pythons) by_prefix[e.prefix] = &e;
  ASSERT_TRUE(by_prefix.count("/program files/Python311"));
  const PythonEnv& sys = *by_prefix["/program files/Python311"];
  EXPECT_EQ(sys.version->ToString(), "3.11");
  EXPECT_EQ(sys.version_source, "/program files/Python311/python311.dll");
  ASSERT_TRUE(sys.packages.at("torch").variant);
  EXPECT_EQ(sys.packages.at("torch").variant->tag, "cu124");
  ASSERT_TRUE(by_prefix.count("/Work/.venv"));
  EXPECT_TRUE(by_prefix["/Work/.venv"]->active);
  EXPECT_EQ(by_prefix["/Work/.venv"]->kind, PythonKind::kVenv);
  EXPECT_EQ(by_prefix["/Work/.venv"]->executable, "/Work/.venv/Scripts/python.exe");
  const std::string store = "/Users/ann/AppData/Local/Packages/PythonSoftwareFoundation.Python.3.12_qbz5n2kfra8p0";
  ASSERT_TRUE(by_prefix.count(store));
  EXPECT_EQ(by_prefix[store]->kind, PythonKind::kStore);
  EXPECT_EQ(by_prefix[store]->version->ToString(), "3.12");
  ASSERT_EQ(by_prefix[store]->site_packages.size(), 1u);
  EXPECT_EQ(snap.host.path_python.prefix, "/Work/.venv");
  EXPECT_EQ(snap.host.path_pip.prefix, "/program files/Python311");
}

TEST(WindowsProbes, DriverFromTheDriverStoreWhenSystem32HasNone) {
  WindowsTree t;
  std::string dll = testing::ReadSource("tests/fixtures/machines/win-pythonorg-cpu/root/Windows/System32/nvcuda.dll");
  t.fs.AddFile("/Windows/System32/DriverStore/FileRepository/nv_dispi.inf_amd64_0123/nvcuda64.dll", dll);
  t.fs.AddFile("/Windows/System32/nvml.dll", "not a PE file");
  Snapshot snap;
  ProbeWindowsDriver(t.Input(), snap);
  ASSERT_TRUE(snap.driver.userspace_version);
  EXPECT_EQ(snap.driver.userspace_version->text, "566.36");
  EXPECT_EQ(snap.driver.libcuda_paths.size(), 1u);
  EXPECT_FALSE(snap.driver.kernel_module_loaded);
  bool nvml_error = false;
  for (const Evidence& e : snap.trail) nvml_error |= e.source == "/Windows/System32/nvml.dll" && e.outcome == Evidence::Outcome::kError;
  EXPECT_FALSE(nvml_error);  // nvcuda answered first; nvml.dll was not needed
}

TEST(WindowsProbes, ToolkitOnPathIsActiveOverCudaPath) {
  WindowsTree t;
  const std::string root = "/Program Files/NVIDIA GPU Computing Toolkit/CUDA";
  t.fs.AddFile(root + "/v12.4/bin/nvcc.exe", "");
  t.fs.AddFile(root + "/v12.4/include/cuda.h", "#define CUDA_VERSION 12040\n");
  t.fs.AddFile(root + "/v11.8/bin/nvcc.exe", "");
  t.fs.AddFile(root + "/v11.8/version.json", "{\"cuda\" : {\"name\" : \"CUDA SDK\", \"version\" : \"11.8.0\"}}");
  ProbeInput in = t.Input();
  in.env["PATH"] = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\bin";
  in.env.erase("Path");
  in.env["CUDA_PATH"] = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4";
  Snapshot snap;
  ProbeWindowsToolkits(in, snap);
  ASSERT_EQ(snap.toolkits.size(), 2u);
  const ToolkitInfo* active = snap.ActiveToolkit();
  ASSERT_NE(active, nullptr);
  EXPECT_EQ(active->path, root + "/v11.8");
  EXPECT_EQ(active->active_reason, "PATH");
  EXPECT_EQ(snap.toolkits[1].version->ToString(), "12.4");
}

TEST(WindowsProbes, DevicesAndLinkLoopsWhereDllsShouldBeAreErrorsNotHangs) {
  WindowsTree t;
  t.fs.AddSpecial("/Windows/System32/nvcuda.dll");
  t.fs.AddSymlink("/Windows/System32/DriverStore", "/Windows/System32/DriverStore");
  Snapshot snap;
  ProbeWindowsDriver(t.Input(), snap);
  EXPECT_FALSE(snap.driver.userspace_version);
  bool error = false;
  for (const Evidence& e : snap.trail) error |= e.source == "/Windows/System32/nvcuda.dll" && e.outcome == Evidence::Outcome::kError;
  EXPECT_TRUE(error);
  EXPECT_FALSE(FindCaseless(t.fs, "/windows/system32/driverstore/filerepository"));
}

}  // namespace
}  // namespace cudamatch
