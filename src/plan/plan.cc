#include "plan/plan.h"

#include <algorithm>
#include <tuple>

#include "core/text.h"
#include "plan/platform_gate.h"

namespace cudamatch {

namespace {

std::string Label(const TorchRelease& t, const TorchVariant* v) {
  return v ? t.torch.Public() + "+" + v->variant.tag : t.torch.Public();
}

std::string GpuLabel(const MachineSpec& spec, size_t i) {
  std::string cc = spec.gpus[i].Sm();
  return i < spec.gpu_names.size() && !spec.gpu_names[i].empty() ? spec.gpu_names[i] + " (" + cc + ")" : cc;
}

std::optional<Reason> CheckDriver(const Catalog& c, const MachineSpec& spec, const TorchVariant& v,
                                  std::vector<Reason>* caveats, DriverFit* fit_out) {
  const CudaVersion& cuda = *v.variant.cuda;
  DriverRequirement req = MinDriverFor(c, cuda, spec.platform.os);
  std::string need = req.toolkit_min ? req.toolkit_min->text : "?";
  std::string floor = req.minor_compat ? req.minor_compat->text : need;
  DriverFit fit = DriverFit::kUnknown;
  std::string have;
  if (spec.driver) {
    fit = FitDriver(c, *spec.driver, cuda, spec.platform.os);
    have = spec.driver->text;
  } else if (spec.driver_cuda) {
    fit = FitDriverCuda(c, *spec.driver_cuda, std::nullopt, cuda, spec.platform.os);
    have = "CUDA " + spec.driver_cuda->MajorMinor();
  }
  *fit_out = fit;
  MessageArgs args = {{"variant", v.variant.tag}, {"cuda", cuda.MajorMinor()}, {"driver", have},
                      {"need", need}, {"floor", floor}};
  switch (fit) {
    case DriverFit::kFull:
      return std::nullopt;
    case DriverFit::kMinorCompat:
      if (caveats) caveats->push_back({"caveat.minor_compat", args});
      return std::nullopt;
    case DriverFit::kTooOld:
      return Reason{need == floor ? "reject.driver_too_old_major" : "reject.driver_too_old", args};
    case DriverFit::kUnknown:
      break;
  }
  if (caveats) {
    caveats->push_back({have.empty() ? (need == floor ? "caveat.driver_unknown_major" : "caveat.driver_unknown")
                                     : "caveat.driver_fit_unknown",
                        args});
  }
  return std::nullopt;
}

std::optional<Reason> CheckGpus(const Catalog& c, const MachineSpec& spec, const TorchVariant& v,
                                std::vector<Reason>* caveats) {
  if (spec.gpus.empty()) return std::nullopt;
  if (!v.arch_list) return Reason{"reject.arch_unknown", {{"variant", v.variant.tag}}};
  std::string list = Join(ArchListNames(*v.arch_list), " ");
  for (size_t i = 0; i < spec.gpus.size(); ++i) {
    ArchFit fit = FitWheel(c, *v.arch_list, *v.variant.cuda, spec.gpus[i]);
    MessageArgs args = {{"gpu", GpuLabel(spec, i)}, {"variant", v.variant.tag}, {"list", list}};
    if (fit.fit == KernelFit::kNone) return Reason{"reject.no_kernels", args};
    if (fit.fit == KernelFit::kPtx && caveats) {
      args.push_back({"via", fit.via.Compute()});
      caveats->push_back({"caveat.ptx_jit", args});
    }
  }
  return std::nullopt;
}

// Higher is better: full driver support over minor-version compatibility; with the driver
// unknown, PyPI's default variant (what most users get); then the newer CUDA.
std::tuple<int, bool, CudaVersion> Rank(DriverFit fit, const TorchVariant& v) {
  int driver_rank = fit == DriverFit::kFull ? 2 : fit == DriverFit::kUnknown ? 1 : 0;
  bool preferred = fit == DriverFit::kUnknown && v.pypi_default;
  return {driver_rank, preferred, v.variant.cuda.value_or(CudaVersion{})};
}

struct Choice {
  const TorchVariant* variant = nullptr;
  DriverFit fit = DriverFit::kUnknown;
  std::vector<Reason> caveats;
};

// The best variant of one release, or nullopt with every rejection recorded.
std::optional<Choice> BestVariant(const Catalog& c, const MachineSpec& spec, const TorchRelease& t,
                                  std::vector<Rejection>& rejected) {
  std::optional<Choice> best;
  bool want_gpu = spec.has_nvidia_gpu || !spec.gpus.empty() || spec.driver || spec.driver_cuda;
  for (const TorchVariant* v : VariantsOf(c, t.torch, spec.platform.Name())) {
    if (v->variant.kind == Variant::Kind::kRocm || v->variant.kind == Variant::Kind::kOther) continue;
    if (want_gpu != v->variant.is_cuda()) continue;
    Choice choice{v, DriverFit::kUnknown, {}};
    if (auto reason = CheckCandidate(c, spec, t, *v, &choice.caveats)) {
      rejected.push_back({Label(t, v), *reason});
      continue;
    }
    if (v->variant.is_cuda()) CheckDriver(c, spec, *v, nullptr, &choice.fit);
    if (!best || (v->variant.is_cuda() && Rank(choice.fit, *v) > Rank(best->fit, *best->variant))) {
      best = choice;
    }
  }
  if (!best && want_gpu && VariantsOf(c, t.torch, spec.platform.Name()).empty()) {
    rejected.push_back({Label(t, nullptr), {"reject.no_wheels_platform", {{"platform", spec.platform.Name()}}}});
  }
  return best;
}

}  // namespace

std::optional<Reason> CheckRelease(const TorchRelease& t, const MachineSpec& spec) {
  if (!spec.torch.Matches(t.torch)) return Reason{"reject.torch_spec", {{"spec", spec.torch.text}}};
  if (spec.python) {
    PythonFit fit = FitPython(t, *spec.python);
    MessageArgs args = {{"python", spec.python->ToString()}, {"min", t.python_min ? t.python_min->ToString() : "?"},
                        {"max", t.python_max ? t.python_max->ToString() : "?"}};
    if (fit == PythonFit::kUnsupported) return Reason{"reject.python", args};
    if (fit == PythonFit::kUnknown) return Reason{"reject.python_unknown", args};
  }
  return std::nullopt;
}

std::optional<Reason> CheckCandidate(const Catalog& c, const MachineSpec& spec, const TorchRelease& t,
                                     const TorchVariant& v, std::vector<Reason>* caveats) {
  if (v.variant.is_cuda()) {
    DriverFit fit;
    if (auto r = CheckDriver(c, spec, v, caveats, &fit)) return r;
    if (auto r = CheckGpus(c, spec, v, caveats)) return r;
  }
  if (spec.python && FitPython(t, *spec.python) == PythonFit::kExperimental && caveats) {
    caveats->push_back({"caveat.python_experimental", {{"python", spec.python->ToString()}}});
  }
  return std::nullopt;
}

Plan MakePlan(const Catalog& c, const MachineSpec& asked) {
  PlatformGate gate = GatePlatform(asked);
  const MachineSpec& spec = gate.spec;
  Plan plan;
  for (auto it = c.torch.rbegin(); it != c.torch.rend(); ++it) {
    const TorchRelease& t = *it;
    if (auto reason = CheckRelease(t, spec)) {
      if (reason->id != "reject.torch_spec") plan.rejected.push_back({Label(t, nullptr), *reason});
      continue;
    }
    std::optional<Choice> best = BestVariant(c, spec, t, plan.rejected);
    if (!best) continue;
    plan.release = &t;
    plan.variant = best->variant;
    plan.driver_fit = best->fit;
    plan.caveats = gate.notes;
    plan.caveats.insert(plan.caveats.end(), best->caveats.begin(), best->caveats.end());
    plan.commands = BuildInstallCommands(
        InstallRequest{&t, best->variant, spec.platform, spec.with_torchvision, spec.with_torchaudio, spec.mirror});
    if (plan.commands.mirror_cannot_serve) {
      plan.caveats.push_back({"caveat.mirror_cannot_serve", {{"mirror", spec.mirror->name}, {"variant", best->variant->variant.tag}}});
    }
    if (!t.torchvision && spec.with_torchvision) plan.caveats.push_back({"caveat.no_torchvision", {}});
    if (!t.torchaudio && spec.with_torchaudio) plan.caveats.push_back({"caveat.no_torchaudio", {}});
    return plan;
  }
  // Nothing fits: summarise which constraint excluded what.
  std::vector<std::string> seen;
  for (const Rejection& r : plan.rejected) {
    if (std::find(seen.begin(), seen.end(), r.reason.id) != seen.end()) continue;
    seen.push_back(r.reason.id);
    plan.reasons.push_back(r.reason);
  }
  if (plan.reasons.empty()) plan.reasons.push_back({"reject.torch_spec", {{"spec", spec.torch.text}}});
  plan.reasons.insert(plan.reasons.begin(), gate.notes.begin(), gate.notes.end());
  return plan;
}

}  // namespace cudamatch
