// Driver probe. Sources, in order:
//   kernel module: /proc/driver/nvidia/version (version and open/proprietary flavour), then
//                  /sys/module/nvidia/version; on a Jetson an L4T-numbered line there is the
//                  Tegra GPU module (probe/jetson.h), not a desktop driver
//   platform:      /proc/version (WSL), /dev/dxg, /.dockerenv, /run/.containerenv, /proc/1/cgroup,
//                  /dev/nvidiactl and /dev/nvidia<N>, CUDA_VISIBLE_DEVICES, NVIDIA_VISIBLE_DEVICES,
//                  NVIDIA_DRIVER_CAPABILITIES, NVIDIA_REQUIRE_CUDA
//   user space:    NVML nvmlSystemGetDriverVersion (only with the kernel module loaded, or WSL),
//                  then the real file names of libcuda.so.* / libnvidia-ml.so.* in the library
//                  directories; under WSL 2 then the Windows driver's DLLs in the driver store
//                  (probe/wsl.cc). Under WSL 2 a libcuda / libnvidia-ml outside /usr/lib/wsl/ is
//                  a Linux driver installed inside WSL (microsoft/WSL#5265): listed, never taken
//                  as the driver's version, and libcuda is then not asked for its CUDA
//   driver's CUDA: NVML nvmlSystemGetCudaDriverVersion_v2, then libcuda cuDriverGetVersion (needs
//                  no kernel module); derive/ fills it from the catalog's driver-branch table when
//                  neither said it. The catalog is read here only to reject a value no driver of
//                  its branch gives.
//   forward compatibility: /usr/local/cuda*/compat/libcuda.so.*, and whether LD_LIBRARY_PATH or
//                  /etc/ld.so.conf(.d) puts that directory on the loader's path
#include <algorithm>

#include "catalog/query.h"
#include "core/text.h"
#include "probe/context.h"
#include "probe/parsers.h"
#include "probe/wsl.h"

