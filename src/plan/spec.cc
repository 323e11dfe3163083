#include "plan/spec.h"

#include <algorithm>

namespace cudamatch {

namespace {

bool FoundBy(const PythonEnv& env, std::string_view how) {
  return std::find(env.found_by.begin(), env.found_by.end(), how) != env.found_by.end();
}

}  // namespace

const PythonEnv* PrimaryPython(const Snapshot& snap) {
  for (std::string_view how : {"--python", "env:VIRTUAL_ENV", "env:CONDA_PREFIX", "./.venv", "PATH"}) {
    for (const PythonEnv& env : snap.pythons) {
      if (FoundBy(env, how) && env.version) return &env;
    }
  }
  for (const PythonEnv& env : snap.pythons) {
    if (env.version) return &env;
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
  spec.has_nvidia_gpu = !snap.gpus.empty();
  if (env != nullptr) spec.python = env->version;
  spec.platform = snap.platform;
  if (snap.host.jetson) {
    spec.jetson = true;
    spec.jetson_model = snap.host.jetson->model;
    spec.jetson_l4t = snap.host.jetson->l4t;
  }
  return spec;
}

}  // namespace cudamatch
