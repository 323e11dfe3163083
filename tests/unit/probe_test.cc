// Probes over in-memory machines, with fake NVIDIA libraries.
#include <gtest/gtest.h>

#include "derive/derive.h"
#include "probe/context.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

class FakeNvml : public NvmlApi {
 public:
  Status init = Status::Ok();
  std::string driver = "550.54.14";
  int cuda = 12040;
  std::vector<NvmlGpu> gpus;
  int init_calls = 0;
  Status Init() override {
    ++init_calls;
    return init;
  }
  Result<std::string> DriverVersion() override { return driver; }
  Result<int> CudaDriverVersion() override { return cuda; }
  Result<std::vector<NvmlGpu>> Gpus() override { return gpus; }
};

// A snapshot as every producer makes one: the probes' observations, then the derive step.
Snapshot Take(const ProbeInput& in) {
  Snapshot s = TakeSnapshot(in);
  Derive(testing::TheCatalog(), s);
  return s;
}

class FakeCuda : public CudaApi {
 public:
  Result<int> result = 12020;
  int calls = 0;
  Result<int> DriverGetVersion() override {
    ++calls;
    return result;
  }
};

struct Machine {
  FakeFs fs;
  FakeNvml nvml;
  FakeCuda cuda;
  ProbeInput Input(bool libs = true) {
    ProbeInput in;
    in.fs = &fs;
    in.catalog = &testing::TheCatalog();
    in.env = {{"PATH", "/usr/bin:/bin"}, {"HOME", "/home/u"}};
    if (libs) {
      in.nvml = &nvml;
      in.cuda = &cuda;
    }
    return in;
  }
  void AddDriver(const std::string& kernel, const std::string& user) {
    if (!kernel.empty()) {
      fs.AddFile("/proc/driver/nvidia/version",
                 "NVRM version: NVIDIA UNIX x86_64 Kernel Module  " + kernel + "  Thu Feb 22 01:44:30 UTC 2024\n");
    }
    fs.AddFile("/usr/lib/x86_64-linux-gnu/libcuda.so." + user, "");
    fs.AddSymlink("/usr/lib/x86_64-linux-gnu/libcuda.so.1", "libcuda.so." + user);
    fs.AddFile("/usr/lib/x86_64-linux-gnu/libnvidia-ml.so." + user, "");
    fs.AddSymlink("/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1", "libnvidia-ml.so." + user);
  }
};

TEST(DriverProbe, NvmlAnswersWhenTheModuleIsLoaded) {
  Machine m;
  m.AddDriver("550.54.14", "550.54.14");
  m.nvml.gpus = {{"NVIDIA GeForce RTX 4090", "GPU-1", "00000000:01:00.0", 0x2684, ComputeCapability{8, 9, 0}, 24ull << 30}};
  Snapshot s = Take(m.Input());
  EXPECT_TRUE(s.driver.kernel_module_loaded);
  EXPECT_EQ(s.driver.userspace_source, "NVML nvmlSystemGetDriverVersion");
  EXPECT_EQ(s.driver.cuda->MajorMinor(), "12.4");
  EXPECT_EQ(s.driver.nvml, NvmlState::kOk);
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].cc->ToString(), "8.9");
  EXPECT_EQ(s.gpus[0].architecture, "Ada Lovelace");
  EXPECT_EQ(m.cuda.calls, 0);  // NVML answered; libcuda not needed
}

TEST(DriverProbe, NoKernelModuleSkipsNvmlAndAsksLibcuda) {
  Machine m;
  m.AddDriver("", "535.261.03");
  Snapshot s = Take(m.Input());
  EXPECT_FALSE(s.driver.kernel_module_loaded);
  EXPECT_EQ(m.nvml.init_calls, 0);
  EXPECT_EQ(s.driver.nvml, NvmlState::kSkippedNoModule);
  EXPECT_EQ(s.driver.userspace_version->text, "535.261.03");
  EXPECT_EQ(s.driver.cuda->MajorMinor(), "12.2");
  EXPECT_EQ(s.driver.cuda_source, "libcuda cuDriverGetVersion");
}

