// What a platform's wheels can serve, decided before any release is tried:
//   macOS: CUDA does not exist there; PyTorch's macOS wheels run on the CPU and Apple's MPS.
//   Jetson (Linux aarch64, Tegra): PyPI's aarch64 CUDA wheels are built for SBSA servers
//     (GH200, GB200, DGX Spark), not for Jetson's integrated GPU; NVIDIA publishes Jetson wheels
//     per JetPack release, and the plan names them from the catalog's jetpack.tsv: the JetPack of
//     the machine's L4T release, or, with none known, every JetPack line the module runs. The
//     plan made is then the CPU build only (`cpu_only`), never the fix for the GPU. A JetPack
//     whose CUDA user space is SBSA's (JetPack 7 on Thor) runs PyPI's builds: planned as usual.
//   A GPU that comes only with another host architecture (a GH200 asked for with --arch x86_64,
//     or beside a probed x86_64 machine): planned as asked, with a caveat that says so.
// On the others the plan is made as for a machine without an NVIDIA GPU, and says why.
#pragma once

#include <vector>

#include "catalog/catalog.h"
#include "plan/plan.h"

namespace cudamatch {

struct PlatformGate {
  MachineSpec spec;           // the spec the plan is made for
  std::vector<Reason> notes;  // said with every plan for this platform
  bool cpu_only = false;      // a Jetson PyPI's CUDA builds do not serve: the plan is the CPU build only
  std::vector<const JetPackRelease*> jetpacks;  // the Jetson's JetPack lines whose builds are named
};

PlatformGate GatePlatform(const Catalog& c, const MachineSpec& asked);

}  // namespace cudamatch
