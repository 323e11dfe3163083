// Questions about the packages built against torch that the catalog lists (extensions.tsv,
// extension_wheels.tsv): which torch a release requires, which CUDA builds have a prebuilt
// wheel, where it is published and with which C++ ABI. Pure functions over a parsed Catalog.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"
#include "core/version.h"

namespace cudamatch {

// "pypi", "pytorch-index", "github-release", "vendor-index".
std::string_view WheelLocationName(WheelLocation location);
std::optional<WheelLocation> WheelLocationFromName(std::string_view name);
// "TRUE", "FALSE" or "" as flash-attn wheel names write it.
std::string_view CxxAbiName(CxxAbi abi);

// The tables' row orders (package, then version; then platform, location, CUDA, torch, ABI).
bool ExtensionReleaseLess(const ExtensionRelease& a, const ExtensionRelease& b);
bool ExtensionWheelLess(const ExtensionWheel& a, const ExtensionWheel& b);

// Whether the catalog lists any release of `package` (a normalised name: "flash-attn").
bool IsCatalogExtension(const Catalog& c, std::string_view package);
// A release (local label ignored); nullptr when the catalog does not list it.
const ExtensionRelease* FindExtension(const Catalog& c, std::string_view package, const Pep440& version);
// Every listed release of `package`, oldest first.
std::vector<const ExtensionRelease*> ExtensionReleases(const Catalog& c, std::string_view package);

// Whether the release's wheels accept torch `torch` (its local label ignored); nullopt when the
// catalog does not know what they require.
std::optional<bool> ExtensionAllowsTorch(const ExtensionRelease& e, const Pep440& torch);
// Whether the release pins one torch release (==X.Y.Z), and which.
std::optional<Pep440> ExtensionPinnedTorch(const ExtensionRelease& e);
// The torch releases the catalog lists that the release accepts, oldest first (none when
// unknown).
std::vector<const TorchRelease*> TorchForExtension(const Catalog& c, const ExtensionRelease& e);

// The published wheels of a release on a platform, in catalog order.
std::vector<const ExtensionWheel*> ExtensionWheelsOf(const Catalog& c, std::string_view package, const Pep440& version,
                                                     std::string_view platform);
// Whether the wheel's binaries serve a torch built with `cuda`.
bool WheelServesCuda(const ExtensionWheel& w, const CudaVersion& cuda);
// Whether the wheel was built for torch `torch`: its release ("2.3.1") or line ("2.6"); a wheel
// that names no torch serves every one.
bool WheelServesTorch(const ExtensionWheel& w, const Pep440& torch);

// The exact torch the wheel's binaries for `torch` were built against ("2.2.2" for a torch 2.2.0
// on the line "2.2"); nullopt when the row does not say or does not serve `torch`.
std::optional<Pep440> WheelBuiltAgainst(const ExtensionWheel& w, const Pep440& torch);

// A torch build an extension wheel has to fit.
struct TorchBuild {
  Pep440 torch;
  std::optional<CudaVersion> cuda;  // nullopt: a CPU build
  CxxAbi abi = CxxAbi::kUnknown;    // kUnknown: either
};
// The release's wheels on `platform` that fit `build`, in catalog order.
std::vector<const ExtensionWheel*> WheelsFor(const Catalog& c, const ExtensionRelease& e, std::string_view platform,
                                             const TorchBuild& build);
// The releases of `package` that accept `build.torch` and have a wheel for it on `platform`,
// newest first: what to pin instead of a release that does not fit.
std::vector<const ExtensionRelease*> ExtensionsFor(const Catalog& c, std::string_view package, std::string_view platform,
                                                   const TorchBuild& build);
// The CUDA versions a release's wheels on `platform` carry, as their rows write them, in order
// and without repeats ("11.8", "12.1", "12.x").
std::vector<std::string> ExtensionCudaList(const Catalog& c, const ExtensionRelease& e, std::string_view platform);
// The torch releases or lines ("2.3.1", "2.6") a release's wheels on `platform` were built for, in
// order and without repeats (none when the wheels name no torch).
std::vector<std::string> ExtensionTorchList(const Catalog& c, const ExtensionRelease& e, std::string_view platform);
// The wheel's install location for `python` ("cp310"): its index URL, or the asset URL with the
// torch line and Python filled in.
std::string WheelUrl(const ExtensionWheel& w, const Pep440& torch, std::string_view python);

}  // namespace cudamatch