TEST(DriverProbe, EveryNvmlErrorBecomesAStatusLine) {
  for (int code : {1, 2, 3, 4, 6, 9, 12, 13, 15, 17, 18, 999}) {
    Machine m;
    m.AddDriver("550.54.14", "550.54.14");
    m.nvml.init = Err(NvmlStatusName(code) + ": text");
    Snapshot s = Take(m.Input());
    EXPECT_EQ(s.driver.nvml, NvmlState::kFailed);
    EXPECT_NE(s.driver.nvml_error.find(NvmlStatusName(code)), std::string::npos) << code;
    EXPECT_EQ(s.driver.userspace_version->text, "550.54.14") << code;  // the file name still answers
    EXPECT_TRUE(s.driver.cuda.has_value()) << code;                     // libcuda, else the catalog
  }
  EXPECT_EQ(NvmlStatusName(9), "NVML_ERROR_DRIVER_NOT_LOADED");
  EXPECT_EQ(NvmlStatusName(18), "NVML_ERROR_LIB_RM_VERSION_MISMATCH");
}

TEST(DriverProbe, MissingCuDriverGetVersionFallsBackToTheCatalog) {
  Machine m;
  m.AddDriver("", "535.104.05");
  m.cuda.result = Err("libcuda.so.1 has no cuDriverGetVersion");
  Snapshot s = Take(m.Input());
  EXPECT_EQ(s.driver.cuda->MajorMinor(), "12.2");
  EXPECT_EQ(s.driver.cuda_source, "catalog: driver branch 535");
  bool recorded = false;
  for (const Evidence& e : s.trail) recorded = recorded || (e.source == "libcuda:cuDriverGetVersion" && e.outcome == Evidence::Outcome::kError);
  EXPECT_TRUE(recorded);
}

TEST(DriverProbe, UnderRootNothingIsLoaded) {
  Machine m;
  m.AddDriver("550.54.14", "550.54.14");
  Snapshot s = Take(m.Input(/*libs=*/false));
  EXPECT_EQ(m.nvml.init_calls, 0);
  EXPECT_EQ(m.cuda.calls, 0);
  EXPECT_EQ(s.driver.cuda_source, "catalog: driver branch 550");
}

TEST(DriverProbe, MismatchWslContainerAndVisibleDevices) {
  Machine m;
  m.AddDriver("535.104.05", "535.129.03");
  m.fs.AddFile("/.dockerenv", "");
  ProbeInput in = m.Input(false);
  in.env["CUDA_VISIBLE_DEVICES"] = "";
  Snapshot s = Take(in);
  EXPECT_TRUE(s.driver.mismatch());
  EXPECT_TRUE(s.driver.container);
  EXPECT_FALSE(s.driver.device_nodes);
  EXPECT_EQ(*s.driver.cuda_visible_devices, "");

  Machine w;
  w.fs.AddFile("/proc/version", "Linux version 5.15.153.1-microsoft-standard-WSL2 (root@1) #1 SMP\n");
  w.fs.AddFile("/usr/lib/wsl/lib/libcuda.so.1.1", "");
  w.fs.AddSymlink("/usr/lib/wsl/lib/libcuda.so.1", "libcuda.so.1.1");
  w.fs.AddFile("/dev/dxg", "");
  Snapshot ws = Take(w.Input(false));
  EXPECT_TRUE(ws.driver.wsl);
  EXPECT_TRUE(ws.driver.device_nodes);
  EXPECT_FALSE(ws.driver.userspace_version.has_value());
}

// microsoft/WSL#5265: a Linux driver installed inside WSL 2 puts its libcuda in front of the
// Windows driver's. Its version is not the driver's, and its libcuda is not asked for the
// driver's CUDA (it, not the Windows driver, could be the one that answers).
TEST(DriverProbe, ALinuxLibcudaInsideWslIsNotTheDriver) {
  Machine w;
  w.fs.AddFile("/proc/version", "Linux version 5.15.153.1-microsoft-standard-WSL2 (root@1) #1 SMP\n");
  w.fs.AddFile("/usr/lib/wsl/lib/libcuda.so.1", "");
  w.fs.AddFile("/dev/dxg", "");
  w.fs.AddFile("/usr/lib/x86_64-linux-gnu/libcuda.so.440.82", "");
  w.fs.AddSymlink("/usr/lib/x86_64-linux-gnu/libcuda.so.1", "libcuda.so.440.82");
  w.nvml.init = Err(std::string("Driver Not Loaded"));
  w.cuda.result = 10020;  // what libcuda.so.440.82's cuDriverGetVersion gives
  Snapshot s = Take(w.Input());
  EXPECT_TRUE(s.driver.wsl);
  EXPECT_FALSE(s.driver.userspace_version.has_value());  // no driver store in this image
  EXPECT_EQ(s.driver.libcuda_paths.size(), 2u);
  EXPECT_EQ(w.cuda.calls, 0);
  EXPECT_TRUE(!s.driver.cuda || s.driver.cuda->MajorMinor() != "10.2");
}

