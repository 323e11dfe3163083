#include "catalog/coverage.h"

#include <set>
#include <string>

namespace cudamatch {

namespace {

PlatformCoverage CoverageOf(const Catalog& c, std::string_view platform) {
  PlatformCoverage p;
  p.platform = platform;
  std::set<std::string> releases, defaults;
  for (const TorchVariant& v : c.torch_variants) {
    if (v.platform != platform) continue;
    ++p.variants;
    releases.insert(v.torch.ToString());
    if (v.variant.is_cuda()) ++p.cuda_variants;
    if (v.variant.is_cuda() && v.arch_list) ++p.with_arch_list;
    if (v.pypi_default) defaults.insert(v.torch.ToString());
    if (!p.newest || *p.newest < v.torch) p.newest = v.torch;
  }
  p.releases = releases.size();
  p.pypi_default_known = defaults.size();
  return p;
}

}  // namespace

std::vector<PlatformCoverage> CoverageByPlatform(const Catalog& c) {
  std::vector<PlatformCoverage> out;
  for (std::string_view platform : CatalogPlatforms()) {
    PlatformCoverage p = CoverageOf(c, platform);
    if (p.variants > 0) out.push_back(p);
  }
  return out;
}

}  // namespace cudamatch
