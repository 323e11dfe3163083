// Probing the machine for doctor, plan and check: --root and --python, and the NVIDIA
// libraries only when the root is this machine's own "/".
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cli/common.h"
#include "core/fs.h"
#include "probe/context.h"

namespace cudamatch {

struct MachineOptions {
  std::string root = "/";
  std::vector<std::string> pythons;
};

struct MachineProbe {
  std::unique_ptr<Fs> fs;
  std::unique_ptr<NvmlApi> nvml;
  std::unique_ptr<CudaApi> cuda;
  Snapshot snapshot;
};

void AddMachineOptions(CLI::App& sub, MachineOptions& opt);
MachineProbe ProbeMachine(const MachineOptions& opt, const Context& ctx);

}  // namespace cudamatch
