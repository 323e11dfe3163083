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

std::string InstallCommand(const Catalog& c, const MachineSpec& spec, const TorchRelease& t, const TorchVariant& v) {
  InstallRequest req{&t, &v, spec.platform, false, false, spec.mirror};
  req.pytorch_mirror = spec.mirror != nullptr ? PytorchMirrorOf(c, *spec.mirror) : nullptr;
  return BuildInstallCommands(req).pip;
}

// Where a torch_complete.tsv row's facts come from: its sources' places.
std::string SourcePlaces(const Catalog& c, const TorchCompleteList& list) {
  std::vector<std::string> places;
  for (std::string_view id : list.prov.sources()) {
    const SourceRef* s = FindSource(c, id);
    places.emplace_back(s != nullptr ? s->where : id);
  }
  return Join(places, "; ");
}

}  // namespace

Reason NoSuchBuild(const Catalog& c, const MachineSpec& spec, const TorchRelease& t, const TorchCompleteList& list,
                   std::string_view tag) {
  std::vector<std::string> tags;
  for (const TorchVariant* v : VariantsOf(c, t.torch, spec.platform.Name())) tags.push_back(v->variant.tag);
  MessageArgs args = {{"candidate", t.torch.Public() + "+" + std::string(tag)},
                      {"torch", t.torch.Public()},
                      {"platform", spec.platform.Name()},
                      {"list", Join(tags, ", ")},
                      {"source", SourcePlaces(c, list)}};
  std::vector<const TorchVariant*> builds = CudaBuilds(c, spec, t);
  if (builds.empty()) return Reason{"check.no_such_build_listed", std::move(args)};
  const TorchVariant* named = BuildToName(c, spec, t, builds);
  args.push_back({"variant", named->variant.tag});
  args.push_back({"command", InstallCommand(c, spec, t, *named)});
  return Reason{"check.no_such_build", std::move(args)};
}

Problem NoWheelsForPlatform(const Catalog& c, const MachineSpec& spec, const TorchRelease& t,
                            const TorchCompleteList& list) {
  std::string platform(spec.platform.Name());
  const TorchRelease* newest = nullptr;
  for (const TorchRelease& r : c.torch) {
    if (!VariantsOf(c, r.torch, platform).empty() && (!newest || r.torch > newest->torch)) newest = &r;
  }
  MessageArgs args = {{"torch", t.torch.Public()}, {"platform", platform}, {"source", SourcePlaces(c, list)}};
  if (!newest) return Problem{"check.no_wheels_platform", std::move(args), {}, ""};
  args.push_back({"newest", newest->torch.Public()});
  return Problem{"check.no_wheels_platform_newest", std::move(args), {}, "torch==" + newest->torch.Public()};
}

std::optional<Reason> PypiCpuNote(const Catalog& c, const MachineSpec& spec,
                                  const TorchRelease& t) {
  std::vector<const TorchVariant*> builds = CudaBuilds(c, spec, t);
  if (builds.empty()) return std::nullopt;
  const TorchVariant* named = BuildToName(c, spec, t, builds);
  std::vector<std::string> tags;
  for (auto it = builds.rbegin(); it != builds.rend(); ++it) tags.push_back((*it)->variant.tag);
  return Reason{"check.pypi_cpu",
                {{"torch", t.torch.Public()},
                 {"platform", spec.platform.Name()},
                 {"variants", Join(tags, ", ")},
                 {"variant", named->variant.tag},
                 {"command", InstallCommand(c, spec, t, *named)}}};
}

}  // namespace cudamatch
