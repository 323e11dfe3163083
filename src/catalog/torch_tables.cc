// The torch tables: releases, wheel variants per platform, the platforms whose variant list of a
// release is complete, torchvision/torchaudio releases.
#include <algorithm>
#include <map>

#include "catalog/row_reader.h"

namespace cudamatch::catalog_internal {

namespace {

InstallEra ParseEra(RowReader& r, int col) {
  static const std::map<std::string_view, InstallEra> kEras = {
      {"", InstallEra::kUnknown},          {"direct", InstallEra::kDirect},
      {"find-links", InstallEra::kFindLinks}, {"extra-index", InstallEra::kExtraIndex},
      {"index-url", InstallEra::kIndexUrl},   {"lts", InstallEra::kLts}};
  auto it = kEras.find(r.Str(col));
  if (it == kEras.end()) {
    r.Fail(col, "unknown install era " + Quote(r.Str(col)));
    return InstallEra::kUnknown;
  }
  return it->second;
}

CondaForm ParseConda(RowReader& r, int col) {
  static const std::map<std::string_view, CondaForm> kForms = {
      {"", CondaForm::kUnknown},
      {"cuda-metapackage", CondaForm::kCudaMetapackage},
      {"cudatoolkit", CondaForm::kCudatoolkit},
      {"pytorch-cuda", CondaForm::kPytorchCuda},
      {"none", CondaForm::kNone}};
  auto it = kForms.find(r.Str(col));
  if (it == kForms.end()) {
    r.Fail(col, "unknown conda form " + Quote(r.Str(col)));
    return CondaForm::kUnknown;
  }
  return it->second;
}

bool IsPlatform(std::string_view p) {
  const auto& all = CatalogPlatforms();
  return std::find(all.begin(), all.end(), p) != all.end();
}

bool ParseYes(RowReader& r, int col) {
  if (r.Str(col).empty()) return false;
  if (r.Str(col) != "yes") r.Fail(col, "expected \"yes\" or an empty cell, got " + Quote(r.Str(col)));
  return true;
}

std::string_view ParsePackage(RowReader& r, int col) {
  std::string_view p = r.Str(col);
  if (p != "torchvision" && p != "torchaudio") r.Fail(col, "unknown companion package " + Quote(p));
  return p;
}

}  // namespace

void AddTorchSpecs(std::vector<TableSpec>& specs) {
  specs.push_back(
      {"torch_releases.tsv",
       {"torch", "released", "torchvision", "torchaudio", "python_min", "python_max",
        "python_experimental", "install_era", "conda", "source", "notes"},
       [](RowReader& r, Catalog& c) {
         TorchRelease t;
         t.torch = r.Req<Pep440>(0);
         t.released = r.Month(1);
         t.torchvision = r.Opt<Pep440>(2);
         t.torchaudio = r.Opt<Pep440>(3);
         t.python_min = r.Opt<PyVersion>(4);
         t.python_max = r.Opt<PyVersion>(5);
         t.python_experimental = r.List<PyVersion>(6);
         t.era = ParseEra(r, 7);
         t.conda = ParseConda(r, 8);
         t.prov = r.Prov(9, 10);
         return Done(r, c.torch, std::move(t));
       }});
  specs.push_back({"torch_variants.tsv",
                   {"torch", "platform", "variant", "cudnn", "arch_list", "pypi_default", "source", "notes"},
                   [](RowReader& r, Catalog& c) {
                     TorchVariant v;
                     v.torch = r.ReqVersionCached(0);
                     v.platform = r.Str(1);
                     if (!IsPlatform(v.platform)) r.Fail(1, "unknown platform " + Quote(v.platform));
                     v.variant = r.Req<Variant>(2);
                     v.cudnn = r.Str(3);
                     if (!v.cudnn.empty() && !Pep440::Parse(v.cudnn)) {
                       r.Fail(3, "malformed cuDNN version " + Quote(v.cudnn));
                     }
                     if (!r.Str(4).empty()) {
                       auto list = r.ArchListCached(4);
                       if (list) v.arch_list = std::move(*list);
                       else r.Fail(4, list.error());
                     }
                     v.pypi_default = ParseYes(r, 5);
                     v.prov = r.Prov(6, 7);
                     return Done(r, c.torch_variants, std::move(v));
                   }});
  specs.push_back({"torch_complete.tsv", {"torch", "platform", "source", "notes"}, [](RowReader& r, Catalog& c) {
                     TorchCompleteList l;
                     l.torch = r.Req<Pep440>(0);
                     l.platform = r.Str(1);
                     if (!IsPlatform(l.platform)) r.Fail(1, "unknown platform " + Quote(l.platform));
                     l.prov = r.Prov(2, 3);
                     return Done(r, c.torch_complete, std::move(l));
                   }});
  specs.push_back({"companions.tsv",
                   {"package", "version", "torch", "released", "python_min", "python_max", "source", "notes"},
                   [](RowReader& r, Catalog& c) {
                     Companion m;
                     m.package = ParsePackage(r, 0);
                     m.version = r.Req<Pep440>(1);
                     m.torch = r.Req<Pep440>(2);
                     m.released = r.Month(3);
                     m.python_min = r.Opt<PyVersion>(4);
                     m.python_max = r.Opt<PyVersion>(5);
                     m.prov = r.Prov(6, 7);
                     return Done(r, c.companions, std::move(m));
                   }});
}

}  // namespace cudamatch::catalog_internal

namespace cudamatch {

const std::vector<std::string_view>& CatalogPlatforms() {
  static const std::vector<std::string_view> kPlatforms = {"linux-x86_64", "linux-aarch64", "windows-x86_64",
                                                           "macos-arm64", "macos-x86_64"};
  return kPlatforms;
}

}  // namespace cudamatch
