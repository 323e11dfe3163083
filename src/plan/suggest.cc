#include "plan/suggest.h"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "core/text.h"

namespace cudamatch {

namespace {

std::string GpuText(const MachineSpec& spec, size_t i) {
  std::string sm = spec.gpus[i].Sm();
  return i < spec.gpu_names.size() && !spec.gpu_names[i].empty() ? spec.gpu_names[i] + " (" + sm + ")" : sm;
}

std::string PlanLabel(const Plan& p) { return p.release->torch.Public() + "+" + p.variant->variant.tag; }

bool Mentions(const Plan& failed, std::string_view prefix) {
  for (const Rejection& r : failed.rejected) {
    for (const Reason& x : r.reasons) {
      if (StartsWith(x.id, prefix)) return true;
    }
  }
  return false;
}

// Driver versions the catalog names (toolkit minimums, minor-version floors), sorted.
std::vector<DriverVersion> KnownDrivers(const Catalog& c, Os os) {
  std::vector<DriverVersion> out;
  auto add = [&](const std::optional<DriverVersion>& d) {
    if (d && std::find(out.begin(), out.end(), *d) == out.end()) out.push_back(*d);
  };
  for (const CudaToolkit& t : c.toolkits) add(os == Os::kWindows ? t.min_driver_windows : t.min_driver_linux);
  for (const MinorCompat& m : c.minor_compat) add(os == Os::kWindows ? m.min_driver_windows : m.min_driver_linux);
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<Reason> TryDriver(const Catalog& c, const MachineSpec& spec, const DriverVersion& d, const char* id) {
  MachineSpec changed = spec;
  changed.driver = d;
  changed.driver_cuda.reset();
  Plan p = PlanWithoutSuggestions(c, changed);
  if (!p.release) return std::nullopt;
  return Reason{id, {{"branch", std::to_string(d.branch())}, {"driver", d.text}, {"torch", PlanLabel(p)}}};
}

// The lowest newer driver with which a plan exists; if the driver is past a GPU's last branch,
// the newest driver of that branch with which one exists.
void SuggestDriver(const Catalog& c, const MachineSpec& spec, const Plan& failed, std::vector<Reason>& out) {
  if (!spec.driver && !spec.driver_cuda) return;
  std::vector<DriverVersion> known = KnownDrivers(c, spec.platform.os);
  if (Mentions(failed, "reject.driver_past_arch")) {
    for (auto it = known.rbegin(); it != known.rend(); ++it) {
      if (spec.driver && *it >= *spec.driver) continue;
      if (auto r = TryDriver(c, spec, *it, "suggest.driver_downgrade")) {
        out.push_back(std::move(*r));
        return;
      }
    }
    return;
  }
  for (const DriverVersion& d : known) {
    if (spec.driver && d <= *spec.driver) continue;
    if (auto r = TryDriver(c, spec, d, "suggest.driver_upgrade")) {
      out.push_back(std::move(*r));
      return;
    }
  }
}

void SuggestPython(const Catalog& c, const MachineSpec& spec, const Plan& failed, std::vector<Reason>& out) {
  if (!spec.python || (!Mentions(failed, "reject.python") && !Mentions(failed, "reject.companion_python"))) return;
  std::vector<PyVersion> tries;
  for (int minor = 6; minor <= 14; ++minor) tries.push_back(PyVersion{3, minor, false});
  std::stable_sort(tries.begin(), tries.end(), [&](const PyVersion& a, const PyVersion& b) {
    return std::abs(a.minor - spec.python->minor) < std::abs(b.minor - spec.python->minor);
  });
  for (const PyVersion& py : tries) {
    if (py == *spec.python) continue;
    MachineSpec changed = spec;
    changed.python = py;
    Plan p = PlanWithoutSuggestions(c, changed);
    if (!p.release) continue;
    out.push_back({"suggest.python", {{"python", py.ToString()}, {"torch", PlanLabel(p)}}});
    return;
  }
}

void SuggestTorchSpec(const Catalog& c, const MachineSpec& spec, std::vector<Reason>& out) {
  if (spec.torch.clauses.empty() && !spec.variant) return;
  MachineSpec changed = spec;
  changed.torch = SpecifierSet{};
  changed.variant.reset();
  Plan p = PlanWithoutSuggestions(c, changed);
  if (p.release) out.push_back({"suggest.any_torch", {{"torch", PlanLabel(p)}}});
}

// Mixed GPUs: which GPU blocks, and how to leave it out.
void SuggestLeaveOut(const Catalog& c, const MachineSpec& spec, std::vector<Reason>& out) {
  if (spec.gpus.size() < 2) return;
  for (size_t i = 0; i < spec.gpus.size(); ++i) {
    MachineSpec changed = spec;
    changed.gpus.erase(changed.gpus.begin() + static_cast<long>(i));
    if (i < changed.gpu_names.size()) changed.gpu_names.erase(changed.gpu_names.begin() + static_cast<long>(i));
    Plan p = PlanWithoutSuggestions(c, changed);
    if (!p.release) continue;
    std::vector<std::string> visible;
    for (size_t j = 0; j < spec.gpus.size(); ++j) {
      if (j != i) visible.push_back(std::to_string(j));
    }
    out.push_back({"suggest.leave_out_gpu", {{"gpu", GpuText(spec, i)},
                                             {"visible", Join(visible, ",")}, {"torch", PlanLabel(p)}}});
  }
}

// The newest release and variant with code for a GPU on this platform, ignoring the driver.
const TorchVariant* NewestFor(const Catalog& c, const MachineSpec& spec, const ComputeCapability& cc) {
  const TorchVariant* best = nullptr;
  for (const TorchVariant& v : c.torch_variants) {
    if (v.platform != spec.platform.Name() || !v.variant.is_cuda() || !v.arch_list) continue;
    if (FitWheel(c, *v.arch_list, *v.variant.cuda, cc).fit == KernelFit::kNone) continue;
    if (!best || v.torch > best->torch || (v.torch == best->torch && *v.variant.cuda > *best->variant.cuda)) best = &v;
  }
  return best;
}

void SuggestForGpus(const Catalog& c, const MachineSpec& spec, const Plan& failed, std::vector<Reason>& out) {
  if (!Mentions(failed, "reject.no_kernels")) return;
  for (size_t i = 0; i < spec.gpus.size(); ++i) {
    const ComputeCapability& cc = spec.gpus[i];
    std::string gpu = GpuText(spec, i);
    const TorchVariant* v = NewestFor(c, spec, cc);
    if (v == nullptr) {
      out.push_back({"suggest.source_build", {{"gpu", gpu}, {"arch_list", cc.ToString()}}});
      continue;
    }
    if (v->torch == c.torch.back().torch) continue;  // the newest release still carries it
    const GpuArchitecture* a = ArchitectureFor(c, cc);
    out.push_back({"suggest.last_release_for_gpu", {{"gpu", gpu}, {"arch", a ? a->name : cc.Sm()},
                                                    {"torch", v->torch.Public() + "+" + v->variant.tag}}});
  }
}

}  // namespace

std::vector<Reason> Suggest(const Catalog& c, const MachineSpec& spec, const Plan& failed) {
  std::vector<Reason> out;
  if (failed.rejected.empty()) {
    out.push_back({"suggest.no_release", {{"spec", spec.torch.text + (spec.variant ? "+" + spec.variant->tag : "")}}});
  }
  SuggestDriver(c, spec, failed, out);
  SuggestPython(c, spec, failed, out);
  SuggestTorchSpec(c, spec, out);
  SuggestLeaveOut(c, spec, out);
  SuggestForGpus(c, spec, failed, out);
  return out;
}

}  // namespace cudamatch
