// `check --require gpu`: the pins must install a GPU build (CUDA, ROCm or XPU). A CPU-only build
// is a problem on a machine with an NVIDIA GPU (CheckPins already says so: check.cpu_on_gpu)
// and also where no GPU is seen (a CI runner, an image build), which plain `check` accepts.
#pragma once

#include "plan/check.h"

namespace cudamatch {

// Adds the problem --require gpu finds to `result`, if any.
void RequireGpuBuild(CheckResult& result);

}  // namespace cudamatch
