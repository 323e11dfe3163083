// Driver and platform rules: no driver, module not loaded, kernel/user-space mismatch, a Linux
// driver inside WSL, a container without device nodes, CUDA_VISIBLE_DEVICES, forward
// compatibility, GPUs the catalog does not know.
#include "core/text.h"
#include "diagnose/rule_fns.h"
#include "diagnose/summary.h"
#include "probe/wsl.h"

namespace cudamatch {

namespace {

RemedyNeed OnOs(RemedyNeed::Kind kind, const Snapshot& s) {
  RemedyNeed need = Need(kind);
  need.os_id = s.host.os_id;
  return need;
}

}  // namespace

void CheckDriverMissing(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out) {
  if (s.driver.installed() || s.gpus.empty() || !Observed(s, PasteGap::kDriver)) return;
  if (s.host.jetson) return;  // L4T's Tegra driver is part of JetPack, not a desktop driver to install
  const GpuInfo& gpu = s.gpus.front();
  ArgValue gpu_need;
  if (gpu.cc) {
    if (auto first = FirstCudaFor(c, *gpu.cc)) {
      DriverRequirement req = MinDriverFor(c, *first, s.platform.os);
      if (req.toolkit_min) gpu_need = req.toolkit_min->text;
    }
  }
  std::optional<BestBuild> best = plans.Best(s, c);
  ArgValue need;
  if (best && best->variant->variant.cuda) {
    DriverRequirement req = MinDriverFor(c, *best->variant->variant.cuda, s.platform.os);
    if (req.toolkit_min) need = req.toolkit_min->text;
  }
  Finding f = Emit("driver.missing",
            {{"gpu", gpu.name.empty() ? "NVIDIA GPU" : gpu.name},
             {"cc", ArgOf(gpu.cc, [](const ComputeCapability& v) { return v.ToString(); })},
             {"gpu_driver", gpu_need},
             {"driver", need},
             {"torch", best ? ArgValue(best->release->torch.Public()) : std::nullopt},
             {"variant", best ? ArgValue(best->variant->variant.tag) : std::nullopt}},
            {GpuEvidence(gpu)}, "driver",
            s.driver.container ? RemedyNeed{} : OnOs(RemedyNeed::Kind::kDriverInstall, s));
  for (EvidenceItem& e : DriverEvidence(s.driver)) f.evidence.push_back(std::move(e));
  out.push_back(std::move(f));
}

// Inside a container the kernel module is the host's: the fix is on the host (no command here).
void CheckModuleNotLoaded(const Snapshot& s, const Catalog&, const PlanQuery&, std::vector<Finding>& out) {
  const DriverInfo& d = s.driver;
  if (s.platform.os != Os::kLinux) return;  // Windows has no separate kernel module to load
  if (s.paste) return;  // a paste can say the module is loaded, never that it is not
  if (s.host.jetson) return;  // Tegra's GPU module is L4T's (nvgpu or its own nvidia.ko), never modprobe'd by hand
  if (d.kernel_module_loaded || d.wsl || (d.libcuda_paths.empty() && !d.userspace_version)) return;
  std::vector<EvidenceItem> evidence = DriverEvidence(d);
  evidence.push_back(Ev("evidence.no_kernel_module"));
  if (d.container) evidence.push_back(Ev("evidence.container", {{"source", d.container_source}}));
  out.push_back(Emit(d.container ? "container.module_not_loaded" : "driver.module_not_loaded",
                     {{"driver", ArgOf(d.userspace_version, [](const DriverVersion& v) { return v.text; })}},
                     std::move(evidence), d.container ? "containers" : "driver",
                     d.container ? RemedyNeed{} : Need(RemedyNeed::Kind::kLoadModule)));
}

void CheckDriverMismatch(const Snapshot& s, const Catalog&, const PlanQuery&, std::vector<Finding>& out) {
  const DriverInfo& d = s.driver;
  if (!d.mismatch() || s.host.jetson) return;  // L4T's libcuda carries no desktop driver version
  std::vector<EvidenceItem> evidence = DriverEvidence(d);
  if (d.container) evidence.push_back(Ev("evidence.container", {{"source", d.container_source}}));
  if (!s.host.os_id.empty()) evidence.push_back(Ev("evidence.os", {{"id", s.host.os_id}, {"source", "/etc/os-release"}}));
  RemedyNeed reinstall;
  if (!d.container) {
    reinstall = OnOs(RemedyNeed::Kind::kDriverReinstall, s);
    reinstall.branch = d.userspace_version->text.substr(0, d.userspace_version->text.find('.'));
  }
  out.push_back(Emit(d.container ? "container.driver_mismatch" : "driver.mismatch",
                     {{"kernel", d.kernel_version->text}, {"userspace", d.userspace_version->text}},
                     std::move(evidence), d.container ? "containers" : "driver",
                     d.container ? RemedyNeed{} : Need(RemedyNeed::Kind::kReboot), reinstall));
}

void CheckWslLinuxDriver(const Snapshot& s, const Catalog&, const PlanQuery&, std::vector<Finding>& out) {
  const DriverInfo& d = s.driver;
  if (!d.wsl) return;
  for (const std::string& path : d.libcuda_paths) {
    if (IsWslDriverPath(path)) continue;
    out.push_back(Emit("wsl.linux_driver", {{"path", path}},
                       {Ev("evidence.wsl_kernel", {{"source", "/proc/version"}}),
                        Ev("evidence.linux_driver_library", {{"path", path}})},
                       "wsl", Need(RemedyNeed::Kind::kPurgeLinuxDriver)));
    return;
  }
}

// Under WSL 2 the GPU is the Windows driver's: what WSL shows of it is the libraries in
// /usr/lib/wsl/lib and /dev/dxg. Said once, with what can be checked from inside and what cannot.
void CheckWslWindowsDriver(const Snapshot& s, const Catalog&, const PlanQuery&, std::vector<Finding>& out) {
  const DriverInfo& d = s.driver;
  if (!d.wsl) return;
  std::vector<EvidenceItem> evidence;
  for (const Evidence& e : s.trail) {
    if (e.source == kWslKernelSource && e.outcome == Evidence::Outcome::kFound && e.detail == kWslKernelDetail) {
      evidence.push_back(Ev("evidence.wsl_kernel", {{"source", e.source}}));
      break;
    }
  }
  std::string lib = "/usr/lib/wsl/lib";
  for (const std::string& path : d.libcuda_paths) {
    if (!StartsWith(path, "/usr/lib/wsl/")) continue;
    if (lib == "/usr/lib/wsl/lib") lib = path;
    evidence.push_back(Ev("evidence.wsl_library", {{"path", path}}));
  }
  for (const std::string& node : d.device_node_paths) {
    if (node == "/dev/dxg") evidence.push_back(Ev("evidence.wsl_dxg", {{"path", node}}));
  }
  if (d.version()) {
    for (EvidenceItem& e : DriverEvidence(d)) evidence.push_back(std::move(e));
  } else {
    evidence.push_back(Ev("evidence.wsl_driver_unread"));
  }
  out.push_back(Emit("wsl.windows_driver", {{"lib", lib}}, std::move(evidence), "wsl"));
}

void CheckContainerDevices(const Snapshot& s, const Catalog&, const PlanQuery&, std::vector<Finding>& out) {
  const DriverInfo& d = s.driver;
  bool wants_gpu = !d.libcuda_paths.empty() || d.nvidia_visible_devices || d.kernel_module_loaded;
  if (!d.container || d.device_nodes || !wants_gpu) return;
  // A Kubernetes pod whose GPU the device plugin allocated (NVIDIA_VISIBLE_DEVICES names it) but
  // that runc started: the nvidia runtime, which mounts the devices and driver, was not selected.
  bool pod = d.container_source.find("kubepods") != std::string::npos;
  bool allocated = d.nvidia_visible_devices && !d.nvidia_visible_devices->empty() && *d.nvidia_visible_devices != "void" &&
                   *d.nvidia_visible_devices != "none";
  Finding f = Emit("container.no_devices", {{"marker", d.container_source}},
                   {Ev("evidence.container", {{"source", d.container_source}}), Ev("evidence.no_device_nodes")},
                   "containers", Need(pod && allocated ? RemedyNeed::Kind::kPodNvidiaRuntime : RemedyNeed::Kind::kContainerGpus));
  if (d.nvidia_visible_devices) {
    f.evidence.push_back(Ev("evidence.env_var", {{"name", "NVIDIA_VISIBLE_DEVICES"}, {"value", *d.nvidia_visible_devices}}));
  }
  out.push_back(std::move(f));
}

// CUDA_VISIBLE_DEVICES: indices or GPU-/MIG- UUIDs, comma-separated; CUDA stops at the first
// entry that names no device, so an invalid first entry hides every GPU.
void CheckVisibleDevices(const Snapshot& s, const Catalog&, const PlanQuery&, std::vector<Finding>& out) {
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
    RemedyNeed need = Need(RemedyNeed::Kind::kUnsetEnv);
    need.names = {"CUDA_VISIBLE_DEVICES"};
    out.push_back(Emit("env.visible_devices_hide_all", args, evidence, "visible-devices", need));
  } else if (visible < s.gpus.size()) {
    out.push_back(Emit("env.visible_devices_some", args, evidence, "visible-devices"));
  }
}

