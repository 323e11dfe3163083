// Table-driven rule tests over hand-made Snapshots.
#include "diagnose/rules.h"
#include "plan/diagnose.h"
#include "plan/remedy_text.h"

#include <gtest/gtest.h>

#include <functional>

#include "report/i18n.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TheCatalog;

DriverVersion D(const char* s) { return DriverVersion::Parse(s).value(); }

Snapshot Base() {
  Snapshot s;
  s.host.os_id = "ubuntu";
  return s;
}

void WithDriver(Snapshot& s, const char* version, const char* cuda) {
  s.driver.kernel_module_loaded = true;
  s.driver.kernel_version = D(version);
  s.driver.kernel_source = "/proc/driver/nvidia/version";
  s.driver.userspace_version = D(version);
  s.driver.libcuda_paths = {"/usr/lib/x86_64-linux-gnu/libcuda.so.1"};
  s.driver.cuda = CudaVersion::Parse(cuda).value();
  s.driver.device_nodes = true;
}

void WithGpu(Snapshot& s, const char* name, const char* cc) {
  GpuInfo g;
  g.index = static_cast<int>(s.gpus.size());
  g.name = name;
  g.cc = ComputeCapability::Parse(cc).value();
  g.source = "NVML";
  s.gpus.push_back(g);
}

PythonEnv& WithTorch(Snapshot& s, const char* torch, const char* variant, const char* cuda,
                     const char* vision = nullptr, const char* python = "3.10") {
  PythonEnv env;
  env.prefix = "/env" + std::to_string(s.pythons.size());
  env.kind = PythonKind::kVenv;
  env.version = PyVersion::Parse(python).value();
  env.found_by = {"env:VIRTUAL_ENV"};
  PackageInfo p;
  p.name = "torch";
  p.version = Pep440::Parse(torch).value();
  if (auto v = Variant::Parse(variant)) p.variant = *v;
  if (cuda) p.cuda = CudaVersion::Parse(cuda).value();
  p.cuda_source = "version.py";
  env.packages["torch"] = p;
  if (vision) {
    PackageInfo v;
    v.name = "torchvision";
    v.version = Pep440::Parse(vision).value();
    if (auto t = Variant::Parse(v.version->LocalLabel())) v.variant = *t;
    env.packages["torchvision"] = v;
  }
  s.pythons.push_back(env);
  return s.pythons.back();
}

struct Case {
  const char* name;
  std::function<Snapshot()> make;
  std::vector<std::string> expect_ids;  // must all appear
  std::vector<std::string> absent_ids;  // must not appear
};

std::vector<std::string> Ids(const std::vector<Finding>& fs) {
  std::vector<std::string> ids;
  for (const Finding& f : fs) ids.push_back(f.id);
  return ids;
}

bool Contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

