// The derive step: the one place that joins what the probes observed with the catalog. Every
// snapshot, from whichever source (this machine, a --root image, a Windows tree, a test), goes
// through Derive before rules judge it. Each value it fills is marked with its Origin.
//   driver:   the newest CUDA the driver serves, when no library said it: the catalog's
//             driver-branch table (Linux, Windows), else the Windows driver minimums of the
//             CUDA toolkits
//   GPUs:     NVML's compute capability is kept only when it names a known architecture; a GPU
//             without one gets the catalog's by name (when every best match agrees), then by PCI
//             device id (naming the GPU too when no source did); its architecture from the
//             catalog's architecture table, else the model's row
//   Jetson:   the JetPack line of the L4T release (jetpack.tsv); with no GPU listed, the integrated
//             GPU of the device tree's Tegra SoC (tegra_socs.tsv), named by the board's model when
//             that agrees, else by the model alone
//   packages: each wheel's variant from its version's local label, version.py's hip, the build's
//             CUDA, or version.py's cuda = None
// Layer: derive/ may include core/, catalog/ and probe/ only.
#pragma once

#include <optional>

#include "catalog/catalog.h"
#include "core/version.h"
#include "probe/snapshot.h"

namespace cudamatch {

void Derive(const Catalog& catalog, Snapshot& snap);

// The parts of Derive, in its order.
void DeriveDriverCuda(const Catalog& catalog, Snapshot& snap);
void DeriveJetson(const Catalog& catalog, Snapshot& snap);
void DeriveGpus(const Catalog& catalog, Snapshot& snap);
void DerivePackages(Snapshot& snap);

struct DerivedVariant {
  std::optional<Variant> variant;
  Origin origin = Origin::kNone;
};
// cu121 from 2.4.1+cu121; rocm6.2 from hip 6.2.41133; cu121 from CUDA 12.1; cpu from cuda = None.
DerivedVariant VariantOf(const PackageInfo& pkg);

}  // namespace cudamatch
