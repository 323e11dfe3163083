// Container rules on the NVIDIA Container Toolkit's environment and the image's CUDA:
//   - NVIDIA_DRIVER_CAPABILITIES without "compute": the toolkit mounts no libcuda;
//   - NVIDIA_REQUIRE_CUDA (the image's CUDA) against the host driver's branch, through
//     minor-version compatibility (same major, the major's floor: catalog/cuda_minor_compat.tsv)
//     and forward compatibility (the image's /usr/local/cuda-X.Y/compat libcuda; NVIDIA's CUDA
//     Compatibility guide: only on data-center GPUs, select NGC Server Ready RTX cards and
//     Jetson);
//   - a compat libcuda newer than the host driver on a GeForce or TITAN card: CUDA fails with
//     error 804 ("forward compatibility was attempted on non supported HW");
//   - a compat libcuda that LD_LIBRARY_PATH or ld.so.conf puts on the loader's path (in a
//     container or not) on a GeForce or TITAN card: libcuda.so.1 is that library, whatever the
//     driver's version, and CUDA fails with error 804 the same way.
#include <algorithm>

#include "core/text.h"
#include "diagnose/rule_fns.h"
#include "probe/container_env.h"

namespace cudamatch {

namespace {

// The host's driver as the container sees it: its kernel module, else the mounted libraries.
std::optional<DriverVersion> HostDriver(const DriverInfo& d) { return d.kernel_version ? d.kernel_version : d.version(); }

// GeForce and TITAN cards, which NVIDIA's forward-compatibility support excludes (NVML names them
// as the brands NVML_BRAND_GEFORCE and NVML_BRAND_TITAN; the model name carries the brand).
bool ConsumerGpu(const GpuInfo& g) {
  std::string name = ToLower(g.name);
  return name.find("geforce") != std::string::npos || name.find("titan") != std::string::npos;
}

// The newest compat libcuda of known version in the image.
const ForwardCompat* NewestCompat(const DriverInfo& d) {
  const ForwardCompat* best = nullptr;
  for (const ForwardCompat& fc : d.forward_compat) {
    if (fc.version && (best == nullptr || *fc.version > *best->version)) best = &fc;
  }
  return best;
}

// NVIDIA_REQUIRE_CUDA as evidence: its CUDA group, and how many alternatives follow it.
EvidenceItem RequireEvidence(const std::string& value, const CudaRequirement& r) {
  std::string shown = value;
  if (r.cuda && r.groups > 1) shown = "cuda>=" + r.cuda->MajorMinor() + " … (" + std::to_string(r.groups - 1) + " brand/driver alternatives)";
  return Ev("evidence.env_var", {{"name", "NVIDIA_REQUIRE_CUDA"}, {"value", shown}});
}

std::string BranchList(const std::vector<int>& branches) {
  std::vector<std::string> parts;
  for (int b : branches) parts.push_back(std::to_string(b));
  return Join(parts, ", ");
}

}  // namespace

// The toolkit mounted the GPU (device nodes) and the utility libraries (NVML) but no libcuda, or
// the variable names no "compute": CUDA finds no driver while nvidia-smi works. With the variable
// unset, toolkits whose default is "utility" mount exactly that.
void CheckContainerCapabilities(const Snapshot& s, const Catalog&, const PlanQuery&, std::vector<Finding>& out) {
  const DriverInfo& d = s.driver;
  if (!d.container || !d.device_nodes || !d.libcuda_paths.empty() || d.wsl) return;
  const std::optional<std::string>& caps = d.nvidia_driver_capabilities;
  bool set = caps && !Trim(*caps).empty();
  bool without_compute = set && !CapabilitiesInclude(*caps, "compute");
  if (!without_compute && d.nvml_paths.empty()) return;
  std::vector<EvidenceItem> evidence = {Ev("evidence.container", {{"source", d.container_source}}),
                                        set ? Ev("evidence.env_var", {{"name", "NVIDIA_DRIVER_CAPABILITIES"}, {"value", *caps}})
                                            : Ev("evidence.env_unset", {{"name", "NVIDIA_DRIVER_CAPABILITIES"}}),
                                        Ev("evidence.device_nodes", {{"paths", Join(d.device_node_paths, " ")}}),
                                        Ev("evidence.no_libcuda")};
  for (const std::string& path : d.nvml_paths) evidence.push_back(Ev("evidence.utility_library", {{"path", path}}));
  // Set with "compute" yet without libcuda: the capabilities came from docker run --gpus (or Compose), not the variable.
  std::string value = !set ? "(unset)" : without_compute ? *caps : *caps + " (overridden by the --gpus capabilities)";
  out.push_back(Emit("container.no_compute_capability", {{"value", value}}, std::move(evidence),
                     "containers"));
}

void CheckContainerCudaRequirement(const Snapshot& s, const Catalog& c, const PlanQuery&, std::vector<Finding>& out) {
  const DriverInfo& d = s.driver;
  if (!d.container || !d.nvidia_require_cuda || !d.cuda) return;
  CudaRequirement r = ReadCudaRequirement(*d.nvidia_require_cuda);
  std::optional<DriverVersion> host = HostDriver(d);
  if (!r.cuda || !host || d.cuda->Truncated() >= r.cuda->Truncated()) return;
  DriverRequirement need = MinDriverFor(c, *r.cuda, Os::kLinux);
  bool minor_compat = d.cuda->major == r.cuda->major && need.minor_compat && *host >= *need.minor_compat;
  std::vector<EvidenceItem> evidence = {RequireEvidence(*d.nvidia_require_cuda, r)};
  for (EvidenceItem& e : DriverEvidence(d)) evidence.push_back(std::move(e));
  bool accepted = std::find(r.branches.begin(), r.branches.end(), host->branch()) != r.branches.end();
  if (accepted) {
    evidence.push_back(Ev("evidence.require_branch", {{"branch", std::to_string(host->branch())}, {"branches", BranchList(r.branches)}}));
  }
  const ForwardCompat* compat = NewestCompat(d);
  if (compat) evidence.push_back(Ev("evidence.forward_compat", {{"path", compat->path}, {"version", compat->version->text}}));
  MessageArgs args = {{"cuda", r.cuda->MajorMinor()},
                      {"driver", host->text},
                      {"driver_cuda", d.cuda->MajorMinor()},
                      {"need", ArgOf(need.toolkit_min, [](const DriverVersion& v) { return v.text; })},
                      {"compat", compat ? ArgValue(compat->version->text) : std::nullopt}};
  out.push_back(Emit(minor_compat ? "container.cuda_minor_compat" : "container.cuda_requirement", std::move(args),
                     std::move(evidence), minor_compat ? "minor-compat" : "forward-compat"));
}

void CheckContainerForwardCompat(const Snapshot& s, const Catalog&, const PlanQuery&, std::vector<Finding>& out) {
  const DriverInfo& d = s.driver;
  const ForwardCompat* compat = NewestCompat(d);
  if (!d.container || !d.kernel_version || compat == nullptr || compat->version->branch() <= d.kernel_version->branch()) return;
  if (!compat->loader_source.empty()) return;  // driver.forward_compat_loaded says it, with the loader's setting
  auto gpu = std::find_if(s.gpus.begin(), s.gpus.end(), ConsumerGpu);
  if (gpu == s.gpus.end()) return;
  std::vector<EvidenceItem> evidence = {Ev("evidence.forward_compat", {{"path", compat->path}, {"version", compat->version->text}}),
                                        Ev("evidence.driver_kernel", {{"version", d.kernel_version->text}, {"source", d.kernel_source}}),
                                        GpuEvidence(*gpu)};
  if (d.nvidia_require_cuda) evidence.push_back(RequireEvidence(*d.nvidia_require_cuda, ReadCudaRequirement(*d.nvidia_require_cuda)));
  out.push_back(Emit("container.forward_compat_unsupported",
                     {{"path", compat->path}, {"version", compat->version->text}, {"driver", d.kernel_version->text},
                      {"gpu", gpu->name}, {"branch", std::to_string(compat->version->branch())}},
                     std::move(evidence), "forward-compat"));
}

// The compat libcuda the loader is told to search first, on a card forward compatibility does not
// support: the loader's setting is the cause, so the fix takes the directory out of it.
void CheckForwardCompatLoaded(const Snapshot& s, const Catalog&, const PlanQuery&, std::vector<Finding>& out) {
  const DriverInfo& d = s.driver;
  auto loaded = std::find_if(d.forward_compat.begin(), d.forward_compat.end(),
                             [](const ForwardCompat& fc) { return !fc.loader_source.empty(); });
  auto gpu = std::find_if(s.gpus.begin(), s.gpus.end(), ConsumerGpu);
  if (loaded == d.forward_compat.end() || gpu == s.gpus.end()) return;
  const ForwardCompat& fc = *loaded;
  std::optional<DriverVersion> host = HostDriver(d);
  std::vector<EvidenceItem> evidence = {
      fc.version ? Ev("evidence.forward_compat", {{"path", fc.path}, {"version", fc.version->text}})
                 : Ev("evidence.forward_compat_unknown", {{"path", fc.path}}),
      Ev("evidence.forward_compat_loader", {{"source", fc.loader_source}, {"dir", fc.loader_dir}}), GpuEvidence(*gpu)};
  if (d.kernel_version) evidence.push_back(Ev("evidence.driver_kernel", {{"version", d.kernel_version->text}, {"source", d.kernel_source}}));
  out.push_back(Emit("driver.forward_compat_loaded",
                     {{"path", fc.path},
                      {"version", ArgOf(fc.version, [](const DriverVersion& v) { return v.text; })},
                      {"source", fc.loader_source},
                      {"dir", fc.loader_dir},
                      {"gpu", gpu->name},
                      {"driver", ArgOf(host, [](const DriverVersion& v) { return v.text; })}},
                     std::move(evidence), "forward-compat"));
}

}  // namespace cudamatch