TEST(GpuProbe, PciFallbackIdentifiesTheGpuFromTheCatalog) {
  Machine m;
  m.fs.AddFile("/sys/bus/pci/devices/0000:01:00.0/vendor", "0x10de\n");
  m.fs.AddFile("/sys/bus/pci/devices/0000:01:00.0/device", "0x2684\n");
  m.fs.AddFile("/sys/bus/pci/devices/0000:01:00.0/class", "0x030000\n");
  m.fs.AddFile("/sys/bus/pci/devices/0000:01:00.1/vendor", "0x10de\n");  // its audio function
  m.fs.AddFile("/sys/bus/pci/devices/0000:01:00.1/class", "0x040300\n");
  Snapshot s = Take(m.Input(false));
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].cc->ToString(), "8.9");
  EXPECT_NE(s.gpus[0].name.find("4090"), std::string::npos);
  EXPECT_EQ(s.gpus[0].cc_source.substr(0, 8), "catalog:");
}

TEST(ToolkitProbe, VersionsAndActiveToolkit) {
  Machine m;
  m.fs.AddFile("/usr/local/cuda-12.4/version.json", R"({"cuda": {"name": "CUDA SDK", "version": "12.4.1"}})");
  m.fs.AddFile("/usr/local/cuda-12.4/bin/nvcc", "");
  m.fs.AddFile("/usr/local/cuda-10.2/version.txt", "CUDA Version 10.2.89\n");
  m.fs.AddFile("/usr/local/cuda-10.2/bin/nvcc", "");
  m.fs.AddFile("/opt/cuda-13.0/include/cuda.h", "#define CUDA_VERSION 13000\n");
  m.fs.AddSymlink("/usr/local/cuda", "/usr/local/cuda-12.4");
  ProbeInput in = m.Input(false);
  in.env["CUDA_HOME"] = "/usr/local/cuda-10.2";
  Snapshot s = Take(in);
  ASSERT_EQ(s.toolkits.size(), 3u);
  const ToolkitInfo* active = s.ActiveToolkit();
  ASSERT_NE(active, nullptr);
  EXPECT_EQ(active->path, "/usr/local/cuda-10.2");
  EXPECT_EQ(active->active_reason, "CUDA_HOME");
  in.env["PATH"] = "/usr/local/cuda/bin:/usr/bin";
  Snapshot p = Take(in);
  EXPECT_EQ(p.ActiveToolkit()->path, "/usr/local/cuda-12.4");
  EXPECT_EQ(p.ActiveToolkit()->active_reason, "PATH");
}

// cuda.h is read by its head first: a CUDA_VERSION past the head is still found, and a define
// that the head's end cuts ("#define CUDA_VERSION 13" of "13000") is never read as the version.
TEST(ToolkitProbe, CudaHeaderVersionPastTheHeadOrCutByItIsReadWhole) {
  for (size_t pad : {size_t{100}, size_t{16 * 1024 - 22}, size_t{16 * 1024 - 25}, size_t{20 * 1024}}) {
    Machine m;
    std::string filler = "/* " + std::string(pad > 7 ? pad - 7 : 0, 'x') + " */\n";
    m.fs.AddFile("/opt/cuda-13.0/include/cuda.h", filler + "#define CUDA_VERSION 13000\n#define CUDA_API_PER_THREAD 1\n");
    m.fs.AddFile("/opt/cuda-13.0/bin/nvcc", "");
    ProbeInput in = m.Input(false);
    in.env["CUDA_HOME"] = "/opt/cuda-13.0";
    Snapshot s = Take(in);
    ASSERT_EQ(s.toolkits.size(), 1u) << pad;
    ASSERT_TRUE(s.toolkits[0].version.has_value()) << pad;
    EXPECT_EQ(s.toolkits[0].version->ToString(), "13.0") << pad;
  }
}