const std::vector<Case>& Cases() {
  static const std::vector<Case> kCases = {
      {"healthy machine", [] {
         Snapshot s = Base();
         WithDriver(s, "550.54.14", "12.4");
         WithGpu(s, "NVIDIA GeForce RTX 3090", "8.6");
         WithTorch(s, "2.3.1+cu121", "cu121", "12.1", "0.18.1+cu121");
         return s;
       }, {}, {"torch.driver_too_old", "torch.driver_minor_compat", "torch.no_kernels", "torch.vision_unpaired"}},
      {"driver too old: below the minor-compat floor", [] {
         Snapshot s = Base();
         WithDriver(s, "470.82.01", "11.4");
         WithGpu(s, "NVIDIA GeForce RTX 3090", "8.6");
         WithTorch(s, "2.3.1+cu121", "cu121", "12.1");
         return s;
       }, {"torch.driver_too_old"}, {"torch.driver_minor_compat"}},
      {"driver below the toolkit minimum only: minor compat", [] {
         Snapshot s = Base();
         WithDriver(s, "525.60.13", "12.0");
         WithGpu(s, "NVIDIA H100 80GB HBM3", "9.0");
         WithTorch(s, "2.3.1+cu121", "cu121", "12.1");
         return s;
       }, {"torch.driver_minor_compat"}, {"torch.driver_too_old"}},
      {"old GPU on new wheels", [] {
         Snapshot s = Base();
         WithDriver(s, "580.65.06", "13.0");
         WithGpu(s, "NVIDIA GeForce GTX 1080 Ti", "6.1");
         WithTorch(s, "2.11.0+cu130", "cu130", "13.0");
         return s;
       }, {"torch.no_kernels"}, {}},
      {"new GPU on old wheels", [] {
         Snapshot s = Base();
         WithDriver(s, "580.65.06", "13.0");
         WithGpu(s, "NVIDIA GeForce RTX 5090", "12.0");
         WithTorch(s, "2.3.1+cu121", "cu121", "12.1");
         return s;
       }, {"torch.no_kernels"}, {}},
      {"every GPU is checked", [] {
         Snapshot s = Base();
         WithDriver(s, "580.65.06", "13.0");
         WithGpu(s, "NVIDIA GeForce RTX 3090", "8.6");
         WithGpu(s, "NVIDIA GeForce GTX 1080 Ti", "6.1");
         WithTorch(s, "2.11.0+cu130", "cu130", "13.0");
         return s;
       }, {"torch.no_kernels"}, {}},
      {"torchvision not paired", [] {
         Snapshot s = Base();
         WithTorch(s, "2.3.1+cpu", "cpu", nullptr, "0.17.0+cpu");
         return s;
       }, {"torch.vision_unpaired"}, {}},
      {"torchvision built for another CUDA", [] {
         Snapshot s = Base();
         WithTorch(s, "2.3.1+cu121", "cu121", "12.1", "0.18.1+cu118");
         return s;
       }, {"torch.vision_cuda_mismatch"}, {"torch.vision_unpaired"}},
      {"CPU torch on a GPU machine", [] {
         Snapshot s = Base();
         WithDriver(s, "550.54.14", "12.4");
         WithGpu(s, "NVIDIA GeForce RTX 4090", "8.9");
         WithTorch(s, "2.3.1+cpu", "cpu", nullptr);
         return s;
       }, {"torch.cpu_build"}, {}},
      {"ROCm torch on NVIDIA", [] {
         Snapshot s = Base();
         WithGpu(s, "NVIDIA GeForce RTX 4090", "8.9");
         PythonEnv& e = WithTorch(s, "2.3.1+rocm6.0", "rocm6.0", nullptr);
         e.packages["torch"].hip = "6.0.32830";
         return s;
       }, {"torch.rocm_on_nvidia"}, {"torch.cpu_build"}},
      {"Python outside the release's range", [] {
         Snapshot s = Base();
         WithTorch(s, "1.13.1+cpu", "cpu", nullptr, nullptr, "3.12");
         return s;
       }, {"torch.python_unsupported"}, {}},
      {"nvcc major differs and GCC too new", [] {
         Snapshot s = Base();
         WithTorch(s, "2.3.1+cu121", "cu121", "12.1");
         ToolkitInfo t;
         t.path = "/usr/local/cuda-11.7";
         t.version = CudaVersion::Parse("11.7.1").value();
         t.active = true;
         t.active_reason = "PATH";
         s.toolkits.push_back(t);
         s.host.gcc_major = 13;
         return s;
       }, {"toolkit.nvcc_major", "toolkit.gcc_too_new"}, {}},
      {"LD_LIBRARY_PATH shadows the wheel's cuDNN", [] {
         Snapshot s = Base();
         PythonEnv& e = WithTorch(s, "2.3.1+cu121", "cu121", "12.1");
         PackageInfo cudnn;
         cudnn.name = "nvidia-cudnn-cu12";
         cudnn.version = Pep440::Parse("8.9.2.26").value();
         e.packages["nvidia-cudnn-cu12"] = cudnn;
         LibraryPathEntry l;
         l.dir = "/usr/local/cuda-11.8/lib64";
         l.cuda_libs = {"libcudnn.so.8.6.0"};
         l.cudnn_version = Pep440::Parse("8.6.0").value();
         s.host.ld_library_path.push_back(l);
         return s;
       }, {"env.ld_library_path"}, {}},
      {"kernel module not loaded", [] {
         Snapshot s = Base();
         s.driver.userspace_version = D("535.261.03");
         s.driver.libcuda_paths = {"/usr/lib/x86_64-linux-gnu/libcuda.so.1"};
         return s;
       }, {"driver.module_not_loaded"}, {}},
      {"kernel and user space differ", [] {
         Snapshot s = Base();
         WithDriver(s, "535.104.05", "12.2");
         s.driver.userspace_version = D("535.129.03");
         return s;
       }, {"driver.mismatch"}, {}},
      {"Linux driver inside WSL", [] {
         Snapshot s = Base();
         s.driver.wsl = true;
         s.driver.libcuda_paths = {"/usr/lib/wsl/lib/libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1"};
         return s;
       }, {"wsl.linux_driver"}, {"driver.module_not_loaded"}},
      {"container without device nodes", [] {
         Snapshot s = Base();
         s.driver.container = true;
         s.driver.container_source = "/.dockerenv";
         s.driver.kernel_module_loaded = true;
         s.driver.kernel_version = D("535.104.05");
         return s;
       }, {"container.no_devices"}, {}},
      {"CUDA_VISIBLE_DEVICES hides every GPU", [] {
         Snapshot s = Base();
         WithDriver(s, "550.54.14", "12.4");
         WithGpu(s, "NVIDIA A100-SXM4-80GB", "8.0");
         s.driver.cuda_visible_devices = "-1";
         return s;
       }, {"env.visible_devices_hide_all"}, {}},
      {"CUDA_VISIBLE_DEVICES shows one of two", [] {
         Snapshot s = Base();
         WithDriver(s, "550.54.14", "12.4");
         WithGpu(s, "NVIDIA A100-SXM4-80GB", "8.0");
         WithGpu(s, "NVIDIA A100-SXM4-80GB", "8.0");
         s.driver.cuda_visible_devices = "1";
         return s;
       }, {"env.visible_devices_some"}, {"env.visible_devices_hide_all"}},
      {"no driver but a GPU on the bus", [] {
         Snapshot s = Base();
         WithGpu(s, "GeForce RTX 4090", "8.9");
         s.gpus[0].source = "/sys/bus/pci/devices/0000:01:00.0";
         return s;
       }, {"driver.missing"}, {}},
      {"pip mirror serving only PyPI's default", [] {
         Snapshot s = Base();
         WithDriver(s, "470.82.01", "11.4");
         WithGpu(s, "NVIDIA GeForce RTX 3090", "8.6");
         WithTorch(s, "2.3.1+cu121", "cu121", "12.1");
         s.host.pip_index_url = "https://pypi.tuna.tsinghua.edu.cn/simple";
         s.host.pip_index_source = "/etc/pip.conf";
         return s;
       }, {"pip.mirror_default_only"}, {}},
      {"nvidia wheel at another version than torch pins", [] {
         Snapshot s = Base();
         WithDriver(s, "550.54.14", "12.4");
         PythonEnv& env = WithTorch(s, "2.4.0+cu121", "cu121", "12.1");
         env.packages["torch"].nvidia_requirements = {"nvidia-cudnn-cu12==9.1.0.70", "nvidia-cublas-cu12==12.1.3.1"};
         PackageInfo cudnn;
         cudnn.name = "nvidia-cudnn-cu12";
         cudnn.version = Pep440::Parse("8.9.2.26").value();
         env.packages["nvidia-cudnn-cu12"] = cudnn;
         PackageInfo cublas;
         cublas.name = "nvidia-cublas-cu12";
         cublas.version = Pep440::Parse("12.1.3.1").value();
         env.packages["nvidia-cublas-cu12"] = cublas;
         return s;
       }, {"torch.nvidia_wheels_mismatch"}, {"torch.nvidia_wheels_missing"}},
      {"torchaudio from another CUDA than torch", [] {
         Snapshot s = Base();
         PythonEnv& env = WithTorch(s, "2.3.1+cu121", "cu121", "12.1");
         PackageInfo audio;
         audio.name = "torchaudio";
         audio.version = Pep440::Parse("2.3.1+cu118").value();
         audio.variant = *Variant::Parse("cu118");
         env.packages["torchaudio"] = audio;
         return s;
       }, {"torch.audio_cuda_mismatch"}, {"torch.vision_cuda_mismatch"}},
  };
  return kCases;
}

