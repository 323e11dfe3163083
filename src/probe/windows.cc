// Windows trees inspected from Linux (doctor --root DIR --os windows): host, driver and GPUs, all
// from files (paths found caselessly, probe/win_paths.h); nothing is loaded. Sources, in order:
//   host:    the tree's Windows directory (64-bit when SysWOW64 exists); the registry hives
//            (System32/config/SOFTWARE, SYSTEM) are not parsed and are reported as not read
//   driver:  System32/nvcuda.dll and System32/nvml.dll, then the driver store's copies
//            (System32/DriverStore/FileRepository/nv*/nvcuda64.dll, nvml.dll); the version from
//            each DLL's VS_FIXEDFILEINFO (probe/pe.h: 32.0.15.6636 -> 566.36); the newest CUDA it
//            serves is derived from the catalog (derive/)
//            On this machine (no --root) NVML and nvcuda.dll are asked first (windows_live.cc).
//   GPUs:    on this machine, NVML's list; none from files: the display adapters are in the
//            registry (SYSTEM hive, SetupAPI) and NVML is not loaded; said so in the trail
#include "core/text.h"
#include "probe/context.h"
#include "probe/pe.h"
#include "probe/win_paths.h"

namespace cudamatch {

namespace {

constexpr const char* kHives[] = {"/Windows/System32/config/SOFTWARE", "/Windows/System32/config/SYSTEM"};

void NoteUnreadHives(const Fs& fs, Snapshot& snap, Trail& trail) {
  for (const char* hive : kHives) {
    auto path = FindCaseless(fs, hive);
    if (!path) continue;
    trail.Skipped(*path, "registry hive: not parsed");
    snap.unreadable.push_back(Unreadable{*path, "registry hive, not parsed (display adapters, PEP 514 Python entries, "
                                                "the driver's registry keys)"});
  }
}

}  // namespace

std::optional<DriverVersion> DllDriverVersion(const Fs& fs, const std::string& path, Trail& trail) {
  auto file = fs.Open(path);
  if (!file) {
    trail.Error(path, file.error());
    return std::nullopt;
  }
  auto fv = ReadPeFileVersion(**file);
  if (!fv) {
    trail.Error(path, fv.error());
    return std::nullopt;
  }
  auto driver = WindowsDriverFromFileVersion(*fv);
  if (!driver) {
    trail.Error(path, "file version " + fv->ToString() + " is not an NVIDIA driver version");
    return std::nullopt;
  }
  trail.Found(path, "file version " + fv->ToString() + " = driver " + driver->text);
  return driver;
}

namespace {

// Names that differ only in case are one file to Windows; an image taken from a case-sensitive
// filesystem can hold several. Each one not read is reported, with why `chosen` was.
void ReportCaseTwins(const Fs& fs, const std::string& wanted, const std::string& chosen, Trail& trail) {
  std::vector<std::string> all = FindAllCaseless(fs, wanted);
  if (all.size() < 2) return;
  for (const std::string& other : all) {
    if (other == chosen) continue;
    trail.Skipped(other, "differs from " + chosen + " only in case (Windows would see one file): " + chosen +
                             " was read, its name matching " + wanted + " exactly where one did and else coming first in" +
                             " the sorted listing");
  }
}

// System32 first (what programs load), then every driver store package named nv*.
std::vector<std::string> DriverDlls(const Fs& fs, std::string_view system32_name, std::string_view store_name,
                                    Trail& trail) {
  std::vector<std::string> out;
  std::string sys = "/Windows/System32/" + std::string(system32_name);
  if (auto p = FindCaseless(fs, sys)) {
    out.push_back(*p);
    ReportCaseTwins(fs, sys, *p, trail);
  } else {
    trail.Missing(sys);
  }
  for (const std::string& pkg : ListCaseless(fs, "/Windows/System32/DriverStore/FileRepository", "nv")) {
    if (auto p = FindCaseless(fs, pkg + "/" + std::string(store_name))) out.push_back(*p);
  }
  return out;
}

}  // namespace

void ProbeWindowsHost(const ProbeInput& in, Snapshot& snap) {
  Trail trail(snap, "host");
  snap.platform.os = Os::kWindows;
  snap.platform.arch = Arch::kX86_64;
  auto windows = FindCaseless(*in.fs, "/Windows");
  snap.host.os_id = "windows";
  snap.host.os_name = "Windows";
  snap.host.system_drive = WinEnv(in, "SystemDrive").empty() ? "C:" : WinEnv(in, "SystemDrive");
  if (!windows) {
    trail.Missing("/Windows", "no Windows directory under the root");
    return;
  }
  trail.Found(*windows, "Windows directory");
  if (auto wow = FindCaseless(*in.fs, "/Windows/SysWOW64")) {
    snap.host.arch = "x86_64";
    trail.Found(*wow, "64-bit Windows");
  }
  NoteUnreadHives(*in.fs, snap, trail);
  std::string index = WinEnv(in, "PIP_INDEX_URL");
  if (!index.empty()) {
    snap.host.pip_index_url = index;
    snap.host.pip_index_source = "env:PIP_INDEX_URL";
  }
}

void ProbeWindowsDriver(const ProbeInput& in, Snapshot& snap) {
  Trail trail(snap, "driver");
  DriverInfo& d = snap.driver;
  if (in.nvml != nullptr) {
    AskWindowsDriver(in, snap, trail);
  } else {
    d.nvml = NvmlState::kSkippedRoot;
    trail.Skipped("nvml", "--root inspects an image: no library of this host is loaded");
  }
  d.libcuda_paths = DriverDlls(*in.fs, "nvcuda.dll", "nvcuda64.dll", trail);
  d.nvml_paths = DriverDlls(*in.fs, "nvml.dll", "nvml.dll", trail);
  for (const auto* list : {&d.libcuda_paths, &d.nvml_paths}) {
    for (const std::string& path : *list) {
      if (d.userspace_version) break;
      if (auto v = DllDriverVersion(*in.fs, path, trail)) {
        d.userspace_version = *v;
        d.userspace_source = path + " (file version)";
      }
    }
  }
}

void ProbeWindowsGpus(const ProbeInput& in, Snapshot& snap) {
  Trail trail(snap, "gpus");
  if (in.nvml != nullptr && snap.driver.nvml == NvmlState::kOk) return ProbeGpusFromNvml(in, snap, trail);
  trail.Skipped("registry:display adapters", "not visible without the registry or the driver (SetupAPI, NVML)");
}

}  // namespace cudamatch
