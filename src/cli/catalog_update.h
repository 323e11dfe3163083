// `cudamatch catalog update`: the index overlay learned from the package indexes.
#pragma once

#include <string>
#include <vector>

#include "cli/common.h"

namespace cudamatch {

struct UpdateOptions {
  bool dry_run = false;
  std::vector<std::string> indexes;  // --index URL or mirror name, repeatable
  std::string timeout;               // --timeout SECONDS
};

Output RunCatalogUpdate(const UpdateOptions& opt, Context& ctx);

// The directory that holds the index overlay: the user's cache directory for cudamatch.
std::string OverlayDir(const Context& ctx);

}  // namespace cudamatch