// An evidence item names a message of both languages and gives exactly its placeholders.
void ExpectFilledMessage(const EvidenceItem& e, const std::string& where) {
  ASSERT_TRUE(HasMessage(Lang::kEn, e.id) && HasMessage(Lang::kZh, e.id)) << where << ": " << e.id;
  std::vector<std::string> given;
  for (const auto& [name, value] : e.args) given.push_back(name);
  std::sort(given.begin(), given.end());
  auto en = std::find_if(EmbeddedMessages(Lang::kEn).begin(), EmbeddedMessages(Lang::kEn).end(),
                         [&](const MessageEntry& m) { return m.id == e.id; });
  EXPECT_EQ(Placeholders(en->text), given) << where << ": " << e.id;
}

TEST(Rules, TableDriven) {
  for (const Case& c : Cases()) {
    std::vector<Finding> findings = Diagnose(c.make(), TheCatalog());
    std::vector<std::string> ids = Ids(findings);
    for (const std::string& id : c.expect_ids) EXPECT_TRUE(Contains(ids, id)) << c.name << ": missing " << id;
    for (const std::string& id : c.absent_ids) EXPECT_FALSE(Contains(ids, id)) << c.name << ": unexpected " << id;
    for (const Finding& f : findings) {
      EXPECT_TRUE(Contains(std::vector<std::string>(FindingIds().begin(), FindingIds().end()), f.id)) << f.id;
      EXPECT_FALSE(f.evidence.empty()) << c.name << ": " << f.id;
      for (const EvidenceItem& e : f.evidence) ExpectFilledMessage(e, std::string(c.name) + ": " + f.id);
      EXPECT_FALSE(f.topic.empty()) << f.id;
    }
  }
}

