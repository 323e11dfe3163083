// Whole-table checks for catalog files read at run time: rows sorted and unique by each table's
// key, and every source id defined in sources.tsv.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"

namespace cudamatch {

std::optional<Error> CheckOrder(const Catalog& c);
std::optional<Error> CheckAllSources(const Catalog& c);

// Facts that must agree across tables, one message per problem ("torch_variants.tsv:12: ..."):
// every variant belongs to a release and its CUDA is in cuda_toolkits and cuda_targets; at most
// one PyPI default per release and platform; every torchvision/torchaudio a release row names
// is in companions.tsv, and every companion's torch release exists.
std::vector<std::string> CheckConsistency(const Catalog& c);

}  // namespace cudamatch
