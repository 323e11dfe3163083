// What a platform's wheels can serve, decided before any release is tried:
//   macOS: CUDA does not exist there; PyTorch's macOS wheels run on the CPU and Apple's MPS.
//   Jetson (Linux aarch64, Tegra): PyPI's aarch64 CUDA wheels are built for SBSA servers
//     (GH200, GB200, DGX Spark), not for Jetson's integrated GPU; NVIDIA publishes Jetson wheels
//     per JetPack release, a correspondence the catalog does not hold.
//   A GPU that comes only with another host architecture (a GH200 asked for with --arch x86_64,
//     or beside a probed x86_64 machine): planned as asked, with a caveat that says so.
// On macOS and Jetson the plan is made as for a machine without an NVIDIA GPU, and says why.
#pragma once

#include <vector>

#include "plan/plan.h"

namespace cudamatch {

struct PlatformGate {
  MachineSpec spec;           // the spec the plan is made for
  std::vector<Reason> notes;  // said with every plan for this platform
};

PlatformGate GatePlatform(const MachineSpec& asked);

}  // namespace cudamatch
