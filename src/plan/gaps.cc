#include "plan/gaps.h"

#include "catalog/query.h"
#include "core/text.h"
#include "plan/lookup.h"

namespace cudamatch {

bool PartlyKnown(const Catalog& c, const TorchRelease& t) {
  if (!t.python_min || !t.python_max) return true;
  for (const TorchVariant& v : c.torch_variants) {
    if (v.torch == t.torch) return false;
  }
  return true;
}

Reason TorchNotInCatalog(const Catalog& c, const Pep440& version) {
  std::vector<std::string> near;
  for (const TorchRelease* t : NearestTorch(c, version, 3)) near.push_back(t->torch.Public());
  return {near.empty() ? "gap.torch" : "gap.torch_near",
          {{"version", version.Public()}, {"date", c.data_date}, {"nearest", Join(near, ", ")}}};
}

Reason CompanionNotInCatalog(const Catalog& c, std::string_view package, const Pep440& version) {
  std::vector<std::string> near;
  for (const auto& [ver, t] : NearestPaired(c, version, package == "torchaudio", 3)) {
    near.push_back(ver.Public() + " (torch " + t->torch.Public() + ")");
  }
  return {near.empty() ? "gap.companion" : "gap.companion_near",
          {{"name", std::string(package)}, {"version", version.Public()}, {"date", c.data_date},
           {"nearest", Join(near, ", ")}}};
}

Reason VariantNotInCatalog(const Catalog& c, const TorchRelease& t, std::string_view tag, std::string_view platform) {
  std::vector<std::string> tags;
  for (const TorchVariant* v : VariantsOf(c, t.torch, platform)) tags.push_back(v->variant.tag);
  return {tags.empty() ? "gap.variant_none" : "gap.variant",
          {{"torch", t.torch.Public()}, {"variant", std::string(tag)}, {"platform", std::string(platform)},
           {"date", c.data_date}, {"list", Join(tags, " ")}}};
}

std::optional<ArchList> WidestArchList(const Catalog& c, const CudaVersion& cuda) {
  const CudaTargets* targets = TargetsFor(c, cuda);
  if (targets == nullptr || targets->targets.empty()) return std::nullopt;
  ArchList list;
  for (const ComputeCapability& cc : targets->targets) list.push_back({cc, false});
  list.back().ptx = true;
  return list;
}

std::vector<Reason> JudgeFromCuda(const Catalog& c, const MachineSpec& spec, const Pep440& build, const Variant& variant) {
  const std::string platform = spec.platform.Name();
  TorchVariant v{build, platform, variant, "", std::nullopt, false, {}};
  v.arch_list = WidestArchList(c, *variant.cuda);
  TorchRelease t{build, "", std::nullopt, std::nullopt, std::nullopt, std::nullopt, {},
                 InstallEra::kUnknown, CondaForm::kUnknown, {}};
  MachineSpec judged = spec;
  if (!v.arch_list) judged.gpus.clear();
  std::vector<Reason> reasons = CheckCandidate(c, judged, t, v, nullptr);
  for (Reason& r : reasons) {
    if (r.id == "reject.no_kernels") r = {"reject.cuda_cannot_target", {r.args[0], {"cuda", variant.cuda->MajorMinor()}, r.args[2]}};
  }
  return reasons;
}

}  // namespace cudamatch
