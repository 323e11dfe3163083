#include "plan/plan.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "core/text.h"
#include "plan/gaps.h"
#include "plan/platform_gate.h"
#include "plan/remedy_text.h"
#include "plan/suggest.h"

namespace cudamatch {

namespace {

std::string Label(const TorchRelease& t, const TorchVariant* v) {
  return v ? t.torch.Public() + "+" + v->variant.tag : t.torch.Public();
}

std::string Line(const TorchRelease& t) { return std::to_string(t.torch.Part(0)) + "." + std::to_string(t.torch.Part(1)); }

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

bool WantGpu(const MachineSpec& spec) {
  if (spec.variant) return spec.variant->kind != Variant::Kind::kCpu;
  return spec.has_nvidia_gpu || !spec.gpus.empty() || spec.driver || spec.driver_cuda;
}

bool Considered(const MachineSpec& spec, const TorchVariant& v) {
  if (spec.variant) return v.variant.tag == spec.variant->tag;
  if (v.variant.kind == Variant::Kind::kRocm || v.variant.kind == Variant::Kind::kOther) return false;
  return WantGpu(spec) == v.variant.is_cuda();
}

// The best variant of one release, or nullopt with every rejection recorded. Release-level
// failures (Python) are part of every variant's rejection.
std::optional<Choice> BestVariant(const Catalog& c, const MachineSpec& spec, const TorchRelease& t,
                                  const std::vector<Reason>& release_reasons, std::vector<Rejection>& rejected) {
  std::optional<Choice> best;
  bool any = false;
  for (const TorchVariant* v : VariantsOf(c, t.torch, spec.platform.Name())) {
    if (!Considered(spec, *v)) continue;
    any = true;
    Choice choice{v, DriverFit::kUnknown, {}};
    std::vector<Reason> reasons = release_reasons;
    for (Reason& r : CheckCandidate(c, spec, t, *v, &choice.caveats)) reasons.push_back(std::move(r));
    if (!reasons.empty()) {
      rejected.push_back({Label(t, v), Line(t), std::move(reasons), PartlyKnown(c, t)});
      continue;
    }
    choice.fit = v->variant.is_cuda() ? DriverFitFor(c, spec, *v) : DriverFit::kUnknown;
    if (!best || (v->variant.is_cuda() && Rank(choice.fit, *v) > Rank(best->fit, *best->variant))) {
      best = choice;
    }
  }
  if (!any) {
    std::vector<Reason> reasons = release_reasons;
    reasons.push_back(!spec.variant
                          ? Reason{"reject.no_wheels_platform", {{"platform", spec.platform.Name()}}}
                          : Reason{"reject.no_such_variant", {{"variant", spec.variant->tag}, {"platform", spec.platform.Name()}}});
    rejected.push_back({Label(t, nullptr), Line(t), std::move(reasons), PartlyKnown(c, t)});
  }
  return best;
}

InstallRequest Request(const Catalog& c, const MachineSpec& spec, const TorchRelease& t, const TorchVariant* v,
                       const Mirror* mirror) {
  InstallRequest req{&t, v, spec.platform, spec.with_torchvision, spec.with_torchaudio, mirror};
  req.pytorch_mirror = mirror != nullptr ? PytorchMirrorOf(c, *mirror) : nullptr;
  req.interpreter = spec.interpreter;
  req.externally_managed = !spec.externally_managed.empty();
  return req;
}

// What the commands assume (no interpreter known) or do (a venv for PEP 668, a mirror's
// operator's PyTorch wheels), one line each.
std::vector<Reason> CommandNotes(const MachineSpec& spec, const Plan& plan) {
  std::vector<Reason> out;
  Shell shell = spec.platform.os == Os::kWindows ? Shell::kPowerShell : Shell::kPosix;
  std::string pip = spec.platform.os == Os::kWindows ? "python" : "pip";  // what the command runs
  if (spec.interpreter.empty() && spec.python) {
    out.push_back({"plan.note.assumed_python", {{"pip", pip}, {"python", spec.python->ToString()}}});
  } else if (spec.interpreter.empty()) {
    out.push_back({"plan.note.assumed_python_any", {{"pip", pip}}});
  }
  if (plan.commands.pip_install.into_venv) {
    out.push_back({"plan.note.externally_managed",
                   {{"python", spec.interpreter}, {"marker", spec.externally_managed}, {"venv", VenvDir(shell)},
                    {"venv_python", VenvPython(shell)}}});
  }
  if (plan.commands.operator_mirror != nullptr && spec.mirror != nullptr) {
    out.push_back({"plan.note.operator_mirror",
                   {{"mirror", spec.mirror->name}, {"variant", plan.variant->variant.tag}, {"pytorch_mirror", plan.commands.operator_mirror->name}}});
  }
  return out;
}

void Fill(const Catalog& c, const MachineSpec& spec, const TorchRelease& t, Choice best, Plan& plan) {
  plan.release = &t;
  plan.variant = best.variant;
  plan.driver_fit = best.fit;
  plan.caveats = std::move(best.caveats);
  plan.commands = BuildInstallCommands(Request(c, spec, t, best.variant, spec.mirror));
  if (plan.commands.mirror_cannot_serve) {
    plan.caveats.push_back({"caveat.mirror_cannot_serve", {{"mirror", spec.mirror->name}, {"variant", best.variant->variant.tag}}});
  }
  if (!t.torchvision && spec.with_torchvision) plan.caveats.push_back({"caveat.no_torchvision", {}});
  if (!t.torchaudio && spec.with_torchaudio) plan.caveats.push_back({"caveat.no_torchaudio", {}});
  plan.command_notes = CommandNotes(spec, plan);
  const Mirror* other = spec.mirror != nullptr ? nullptr : spec.alternative_mirror;
  if (spec.mirror != nullptr || other != nullptr) {
    plan.alternative = Plan::Alternative{other, BuildInstallCommands(Request(c, spec, t, best.variant, other))};
  }
}

bool SameReason(const Reason& a, const Reason& b) { return a.id == b.id && a.args == b.args; }

bool Has(const std::vector<Reason>& list, const Reason& r) {
  return std::any_of(list.begin(), list.end(), [&](const Reason& x) { return SameReason(x, r); });
}

}  // namespace

RejectionSummary GroupRejections(const std::vector<Rejection>& rejected) {
  RejectionSummary out;
  if (rejected.empty()) return out;
  // Shared: failed by every rejected wheel (releases without wheels for the platform aside).
  std::vector<const Rejection*> wheels;
  for (const Rejection& r : rejected) {
    if (r.candidate.find('+') != std::string::npos) wheels.push_back(&r);
  }
  for (const Reason& r : wheels.empty() ? std::vector<Reason>{} : wheels.front()->reasons) {
    bool everywhere = std::all_of(wheels.begin(), wheels.end(), [&](const Rejection* x) { return Has(x->reasons, r); });
    if (everywhere && wheels.size() > 1) out.shared.push_back(r);
  }
  std::map<std::pair<std::string, std::string>, size_t> index;
  for (const Rejection& r : rejected) {
    std::vector<const Reason*> rest;
    std::string key;
    for (const Reason& x : r.reasons) {
      if (Has(out.shared, x)) continue;
      rest.push_back(&x);
      key += x.id + "\n";
      for (const auto& [k, v] : x.args) key += k + "=" + v.value_or("") + "\n";
    }
    auto [it, inserted] = index.emplace(std::make_pair(r.line, key), out.groups.size());
    if (inserted) out.groups.push_back({r.line, {}, rest});
    out.groups[it->second].members.push_back(&r);
  }
  return out;
}

Plan PlanWithoutSuggestions(const Catalog& c, const MachineSpec& asked) {
  PlatformGate gate = GatePlatform(c, asked);  // macOS and Jetson: no PyPI CUDA wheel serves them
  const MachineSpec& spec = gate.spec;
  Plan plan;
  plan.platform_notes = std::move(gate.notes);
  plan.cpu_only = gate.cpu_only;
  plan.jetpacks = std::move(gate.jetpacks);
  for (auto it = c.torch.rbegin(); it != c.torch.rend(); ++it) {
    const TorchRelease& t = *it;
    if (!spec.torch.Matches(t.torch)) continue;
    std::vector<Reason> release_reasons = CheckRelease(c, t, spec);
    std::optional<Choice> best = BestVariant(c, spec, t, release_reasons, plan.rejected);
    if (!best) continue;
    Fill(c, spec, t, std::move(*best), plan);
    return plan;
  }
  return plan;
}

namespace {

bool OnlyArchUnknown(const std::vector<Reason>& reasons) {
  return !reasons.empty() && std::all_of(reasons.begin(), reasons.end(), [](const Reason& r) { return r.id == "reject.arch_unknown"; });
}

}  // namespace

std::optional<Plan::Unconfirmed> UnconfirmedCandidate(const Catalog& c, const MachineSpec& asked) {
  const MachineSpec spec = GatePlatform(c, asked).spec;
  for (auto it = c.torch.rbegin(); it != c.torch.rend(); ++it) {
    const TorchRelease& t = *it;
    if (!spec.torch.Matches(t.torch) || !CheckRelease(c, t, spec).empty()) continue;
    std::optional<Plan::Unconfirmed> best;
    DriverFit best_fit = DriverFit::kUnknown;
    for (const TorchVariant* v : VariantsOf(c, t.torch, spec.platform.Name())) {
      if (!Considered(spec, *v)) continue;
      std::vector<Reason> caveats;
      if (!OnlyArchUnknown(CheckCandidate(c, spec, t, *v, &caveats))) continue;
      DriverFit fit = v->variant.is_cuda() ? DriverFitFor(c, spec, *v) : DriverFit::kUnknown;
      if (best && Rank(fit, *v) <= Rank(best_fit, *best->variant)) continue;
      best = Plan::Unconfirmed{&t, v, BuildInstallCommands(Request(c, spec, t, v, spec.mirror)), std::move(caveats)};
      best_fit = fit;
    }
    if (best) return best;
  }
  return std::nullopt;
}

Plan MakePlan(const Catalog& c, const MachineSpec& spec) {
  Plan plan = PlanWithoutSuggestions(c, spec);
  if (!plan.release) {
    plan.unconfirmed = UnconfirmedCandidate(c, spec);
    plan.suggestions = Suggest(c, spec, plan);
  }
  return plan;
}

}  // namespace cudamatch
