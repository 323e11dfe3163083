// The constraints a candidate (release + variant + platform) must meet on a machine. Each
// check returns every failure it finds, so a rejection names all of them.
#include "core/text.h"
#include "plan/companions.h"
#include "plan/gaps.h"
#include "plan/plan.h"

namespace cudamatch {

namespace {

std::string GpuLabel(const MachineSpec& spec, size_t i) {
  std::string cc = spec.gpus[i].Sm();
  return i < spec.gpu_names.size() && !spec.gpu_names[i].empty() ? spec.gpu_names[i] + " (" + cc + ")" : cc;
}

// The message for a driver too old for a variant's CUDA, by which requirements are known.
std::string TooOldId(const DriverRequirement& req) {
  if (req.toolkit_min && req.minor_compat && !(*req.toolkit_min == *req.minor_compat)) return "reject.driver_too_old";
  if (req.toolkit_min) return "reject.driver_too_old_major";
  if (req.minor_compat) return "reject.driver_too_old_floor";
  return "reject.driver_too_old_bare";
}

std::string UnknownFitId(const DriverRequirement& req, bool have_driver) {
  if (have_driver) return req.toolkit_min ? "caveat.driver_fit_unknown" : "caveat.driver_fit_unknown_need";
  if (!req.toolkit_min) return "caveat.driver_unknown_need";
  return req.minor_compat && !(*req.toolkit_min == *req.minor_compat) ? "caveat.driver_unknown"
                                                                       : "caveat.driver_unknown_major";
}

MessageArgs DriverArgs(const TorchVariant& v, const DriverRequirement& req, const std::string& have) {
  MessageArgs args = {{"variant", v.variant.tag}, {"cuda", v.variant.cuda->MajorMinor()}};
  if (!have.empty()) args.push_back({"driver", have});
  if (req.toolkit_min) args.push_back({"need", req.toolkit_min->text});
  if (req.minor_compat) args.push_back({"floor", req.minor_compat->text});
  return args;
}

void CheckDriver(const Catalog& c, const MachineSpec& spec, const TorchVariant& v, std::vector<Reason>& out,
                 std::vector<Reason>* caveats) {
  DriverRequirement req = MinDriverFor(c, *v.variant.cuda, spec.platform.os);
  DriverFit fit = DriverFitFor(c, spec, v);
  std::string have = spec.driver ? spec.driver->text : spec.driver_cuda ? "CUDA " + spec.driver_cuda->MajorMinor() : "";
  MessageArgs args = DriverArgs(v, req, have);
  switch (fit) {
    case DriverFit::kFull:
      return;
    case DriverFit::kMinorCompat:
      if (spec.require_full_driver) out.push_back({"reject.driver_minor_compat_only", args});
      else if (caveats) caveats->push_back({req.toolkit_min ? "caveat.minor_compat" : "caveat.minor_compat_need", args});
      return;
    case DriverFit::kTooOld:
      out.push_back({TooOldId(req), args});
      return;
    case DriverFit::kUnknown:
      if (caveats) caveats->push_back({UnknownFitId(req, !have.empty()), args});
      return;
  }
}

void CheckGpus(const Catalog& c, const MachineSpec& spec, const TorchVariant& v, std::vector<Reason>& out,
               std::vector<Reason>* caveats) {
  if (spec.gpus.empty()) return;
  if (!v.arch_list) {
    // The list is unknown, but not what CUDA itself can build: a GPU outside that is certain.
    std::optional<ArchList> widest = WidestArchList(c, *v.variant.cuda);
    bool unknown = false;
    for (size_t i = 0; i < spec.gpus.size(); ++i) {
      if (!widest || FitWheel(c, *widest, *v.variant.cuda, spec.gpus[i]).fit != KernelFit::kNone) {
        unknown = true;
        continue;
      }
      out.push_back({"reject.cuda_cannot_target", {{"gpu", GpuLabel(spec, i)}, {"cuda", v.variant.cuda->MajorMinor()},
                                                   {"list", Join(ArchListNames(*widest), " ")}}});
    }
    if (unknown) out.push_back({"reject.arch_unknown", {{"variant", v.variant.tag}}});
    return;
  }
  std::string list = Join(ArchListNames(*v.arch_list), " ");
  for (size_t i = 0; i < spec.gpus.size(); ++i) {
    ArchFit fit = FitWheel(c, *v.arch_list, *v.variant.cuda, spec.gpus[i]);
    MessageArgs args = {{"gpu", GpuLabel(spec, i)}, {"variant", v.variant.tag}, {"list", list}};
    if (fit.fit == KernelFit::kNone) out.push_back({"reject.no_kernels", args});
    if (fit.fit == KernelFit::kPtx && caveats) {
      args.push_back({"via", fit.via.Compute()});
      caveats->push_back({"caveat.ptx_jit", args});
    }
  }
}

void CheckTorchPython(const TorchRelease& t, const PyVersion& py, std::vector<Reason>& out) {
  PythonFit fit = FitPython(t, py);
  if (fit == PythonFit::kUnknown) {
    out.push_back({"reject.python_unknown", {{"python", py.ToString()}}});
  } else if (fit == PythonFit::kUnsupported) {
    out.push_back({"reject.python", {{"python", py.ToString()}, {"min", t.python_min->ToString()},
                                     {"max", t.python_max->ToString()}}});
  }
}

// torchvision and torchaudio publish their own wheels, with their own Python range.
void CheckCompanionPython(const Catalog& c, const TorchRelease& t, const MachineSpec& spec, std::vector<Reason>& out) {
  for (bool audio : {false, true}) {
    if (!(audio ? spec.with_torchaudio : spec.with_torchvision)) continue;
    const auto& version = audio ? t.torchaudio : t.torchvision;
    if (!version) continue;
    std::string package = audio ? "torchaudio" : "torchvision";
    PythonRange range = CompanionPythonRange(c, package, *version);
    PyVersion plain = *spec.python;
    plain.freethreaded = false;
    bool below = range.min && plain < *range.min;
    bool above = range.max && plain > *range.max;
    if (!below && !above) continue;
    MessageArgs args = {{"package", package}, {"version", version->Public()}, {"python", spec.python->ToString()}};
    if (range.min && range.max) {
      args.push_back({"min", range.min->ToString()});
      args.push_back({"max", range.max->ToString()});
      out.push_back({"reject.companion_python", std::move(args)});
    } else if (above) {  // only the newest Python of its wheels is known
      args.push_back({"max", range.max->ToString()});
      out.push_back({"reject.companion_python_newest", std::move(args)});
    } else {
      args.push_back({"min", range.min->ToString()});
      out.push_back({"reject.companion_python_oldest", std::move(args)});
    }
  }
}

}  // namespace

DriverFit DriverFitFor(const Catalog& c, const MachineSpec& spec, const TorchVariant& v) {
  if (!v.variant.cuda) return DriverFit::kUnknown;
  if (spec.driver) return FitDriver(c, *spec.driver, *v.variant.cuda, spec.platform.os);
  if (spec.driver_cuda) return FitDriverCuda(c, *spec.driver_cuda, std::nullopt, *v.variant.cuda, spec.platform.os);
  return DriverFit::kUnknown;
}

std::vector<Reason> CheckDriverWindow(const Catalog& c, const MachineSpec& spec) {
  std::vector<Reason> out;
  if (!spec.driver) return out;
  int branch = spec.driver->branch();
  for (size_t i = 0; i < spec.gpus.size(); ++i) {
    const GpuArchitecture* a = ArchitectureFor(c, spec.gpus[i]);
    if (a == nullptr) continue;
    MessageArgs args = {{"driver", spec.driver->text}, {"gpu", GpuLabel(spec, i)}, {"arch", a->name}};
    if (a->min_driver_branch && branch < *a->min_driver_branch) {
      args.push_back({"branch", std::to_string(*a->min_driver_branch)});
      out.push_back({"reject.driver_below_arch", args});
    } else if (a->last_driver_branch && branch > *a->last_driver_branch) {
      args.push_back({"branch", std::to_string(*a->last_driver_branch)});
      out.push_back({"reject.driver_past_arch", args});
    }
  }
  return out;
}

std::vector<Reason> CheckRelease(const Catalog& c, const TorchRelease& t, const MachineSpec& spec) {
  std::vector<Reason> out;
  if (!spec.torch.Matches(t.torch)) out.push_back({"reject.torch_spec", {{"spec", spec.torch.text}}});
  if (spec.python) {
    CheckTorchPython(t, *spec.python, out);
    CheckCompanionPython(c, t, spec, out);
  }
  return out;
}

std::vector<Reason> CheckCandidate(const Catalog& c, const MachineSpec& spec, const TorchRelease& t,
                                   const TorchVariant& v, std::vector<Reason>* caveats) {
  std::vector<Reason> out;
  if (v.variant.is_cuda()) {
    CheckDriver(c, spec, v, out, caveats);
    for (Reason& r : CheckDriverWindow(c, spec)) out.push_back(std::move(r));
    CheckGpus(c, spec, v, out, caveats);
  }
  if (spec.python && FitPython(t, *spec.python) == PythonFit::kExperimental && caveats) {
    caveats->push_back({"caveat.python_experimental", {{"python", spec.python->ToString()}}});
  }
  return out;
}

}  // namespace cudamatch