namespace cudamatch {

namespace {

void ProbeKernelModule(const ProbeInput& in, const HostInfo& host, DriverInfo& d, Trail& trail) {
  if (auto text = ReadRecorded(*in.fs, trail, "/proc/driver/nvidia/version")) {
    if (auto v = ParseProcDriverVersion(*text)) {
      d.kernel_module_loaded = true;
      d.kernel_version = v->version;
      d.kernel_flavor = v->open ? KernelFlavor::kOpen : KernelFlavor::kProprietary;
      d.kernel_source = "/proc/driver/nvidia/version";
      trail.Found(d.kernel_source, v->version.text + " (" + std::string(KernelFlavorName(d.kernel_flavor)) + ")");
      return;
    }
    if (host.jetson && !host.jetson->gpu_module.empty()) {
      trail.Skipped("/proc/driver/nvidia/version", "the Tegra GPU module " + host.jetson->gpu_module + ", not a desktop driver");
    } else {
      trail.Error("/proc/driver/nvidia/version", "no NVRM version line in " + std::to_string(text->size()) + " bytes");
    }
  }
  if (auto text = ReadRecorded(*in.fs, trail, "/sys/module/nvidia/version")) {
    if (auto v = ParseSysModuleVersion(*text)) {
      d.kernel_module_loaded = true;
      d.kernel_version = v;
      d.kernel_source = "/sys/module/nvidia/version";
      trail.Found(d.kernel_source, v->text);
      return;
    }
    trail.Error("/sys/module/nvidia/version", "not a driver version (" + std::to_string(text->size()) + " bytes)");
  }
}

void ProbePlatform(const ProbeInput& in, DriverInfo& d, Trail& trail) {
  if (auto text = ReadRecorded(*in.fs, trail, "/proc/version"); text && IsWslKernel(*text)) {
    d.wsl = true;
    trail.Found(std::string(kWslKernelSource), std::string(kWslKernelDetail));
  }
  if (in.fs->Exists("/dev/dxg")) {
    d.wsl = true;
    d.device_nodes = true;
    d.device_node_paths.push_back("/dev/dxg");
  }
  for (const char* marker : {"/.dockerenv", "/run/.containerenv"}) {
    if (in.fs->Exists(marker)) {
      d.container = true;
      d.container_source = marker;
    }
  }
  if (!d.container) {
    if (auto text = in.fs->Read("/proc/1/cgroup", kSmallFileCap)) {
      std::string kind = ContainerFromCgroup(*text);
      if (!kind.empty()) {
        d.container = true;
        d.container_source = "/proc/1/cgroup (" + kind + ")";
      }
    }
  }
  if (d.container) trail.Found(d.container_source, "container");
  if (auto names = in.fs->List("/dev")) {
    for (const std::string& n : *names) {
      bool numbered = StartsWith(n, "nvidia") && n.size() > 6 && ParseUint(n.substr(6)).has_value();
      if (numbered || n == "nvidiactl") {
        d.device_nodes = true;
        d.device_node_paths.push_back("/dev/" + n);
      }
    }
  }
  trail.Found("/dev", d.device_node_paths.empty() ? "no NVIDIA device nodes" : Join(d.device_node_paths, " "));
  if (in.HasEnv("CUDA_VISIBLE_DEVICES")) d.cuda_visible_devices = in.Env("CUDA_VISIBLE_DEVICES");
  if (in.HasEnv("NVIDIA_VISIBLE_DEVICES")) d.nvidia_visible_devices = in.Env("NVIDIA_VISIBLE_DEVICES");
  if (in.HasEnv("NVIDIA_DRIVER_CAPABILITIES")) d.nvidia_driver_capabilities = in.Env("NVIDIA_DRIVER_CAPABILITIES");
  if (in.HasEnv("NVIDIA_REQUIRE_CUDA")) d.nvidia_require_cuda = in.Env("NVIDIA_REQUIRE_CUDA");
}

// The driver version a soname link finally points at: libcuda.so.1 -> libcuda.so.550.54.14.
std::optional<DriverVersion> VersionBehindLink(const Fs& fs, const std::string& path, std::string_view stem) {
  auto resolved = fs.Resolve(path);
  if (!resolved) return std::nullopt;
  return LibraryDriverVersion(Basename(*resolved), stem);
}

// /usr/local/cuda-X.Y/compat (through links: /usr/local/cuda/compat): the forward-compatibility
// package's libcuda, which is not the driver's user space (ProbeForwardCompat reads it).
bool IsForwardCompatDir(const Fs& fs, const std::string& dir) {
  auto real = fs.Resolve(dir);
  if (!real || !StartsWith(*real, "/usr/local/cuda")) return false;
  std::string_view rest = std::string_view(*real).substr(std::string_view("/usr/local/").size());
  size_t slash = rest.find('/');
  return slash != std::string_view::npos && rest.substr(slash) == "/compat";
}

void ProbeLibraries(const ProbeInput& in, DriverInfo& d, Trail& trail) {
  for (const std::string& element : IgnoredLibraryPathElements(in)) {
    trail.Skipped("LD_LIBRARY_PATH element " + Quote(element),
                  std::string(element.empty() ? "empty" : "relative") +
                      ": the working directory is never searched for NVIDIA libraries");
  }
  for (const std::string& dir : LibraryDirs(in)) {
    if (IsForwardCompatDir(*in.fs, dir)) {
      trail.Skipped(dir, "the CUDA forward-compatibility package, not the driver's libraries");
      continue;
    }
    for (std::string_view soname : {"libcuda.so.1", "libnvidia-ml.so.1"}) {
      std::string path = dir + "/" + std::string(soname);
      if (!in.fs->LStat(path).exists()) continue;
      bool cuda = soname == "libcuda.so.1";
      (cuda ? d.libcuda_paths : d.nvml_paths).push_back(path);
      if (d.wsl && !IsWslDriverPath(path)) {
        trail.Skipped(path, "a Linux driver's library inside WSL: the GPU is the Windows driver's");
        continue;
      }
      if (d.userspace_version) continue;
      std::string_view stem = cuda ? "libcuda.so." : "libnvidia-ml.so.";
      if (auto v = VersionBehindLink(*in.fs, path, stem)) {
        d.userspace_version = v;
        d.userspace_source = path + " -> " + std::string(stem) + v->text;
        trail.Found(path, v->text);
      }
    }
  }
  if (d.libcuda_paths.empty()) trail.Missing("libcuda.so.1", "not in any library directory");
}

// A CUDA version as the driver APIs give it (12040 = 12.4) is plausible when it is a real release
// number and, where the catalog knows the driver's branch, no newer than that branch serves.
bool PlausibleDriverCuda(const ProbeInput& in, const DriverInfo& d, int api, Snapshot& snap, Trail& trail,
                         const std::string& source) {
  if (api < 1000 || api >= 30000 || api % 10 != 0) {
    RecordImplausible(snap, trail, source, std::to_string(api), "a CUDA version such as 12040 for 12.4");
    return false;
  }
  std::optional<DriverVersion> version = d.version();
  if (!version || in.catalog == nullptr) return true;
  DriverCuda served = MaxCudaForDriver(*in.catalog, *version, Os::kLinux);
  CudaVersion given = CudaVersion::FromApiInt(api);
  if (served.cuda && served.from_branch_table && !served.lower_bound && given.Truncated() > served.cuda->Truncated()) {
    RecordImplausible(snap, trail, source, given.MajorMinor(),
                "at most CUDA " + served.cuda->MajorMinor() + " for driver branch " + std::to_string(version->branch()));
    return false;
  }
  return true;
}

void ProbeNvml(const ProbeInput& in, Snapshot& snap, Trail& trail) {
  DriverInfo& d = snap.driver;
  if (in.nvml == nullptr) {
    d.nvml = NvmlState::kSkippedRoot;
    trail.Skipped("nvml", "--root inspects an image: no library of this host is loaded");
    return;
  }
  if (!d.kernel_module_loaded && !d.wsl) {
    d.nvml = NvmlState::kSkippedNoModule;
    trail.Skipped("nvml", "the kernel module is not loaded");
    return;
  }
  if (d.nvml_paths.empty() && !d.wsl) {
    d.nvml = NvmlState::kSkippedNoLibrary;
    trail.Skipped("nvml", "no libnvidia-ml.so.1 in any library directory");
    return;
  }
  if (!InitNvml(*in.nvml, d, trail)) return;
  ReadNvmlDriverVersion(*in.nvml, snap, trail, "a driver version such as 550.54.14");
  const std::string source = "NVML nvmlSystemGetCudaDriverVersion_v2";
  if (auto v = in.nvml->CudaDriverVersion(); v && PlausibleDriverCuda(in, d, *v, snap, trail, source)) {
    d.cuda = CudaVersion::FromApiInt(*v);
    d.cuda_source = source;
    d.cuda_origin = Origin::kObserved;
    trail.Found("nvml:nvmlSystemGetCudaDriverVersion_v2", std::to_string(*v));
  } else if (!v) {
    trail.Error("nvml:nvmlSystemGetCudaDriverVersion_v2", v.error());
  }
}

// libcuda is asked only when NVML did not give the driver's CUDA and there is a libcuda to ask;
// under WSL not when a Linux driver's libcuda shadows the Windows one (it, not the Windows
// driver, may be the one that answers).
bool AsksLibcuda(const ProbeInput& in, const DriverInfo& d) {
  return in.cuda != nullptr && !d.cuda && (!d.libcuda_paths.empty() || d.wsl) && !ShadowedByLinuxDriver(d);
}

void ProbeDriverCuda(const ProbeInput& in, Snapshot& snap, Trail& trail) {
  DriverInfo& d = snap.driver;
  if (d.cuda) return;
  if (in.cuda != nullptr && ShadowedByLinuxDriver(d)) {
    trail.Skipped("libcuda:cuDriverGetVersion", "a Linux driver's libcuda inside WSL may answer instead of the Windows driver");
  }
  if (AsksLibcuda(in, d)) {
    const std::string source = "libcuda cuDriverGetVersion";
    if (auto v = in.cuda->DriverGetVersion(); v && PlausibleDriverCuda(in, d, *v, snap, trail, source)) {
      d.cuda = CudaVersion::FromApiInt(*v);
      d.cuda_source = source;
      d.cuda_origin = Origin::kObserved;
      trail.Found("libcuda:cuDriverGetVersion", std::to_string(*v));
      return;
    } else if (!v) {
      trail.Error("libcuda:cuDriverGetVersion", v.error());
      if (auto fault = in.cuda->fault()) d.library_faults.push_back(*fault);
    }
  }
}

// The first LD_LIBRARY_PATH element or ld.so.conf directory that is `fc`'s directory (through
// symlinks: /usr/local/cuda/compat is /usr/local/cuda-12.9/compat).
void FindOnLoaderPath(const ProbeInput& in, ForwardCompat& fc) {
  auto real = in.fs->Resolve(fc.path);
  if (!real) return;
  auto same = [&](const std::string& dir) {
    auto r = in.fs->Resolve(dir);
    return r && *r == *real;
  };
  for (const std::string& dir : SplitNonEmpty(in.Env("LD_LIBRARY_PATH"), ':')) {
    if (dir.front() == '/' && same(dir)) {
      fc.loader_source = "LD_LIBRARY_PATH";
      fc.loader_dir = dir;
      return;
    }
  }
  for (const std::string& dir : LdSoConfDirs(*in.fs)) {
    if (same(dir)) {
      fc.loader_source = "ld.so.conf";
      fc.loader_dir = dir;
      return;
    }
  }
}

void ProbeForwardCompat(const ProbeInput& in, DriverInfo& d) {
  auto names = in.fs->List("/usr/local");
  if (!names) return;
  for (const std::string& n : *names) {
    if (!StartsWith(n, "cuda")) continue;
    std::string dir = "/usr/local/" + n + "/compat";
    if (in.fs->LStat("/usr/local/" + n).type == FileType::kSymlink) continue;
    auto libs = in.fs->List(dir);
    if (!libs) continue;
    ForwardCompat fc{dir, std::nullopt};
    for (const std::string& lib : *libs) {
      if (auto v = LibraryDriverVersion(lib, "libcuda.so.")) fc.version = v;
    }
    FindOnLoaderPath(in, fc);
    d.forward_compat.push_back(fc);
  }
}

}  // namespace

void RecordImplausible(Snapshot& snap, Trail& trail, std::string source, std::string value, std::string expected) {
  trail.Error(source, "implausible value " + value + " (expected " + expected + ")");
  snap.implausible.push_back(ImplausibleValue{std::move(source), std::move(value), std::move(expected)});
}

bool InitNvml(NvmlApi& nvml, DriverInfo& d, Trail& trail) {
  if (Status s = nvml.Init(); !s.ok()) {
    d.nvml = NvmlState::kFailed;
    d.nvml_error = s.error();
    trail.Error("nvml:nvmlInit_v2", s.error());
    if (auto fault = nvml.fault()) d.library_faults.push_back(*fault);
    return false;
  }
  d.nvml = NvmlState::kOk;
  return true;
}

void ReadNvmlDriverVersion(NvmlApi& nvml, Snapshot& snap, Trail& trail, const std::string& example) {
  DriverInfo& d = snap.driver;
  if (auto v = nvml.DriverVersion()) {
    if (auto parsed = DriverVersion::Parse(*v)) {
      d.userspace_version = *parsed;
      d.userspace_source = "NVML nvmlSystemGetDriverVersion";
      trail.Found("nvml:nvmlSystemGetDriverVersion", *v);
    } else {
      RecordImplausible(snap, trail, "NVML nvmlSystemGetDriverVersion", Quote(*v), example);
    }
  } else {
    trail.Error("nvml:nvmlSystemGetDriverVersion", v.error());
  }
}

void ProbeDriver(const ProbeInput& in, Snapshot& snap) {
  Trail trail(snap, "driver");
  DriverInfo& d = snap.driver;
  ProbeKernelModule(in, snap.host, d, trail);
  ProbePlatform(in, d, trail);
  ProbeLibraries(in, d, trail);
  ProbeNvml(in, snap, trail);
  if (d.wsl && !d.userspace_version) ProbeWslDriverStore(in, d, trail);
  if (d.wsl && d.container) ProbeWslContainerLibraries(in, d, trail);
  if (AsksLibcuda(in, d)) in.cuda->Start();
  ProbeForwardCompat(in, d);
}

void FinishDriver(const ProbeInput& in, Snapshot& snap, size_t trail_at) {
  std::vector<Evidence> later(snap.trail.begin() + static_cast<std::ptrdiff_t>(trail_at), snap.trail.end());
  snap.trail.resize(trail_at);
  Trail trail(snap, "driver");
  ProbeDriverCuda(in, snap, trail);
  snap.trail.insert(snap.trail.end(), std::make_move_iterator(later.begin()), std::make_move_iterator(later.end()));
}

}  // namespace cudamatch
