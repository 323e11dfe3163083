#include "plan/platform_gate.h"

#include "catalog/jetson.h"

namespace cudamatch {

namespace {

bool AsksForGpu(const MachineSpec& s) {
  return s.has_nvidia_gpu || !s.gpus.empty() || s.driver.has_value() || s.driver_cuda.has_value();
}

void DropGpu(MachineSpec& s) {
  s.has_nvidia_gpu = false;
  s.gpus.clear();
  s.gpu_names.clear();
  s.driver.reset();
  s.driver_cuda.reset();
}

}  // namespace

namespace {

// Where the JetPack's torch builds are, said with every plan for the Jetson.
void JetPackNote(const JetPackRelease& jp, PlatformGate& gate) {
  gate.notes.push_back({jp.index ? "caveat.jetson_index" : "caveat.jetson_page",
                        {{"jetpack", std::string(jp.jetpack)},
                         {"l4t", std::string(jp.l4t)},
                         {"cuda", ArgOf(jp.cuda, [](const CudaVersion& v) { return v.MajorMinor(); })},
                         {"wheels", std::string(jp.wheels)}}});
}

}  // namespace

PlatformGate GatePlatform(const Catalog& c, const MachineSpec& asked) {
  PlatformGate gate{asked, {}};
  if (asked.gpu_host && asked.gpu_host->arch != asked.platform.arch) {
    Platform host{asked.platform.os, asked.gpu_host->arch};
    gate.notes.push_back({"caveat.gpu_host_arch", {{"gpu", asked.gpu_host->gpu}, {"host", host.Name()},
                                                   {"platform", asked.platform.Name()},
                                                   {"arch", std::string(ArchName(asked.gpu_host->arch))}}});
  }
  if (asked.platform.os == Os::kMacos) {
    gate.notes.push_back({AsksForGpu(asked) ? "caveat.macos_no_cuda_gpu" : "caveat.macos_no_cuda", {}});
    DropGpu(gate.spec);
  } else if (asked.jetson) {
    const JetPackRelease* jp = JetPackFor(c, asked.jetson_l4t);
    if (jp != nullptr && jp->sbsa) {  // PyPI's SBSA builds run on this JetPack: planned as for a server
      JetPackNote(*jp, gate);
      return gate;
    }
    gate.notes.push_back({"caveat.jetson_not_pypi", {{"model", asked.jetson_model.empty() ? "Jetson" : asked.jetson_model}}});
    if (jp != nullptr) JetPackNote(*jp, gate);
    else gate.notes.push_back({"caveat.jetson_wheels_unknown", {{"l4t", ArgOf(asked.jetson_l4t)}}});
    DropGpu(gate.spec);
  }
  return gate;
}

}  // namespace cudamatch
