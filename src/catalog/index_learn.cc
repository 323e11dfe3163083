#include "catalog/index_learn.h"

#include <algorithm>

#include "core/text.h"

namespace cudamatch {

namespace {

struct Wheel {
  const IndexPage* page;
  const IndexFile* file;
  WheelName name;
  std::string platform;  // catalog platform, "" when untracked
};

std::vector<Wheel> Wheels(const std::vector<IndexPage>& pages) {
  std::vector<Wheel> out;
  for (const IndexPage& page : pages) {
    for (const IndexFile& f : page.files) {
      auto name = ParseWheelName(f.filename);
      if (!name || name->package != page.package || name->version.IsPrerelease()) continue;
      std::string platform;
      for (const std::string& tag : name->platform_tags) {
        if (std::string_view p = CatalogPlatformOfTag(tag); !p.empty()) platform = std::string(p);
      }
      out.push_back(Wheel{&page, &f, std::move(*name), platform});
    }
  }
  return out;
}

// Releases older than the catalog's first one (PyPI still lists torch 0.1.2 to 0.4.1) are left
// out of it on purpose: they count as known.
bool KnownRelease(const Catalog& c, const Pep440& v) {
  if (!c.torch.empty() && v < c.torch.front().torch) return true;
  return std::any_of(c.torch.begin(), c.torch.end(), [&](const TorchRelease& t) { return t.torch == v; });
}

bool KnownCompanion(const Catalog& c, const std::string& package, const Pep440& v) {
  return std::any_of(c.companions.begin(), c.companions.end(),
                     [&](const Companion& m) { return m.package == package && m.version == v; });
}

bool KnownVariant(const Catalog& c, const Pep440& v, const std::string& platform, const std::string& variant) {
  return std::any_of(c.torch_variants.begin(), c.torch_variants.end(), [&](const TorchVariant& t) {
    return t.torch == v && t.platform == platform && t.variant.tag == variant;
  });
}

// "2026-11-18T16:55:01.123456Z" -> "2026-11"; "" unless it starts as a date does.
std::string Month(const std::string& upload_time) {
  if (upload_time.size() < 7 || upload_time[4] != '-') return "";
  for (size_t i : {0, 1, 2, 3, 5, 6}) {
    if (upload_time[i] < '0' || upload_time[i] > '9') return "";
  }
  int month = (upload_time[5] - '0') * 10 + (upload_time[6] - '0');
  return month >= 1 && month <= 12 ? upload_time.substr(0, 7) : "";
}

void Widen(std::optional<PyVersion>& lo, std::optional<PyVersion>& hi, const WheelName& w) {
  for (const std::string& tag : w.python_tags) {
    auto py = PythonOfTags(tag, w.abi);
    if (!py || py->freethreaded) continue;
    if (!lo || *py < *lo) lo = *py;
    if (!hi || *hi < *py) hi = *py;
  }
}

void Earliest(std::string& month, const std::string& upload_time) {
  std::string m = Month(upload_time);
  if (!m.empty() && (month.empty() || m < month)) month = m;
}

// The CUDA a PyPI wheel's requirements name: nvidia-cuda-runtime-cu12==12.4.127 -> "cu124";
// "cpu" when the metadata names no NVIDIA package at all; "" when it cannot tell.
std::string PypiBuild(const WheelMetadata& m) {
  bool any_nvidia = false;
  for (const std::string& req : m.requires_dist) {
    std::string_view name = Trim(std::string_view(req).substr(0, req.find_first_of("=<>!~;[ (")));
    std::string lower = ToLower(name);
    if (lower.starts_with("nvidia-") || lower.starts_with("nvidia_") || lower.starts_with("cuda-")) any_nvidia = true;
    bool runtime = lower.starts_with("nvidia-cuda-runtime") || lower.starts_with("nvidia_cuda_runtime");
    if (!runtime) continue;
    auto pin = PinnedVersion(req, name);
    if (pin && pin->release.size() >= 2) {
      return "cu" + std::to_string(pin->release[0]) + std::to_string(pin->release[1]);
    }
  }
  return any_nvidia ? "" : "cpu";
}

std::string MetadataUrl(const IndexFile& f) { return f.url + ".metadata"; }

LearnedVariant& VariantRow(std::vector<LearnedVariant>& rows, const Pep440& v, const std::string& platform,
                           const std::string& variant) {
  for (LearnedVariant& r : rows) {
    if (r.torch == v && r.platform == platform && r.variant == variant) return r;
  }
  rows.push_back(LearnedVariant{v, platform, variant, false, {}});
  return rows.back();
}

}  // namespace

std::vector<std::string> MetadataWanted(const std::vector<IndexPage>& pages, const Catalog& catalog) {
  std::set<std::string> seen;  // "torch 2.16.0 linux-x86_64", "torchvision 0.31.0"
  std::vector<std::string> out;
  for (const Wheel& w : Wheels(pages)) {
    if (!w.file->has_metadata) continue;
    Pep440 v = w.name.version.WithoutLocal();
    std::string key;
    if (w.name.package == "torch") {
      if (!w.page->pypi || w.platform.empty() || KnownRelease(catalog, v)) continue;
      key = "torch " + v.ToString() + " " + w.platform;
    } else {
      if (KnownCompanion(catalog, w.name.package, v)) continue;
      key = w.name.package + " " + v.ToString();
    }
    if (seen.insert(key).second) out.push_back(MetadataUrl(*w.file));
  }
  return out;
}

IndexFacts LearnFromIndexes(const std::vector<IndexPage>& pages, const std::map<std::string, WheelMetadata>& metadata,
                            const Catalog& catalog) {
  IndexFacts facts;
  std::map<Pep440, LearnedRelease> releases;
  std::map<std::pair<std::string, Pep440>, LearnedCompanion> companions;
  for (const Wheel& w : Wheels(pages)) {
    Pep440 v = w.name.version.WithoutLocal();
    auto meta = metadata.find(MetadataUrl(*w.file));
    if (w.name.package != "torch") {
      if (KnownCompanion(catalog, w.name.package, v)) continue;
      LearnedCompanion& m = companions[{w.name.package, v}];
      m.package = w.name.package;
      m.version = v;
      Earliest(m.released, w.file->upload_time);
      Widen(m.python_min, m.python_max, w.name);
      if (meta == metadata.end()) continue;
      for (const std::string& req : meta->second.requires_dist) {
        if (auto pin = PinnedVersion(req, "torch")) {
          m.torch = pin->WithoutLocal();
          m.sources.insert(meta->first);
        }
      }
      continue;
    }
    bool new_release = !KnownRelease(catalog, v);
    if (new_release) {
      LearnedRelease& r = releases[v];
      r.torch = v;
      Earliest(r.released, w.file->upload_time);
      Widen(r.python_min, r.python_max, w.name);
      r.sources.insert(w.page->url);
    }
    if (w.platform.empty()) continue;
    std::string variant = w.name.version.LocalLabel();
    bool pypi_default = false;
    if (w.page->pypi) {
      if (!new_release || !variant.empty()) continue;
      if (w.platform.starts_with("macos")) variant = "cpu";
      else if (meta != metadata.end()) variant = PypiBuild(meta->second);
      pypi_default = !variant.empty();
    } else if (variant.empty() && w.platform.starts_with("macos")) {
      variant = "cpu";
    }
    auto parsed = Variant::Parse(variant);
    if (!parsed) continue;
    variant = parsed->tag;
    if (KnownVariant(catalog, v, w.platform, variant)) continue;
    LearnedVariant& row = VariantRow(facts.variants, v, w.platform, variant);
    row.pypi_default = row.pypi_default || pypi_default;
    row.sources.insert(w.page->url);
    if (pypi_default && meta != metadata.end()) row.sources.insert(meta->first);
  }
  for (auto& [key, m] : companions) {
    if (m.torch.release.empty()) continue;  // no pin read: the pairing stays unknown
    if (auto it = releases.find(m.torch); it != releases.end()) {
      (m.package == "torchvision" ? it->second.torchvision : it->second.torchaudio) = m.version;
    }
    facts.companions.push_back(m);
  }
  for (auto& [v, r] : releases) facts.releases.push_back(std::move(r));
  std::sort(facts.variants.begin(), facts.variants.end(), [](const LearnedVariant& a, const LearnedVariant& b) {
    if (a.torch != b.torch) return a.torch < b.torch;
    if (a.platform != b.platform) return a.platform < b.platform;
    return VariantSortKey(*Variant::Parse(a.variant)) < VariantSortKey(*Variant::Parse(b.variant));
  });
  return facts;
}

}  // namespace cudamatch
