#include "catalog/extensions.h"

#include <algorithm>
#include <tuple>

#include "catalog/query.h"
#include "core/text.h"

namespace cudamatch {

namespace {

struct LocationName {
  WheelLocation location;
  std::string_view name;
};
constexpr LocationName kLocations[] = {{WheelLocation::kPypi, "pypi"},
                                       {WheelLocation::kPytorchIndex, "pytorch-index"},
                                       {WheelLocation::kGithubRelease, "github-release"},
                                       {WheelLocation::kVendorIndex, "vendor-index"}};

std::string JoinCell(const std::vector<std::string>& items) { return Join(items, ";"); }

// "12.x" -> 12; nullopt for "12.1".
std::optional<int> WholeMajor(std::string_view item) {
  if (!EndsWith(item, ".x")) return std::nullopt;
  auto n = ParseUint(item.substr(0, item.size() - 2));
  return n ? std::optional<int>(static_cast<int>(*n)) : std::nullopt;
}

std::string Replace(std::string text, std::string_view from, std::string_view to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

}  // namespace

std::string_view WheelLocationName(WheelLocation location) {
  for (const LocationName& l : kLocations) {
    if (l.location == location) return l.name;
  }
  return "";
}

std::optional<WheelLocation> WheelLocationFromName(std::string_view name) {
  for (const LocationName& l : kLocations) {
    if (l.name == name) return l.location;
  }
  return std::nullopt;
}

std::string_view CxxAbiName(CxxAbi abi) {
  switch (abi) {
    case CxxAbi::kCxx11: return "TRUE";
    case CxxAbi::kPreCxx11: return "FALSE";
    case CxxAbi::kUnknown: break;
  }
  return "";
}

bool ExtensionReleaseLess(const ExtensionRelease& a, const ExtensionRelease& b) {
  return std::tie(a.package, a.version) < std::tie(b.package, b.version);
}

bool ExtensionWheelLess(const ExtensionWheel& a, const ExtensionWheel& b) {
  auto key = [](const ExtensionWheel& w) {
    return std::make_tuple(w.package, w.version, w.platform, WheelLocationName(w.location), JoinCell(w.cuda),
                           JoinCell(w.torch), CxxAbiName(w.abi));
  };
  return key(a) < key(b);
}

bool IsCatalogExtension(const Catalog& c, std::string_view package) {
  return std::any_of(c.extensions.begin(), c.extensions.end(),
                     [&](const ExtensionRelease& e) { return e.package == package; });
}

const ExtensionRelease* FindExtension(const Catalog& c, std::string_view package, const Pep440& version) {
  Pep440 plain = version.WithoutLocal();
  for (const ExtensionRelease& e : c.extensions) {
    if (e.package == package && e.version == plain) return &e;
  }
  return nullptr;
}

std::vector<const ExtensionRelease*> ExtensionReleases(const Catalog& c, std::string_view package) {
  std::vector<const ExtensionRelease*> out;
  for (const ExtensionRelease& e : c.extensions) {
    if (e.package == package) out.push_back(&e);
  }
  return out;
}

std::optional<bool> ExtensionAllowsTorch(const ExtensionRelease& e, const Pep440& torch) {
  switch (e.need) {
    case ExtensionRelease::TorchNeed::kAny: return true;
    case ExtensionRelease::TorchNeed::kSpecifier: return e.torch->Matches(torch.WithoutLocal());
    case ExtensionRelease::TorchNeed::kUnknown: break;
  }
  return std::nullopt;
}

std::optional<Pep440> ExtensionPinnedTorch(const ExtensionRelease& e) {
  if (e.need != ExtensionRelease::TorchNeed::kSpecifier || e.torch->clauses.size() != 1) return std::nullopt;
  const Specifier& s = e.torch->clauses.front();
  if (s.op != SpecOp::kEqual || s.wildcard) return std::nullopt;
  return s.version;
}

std::vector<const TorchRelease*> TorchForExtension(const Catalog& c, const ExtensionRelease& e) {
  std::vector<const TorchRelease*> out;
  for (const TorchRelease& t : c.torch) {
    if (ExtensionAllowsTorch(e, t.torch).value_or(false)) out.push_back(&t);
  }
  return out;
}

std::vector<const ExtensionWheel*> ExtensionWheelsOf(const Catalog& c, std::string_view package, const Pep440& version,
                                                     std::string_view platform) {
  Pep440 plain = version.WithoutLocal();
  std::vector<const ExtensionWheel*> out;
  for (const ExtensionWheel& w : c.extension_wheels) {
    if (w.package == package && w.version == plain && w.platform == platform) out.push_back(&w);
  }
  return out;
}

bool WheelServesCuda(const ExtensionWheel& w, const CudaVersion& cuda) {
  for (const std::string& item : w.cuda) {
    if (auto major = WholeMajor(item)) {
      if (*major == cuda.major) return true;
      continue;
    }
    auto listed = CudaVersion::Parse(item);
    if (!listed || listed->major != cuda.major) continue;
    if (listed->minor == cuda.minor) return true;
    if (w.match == CudaMatch::kFloor && listed->minor < cuda.minor) return true;
  }
  return false;
}

bool WheelServesTorch(const ExtensionWheel& w, const Pep440& torch) {
  if (w.torch.empty()) return true;
  Pep440 plain = torch.WithoutLocal();
  for (const std::string& item : w.torch) {
    auto v = Pep440::Parse(item);
    if (!v) continue;
    bool line = std::count(item.begin(), item.end(), '.') == 1;
    if (line ? (v->Part(0) == plain.Part(0) && v->Part(1) == plain.Part(1)) : *v == plain) return true;
  }
  return false;
}

std::optional<Pep440> WheelBuiltAgainst(const ExtensionWheel& w, const Pep440& torch) {
  Pep440 plain = torch.WithoutLocal();
  for (size_t i = 0; i < w.built_against.size() && i < w.torch.size(); ++i) {
    auto item = Pep440::Parse(w.torch[i]);
    auto built = Pep440::Parse(w.built_against[i]);
    if (!item || !built) continue;
    bool line = std::count(w.torch[i].begin(), w.torch[i].end(), '.') == 1;
    if (line ? (item->Part(0) == plain.Part(0) && item->Part(1) == plain.Part(1)) : *item == plain) return *built;
  }
  return std::nullopt;
}

std::vector<const ExtensionWheel*> WheelsFor(const Catalog& c, const ExtensionRelease& e, std::string_view platform,
                                             const TorchBuild& build) {
  std::vector<const ExtensionWheel*> out;
  if (!build.cuda) return out;
  for (const ExtensionWheel* w : ExtensionWheelsOf(c, e.package, e.version, platform)) {
    if (!WheelServesCuda(*w, *build.cuda) || !WheelServesTorch(*w, build.torch)) continue;
    if (build.abi != CxxAbi::kUnknown && w->abi != CxxAbi::kUnknown && w->abi != build.abi) continue;
    out.push_back(w);
  }
  return out;
}

std::vector<const ExtensionRelease*> ExtensionsFor(const Catalog& c, std::string_view package, std::string_view platform,
                                                   const TorchBuild& build) {
  std::vector<const ExtensionRelease*> out;
  std::vector<const ExtensionRelease*> all = ExtensionReleases(c, package);
  for (auto it = all.rbegin(); it != all.rend(); ++it) {
    if (!ExtensionAllowsTorch(**it, build.torch).value_or(false)) continue;
    if (!WheelsFor(c, **it, platform, build).empty()) out.push_back(*it);
  }
  return out;
}

namespace {

// One list field of every wheel of the release on `platform`, in order and without repeats.
std::vector<std::string> WheelItems(const Catalog& c, const ExtensionRelease& e, std::string_view platform,
                                    std::vector<std::string> ExtensionWheel::*field) {
  std::vector<std::string> out;
  for (const ExtensionWheel* w : ExtensionWheelsOf(c, e.package, e.version, platform)) {
    for (const std::string& item : w->*field) {
      if (std::find(out.begin(), out.end(), item) == out.end()) out.push_back(item);
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> ExtensionCudaList(const Catalog& c, const ExtensionRelease& e, std::string_view platform) {
  return WheelItems(c, e, platform, &ExtensionWheel::cuda);
}

std::vector<std::string> ExtensionTorchList(const Catalog& c, const ExtensionRelease& e, std::string_view platform) {
  return WheelItems(c, e, platform, &ExtensionWheel::torch);
}

std::string WheelUrl(const ExtensionWheel& w, const Pep440& torch, std::string_view python) {
  std::string line = std::to_string(torch.Part(0)) + "." + std::to_string(torch.Part(1));
  return Replace(Replace(std::string(w.url), "{torch}", line), "{python}", python);
}

}  // namespace cudamatch
