#include "plan/check_pypi.h"

#include <algorithm>
#include <string>
#include <vector>

#include "catalog/query.h"
#include "core/text.h"
#include "plan/commands.h"

namespace cudamatch {

namespace {

bool OnlyArchUnknown(const std::vector<Reason>& reasons) {
  return std::all_of(reasons.begin(), reasons.end(),
                     [](const Reason& r) { return r.id == "reject.arch_unknown"; });
}

// The CUDA builds of `t` on the platform, newest CUDA first.
std::vector<const TorchVariant*> CudaBuilds(const Catalog& c, const MachineSpec& spec,
                                            const TorchRelease& t) {
  std::vector<const TorchVariant*> out;
  for (const TorchVariant* v : VariantsOf(c, t.torch, spec.platform.Name())) {
    if (v->variant.is_cuda()) out.push_back(v);
  }
  std::sort(out.begin(), out.end(), [](const TorchVariant* a, const TorchVariant* b) {
    return VariantSortKey(a->variant) > VariantSortKey(b->variant);
  });
  return out;
}

const TorchVariant* BuildToName(const Catalog& c, const MachineSpec& spec, const TorchRelease& t,
                                const std::vector<const TorchVariant*>& builds) {
  for (const TorchVariant* v : builds) {
    std::vector<Reason> caveats;
    if (OnlyArchUnknown(CheckCandidate(c, spec, t, *v, &caveats))) return v;
  }
  return builds.front();
}

}  // namespace

std::optional<Reason> PypiCpuNote(const Catalog& c, const MachineSpec& spec,
                                  const TorchRelease& t) {
  std::vector<const TorchVariant*> builds = CudaBuilds(c, spec, t);
  if (builds.empty()) return std::nullopt;
  const TorchVariant* named = BuildToName(c, spec, t, builds);
  InstallRequest req{&t, named, spec.platform, false, false, spec.mirror};
  req.pytorch_mirror = spec.mirror != nullptr ? PytorchMirrorOf(c, *spec.mirror) : nullptr;
  std::vector<std::string> tags;
  for (auto it = builds.rbegin(); it != builds.rend(); ++it) tags.push_back((*it)->variant.tag);
  return Reason{"check.pypi_cpu",
                {{"torch", t.torch.Public()},
                 {"platform", spec.platform.Name()},
                 {"variants", Join(tags, ", ")},
                 {"variant", named->variant.tag},
                 {"command", BuildInstallCommands(req).pip}}};
}

}  // namespace cudamatch
