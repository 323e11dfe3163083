// torchvision and torchaudio versions against torch releases: which release a companion version
// was published for, and the Python range of its own wheels. A version companions.tsv lists pairs
// as the catalog says (CompanionPairs, as doctor judges it); an unlisted patch release X.Y.z
// belongs to the torch release line its X.Y was published for.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"

namespace cudamatch {

struct PythonRange {
  std::optional<PyVersion> min, max;  // nullopt: unknown
};
PythonRange CompanionPythonRange(const Catalog& c, std::string_view package, const Pep440& version);

// How a companion version relates to the catalog.
enum class CompanionKnown {
  kPublished,    // the catalog lists this version
  kSameLine,     // not listed, but its release line (X.Y) is: a patch release of a known line
  kUnknown,      // neither
};
CompanionKnown KnowCompanion(const Catalog& c, std::string_view package, const Pep440& version);

// The torch releases a companion version works with: the release it was published for when the
// catalog lists it, else every release of its line. Oldest first.
std::vector<const TorchRelease*> TorchForCompanion(const Catalog& c, std::string_view package, const Pep440& version);

// Whether `version` of `package` pairs with torch release `t` (same release line).
bool PairsWith(const Catalog& c, const TorchRelease& t, std::string_view package, const Pep440& version);

// The version of `package` paired with `t` (nullopt: none known).
std::optional<Pep440> PairedVersion(const TorchRelease& t, std::string_view package);

}  // namespace cudamatch