void CheckForwardCompat(const Snapshot& s, const Catalog&, const PlanQuery&, std::vector<Finding>& out) {
  for (const ForwardCompat& fc : s.driver.forward_compat) {
    out.push_back(Emit("driver.forward_compat", {{"path", fc.path}, {"version", ArgOf(fc.version, [](const DriverVersion& v) { return v.text; })}},
                       {fc.version ? Ev("evidence.forward_compat", {{"path", fc.path}, {"version", fc.version->text}})
                                   : Ev("evidence.forward_compat_unknown", {{"path", fc.path}})},
                       "forward-compat"));
  }
}

void CheckUnknownGpu(const Snapshot& s, const Catalog&, const PlanQuery&, std::vector<Finding>& out) {
  for (const GpuGroup& group : GroupGpus(s.gpus)) {  // identical GPUs: one finding
    const GpuInfo& g = s.gpus[group.members.front()];
    if (g.cc) continue;
    auto hex = [](uint32_t pci) {
      char id[16];
      std::snprintf(id, sizeof(id), "%04x", pci);
      return std::string(id);
    };
    out.push_back(Emit("gpu.unknown", {{"gpu", g.name.empty() ? g.pci_bus_id : g.name}, {"pci", ArgOf(g.pci_device_id, hex)},
                        {"gpus", GroupLabel(s.gpus, group)}, {"count", std::to_string(group.members.size())}},
                       {GpuEvidence(g)}, "compute-capability"));
  }
}

