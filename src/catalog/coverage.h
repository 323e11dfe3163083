// How much the catalog knows per platform: releases with wheels, variant rows, rows with an
// architecture list, releases whose PyPI default is known, and the newest release with wheels.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"

namespace cudamatch {

struct PlatformCoverage {
  std::string_view platform;  // "linux-x86_64"
  size_t releases = 0;        // torch releases with at least one variant row
  size_t variants = 0;
  size_t with_arch_list = 0;  // CUDA variants whose architecture list is known
  size_t cuda_variants = 0;
  size_t pypi_default_known = 0;  // releases with a variant marked as PyPI's default
  std::optional<Pep440> newest;
};

// One entry per platform that has variant rows, in the order of the platform vocabulary.
std::vector<PlatformCoverage> CoverageByPlatform(const Catalog& c);

}  // namespace cudamatch
