#include "catalog/jetson.h"
#include "catalog/row_reader.h"

#include <algorithm>

namespace cudamatch {

namespace {

std::vector<std::string_view> Parts(std::string_view dotted) { return Split(dotted, '.'); }

bool IsDotted(std::string_view text) {
  if (text.empty()) return false;
  for (std::string_view part : Parts(text)) {
    if (!ParseUint(part)) return false;
  }
  return true;
}

}  // namespace

int CompareL4t(std::string_view a, std::string_view b) {
  std::vector<std::string_view> x = Parts(a), y = Parts(b);
  for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
    int64_t p = ParseUint(x[i]).value_or(0), q = ParseUint(y[i]).value_or(0);
    if (p != q) return p < q ? -1 : 1;
  }
  if (x.size() == y.size()) return 0;
  return x.size() < y.size() ? -1 : 1;
}

const TegraSoc* FindTegraSoc(const Catalog& c, std::string_view soc) {
  for (const TegraSoc& s : c.tegra_socs) {
    if (s.soc == soc) return &s;
  }
  return nullptr;
}

const JetPackRelease* JetPackFor(const Catalog& c, std::string_view l4t) {
  if (!IsDotted(l4t)) return nullptr;
  std::vector<std::string_view> have = Parts(l4t);
  const JetPackRelease* best = nullptr;
  size_t best_parts = 0;
  for (const JetPackRelease& j : c.jetpacks) {
    std::vector<std::string_view> key = Parts(j.l4t);
    if (key.size() > have.size() || key.size() <= best_parts) continue;
    bool prefix = true;
    for (size_t i = 0; i < key.size() && prefix; ++i) prefix = ParseUint(key[i]) == ParseUint(have[i]);
    if (prefix) {
      best = &j;
      best_parts = key.size();
    }
  }
  return best;
}

std::vector<const JetPackRelease*> JetPacksOfModule(const Catalog& c, std::string_view gpu) {
  std::vector<const JetPackRelease*> out;
  for (const JetPackRelease& j : c.jetpacks) {  // sorted by L4T release
    if (std::find(j.modules.begin(), j.modules.end(), gpu) == j.modules.end()) continue;
    if (!out.empty() && Parts(out.back()->l4t).front() == Parts(j.l4t).front()) out.back() = &j;
    else out.push_back(&j);
  }
  return out;
}

namespace catalog_internal {

void AddJetsonSpecs(std::vector<TableSpec>& specs) {
  specs.push_back({"tegra_socs.tsv", {"soc", "gpu", "source", "notes"}, [](RowReader& r, Catalog& c) {
                     TegraSoc s{r.Str(0), r.Str(1), {}};
                     if (!StartsWith(s.soc, "tegra")) r.Fail(0, "a SoC name starts with \"tegra\" " + Quote(s.soc));
                     if (s.gpu.empty()) r.Fail(1, "a SoC names its GPU model");
                     s.prov = r.Prov(2, 3);
                     return Done(r, c.tegra_socs, std::move(s));
                   }});
  specs.push_back({"jetpack.tsv", {"l4t", "jetpack", "cuda", "python", "wheels", "kind", "sbsa", "modules", "source", "notes"},
                   [](RowReader& r, Catalog& c) {
                     JetPackRelease j;
                     j.l4t = r.Str(0);
                     if (!IsDotted(j.l4t)) r.Fail(0, "malformed L4T release " + Quote(j.l4t));
                     j.jetpack = r.Str(1);
                     if (j.jetpack.empty()) r.Fail(1, "required value is empty");
                     j.cuda = r.Opt<CudaVersion>(2);
                     j.python = r.Opt<PyVersion>(3);
                     j.wheels = r.Str(4);
                     if (!StartsWith(j.wheels, "https://")) r.Fail(4, "wheels are at an https:// URL " + Quote(j.wheels));
                     std::string_view kind = r.Str(5);
                     if (kind != "index" && kind != "page") r.Fail(5, "kind is \"index\" or \"page\", not " + Quote(kind));
                     j.index = kind == "index";
                     std::string_view sbsa = r.Str(6);
                     if (sbsa != "yes" && sbsa != "no") r.Fail(6, "sbsa is \"yes\" or \"no\", not " + Quote(sbsa));
                     j.sbsa = sbsa == "yes";
                     ForEachItem(r.Str(7), [&](std::string_view m) { j.modules.push_back(Trim(m)); });
                     if (j.modules.empty()) r.Fail(7, "a JetPack release names the Jetson modules it supports");
                     j.prov = r.Prov(8, 9);
                     return Done(r, c.jetpacks, std::move(j));
                   }});
}

}  // namespace catalog_internal

}  // namespace cudamatch