TEST(ToolkitProbe, DanglingCudaLinkIsReportedNotFatal) {
  Machine m;
  m.fs.AddSymlink("/usr/local/cuda", "/usr/local/cuda-11.8");
  Snapshot s = Take(m.Input(false));
  EXPECT_TRUE(s.toolkits.empty());
  bool recorded = false;
  for (const Evidence& e : s.trail) recorded = recorded || (e.source == "/usr/local/cuda" && e.detail == "dangling symbolic link");
  EXPECT_TRUE(recorded);
}

TEST(PythonProbe, CondaVenvAndPackages) {
  Machine m;
  const std::string env = "/home/u/miniconda3/envs/t";
  m.fs.AddDir("/home/u/miniconda3/conda-meta");
  m.fs.AddDir(env + "/conda-meta");
  m.fs.AddFile(env + "/bin/python3.10", "");
  const std::string site = env + "/lib/python3.10/site-packages";
  m.fs.AddFile(site + "/torch/version.py", "__version__ = '2.3.1+cu121'\ncuda: Optional[str] = '12.1'\nhip: Optional[str] = None\n");
  m.fs.AddFile(site + "/torch-2.3.1+cu121.dist-info/METADATA", "Name: torch\nVersion: 2.3.1+cu121\n");
  m.fs.AddFile(site + "/torchvision/version.py", "__version__ = '0.18.1+cu121'\ncuda = '12.1'\n");
  m.fs.AddFile(site + "/torchvision-0.18.1+cu121.dist-info/METADATA", "Name: torchvision\nVersion: 0.18.1+cu121\n");
  m.fs.AddFile(site + "/nvidia_cudnn_cu12-8.9.2.26.dist-info/METADATA", "Name: nvidia-cudnn-cu12\n");
  m.fs.AddFile("/home/u/venv/pyvenv.cfg", "home = /usr/bin\nversion = 3.11.7\n");
  m.fs.AddFile("/home/u/venv/lib/python3.11/site-packages/torch/version.py", "__version__ = '2.3.1+cpu'\ncuda = None\nhip = None\n");
  ProbeInput in = m.Input(false);
  in.env["VIRTUAL_ENV"] = "/home/u/venv";
  Snapshot s = Take(in);
  const PythonEnv* conda = nullptr;
  const PythonEnv* venv = nullptr;
  for (const PythonEnv& e : s.pythons) {
    if (e.prefix == env) conda = &e;
    if (e.prefix == "/home/u/venv") venv = &e;
  }
  ASSERT_NE(conda, nullptr);
  ASSERT_NE(venv, nullptr);
  EXPECT_EQ(conda->kind, PythonKind::kConda);
  EXPECT_EQ(conda->name, "t");
  EXPECT_EQ(conda->version->ToString(), "3.10");
  EXPECT_EQ(VariantTag(conda->packages.at("torch")), "cu121");
  EXPECT_EQ(conda->packages.at("torch").cuda->MajorMinor(), "12.1");
  EXPECT_EQ(VariantTag(conda->packages.at("torchvision")), "cu121");
  EXPECT_EQ(conda->packages.at("nvidia-cudnn-cu12").version->ToString(), "8.9.2.26");
  EXPECT_EQ(venv->kind, PythonKind::kVenv);
  EXPECT_EQ(venv->version->ToString(), "3.11");
  EXPECT_EQ(VariantTag(venv->packages.at("torch")), "cpu");
  ASSERT_EQ(s.cudnn.size(), 1u);
  EXPECT_EQ(s.cudnn[0].kind, CudnnKind::kPip);
}

