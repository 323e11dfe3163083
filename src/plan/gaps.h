// What the catalog does not know, said as such: a release, wheel variant or pairing missing from
// the data is "not in the catalog (data of DATE)", a note that `cudamatch catalog update` may
// fill, never "does not exist". Where the data cannot decide, what is certain still decides: the
// architectures a CUDA version can build code for, a release's Python range.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"
#include "plan/plan.h"

namespace cudamatch {

// A release row the catalog knows only in part: its Python range, or every wheel variant of
// it, is missing (2.15.0 known from its PyPI upload alone). Such a release is no candidate a
// plan rejects unless asked (-v).
bool PartlyKnown(const Catalog& c, const TorchRelease& t);

// "torch 2.14.1 is not in the catalog (data of 2026-11-30; ...). Nearest known: 2.14.0, ...".
Reason TorchNotInCatalog(const Catalog& c, const Pep440& version);
// The same for torchvision / torchaudio, the nearest with the torch release each pairs with.
Reason CompanionNotInCatalog(const Catalog& c, std::string_view package, const Pep440& version);
// A wheel variant of a known release that the catalog does not list for the platform.
Reason VariantNotInCatalog(const Catalog& c, const TorchRelease& t, std::string_view tag, std::string_view platform);

// Every architecture CUDA `cuda` can build code for, PTX on the newest: the most any wheel built
// with it can carry. nullopt when cuda_targets.tsv has no list for it.
std::optional<ArchList> WidestArchList(const Catalog& c, const CudaVersion& cuda);

// Every constraint of the machine a torch build the catalog does not list fails, judged from
// the CUDA its tag declares (what any build for that CUDA could run on) and the driver.
std::vector<Reason> JudgeFromCuda(const Catalog& c, const MachineSpec& spec, const Pep440& build, const Variant& variant);

}  // namespace cudamatch