TEST(Rules, SortedBySeverityAndErrorsDecideTheExitCode) {
  Snapshot s = Cases()[1].make();
  s.driver.cuda_visible_devices = "0";
  std::vector<Finding> f = Diagnose(s, TheCatalog());
  ASSERT_FALSE(f.empty());
  for (size_t i = 1; i < f.size(); ++i) EXPECT_LE(f[i - 1].severity, f[i].severity);
  EXPECT_TRUE(HasErrors(f));
  EXPECT_FALSE(HasErrors(Diagnose(Cases()[0].make(), TheCatalog())));
}

TEST(Rules, DriverTooOldFixInstallsAVariantTheDriverRuns) {
  std::vector<Finding> f = Diagnose(Cases()[1].make(), TheCatalog());
  int seen = 0;
  for (const Finding& x : f) {
    if (x.id == "torch.driver_too_old") {
      ++seen;
      EXPECT_NE(RemedyText(x.remedy).find("cu118"), std::string::npos) << RemedyText(x.remedy);
    }
  }
  EXPECT_EQ(seen, 1);
}

// deepspeedai/DeepSpeed-MII#277: nvcc 11.7 on PATH, torch built with CUDA 12.1; DeepSpeed's op
// builder refused ("Installed CUDA version 11.7 does not match the version torch was compiled
// with"). The maintainer's fix, which the user confirmed: torch from the cu118 index (only the
// major must match). torch 2.4.0 has no cu117 build, so the fix is its cu118 one.
TEST(Rules, NvccMajorFixTakesTheNearestMinorAboveWhenNoneIsBelow) {
  Snapshot s = Base();
  WithTorch(s, "2.4.0", "cu121", "12.1");
  ToolkitInfo t;
  t.path = "/usr/local/cuda-11.7";
  t.version = CudaVersion::Parse("11.7.1").value();
  t.has_nvcc = true;
  t.active = true;
  t.active_reason = "PATH";
  s.toolkits.push_back(t);
  int seen = 0;
  for (const Finding& x : Diagnose(s, TheCatalog())) {
    if (x.id != "toolkit.nvcc_major") continue;
    ++seen;
    std::string fix = RemedyText(x.remedy);
    EXPECT_NE(fix.find("torch==2.4.0"), std::string::npos) << fix;
    EXPECT_NE(fix.find("/whl/cu118"), std::string::npos) << fix;
  }
  EXPECT_EQ(seen, 1);
}

// mudler/LocalAI#2117: a pod on a k0s GPU node found no nvidia-smi and ran on the CPU; the fix was
// runtimeClassName: nvidia in the pod spec (as NVIDIA/nvidia-container-runtime#147's maintainer
// said: the pod must select the nvidia runtime, or nvidia must be containerd's default). The
// device plugin had named the GPU (NVIDIA_VISIBLE_DEVICES), but no runtime mounted it. A Docker
// container, or a pod whose GPU nobody allocated, keeps the `docker run --gpus all` fix.
TEST(Rules, PodWithAnAllocatedGpuButNoDevicesNeedsTheNvidiaRuntime) {
  auto fix = [](const char* marker, std::optional<std::string> visible) {
    Snapshot s = Base();
    s.driver.container = true;
    s.driver.container_source = marker;
    s.driver.kernel_module_loaded = true;
    s.driver.kernel_version = D("535.104.05");
    s.driver.nvidia_visible_devices = visible;
    for (const Finding& f : Diagnose(s, TheCatalog())) {
      if (f.id == "container.no_devices") return RemedyText(f.remedy);
    }
    return std::string("(no finding)");
  };
  EXPECT_EQ(fix("/proc/1/cgroup (kubepods)", "GPU-8e3c5b2a-1f4d-4c6e-9a7b-2d5e8f1a3c4b"), "runtimeClassName: nvidia");
  EXPECT_EQ(fix("/proc/1/cgroup (kubepods)", "void"), "docker run --gpus all ...");
  EXPECT_EQ(fix("/.dockerenv", "all"), "docker run --gpus all ...");
}

}  // namespace
}  // namespace cudamatch