// cudamatch installed with `uv tool install` (or pipx) runs from its own tool environment, which
// is found as a venv; VIRTUAL_ENV marks the shell's active one, a lib64 link is scanned once.
TEST(PythonProbe, OwnToolEnvironmentAndTheActiveOne) {
  Machine m;
  const std::string tool = "/home/u/.local/share/uv/tools/cudamatch";
  m.fs.AddFile(tool + "/pyvenv.cfg", "home = /usr/bin\nversion_info = 3.12.1\n");
  m.fs.AddFile(tool + "/bin/cudamatch", "");
  m.fs.AddFile(tool + "/lib/python3.12/site-packages/torch/version.py", "__version__ = '2.3.1+cpu'\ncuda = None\n");
  m.fs.AddSymlink(tool + "/lib64", "lib");
  m.fs.AddFile("/home/u/venv/pyvenv.cfg", "home = /usr/bin\nversion = 3.11.7\n");
  ProbeInput in = m.Input(false);
  in.self_exe = tool + "/bin/cudamatch";
  in.env["VIRTUAL_ENV"] = "/home/u/venv";
  Snapshot s = Take(in);
  const PythonEnv* own = nullptr;
  const PythonEnv* venv = nullptr;
  for (const PythonEnv& e : s.pythons) {
    if (e.prefix == tool) own = &e;
    if (e.prefix == "/home/u/venv") venv = &e;
  }
  ASSERT_NE(own, nullptr);
  ASSERT_NE(venv, nullptr);
  EXPECT_EQ(own->found_by.front(), "cudamatch's own environment");
  EXPECT_EQ(own->site_packages.size(), 1u);  // lib64 -> lib is the same directory
  EXPECT_EQ(own->packages.at("torch").version->ToString(), "2.3.1+cpu");
  EXPECT_FALSE(own->active);
  EXPECT_TRUE(venv->active);
  EXPECT_EQ(venv->active_reason, "VIRTUAL_ENV");
}

TEST(PythonProbe, PypiBuildWithoutVersionPyUsesRequirements) {
  Machine m;
  const std::string site = "/home/u/.pyenv/versions/3.11.7/lib/python3.11/site-packages";
  m.fs.AddFile("/home/u/.pyenv/versions/3.11.7/bin/python3.11", "");
  m.fs.AddFile(site + "/torch-2.4.0.dist-info/METADATA",
               "Name: torch\nVersion: 2.4.0\nRequires-Dist: nvidia-cuda-runtime-cu12==12.1.105; platform_system == \"Linux\"\n");
  Snapshot s = Take(m.Input(false));
  ASSERT_EQ(s.pythons.size(), 1u);
  const PackageInfo& torch = s.pythons[0].packages.at("torch");
  EXPECT_EQ(torch.version->ToString(), "2.4.0");
  EXPECT_EQ(torch.cuda->MajorMinor(), "12.1");
  EXPECT_EQ(VariantTag(torch), "cu121");
  EXPECT_EQ(s.pythons[0].kind, PythonKind::kPyenv);
}

// pyenv's versions directory lists as text (3.10.13 before 3.6.15); the environments come in
// version order.
TEST(PythonProbe, PyenvVersionsInVersionOrder) {
  Machine m;
  for (const char* v : {"3.10.13", "3.6.15", "3.9.18", "3.11.7"}) {
    std::string minor = std::string(v).substr(0, std::string(v).rfind('.'));
    m.fs.AddFile("/home/u/.pyenv/versions/" + std::string(v) + "/bin/python" + minor, "");
  }
  Snapshot s = Take(m.Input(false));
  std::vector<std::string> names;
  for (const PythonEnv& e : s.pythons) {
    if (e.kind == PythonKind::kPyenv) names.push_back(e.name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"3.6.15", "3.9.18", "3.10.13", "3.11.7"}));
}

TEST(PythonProbe, VersionPyIsReadNeverExecutedAndCapped) {
  Machine m;
  const std::string site = "/home/u/venv/lib/python3.11/site-packages";
  m.fs.AddFile("/home/u/venv/pyvenv.cfg", "version = 3.11.7\n");
  m.fs.AddFile(site + "/torch/version.py", "import os; os.system('touch /tmp/pwned')\n__version__ = '2.3.1'\n" +
                                               std::string(1 << 20, '#'));
  m.fs.AddFile(site + "/evil.pth", "import os; os.system('touch /tmp/pwned')\n");
  ProbeInput in = m.Input(false);
  in.env["VIRTUAL_ENV"] = "/home/u/venv";
  Snapshot s = Take(in);
  ASSERT_FALSE(s.pythons.empty());
  EXPECT_EQ(s.pythons[0].packages.at("torch").version->ToString(), "2.3.1");
  for (const std::string& r : m.fs.reads()) EXPECT_EQ(r.find(".pth"), std::string::npos) << r;
}

}  // namespace
}  // namespace cudamatch

