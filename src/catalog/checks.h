// Whole-table checks for catalog files read at run time: rows sorted and unique by each table's
// key, and every source id defined in sources.tsv.
#pragma once

#include <optional>

#include "catalog/catalog.h"

namespace cudamatch {

std::optional<Error> CheckOrder(const Catalog& c);
std::optional<Error> CheckAllSources(const Catalog& c);

}  // namespace cudamatch
