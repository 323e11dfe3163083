// The answers `lookup gpu` and `lookup driver` start with: for the platform, Python and driver
// asked (or this machine's), the newest torch build that runs, found by the plan engine with the
// same constraints `plan` applies; for a GPU also the releases with code for it and what the
// catalog knows changes next.
#include <algorithm>

#include "core/text.h"
#include "plan/lookup.h"

namespace cudamatch {

namespace {

TorchPick PickFrom(const Catalog& c, const Plan& p, const Platform& platform) {
  TorchPick out;
  if (p.release == nullptr || p.variant == nullptr) return out;
  out.release = p.release;
  out.variant = p.variant;
  out.driver_fit = p.driver_fit;
  out.index_url = p.commands.pip_install.index_url;
  out.pip = p.commands.pip;
  if (p.variant->variant.cuda) out.min_driver = MinDriverFor(c, *p.variant->variant.cuda, platform.os).toolkit_min;
  return out;
}

// The plan for torch alone (no torchvision or torchaudio constraint) on the target.
MachineSpec SpecFor(const LookupTarget& t, bool with_driver, const Mirror* mirror) {
  MachineSpec spec;
  spec.platform = t.platform;
  spec.python = t.python;
  if (with_driver) {
    spec.driver = t.driver;
    spec.driver_cuda = t.driver_cuda;
  }
  spec.with_torchvision = false;
  spec.with_torchaudio = false;
  spec.mirror = mirror;
  return spec;
}

std::optional<KernelFit> KernelFor(const Catalog& c, const TorchVariant* v, const ComputeCapability& cc) {
  if (v == nullptr || !v->variant.cuda || !v->arch_list) return std::nullopt;
  return FitWheel(c, *v->arch_list, *v->variant.cuda, cc).fit;
}

TorchPick PickForGpu(const Catalog& c, const GpuAnswer& gpu, const LookupTarget& t, bool with_driver,
                     const Mirror* mirror) {
  MachineSpec spec = SpecFor(t, with_driver, mirror);
  spec.gpus = {gpu.cc};
  spec.gpu_names = {gpu.models.empty() ? "" : std::string(gpu.models.front()->name)};
  spec.has_nvidia_gpu = true;
  TorchPick pick = PickFrom(c, PlanWithoutSuggestions(c, spec), t.platform);
  if (pick.variant != nullptr && !pick.variant->variant.cuda) return TorchPick{};  // a CPU build is no answer
  pick.kernel = KernelFor(c, pick.variant, gpu.cc);
  return pick;
}

bool SamePick(const TorchPick& a, const TorchPick& b) { return a.release == b.release && a.variant == b.variant; }

// "CUDA 12.9 is the last toolkit with code for Pascal" (while wheels still carry its code), "R580
// is the last driver branch for it": what the catalog knows ends.
std::vector<Reason> NextChanges(const Catalog& c, const GpuAnswer& gpu, const GpuCodeSpan& span) {
  std::vector<Reason> out;
  const GpuArchitecture* a = gpu.architecture;
  if (a == nullptr) return out;
  bool open = span.last != nullptr && !span.ended();  // releases still carry code for it
  if (open && a->last_cuda && !gpu.still_supported) {
    out.push_back({"lookup.next.last_cuda", {{"arch", a->name}, {"cuda", a->last_cuda->MajorMinor()},
                                             {"list", Join(span.last_variants, " ")}}});
  } else if (open) {
    for (const CudaTargets& t : c.targets) {
      if (std::find(t.deprecated.begin(), t.deprecated.end(), gpu.cc) != t.deprecated.end()) {
        out.push_back({"lookup.next.deprecated", {{"cuda", t.cuda.MajorMinor()}, {"sm", gpu.cc.Sm()}}});
        break;
      }
    }
  }
  if (a->last_driver_branch) {
    out.push_back({"lookup.arch.last_driver", {{"arch", a->name}, {"branch", std::to_string(*a->last_driver_branch)}}});
  }
  return out;
}

void AddRun(std::vector<FitRun>& runs, DriverFit fit, const std::string& tag) {
  if (runs.empty() || runs.back().fit != fit) runs.push_back(FitRun{fit, tag, tag, 0});
  runs.back().last = tag;
  ++runs.back().count;
}

}  // namespace

GpuCodeSpan CodeSpanOn(const Catalog& c, const ComputeCapability& cc, const std::string& platform) {
  GpuCodeSpan span;
  for (const TorchRelease& t : c.torch) {  // oldest first
    std::vector<std::string> with, without;
    bool any_cuda = false, unknown = false;
    for (const TorchVariant* v : VariantsOf(c, t.torch, platform)) {
      if (!v->variant.cuda) continue;
      any_cuda = true;
      std::optional<KernelFit> fit = KernelFor(c, v, cc);
      if (fit) (*fit == KernelFit::kNone ? without : with).push_back(v->variant.tag);
      unknown = unknown || !fit;
    }
    if (!any_cuda) continue;
    if (span.oldest == nullptr) span.oldest = &t;
    span.newest = &t;
    span.unknown_after_last = span.unknown_after_last || (span.last != nullptr && unknown);
    if (with.empty()) continue;
    span.unknown_after_last = false;
    if (span.first == nullptr) {
      span.first = &t;
      span.first_variants = with;
    }
    span.last = &t;
    span.last_variants = with;
    span.last_without = without;
    ++span.releases;
  }
  return span;
}

GpuVerdict AnswerGpuFor(const Catalog& c, const GpuAnswer& gpu, const LookupTarget& target, const Mirror* mirror) {
  GpuVerdict v;
  v.target = target;
  v.newest = PickForGpu(c, gpu, target, true, mirror);
  if (v.newest.release == nullptr) {
    MachineSpec spec = SpecFor(target, true, mirror);
    spec.gpus = {gpu.cc};
    spec.gpu_names = {gpu.models.empty() ? "" : std::string(gpu.models.front()->name)};
    v.why_none = CheckDriverWindow(c, spec);
  }
  if (target.driver || target.driver_cuda) {
    TorchPick any = PickForGpu(c, gpu, target, false, mirror);
    if (!SamePick(any, v.newest)) v.newer_driver = any;
  }
  v.span = CodeSpanOn(c, gpu.cc, target.platform.Name());
  if (v.span.newest != nullptr) {
    const TorchVariant* d = PypiDefaultVariant(c, *v.span.newest, target.platform.Name());
    if (d != nullptr && d->variant.cuda && KernelFor(c, d, gpu.cc) == KernelFit::kNone) v.pypi_default = d;
  }
  v.next = NextChanges(c, gpu, v.span);
  return v;
}

DriverVerdict AnswerDriverFor(const Catalog& c, const DriverAnswer& driver, const LookupTarget& target,
                              const Mirror* mirror) {
  DriverVerdict v;
  v.target = target;
  v.target.driver = driver.driver;
  v.target.driver_cuda = driver.served.cuda;
  v.target.driver_from_machine = false;
  v.target.driver_checked = true;
  MachineSpec spec = SpecFor(v.target, true, mirror);
  spec.driver_cuda.reset();  // the driver's own version decides (FitDriver), as the variant rows do
  for (bool full : {false, true}) {
    spec.require_full_driver = full;
    TorchPick pick = PickFrom(c, PlanWithoutSuggestions(c, spec), target.platform);
    if (pick.variant != nullptr && pick.variant->variant.cuda) (full ? v.newest_full : v.newest) = pick;
  }
  for (const VariantFitAnswer& f : driver.variants) AddRun(v.runs, f.fit, f.tag);
  return v;
}

}  // namespace cudamatch
