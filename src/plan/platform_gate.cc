#include "plan/platform_gate.h"

#include <algorithm>

#include "catalog/jetson.h"
#include "core/text.h"

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

// Where the JetPack's torch builds are, said with every plan for the Jetson, and the Python
// they are for when it is not the one asked for.
void JetPackNote(const JetPackRelease& jp, const MachineSpec& asked, PlatformGate& gate) {
  gate.notes.push_back({jp.index ? "caveat.jetson_index" : "caveat.jetson_page",
                        {{"jetpack", std::string(jp.jetpack)},
                         {"l4t", std::string(jp.l4t)},
                         {"cuda", ArgOf(jp.cuda, [](const CudaVersion& v) { return v.MajorMinor(); })},
                         {"wheels", std::string(jp.wheels)}}});
  if (asked.python && jp.python && !(*asked.python == *jp.python)) {
    gate.notes.push_back({"caveat.jetson_python", {{"jetpack", std::string(jp.jetpack)},
                                                   {"wheel_python", jp.python->ToString()},
                                                   {"python", asked.python->ToString()}}});
  }
}

// The JetPack lines of the Jetson asked for: its L4T release's, or, with no L4T known, those of
// the module (a gpus.tsv name: --gpu, or the GPU of its SoC).
std::vector<const JetPackRelease*> JetPacksAsked(const Catalog& c, const MachineSpec& asked) {
  if (!asked.jetson_l4t.empty()) {
    const JetPackRelease* jp = JetPackFor(c, asked.jetson_l4t);
    return jp == nullptr ? std::vector<const JetPackRelease*>{} : std::vector<const JetPackRelease*>{jp};
  }
  for (const std::string& name : asked.gpu_names) {
    if (auto found = JetPacksOfModule(c, name); !found.empty()) return found;
  }
  return JetPacksOfModule(c, asked.jetson_model);
}

// The JetPack lines of the module whatever its L4T release (a gpus.tsv name: --gpu, or the GPU of
// its SoC).
std::vector<const JetPackRelease*> JetPacksOfTheModule(const Catalog& c, const MachineSpec& asked) {
  for (const std::string& name : asked.gpu_names) {
    if (auto found = JetPacksOfModule(c, name); !found.empty()) return found;
  }
  return JetPacksOfModule(c, asked.jetson_model);
}

std::string JetPackList(const std::vector<const JetPackRelease*>& jps);

// The module's JetPack has no wheel for the Python asked for: the other JetPack lines of the module
// that have one (pytorch/pytorch#78067: a Xavier on JetPack 4.4 with Python 3.8; the maintainer:
// the Python 3.8 wheels need JetPack 5).
void OtherJetPacksForPython(const Catalog& c, const MachineSpec& asked, const JetPackRelease& jp, PlatformGate& gate) {
  if (!asked.python || !jp.python || *asked.python == *jp.python) return;
  std::vector<const JetPackRelease*> others;
  for (const JetPackRelease* o : JetPacksOfTheModule(c, asked)) {
    if (o != &jp && o->python && *o->python == *asked.python) others.push_back(o);
  }
  if (others.empty()) return;
  std::string model = !asked.gpu_names.empty() && !asked.gpu_names.front().empty() ? asked.gpu_names.front()
                      : asked.jetson_model.empty()                                   ? "this Jetson"
                                                                                      : asked.jetson_model;
  gate.notes.push_back({"caveat.jetson_python_elsewhere", {{"jetpacks", JetPackList(others)},
                                                           {"model", model},
                                                           {"python", asked.python->ToString()},
                                                           {"jetpack", std::string(jp.jetpack)}}});
}

std::string JetPackList(const std::vector<const JetPackRelease*>& jps) {
  std::vector<std::string> names;
  for (const JetPackRelease* jp : jps) names.push_back(std::string(jp->jetpack));
  return Join(names, ", ");
}

void GateJetson(const Catalog& c, const MachineSpec& asked, PlatformGate& gate) {
  std::vector<const JetPackRelease*> jps = JetPacksAsked(c, asked);
  gate.jetpacks = jps;
  bool sbsa = !jps.empty() && std::all_of(jps.begin(), jps.end(), [](const JetPackRelease* j) { return j->sbsa; });
  if (sbsa) {  // PyPI's SBSA builds run on this JetPack: planned as for a server
    for (const JetPackRelease* jp : jps) JetPackNote(*jp, asked, gate);
    return;
  }
  std::string model = asked.jetson_model.empty() ? "Jetson" : asked.jetson_model;
  gate.notes.push_back({"caveat.jetson_not_pypi", {{"model", model}}});
  for (const JetPackRelease* jp : jps) JetPackNote(*jp, asked, gate);
  if (!asked.jetson_l4t.empty() && jps.size() == 1) OtherJetPacksForPython(c, asked, *jps.front(), gate);
  if (jps.empty()) {
    gate.notes.push_back({"caveat.jetson_wheels_unknown", {{"l4t", ArgOf(asked.jetson_l4t)}}});
  } else if (asked.jetson_l4t.empty()) {
    gate.notes.push_back({"caveat.jetson_module_jetpacks", {{"model", model}, {"jetpacks", JetPackList(jps)}}});
  }
  gate.cpu_only = true;
  DropGpu(gate.spec);
}

}  // namespace

PlatformGate GatePlatform(const Catalog& c, const MachineSpec& asked) {
  PlatformGate gate{asked, {}};
  if (asked.gpu_host && (asked.gpu_host->arch != asked.platform.arch || asked.platform.os != Os::kLinux)) {
    Platform host{Os::kLinux, asked.gpu_host->arch};  // Grace and Jetson machines run Linux alone
    const char* id = asked.platform.os == Os::kLinux ? "caveat.gpu_host_arch" : "caveat.gpu_host_os";
    gate.notes.push_back({id, {{"gpu", asked.gpu_host->gpu}, {"host", host.Name()},
                                                   {"platform", asked.platform.Name()},
                                                   {"arch", std::string(ArchName(asked.gpu_host->arch))}}});
  }
  if (asked.platform.os == Os::kMacos) {
    gate.notes.push_back({AsksForGpu(asked) ? "caveat.macos_no_cuda_gpu" : "caveat.macos_no_cuda", {}});
    DropGpu(gate.spec);
  } else if (asked.jetson) {
    GateJetson(c, asked, gate);
  }
  return gate;
}

}  // namespace cudamatch
