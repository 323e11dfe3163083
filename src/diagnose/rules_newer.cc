// An installed torch the catalog does not cover yet: a release newer than every row, or a row
// the catalog knows only in part (no wheel facts for this platform, e.g. 2.15.0 at 2026-11-30).
// The finding says what is known of it (its declared CUDA and what that CUDA can target) and
// the date of the catalog's data.
#include "diagnose/rule_fns.h"

namespace cudamatch {

namespace {

// The newest release with wheel rows for this platform.
const TorchRelease* NewestWithWheels(const Catalog& c, const Platform& p) {
  if (const auto* releases = c.torch.Keys()) {  // the table unparsed: the rows asked for are read alone
    for (size_t i = releases->size(); i-- > 0;) {
      auto v = Pep440::Parse((*releases)[i]);
      if (v && !VariantsOf(c, *v, p.Name()).empty()) return c.torch.Row(i);
    }
    return nullptr;
  }
  for (auto it = c.torch.rbegin(); it != c.torch.rend(); ++it) {
    if (!VariantsOf(c, it->torch, p.Name()).empty()) return &*it;
  }
  return nullptr;
}

ArgValue TargetRange(const Catalog& c, const std::optional<CudaVersion>& cuda) {
  const CudaTargets* t = cuda ? TargetsFor(c, *cuda) : nullptr;
  if (t == nullptr || !t->min_cc || !t->max_cc) return std::nullopt;
  return t->min_cc->ToString() + "-" + t->max_cc->ToString();
}

}  // namespace

bool BeyondCatalog(const Catalog& c, const PackageInfo& torch, const Platform& p) {
  if (!torch.version || torch.version->IsPrerelease()) return false;
  const TorchRelease* newest = NewestWithWheels(c, p);
  return newest != nullptr && newest->torch < torch.version->WithoutLocal();
}

void CheckTorchBeyondCatalog(const Snapshot& s, const Catalog& c, const PlanQuery&, std::vector<Finding>& out) {
  const TorchRelease* newest = NewestWithWheels(c, s.platform);
  for (const PythonEnv& env : s.pythons) {
    auto it = env.packages.find("torch");
    if (it == env.packages.end() || !BeyondCatalog(c, it->second, s.platform)) continue;
    const PackageInfo& torch = it->second;
    ArgValue cuda = ArgOf(torch.cuda, [](const CudaVersion& v) { return v.MajorMinor(); });
    out.push_back(EmitFor(s, env, "torch.beyond_catalog",
                          {{"env", env.prefix}, {"torch", torch.version->ToString()}, {"date", c.data_date},
                           {"newest", newest->torch.Public()}, {"platform", s.platform.Name()},
                           {"cuda", cuda}, {"targets", TargetRange(c, torch.cuda)}},
                          {TorchEvidence(env, torch), Ev("evidence.catalog_date", {{"date", c.data_date}})},
                          "layers"));
  }
}

}  // namespace cudamatch
