#include "catalog/overlay.h"

#include <algorithm>
#include <map>

#include "core/text.h"

namespace cudamatch {

namespace {

constexpr std::string_view kMagic = "# cudamatch index overlay";

std::string Py(const std::optional<PyVersion>& v) { return v ? v->ToString() : ""; }
std::string Ver(const std::optional<Pep440>& v) { return v ? v->ToString() : ""; }

std::string Clean(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  }
  return out;
}

class SourceIds {
 public:
  std::string Ids(const std::set<std::string>& urls) {
    std::string out;
    for (const std::string& url : urls) {
      auto [it, added] = ids_.emplace(url, "");
      if (added) it->second = Id(ids_.size());
      out += (out.empty() ? "" : ";") + it->second;
    }
    return out;
  }
  std::string Table() const {
    std::vector<std::pair<std::string, std::string>> rows;
    for (const auto& [url, id] : ids_) rows.emplace_back(id, url);
    std::sort(rows.begin(), rows.end());
    std::string out = "[sources.tsv]\nid\ttitle\twhere\n";
    for (const auto& [id, url] : rows) {
      std::string title = url.ends_with(".metadata") ? "wheel core metadata (PEP 658)" : "package index page";
      out += id + "\t" + title + "\t" + Clean(url) + "\n";
    }
    return out;
  }

 private:
  static std::string Id(size_t n) {
    std::string digits = std::to_string(n);
    return "index-" + std::string(digits.size() < 3 ? 3 - digits.size() : 0, '0') + digits;
  }
  std::map<std::string, std::string> ids_;
};


template <typename T, typename Less, typename Same>
size_t Merge(Table<T>& into, const Table<T>& extra, Less less, Same same) {
  std::vector<T> rows = std::move(into).Take();
  size_t embedded = rows.size();
  for (const T& row : extra) {
    bool known = std::any_of(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(embedded),
                             [&](const T& r) { return same(r, row); });
    if (!known) rows.push_back(row);
  }
  size_t added = rows.size() - embedded;
  std::stable_sort(rows.begin(), rows.end(), less);
  into = Table<T>();
  into.reserve(rows.size());
  for (T& row : rows) into.push_back(std::move(row));
  return added;
}

bool VariantLess(const TorchVariant& a, const TorchVariant& b) {
  if (auto c = a.torch <=> b.torch; c != 0) return c < 0;
  if (a.platform != b.platform) return a.platform < b.platform;
  return VariantSortKey(a.variant) < VariantSortKey(b.variant);
}

}  // namespace

std::string OverlayText(const IndexFacts& facts, const std::string& date) {
  SourceIds ids;
  std::string note = Clean("Learned from the package indexes on " + date + " by `cudamatch catalog update`");
  std::string releases =
      "[torch_releases.tsv]\ntorch\treleased\ttorchvision\ttorchaudio\tpython_min\tpython_max\tpython_experimental\t"
      "install_era\tconda\tsource\tnotes\n";
  for (const LearnedRelease& r : facts.releases) {
    releases += r.torch.ToString() + "\t" + r.released + "\t" + Ver(r.torchvision) + "\t" + Ver(r.torchaudio) + "\t" +
                Py(r.python_min) + "\t" + Py(r.python_max) + "\t\t\t\t" + ids.Ids(r.sources) + "\t" +
                note + "; Python range from the wheels' CPython tags\n";
  }
  std::string variants = "[torch_variants.tsv]\ntorch\tplatform\tvariant\tcudnn\tarch_list\tpypi_default\tsource\tnotes\n";
  for (const LearnedVariant& v : facts.variants) {
    variants += v.torch.ToString() + "\t" + v.platform + "\t" + v.variant + "\t\t\t" + (v.pypi_default ? "yes" : "") +
                "\t" + ids.Ids(v.sources) + "\t" + note + "; architecture list and cuDNN not in the index\n";
  }
  std::string companions = "[companions.tsv]\npackage\tversion\ttorch\treleased\tpython_min\tpython_max\tsource\tnotes\n";
  for (const LearnedCompanion& m : facts.companions) {
    companions += m.package + "\t" + m.version.ToString() + "\t" + m.torch.ToString() + "\t" + m.released + "\t" +
                  Py(m.python_min) + "\t" + Py(m.python_max) + "\t" + ids.Ids(m.sources) + "\t" + note +
                  "; torch pin from Requires-Dist\n";
  }
  return std::string(kMagic) + "\ndate\t" + date + "\n" + ids.Table() + releases + variants + companions;
}

Status ApplyOverlay(Catalog& catalog, std::string text, const std::string& origin) {
  auto stored = std::make_shared<const std::string>(std::move(text));
  std::string_view all = *stored;
  if (!all.starts_with(kMagic)) return Err("not an index overlay (no \"" + std::string(kMagic) + "\" line)");
  std::vector<std::string_view> lines = Split(all, '\n');
  if (lines.size() < 2 || !lines[1].starts_with("date\t")) return Err("index overlay: no date line");
  std::string date(lines[1].substr(5));
  std::map<std::string, Catalog> parts;
  size_t at = all.find("\n[");
  while (at != std::string_view::npos) {
    size_t name_end = all.find("]\n", at);
    if (name_end == std::string_view::npos) return Err("index overlay: a malformed section line");
    std::string name(all.substr(at + 2, name_end - at - 2));
    size_t body = name_end + 2;
    size_t next = all.find("\n[", body - 1);
    std::string_view section = all.substr(body, next == std::string_view::npos ? std::string_view::npos : next + 1 - body);
    if (name != "sources.tsv" && name != "torch_releases.tsv" && name != "torch_variants.tsv" && name != "companions.tsv") {
      return Err("index overlay: unknown section " + Quote(name));
    }
    auto part = ParseCatalogTable(name, section);
    if (!part) return Err("index overlay: " + part.error());
    parts[name] = std::move(*part);
    at = next;
  }
  if (parts.size() != 4) return Err("index overlay: a section is missing");
  Merge(catalog.sources, parts["sources.tsv"].sources, [](const SourceRef& a, const SourceRef& b) { return a.id < b.id; },
        [](const SourceRef& a, const SourceRef& b) { return a.id == b.id; });
  size_t added = 0;
  added += Merge(catalog.torch, parts["torch_releases.tsv"].torch,
        [](const TorchRelease& a, const TorchRelease& b) { return a.torch < b.torch; },
        [](const TorchRelease& a, const TorchRelease& b) { return a.torch == b.torch; });
  added += Merge(catalog.torch_variants, parts["torch_variants.tsv"].torch_variants, VariantLess,
        [](const TorchVariant& a, const TorchVariant& b) {
          return a.torch == b.torch && a.platform == b.platform && a.variant == b.variant;
        });
  added += Merge(catalog.companions, parts["companions.tsv"].companions,
        [](const Companion& a, const Companion& b) { return std::tie(a.package, a.version) < std::tie(b.package, b.version); },
        [](const Companion& a, const Companion& b) { return a.package == b.package && a.version == b.version; });
  catalog.tables.push_back(TableInfo{std::string(kOverlayFile), added, origin});
  catalog.index_date = date;
  catalog.overlay_text = std::move(stored);
  return Status::Ok();
}

}  // namespace cudamatch
