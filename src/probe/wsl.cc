// The Windows driver as WSL 2 shows it, from files only. Sources, in order:
//   /usr/lib/wsl/drivers/<package>/ for each driver store package named nv* (WSL mounts
//   C:\Windows\System32\DriverStore\FileRepository there): nvcuda64.dll, then nvml.dll; the
//   version from the DLL's VS_FIXEDFILEINFO (probe/pe.h: nvcuda64.dll 32.0.15.6636 -> 566.36,
//   nvml.dll 8.17.15.6636 -> 566.36). dxdiag lists these DLLs beside the Linux libcuda.so.1.1 and
//   nvidia-smi in the same package (rcmaehl/WhyNotWin11#58: nvlt.inf_amd64_452afd32ca7c661f
//   holds nvcuda64.dll 30.00.0014.7242, nvml.dll 8.17.0014.7242, nvidia-smi).
//   The store keeps older packages too: one holding libcuda.so.1.1 (what /usr/lib/wsl/lib is
//   copied from) is preferred, then the newest version; every other one read is in the trail.
#include <algorithm>

#include "core/text.h"
#include "probe/pe.h"
#include "probe/win_paths.h"
#include "probe/wsl.h"

namespace cudamatch {

namespace {

struct StoreDriver {
  std::string dll;
  DriverVersion version;
  bool has_wsl_libcuda = false;
};

std::optional<StoreDriver> ReadPackage(const Fs& fs, const std::string& package, Trail& trail) {
  for (std::string_view name : {"nvcuda64.dll", "nvml.dll"}) {
    auto path = FindCaseless(fs, package + "/" + std::string(name));
    if (!path) continue;
    if (auto v = DllDriverVersion(fs, *path, trail)) {
      return StoreDriver{*path, *v, fs.Exists(package + "/libcuda.so.1.1")};
    }
  }
  return std::nullopt;
}

bool Preferred(const StoreDriver& a, const StoreDriver& b) {
  if (a.has_wsl_libcuda != b.has_wsl_libcuda) return a.has_wsl_libcuda;
  return a.version > b.version;
}

}  // namespace

bool IsWslDriverPath(std::string_view path) { return StartsWith(path, "/usr/lib/wsl/"); }

bool ShadowedByLinuxDriver(const DriverInfo& d) {
  if (!d.wsl) return false;
  auto linux_lib = [](const std::vector<std::string>& paths) {
    return std::any_of(paths.begin(), paths.end(), [](const std::string& p) { return !IsWslDriverPath(p); });
  };
  return linux_lib(d.libcuda_paths) || linux_lib(d.nvml_paths);
}

void ProbeWslContainerLibraries(const ProbeInput& in, DriverInfo& d, Trail& trail) {
  for (const std::string& package : ListCaseless(*in.fs, kWslDriverStore, "nv")) {
    if (!in.fs->Exists(package + "/libcuda.so.1.1")) continue;
    d.wsl_store_package = package;
    std::string dxgdmal = package + "/libnvdxgdmal.so.1";
    d.wsl_dxgdmal = in.fs->Exists(dxgdmal);
    if (d.wsl_dxgdmal) {
      trail.Found(dxgdmal, "mounted");
    } else {
      trail.Missing(dxgdmal, "not mounted into the container");
    }
    return;
  }
}

void ProbeWslDriverStore(const ProbeInput& in, DriverInfo& d, Trail& trail) {
  std::vector<std::string> packages = ListCaseless(*in.fs, kWslDriverStore, "nv");
  std::vector<StoreDriver> found;
  for (const std::string& package : packages) {
    if (auto s = ReadPackage(*in.fs, package, trail)) found.push_back(std::move(*s));
  }
  if (found.empty()) {
    trail.Missing(std::string(kWslDriverStore) + "/nv*/nvcuda64.dll",
                  packages.empty() ? "no NVIDIA driver store package" : "no driver DLL with a version resource");
    return;
  }
  const StoreDriver* best = &found.front();
  for (const StoreDriver& s : found) {
    if (Preferred(s, *best)) best = &s;
  }
  for (const StoreDriver& s : found) {
    if (&s != best) trail.Skipped(s.dll, "driver " + s.version.text + ": another package of the driver store (" + best->dll + " was used)");
  }
  d.userspace_version = best->version;
  d.userspace_source = best->dll + " (Windows driver store)";
}

}  // namespace cudamatch
