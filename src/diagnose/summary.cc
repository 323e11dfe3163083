#include "diagnose/summary.h"

#include <algorithm>

#include "core/text.h"
#include "diagnose/rule_fns.h"

namespace cudamatch {

namespace {

bool SameModel(const GpuInfo& a, const GpuInfo& b) {
  return a.name == b.name && a.cc == b.cc && a.memory_bytes == b.memory_bytes;
}

struct BlockRow {
  std::string_view id;
  Blocks blocks;
};

// The findings that mean torch cannot use the GPU. Errors that leave torch itself working (a
// companion package, an extension) are not here: the environment's error count says them.
const std::vector<BlockRow>& BlockTable() {
  static const std::vector<BlockRow> kRows = {
      {"driver.missing", Blocks::kEveryEnv},
      {"driver.module_not_loaded", Blocks::kEveryEnv},
      {"container.module_not_loaded", Blocks::kEveryEnv},
      {"driver.mismatch", Blocks::kEveryEnv},
      {"container.driver_mismatch", Blocks::kEveryEnv},
      {"wsl.linux_driver", Blocks::kEveryEnv},
      {"wsl.dxgdmal_missing", Blocks::kEveryEnv},
      {"container.no_devices", Blocks::kEveryEnv},
      {"env.visible_devices_hide_all", Blocks::kEveryEnv},
      {"torch.driver_too_old", Blocks::kItsEnv},
      {"torch.no_kernels", Blocks::kItsEnv},
      {"torch.rocm_on_nvidia", Blocks::kItsEnv},
      {"torch.nvidia_wheels_missing", Blocks::kItsEnv},
      {"torch.runtime_missing", Blocks::kItsEnv},
      {"container.no_compute_capability", Blocks::kEveryEnv},
      {"container.forward_compat_unsupported", Blocks::kEveryEnv},
      {"driver.forward_compat_loaded", Blocks::kEveryEnv},
      {"jetson.sbsa_build", Blocks::kItsEnv},
      {"jetson.no_kernels", Blocks::kItsEnv},
  };
  return kRows;
}

// The GPUs a torch.no_kernels finding speaks for (its "count" argument, 1 when absent).
size_t GpusOf(const Finding& f) {
  for (const auto& [k, v] : f.args) {
    if (k == "count" && v) return static_cast<size_t>(ParseUint(*v).value_or(1));
  }
  return 1;
}

// A paste says which driver runs, never that its module is not loaded (`pasted`). A Jetson's
// Tegra driver is L4T's, with no desktop kernel module to expect.
DriverState StateOf(const DriverInfo& d, Os os, bool pasted, bool jetson) {
  if (!d.installed()) return DriverState::kNone;
  if (d.mismatch() && !jetson) return DriverState::kMismatch;
  bool module_expected = os == Os::kLinux && !d.wsl && !pasted && !jetson;
  if (module_expected && !d.kernel_module_loaded) return DriverState::kModuleNotLoaded;
  return DriverState::kLoaded;
}

// The first error finding (most severe first as sorted) that stops torch in environment `env`.
int Blocker(const std::vector<Finding>& findings, int env, size_t gpus, bool& some_gpus) {
  size_t without_code = 0;
  for (size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    std::optional<Blocks> b = BlocksTorch(f.id);
    if (!b || f.severity != Severity::kError || (*b == Blocks::kItsEnv && f.env != env)) continue;
    if (f.id != "torch.no_kernels") return static_cast<int>(i);
    without_code += GpusOf(f);
    if (without_code >= gpus) return static_cast<int>(i);
  }
  some_gpus = without_code > 0;
  return -1;
}

// No GPU listed, but a driver whose GPUs cannot be listed from here: WSL (the GPU is the Windows
// driver's, listed only when one of its libraries answers) or a Windows tree read as an image.
bool GpusNotVisible(const Snapshot& s) {
  return s.gpus.empty() && s.driver.installed() && (s.driver.wsl || s.platform.os == Os::kWindows);
}

EnvSummary SummarizeEnv(const Snapshot& s, const std::vector<Finding>& findings, int index, const PackageInfo& torch) {
  EnvSummary out;
  out.env = index;
  for (const Finding& f : findings) {
    if (f.env != index) continue;
    if (f.severity == Severity::kError) ++out.errors;
    if (f.severity == Severity::kWarning) ++out.warnings;
  }
  if (IsCpuBuild(torch)) {
    bool said = std::any_of(findings.begin(), findings.end(),
                            [&](const Finding& f) { return f.env == index && StartsWith(f.id, "torch.cpu_build"); });
    out.verdict = said || !s.gpus.empty() ? TorchVerdict::kCpuBuildOnGpuMachine : TorchVerdict::kCpuBuild;
    return out;
  }
  bool some = false;
  out.reason = Blocker(findings, index, s.gpus.size(), some);
  if (out.reason >= 0) out.verdict = TorchVerdict::kCannotRun;
  else if (!torch.cuda && !torch.hip) out.verdict = TorchVerdict::kUnknown;
  else if (s.gpus.empty() && !Observed(s, PasteGap::kGpus)) out.verdict = TorchVerdict::kUnknown;  // the paste lists no GPUs
  else if (s.gpus.empty()) out.verdict = GpusNotVisible(s) ? TorchVerdict::kGpusNotVisible : TorchVerdict::kNoGpu;
  else out.verdict = some ? TorchVerdict::kRunsOnSomeGpus : TorchVerdict::kRunsOnAllGpus;
  return out;
}

struct MergeRow {
  std::string_view cause;
  std::string_view consequence;
};

// Consequences folded into their cause. A container whose host has no NVIDIA module loaded has no
// device nodes either: the host is where the fix is, and starting the container with --gpus all
// is already part of that finding's advice. An image's compat libcuda that a GeForce card cannot
// use (mounted by the toolkit, or put on the loader's path) is why its CUDA requirement fails, and
// says all the forward-compat note would.
const std::vector<MergeRow>& MergeTable() {
  static const std::vector<MergeRow> kRows = {
      {"container.module_not_loaded", "container.no_devices"},
      {"container.forward_compat_unsupported", "driver.forward_compat"},
      {"container.forward_compat_unsupported", "container.cuda_minor_compat"},
      {"container.forward_compat_unsupported", "container.cuda_requirement"},
      {"driver.forward_compat_loaded", "driver.forward_compat"},
      {"driver.forward_compat_loaded", "container.cuda_minor_compat"},
      {"driver.forward_compat_loaded", "container.cuda_requirement"},
  };
  return kRows;
}

bool SameEvidence(const EvidenceItem& a, const EvidenceItem& b) { return a.id == b.id && a.args == b.args; }

void Fold(Finding& cause, const Finding& consequence) {
  cause.merged.push_back(consequence.id);
  for (const EvidenceItem& e : consequence.evidence) {
    bool known = std::any_of(cause.evidence.begin(), cause.evidence.end(), [&](const EvidenceItem& c) { return SameEvidence(c, e); });
    if (known) continue;
    EvidenceItem also = e;
    also.args.emplace_back("also", consequence.id);
    cause.evidence.push_back(std::move(also));
  }
}

}  // namespace

std::vector<GpuGroup> GroupGpus(const std::vector<GpuInfo>& gpus) {
  std::vector<GpuGroup> out;
  for (size_t i = 0; i < gpus.size(); ++i) {
    auto it = std::find_if(out.begin(), out.end(), [&](const GpuGroup& g) { return SameModel(gpus[g.members.front()], gpus[i]); });
    if (it == out.end()) out.push_back(GpuGroup{{i}});
    else it->members.push_back(i);
  }
  return out;
}

std::string GroupLabel(const std::vector<GpuInfo>& gpus, const GpuGroup& g) {
  const GpuInfo& face = gpus[g.members.front()];
  std::string name = face.name.empty() ? (face.pci_bus_id.empty() ? "NVIDIA GPU" : face.pci_bus_id) : face.name;
  return g.members.size() > 1 ? std::to_string(g.members.size()) + " x " + name : name;
}

std::string_view DriverStateName(DriverState s) {
  switch (s) {
    case DriverState::kNone: return "none";
    case DriverState::kLoaded: return "loaded";
    case DriverState::kModuleNotLoaded: return "module_not_loaded";
    case DriverState::kMismatch: break;
  }
  return "mismatch";
}

std::string_view TorchVerdictName(TorchVerdict v) {
  switch (v) {
    case TorchVerdict::kRunsOnAllGpus: return "runs_on_all_gpus";
    case TorchVerdict::kRunsOnSomeGpus: return "runs_on_some_gpus";
    case TorchVerdict::kCpuBuildOnGpuMachine: return "cpu_build_on_gpu_machine";
    case TorchVerdict::kCpuBuild: return "cpu_build";
    case TorchVerdict::kCannotRun: return "cannot_run";
    case TorchVerdict::kNoGpu: return "no_gpu";
    case TorchVerdict::kGpusNotVisible: return "gpus_not_visible";
    case TorchVerdict::kUnknown: break;
  }
  return "unknown";
}

std::optional<Blocks> BlocksTorch(std::string_view finding_id) {
  for (const BlockRow& r : BlockTable()) {
    if (r.id == finding_id) return r.blocks;
  }
  return std::nullopt;
}

const std::vector<std::string_view>& BlockingFindingIds() {
  static const std::vector<std::string_view> kIds = [] {
    std::vector<std::string_view> out;
    for (const BlockRow& r : BlockTable()) out.push_back(r.id);
    return out;
  }();
  return kIds;
}

Summary Summarize(const Snapshot& s, const std::vector<Finding>& findings) {
  Summary out;
  out.driver = StateOf(s.driver, s.platform.os, s.paste.has_value(), s.host.jetson.has_value());
  out.gpus = GroupGpus(s.gpus);
  out.gpus_not_visible = GpusNotVisible(s);
  for (size_t i = 0; i < s.pythons.size(); ++i) {
    auto it = s.pythons[i].packages.find("torch");
    if (it == s.pythons[i].packages.end()) {
      ++out.without_torch;
      continue;
    }
    out.envs.push_back(SummarizeEnv(s, findings, static_cast<int>(i), it->second));
  }
  for (const Finding& f : findings) {
    if (f.severity == Severity::kError) ++out.errors;
    if (f.severity == Severity::kWarning) ++out.warnings;
  }
  return out;
}

void MergeConsequences(std::vector<Finding>& findings) {
  for (const MergeRow& row : MergeTable()) {
    auto is_cause = [&](const Finding& f) { return f.id == row.cause; };
    auto cause = std::find_if(findings.begin(), findings.end(), is_cause);
    if (cause == findings.end()) continue;
    Finding survivor = *cause;
    for (const Finding& f : findings) {
      if (f.id == row.consequence && f.env == survivor.env) Fold(survivor, f);
    }
    int env = survivor.env;
    *cause = std::move(survivor);
    std::erase_if(findings, [&](const Finding& f) { return f.id == row.consequence && f.env == env; });
  }
}

}  // namespace cudamatch