namespace cudamatch {
namespace {

// An Fs whose files vanish between being seen and being read, or keep growing: every Read of
// a path seen by Stat fails, or returns the cap's worth of bytes.
class ChangingFs : public FakeFs {
 public:
  bool vanish = false;
  Result<std::string> Read(std::string_view path, size_t max_bytes) const override {
    if (vanish) return Err(std::string(path) + ": No such file or directory");
    auto text = FakeFs::Read(path, max_bytes);
    if (!text) return text;
    return *text + std::string(max_bytes - std::min(max_bytes, text->size()), '#');  // grew to the cap
  }
};

TEST(ChangingFiles, VanishingFilesLeaveTheRestOfTheReport) {
  ChangingFs fs;
  fs.AddFile("/proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  x\n");
  fs.AddFile("/home/u/venv/pyvenv.cfg", "version = 3.11.7\n");
  fs.AddFile("/home/u/venv/lib/python3.11/site-packages/torch/version.py", "__version__ = '2.3.1+cu121'\ncuda = '12.1'\n");
  fs.AddFile("/usr/local/cuda-12.4/bin/nvcc", "");
  fs.vanish = true;
  ProbeInput in;
  in.fs = &fs;
  in.catalog = &testing::TheCatalog();
  in.env = {{"VIRTUAL_ENV", "/home/u/venv"}};
  Snapshot s = Take(in);
  EXPECT_FALSE(s.driver.kernel_module_loaded);
  ASSERT_EQ(s.toolkits.size(), 1u);  // found by its nvcc; the version is unknown
  EXPECT_FALSE(s.toolkits[0].version.has_value());
  bool errors = false;
  for (const Evidence& e : s.trail) errors = errors || e.outcome == Evidence::Outcome::kError;
  EXPECT_TRUE(errors);
}

TEST(ChangingFiles, GrowingFilesAreReadOnlyToTheCap) {
  ChangingFs fs;
  fs.AddFile("/proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  x\n");
  fs.AddFile("/home/u/venv/pyvenv.cfg", "version = 3.11.7\n");
  fs.AddFile("/home/u/venv/lib/python3.11/site-packages/torch/version.py", "__version__ = '2.3.1+cu121'\ncuda = '12.1'\n");
  ProbeInput in;
  in.fs = &fs;
  in.catalog = &testing::TheCatalog();
  in.env = {{"VIRTUAL_ENV", "/home/u/venv"}};
  Snapshot s = Take(in);
  EXPECT_EQ(s.driver.kernel_version->text, "550.54.14");
  ASSERT_FALSE(s.pythons.empty());
  EXPECT_EQ(s.pythons[0].packages.at("torch").version->ToString(), "2.3.1+cu121");
}

TEST(UnreadableDirectories, SitePackagesThatCannotBeListed) {
  FakeFs fs;
  fs.AddFile("/home/u/venv/pyvenv.cfg", "version = 3.11.7\n");
  fs.AddFile("/home/u/venv/lib/python3.11/site-packages/torch/version.py", "__version__ = '2.3.1'\n");
  fs.MakeUnreadable("/home/u/venv/lib/python3.11/site-packages");
  ProbeInput in;
  in.fs = &fs;
  in.catalog = &testing::TheCatalog();
  in.env = {{"VIRTUAL_ENV", "/home/u/venv"}};
  Snapshot s = Take(in);
  ASSERT_EQ(s.pythons.size(), 1u);
  EXPECT_EQ(s.pythons[0].version->ToString(), "3.11");
  EXPECT_TRUE(s.pythons[0].packages.empty());
  bool recorded = false;
  for (const Evidence& e : s.trail) {
    recorded = recorded || (e.outcome == Evidence::Outcome::kError && e.detail.find("Permission denied") != std::string::npos);
  }
  EXPECT_TRUE(recorded);
}

}  // namespace
}  // namespace cudamatch
