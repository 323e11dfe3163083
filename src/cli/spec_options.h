// The machine a plan or check is for: this one as probed, with any fact overridden by flags
// (--driver, --cuda-max, --gpu, --cc, --python, --os, --arch), or one described by flags alone
// (--no-detect).
#pragma once

#include <string>
#include <vector>

#include "cli/common.h"
#include "cli/machine.h"
#include "plan/plan.h"

namespace cudamatch {

struct SpecOptions {
  MachineOptions machine;  // --root, --driver-timeout
  std::string driver;
  std::string cuda_max;
  std::vector<std::string> gpus;
  std::vector<std::string> ccs;
  std::string python;
  std::string torch;
  std::string with = "torchvision,torchaudio";
  std::string mirror;
  bool no_detect = false;
};

void AddSpecOptions(Command& sub, SpecOptions& opt);
Result<MachineSpec> BuildSpec(const SpecOptions& opt, const Context& ctx);
// The exit code for a BuildSpec error: "not found" (1) when a --gpu names no GPU the catalog
// knows, as `lookup gpu` answers; a usage error (2) otherwise.
int SpecErrorExit(const Error& e);

}  // namespace cudamatch
