#include "plan/spec.h"

#include <algorithm>

#include "core/path_form.h"

namespace cudamatch {

const PythonEnv* PrimaryPython(const Snapshot& snap) {
  for (FoundBy how : {FoundBy::kGivenPython, FoundBy::kVirtualEnv, FoundBy::kCondaPrefix, FoundBy::kDotVenv, FoundBy::kPath}) {
    for (const PythonEnv& env : snap.pythons) {
      if (WasFoundBy(env, how) && env.version) return &env;
    }
  }
  for (const PythonEnv& env : snap.pythons) {
    bool only_cudamatch = env.cudamatch_own && env.found_by.size() == 1;  // not the user's project
    if (env.version && !only_cudamatch) return &env;
  }
  return nullptr;
}

MachineSpec SpecFromSnapshot(const Snapshot& snap, const PythonEnv* env) {
  MachineSpec spec;
  spec.driver = snap.driver.version();
  spec.driver_cuda = snap.driver.cuda;
  for (const GpuInfo& g : snap.gpus) {
    if (!g.cc) continue;
    spec.gpus.push_back(*g.cc);
    spec.gpu_names.push_back(g.name);
  }
  // A Windows tree shows no GPU without the registry, but its NVIDIA driver is there for one.
  spec.has_nvidia_gpu = !snap.gpus.empty() || (snap.platform.os == Os::kWindows && snap.driver.installed());
  if (env != nullptr) {
    spec.python = env->version;
    if (env->version) spec.python_from = env->executable;
    spec.interpreter = env->executable.empty() ? "" : PathForOs(env->executable, snap.platform.os, snap.host.system_drive);
    if (!env->externally_managed.empty()) {
      spec.externally_managed = PathForOs(env->externally_managed, snap.platform.os, snap.host.system_drive);
    }
  }
  spec.probed = true;
  spec.platform = snap.platform;
  if (snap.host.jetson) {
    spec.jetson = true;
    spec.jetson_model = snap.host.jetson->model;
    spec.jetson_l4t = snap.host.jetson->l4t;
  }
  return spec;
}

}  // namespace cudamatch
