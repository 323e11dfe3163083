// Driver and platform rules: no driver, module not loaded, kernel/user-space mismatch, a Linux
// driver inside WSL, a container without device nodes, CUDA_VISIBLE_DEVICES, forward
// compatibility, GPUs the catalog does not know.
#include "core/text.h"
#include "diagnose/rule_fns.h"
#include "plan/spec.h"

namespace cudamatch {

namespace {

std::string InstallDriverCommand(const std::string& os_id) {
  if (os_id == "ubuntu") return "sudo ubuntu-drivers install";
  if (os_id == "debian") return "sudo apt-get install nvidia-driver firmware-misc-nonfree";
  return "";
}

// Reinstalls the driver packages at one version (the kernel module is rebuilt), then reboots:
// for when a reboot alone leaves the versions apart. "" for distributions not known here.
std::string ReinstallDriverCommand(const std::string& os_id, const DriverVersion& userspace) {
  std::string branch = userspace.text.substr(0, userspace.text.find('.'));
  if (os_id == "ubuntu" || os_id == "pop" || os_id == "linuxmint") {
    return "sudo apt-get install --reinstall nvidia-driver-" + branch + " && sudo reboot";
  }
  if (os_id == "debian") return "sudo apt-get install --reinstall nvidia-driver nvidia-kernel-dkms && sudo reboot";
  if (os_id == "fedora") return "sudo dnf upgrade --refresh 'akmod-nvidia' 'xorg-x11-drv-nvidia*' && sudo akmods --force && sudo reboot";
  if (os_id == "rhel" || os_id == "rocky" || os_id == "almalinux" || os_id == "centos") {
    return "sudo dnf upgrade --refresh 'nvidia-driver*' 'kmod-nvidia*' && sudo reboot";
  }
  if (StartsWith(os_id, "opensuse") || os_id == "sles") return "sudo zypper update 'nvidia-*' && sudo reboot";
  return "";
}

}  // namespace

void CheckDriverMissing(const Snapshot& s, const Catalog& c, std::vector<Finding>& out) {
  if (s.driver.installed() || s.gpus.empty()) return;
  const GpuInfo& gpu = s.gpus.front();
  ArgValue gpu_need;
  if (gpu.cc) {
    if (auto first = FirstCudaFor(c, *gpu.cc)) {
      DriverRequirement req = MinDriverFor(c, *first, s.platform.os);
      if (req.toolkit_min) gpu_need = req.toolkit_min->text;
    }
  }
  Plan plan = MakePlan(c, SpecFromSnapshot(s, PrimaryPython(s)));
  ArgValue need;
  if (plan.variant && plan.variant->variant.cuda) {
    DriverRequirement req = MinDriverFor(c, *plan.variant->variant.cuda, s.platform.os);
    if (req.toolkit_min) need = req.toolkit_min->text;
  }
  Finding f{"driver.missing", Severity::kError,
            {{"gpu", gpu.name.empty() ? "NVIDIA GPU" : gpu.name},
             {"cc", ArgOf(gpu.cc, [](const ComputeCapability& v) { return v.ToString(); })},
             {"gpu_driver", gpu_need},
             {"driver", need},
             {"torch", plan.release ? ArgValue(plan.release->torch.Public()) : std::nullopt},
             {"variant", plan.variant ? ArgValue(plan.variant->variant.tag) : std::nullopt}},
            {GpuEvidence(gpu)},
            s.driver.container ? "" : InstallDriverCommand(s.host.os_id),
            "driver"};
  for (EvidenceItem& e : DriverEvidence(s.driver)) f.evidence.push_back(std::move(e));
  out.push_back(std::move(f));
}

// Inside a container the kernel module is the host's: the fix is on the host (no command here).
void CheckModuleNotLoaded(const Snapshot& s, const Catalog&, std::vector<Finding>& out) {
  const DriverInfo& d = s.driver;
  if (s.platform.os != Os::kLinux) return;  // Windows has no separate kernel module to load
  if (d.kernel_module_loaded || d.wsl || (d.libcuda_paths.empty() && !d.userspace_version)) return;
  std::vector<EvidenceItem> evidence = DriverEvidence(d);
  evidence.push_back(Ev("evidence.no_kernel_module"));
  if (d.container) evidence.push_back(Ev("evidence.container", {{"source", d.container_source}}));
  out.push_back(Finding{d.container ? "container.module_not_loaded" : "driver.module_not_loaded", Severity::kError,
                        {{"driver", ArgOf(d.userspace_version, [](const DriverVersion& v) { return v.text; })}},
                        std::move(evidence),
                        d.container ? "" : "sudo modprobe nvidia",
                        d.container ? "containers" : "driver"});
}

void CheckDriverMismatch(const Snapshot& s, const Catalog&, std::vector<Finding>& out) {
  const DriverInfo& d = s.driver;
  if (!d.mismatch()) return;
  std::vector<EvidenceItem> evidence = DriverEvidence(d);
  if (d.container) evidence.push_back(Ev("evidence.container", {{"source", d.container_source}}));
  if (!s.host.os_id.empty()) evidence.push_back(Ev("evidence.os", {{"id", s.host.os_id}, {"source", "/etc/os-release"}}));
  out.push_back(Finding{d.container ? "container.driver_mismatch" : "driver.mismatch", Severity::kError,
                        {{"kernel", d.kernel_version->text}, {"userspace", d.userspace_version->text}},
                        std::move(evidence),
                        d.container ? "" : "sudo reboot",
                        d.container ? "containers" : "driver",
                        d.container ? "" : ReinstallDriverCommand(s.host.os_id, *d.userspace_version)});
}

void CheckWslLinuxDriver(const Snapshot& s, const Catalog&, std::vector<Finding>& out) {
  const DriverInfo& d = s.driver;
  if (!d.wsl) return;
  for (const std::string& path : d.libcuda_paths) {
    if (StartsWith(path, "/usr/lib/wsl/")) continue;
    out.push_back(Finding{"wsl.linux_driver", Severity::kError,
                          {{"path", path}},
                          {Ev("evidence.wsl_kernel", {{"source", "/proc/version"}}),
                           Ev("evidence.linux_driver_library", {{"path", path}})},
                          "sudo apt-get purge 'nvidia-driver-*' 'libnvidia-compute-*'",
                          "wsl"});
    return;
  }
}

void CheckContainerDevices(const Snapshot& s, const Catalog&, std::vector<Finding>& out) {
  const DriverInfo& d = s.driver;
  bool wants_gpu = !d.libcuda_paths.empty() || d.nvidia_visible_devices || d.kernel_module_loaded;
  if (!d.container || d.device_nodes || !wants_gpu) return;
  Finding f{"container.no_devices", Severity::kError, {{"marker", d.container_source}},
            {Ev("evidence.container", {{"source", d.container_source}}), Ev("evidence.no_device_nodes")},
            "docker run --gpus all ...",
            "containers"};
  if (d.nvidia_visible_devices) {
    f.evidence.push_back(Ev("evidence.env_var", {{"name", "NVIDIA_VISIBLE_DEVICES"}, {"value", *d.nvidia_visible_devices}}));
  }
  out.push_back(std::move(f));
}

// CUDA_VISIBLE_DEVICES: indices or GPU-/MIG- UUIDs, comma-separated; CUDA stops at the first
// entry that names no device, so an invalid first entry hides every GPU.
void CheckVisibleDevices(const Snapshot& s, const Catalog&, std::vector<Finding>& out) {
  const auto& value = s.driver.cuda_visible_devices;
  if (!value || s.gpus.empty()) return;
  size_t visible = 0;
  for (const std::string& entry : SplitNonEmpty(*value, ',')) {
    auto index = ParseUint(entry);
    bool valid = (index && *index < static_cast<int64_t>(s.gpus.size())) || StartsWith(entry, "GPU-") ||
                 StartsWith(entry, "MIG-");
    if (!valid) break;
    ++visible;
  }
  MessageArgs args = {{"value", *value}, {"visible", std::to_string(visible)}, {"total", std::to_string(s.gpus.size())}};
  std::vector<EvidenceItem> evidence = {Ev("evidence.env_var", {{"name", "CUDA_VISIBLE_DEVICES"}, {"value", *value}}),
                                        Ev("evidence.gpu_count", {{"count", std::to_string(s.gpus.size())}})};
  if (visible == 0) {
    out.push_back(Finding{"env.visible_devices_hide_all", Severity::kError, args, evidence,
                          "unset CUDA_VISIBLE_DEVICES", "visible-devices"});
  } else if (visible < s.gpus.size()) {
    out.push_back(Finding{"env.visible_devices_some", Severity::kInfo, args, evidence, "", "visible-devices"});
  }
}

void CheckForwardCompat(const Snapshot& s, const Catalog&, std::vector<Finding>& out) {
  for (const ForwardCompat& fc : s.driver.forward_compat) {
    out.push_back(Finding{"driver.forward_compat", Severity::kInfo,
                          {{"path", fc.path}, {"version", ArgOf(fc.version, [](const DriverVersion& v) { return v.text; })}},
                          {fc.version ? Ev("evidence.forward_compat", {{"path", fc.path}, {"version", fc.version->text}})
                                      : Ev("evidence.forward_compat_unknown", {{"path", fc.path}})},
                          "",
                          "forward-compat"});
  }
}

void CheckUnknownGpu(const Snapshot& s, const Catalog&, std::vector<Finding>& out) {
  for (const GpuInfo& g : s.gpus) {
    if (g.cc) continue;
    auto hex = [](uint32_t pci) {
      char id[16];
      std::snprintf(id, sizeof(id), "%04x", pci);
      return std::string(id);
    };
    out.push_back(Finding{"gpu.unknown", Severity::kInfo, {{"gpu", g.name.empty() ? g.pci_bus_id : g.name}, {"pci", ArgOf(g.pci_device_id, hex)}},
                          {GpuEvidence(g)}, "", "compute-capability"});
  }
}

}  // namespace cudamatch
