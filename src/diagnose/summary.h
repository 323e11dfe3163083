// What a person needs first, as data: the machine in one line's worth of facts, one verdict per
// environment with torch (does its torch run on this machine's GPUs, and if not, which finding
// says why), and the counts of errors and warnings. Derived from the snapshot and the findings
// only; the report renders it and the JSON carries it. Also: identical GPUs as one group, and
// the folding of a finding into the finding of its cause (one cause, one finding).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diagnose/finding.h"
#include "probe/snapshot.h"

namespace cudamatch {

// GPUs of the same model, capability and memory, in index order: "8 x NVIDIA H100 80GB HBM3".
struct GpuGroup {
  std::vector<size_t> members;  // indices into Snapshot::gpus, the first is the group's face
};
std::vector<GpuGroup> GroupGpus(const std::vector<GpuInfo>& gpus);
// "NVIDIA A10G" for one, "8 x NVIDIA H100 80GB HBM3" for eight.
std::string GroupLabel(const std::vector<GpuInfo>& gpus, const GpuGroup& g);

enum class DriverState { kNone, kLoaded, kModuleNotLoaded, kMismatch };
std::string_view DriverStateName(DriverState s);  // "none", "loaded", "module_not_loaded", "mismatch"

enum class TorchVerdict {
  kRunsOnAllGpus,      // a CUDA build, nothing stops it on any GPU
  kRunsOnSomeGpus,     // no code for some of the GPUs (torch.no_kernels on some)
  kCpuBuildOnGpuMachine,
  kCpuBuild,           // a CPU build on a machine without an NVIDIA GPU: nothing to say against it
  kCannotRun,          // an error finding stops it; `reason` names it
  kNoGpu,              // a GPU build and no NVIDIA GPU to run on
  kGpusNotVisible,     // a GPU build; the driver is there but its GPUs cannot be listed from here
                       // (WSL without an answering driver library, a Windows image)
  kUnknown,            // its build could not be read
};
// "runs_on_all_gpus", "runs_on_some_gpus", "cpu_build_on_gpu_machine", "cpu_build", "cannot_run",
// "no_gpu", "gpus_not_visible", "unknown".
std::string_view TorchVerdictName(TorchVerdict v);

struct EnvSummary {
  int env = -1;  // index into Snapshot::pythons
  TorchVerdict verdict = TorchVerdict::kUnknown;
  int reason = -1;  // index into the findings of the finding that stops it (kCannotRun), else -1
  size_t errors = 0, warnings = 0;  // findings about this environment
};

struct Summary {
  DriverState driver = DriverState::kNone;
  bool gpus_not_visible = false;  // none listed, and the driver's GPUs cannot be seen from here
  std::vector<GpuGroup> gpus;
  std::vector<EnvSummary> envs;  // the environments with torch, in snapshot order
  size_t without_torch = 0;      // environments without torch
  size_t errors = 0, warnings = 0;
};

Summary Summarize(const Snapshot& s, const std::vector<Finding>& findings);

// The findings that stop torch from using the GPU, and whether for every environment (a machine
// finding: no driver, no device nodes) or for the one it is about. nullopt: it does not stop it.
enum class Blocks { kEveryEnv, kItsEnv };
std::optional<Blocks> BlocksTorch(std::string_view finding_id);
// The ids BlocksTorch names, for the test that each has its short reason text.
const std::vector<std::string_view>& BlockingFindingIds();

// One cause, one finding: a finding that is only a consequence of another one present (no device
// nodes in a container whose host has no NVIDIA module loaded) is folded into it: its id goes to
// `merged` of the surviving finding and its evidence the survivor lacks goes along, marked
// with the argument "also" = the folded id.
void MergeConsequences(std::vector<Finding>& findings);

}  // namespace cudamatch