// A container under WSL 2 whose toolkit mounted the Windows driver's libcuda.so.1.1 but not
// libnvdxgdmal.so.1: NVIDIA's Windows drivers 555 and newer need it, and CUDA starts with error 500
// "named symbol not found" without it (NVIDIA/nvidia-container-toolkit#520: toolkits before
// 1.14.4 / 1.15.0, Docker Desktop before 4.31.0). An error where the driver is known to be 555 or
// newer, a warning where its version is not known (no driver DLL is mounted into a container).
void CheckWslDxgdmal(const Snapshot& s, const Catalog&, const PlanQuery&, std::vector<Finding>& out) {
  constexpr int kFirstBranchWithDxgdmal = 555;
  const DriverInfo& d = s.driver;
  if (!d.wsl || !d.container || d.wsl_store_package.empty() || d.wsl_dxgdmal) return;
  std::optional<DriverVersion> v = d.version();
  if (v && v->branch() < kFirstBranchWithDxgdmal) return;
  std::vector<EvidenceItem> evidence = {Ev("evidence.wsl_kernel", {{"source", "/proc/version"}}),
                                        Ev("evidence.container", {{"source", d.container_source}}),
                                        Ev("evidence.wsl_dxgdmal", {{"package", d.wsl_store_package}})};
  if (v) {
    for (EvidenceItem& e : DriverEvidence(d)) evidence.push_back(std::move(e));
  }
  out.push_back(Emit(v ? "wsl.dxgdmal_missing" : "wsl.dxgdmal_unknown_driver",
                     {{"package", d.wsl_store_package}, {"driver", ArgOf(v, [](const DriverVersion& x) { return x.text; })}},
                     std::move(evidence), "wsl-containers"));
}

}  // namespace cudamatch
