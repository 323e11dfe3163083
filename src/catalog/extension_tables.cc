// The extension tables: releases of packages built against torch and their published wheels.
#include <algorithm>
#include <map>

#include "catalog/extensions.h"
#include "catalog/row_reader.h"

namespace cudamatch::catalog_internal {

namespace {

// "==2.3.1", ">=2.3,<3", "any" (a torch requirement without a version) or "" (unknown).
void ParseTorchNeed(RowReader& r, int col, ExtensionRelease& e) {
  std::string_view cell = r.Str(col);
  if (cell.empty()) return;
  if (cell == "any") {
    e.need = ExtensionRelease::TorchNeed::kAny;
    return;
  }
  auto set = SpecifierSet::Parse(cell);
  if (!set) {
    r.Fail(col, set.error());
    return;
  }
  e.need = ExtensionRelease::TorchNeed::kSpecifier;
  e.torch = std::move(*set);
}

WheelLocation ParseLocation(RowReader& r, int col) {
  auto location = WheelLocationFromName(r.Str(col));
  if (!location) r.Fail(col, "unknown wheel location " + Quote(r.Str(col)));
  return location.value_or(WheelLocation::kPypi);
}

CudaMatch ParseMatch(RowReader& r, int col) {
  if (r.Str(col) == "exact") return CudaMatch::kExact;
  if (r.Str(col) == "floor") return CudaMatch::kFloor;
  r.Fail(col, "unknown CUDA match " + Quote(r.Str(col)) + " (expected exact or floor)");
  return CudaMatch::kExact;
}

CxxAbi ParseAbi(RowReader& r, int col) {
  static const std::map<std::string_view, CxxAbi> kAbis = {
      {"", CxxAbi::kUnknown}, {"TRUE", CxxAbi::kCxx11}, {"FALSE", CxxAbi::kPreCxx11}};
  auto it = kAbis.find(r.Str(col));
  if (it != kAbis.end()) return it->second;
  r.Fail(col, "unknown C++ ABI " + Quote(r.Str(col)) + " (expected TRUE, FALSE or empty)");
  return CxxAbi::kUnknown;
}

// "11.8;12.1" or "12.x".
std::vector<std::string> ParseCudaList(RowReader& r, int col) {
  std::vector<std::string> out = SplitNonEmpty(r.Str(col), ';');
  if (out.empty()) r.Fail(col, "a wheel lists the CUDA it was built with");
  for (const std::string& item : out) {
    bool ok = EndsWith(item, ".x") ? ParseUint(item.substr(0, item.size() - 2)).has_value()
                                   : CudaVersion::Parse(item).ok();
    if (!ok) r.Fail(col, "malformed CUDA version " + Quote(item));
  }
  return out;
}

// "2.3.1" or "2.2;2.3;2.4".
std::vector<std::string> ParseTorchList(RowReader& r, int col) {
  std::vector<std::string> out = SplitNonEmpty(r.Str(col), ';');
  for (const std::string& item : out) {
    if (!Pep440::Parse(item)) r.Fail(col, "malformed torch version " + Quote(item));
  }
  return out;
}

// "2.2.2;2.3.0.dev20240105": one exact torch per item of the row's torch list, each of that
// item's line (or that release); empty when not known.
std::vector<std::string> ParseBuiltAgainst(RowReader& r, int col, const std::vector<std::string>& torch) {
  std::vector<std::string> out = SplitNonEmpty(r.Str(col), ';');
  if (out.empty()) return out;
  if (out.size() != torch.size()) {
    r.Fail(col, "one exact torch per torch item (" + std::to_string(torch.size()) + "), got " + std::to_string(out.size()));
    return {};
  }
  for (size_t i = 0; i < out.size(); ++i) {
    auto v = Pep440::Parse(out[i]);
    auto item = Pep440::Parse(torch[i]);
    if (!v || !item || v->Part(0) != item->Part(0) || v->Part(1) != item->Part(1)) {
      r.Fail(col, "torch " + Quote(out[i]) + " is not of " + Quote(torch[i]));
    }
  }
  return out;
}

std::string_view ParseExtensionPackage(RowReader& r, int col) {
  std::string_view p = r.Str(col);
  if (p.empty()) r.Fail(col, "empty package name");
  return p;
}

}  // namespace

void AddExtensionSpecs(std::vector<TableSpec>& specs) {
  specs.push_back({"extensions.tsv", {"package", "version", "released", "torch", "source", "notes"},
                   [](RowReader& r, Catalog& c) {
                     ExtensionRelease e;
                     e.package = ParseExtensionPackage(r, 0);
                     e.version = r.Req<Pep440>(1);
                     e.released = r.Month(2);
                     ParseTorchNeed(r, 3, e);
                     e.prov = r.Prov(4, 5);
                     return Done(r, c.extensions, std::move(e));
                   }});
  specs.push_back({"extension_wheels.tsv",
                   {"package", "version", "platform", "location", "cuda", "cuda_match", "torch", "built_against", "cxx11abi",
                    "url", "source", "notes"},
                   [](RowReader& r, Catalog& c) {
                     ExtensionWheel w;
                     w.package = ParseExtensionPackage(r, 0);
                     w.version = r.ReqVersionCached(1);
                     w.platform = r.Str(2);
                     const auto& platforms = CatalogPlatforms();
                     if (std::find(platforms.begin(), platforms.end(), w.platform) == platforms.end()) {
                       r.Fail(2, "unknown platform " + Quote(w.platform));
                     }
                     w.location = ParseLocation(r, 3);
                     w.cuda = ParseCudaList(r, 4);
                     w.match = ParseMatch(r, 5);
                     w.torch = ParseTorchList(r, 6);
                     w.built_against = ParseBuiltAgainst(r, 7, w.torch);
                     w.abi = ParseAbi(r, 8);
                     w.url = r.Str(9);
                     if (!StartsWith(w.url, "https://")) r.Fail(9, "a wheel location is an https:// URL " + Quote(w.url));
                     w.prov = r.Prov(10, 11);
                     return Done(r, c.extension_wheels, std::move(w));
                   }});
}

}  // namespace cudamatch::catalog_internal
