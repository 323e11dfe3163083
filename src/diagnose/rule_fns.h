// The rule functions behind Rules(), and what they share. Internal to diagnose/.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/query.h"
#include "diagnose/finding.h"
#include "plan/plan.h"
#include "probe/snapshot.h"

namespace cudamatch {

// Driver and platform (rules_driver.cc).
void CheckDriverMissing(const Snapshot& s, const Catalog& c, std::vector<Finding>& out);
void CheckModuleNotLoaded(const Snapshot& s, const Catalog& c, std::vector<Finding>& out);
void CheckDriverMismatch(const Snapshot& s, const Catalog& c, std::vector<Finding>& out);
void CheckWslLinuxDriver(const Snapshot& s, const Catalog& c, std::vector<Finding>& out);
void CheckContainerDevices(const Snapshot& s, const Catalog& c, std::vector<Finding>& out);
void CheckVisibleDevices(const Snapshot& s, const Catalog& c, std::vector<Finding>& out);
void CheckForwardCompat(const Snapshot& s, const Catalog& c, std::vector<Finding>& out);
void CheckUnknownGpu(const Snapshot& s, const Catalog& c, std::vector<Finding>& out);

// Sources that could not be trusted (rules_health.cc).
void CheckLibraryFaults(const Snapshot& s, const Catalog& c, std::vector<Finding>& out);
void CheckImplausibleValues(const Snapshot& s, const Catalog& c, std::vector<Finding>& out);

// PyTorch builds in each environment (rules_torch.cc).
void CheckTorchDriver(const Snapshot& s, const Catalog& c, std::vector<Finding>& out);
void CheckTorchKernels(const Snapshot& s, const Catalog& c, std::vector<Finding>& out);
void CheckPairing(const Snapshot& s, const Catalog& c, std::vector<Finding>& out);
void CheckCpuBuild(const Snapshot& s, const Catalog& c, std::vector<Finding>& out);
void CheckRocmBuild(const Snapshot& s, const Catalog& c, std::vector<Finding>& out);
void CheckTorchPython(const Snapshot& s, const Catalog& c, std::vector<Finding>& out);
void CheckTorchUnknown(const Snapshot& s, const Catalog& c, std::vector<Finding>& out);
// A torch newer than the catalog's wheel facts for the platform (rules_newer.cc).
void CheckTorchBeyondCatalog(const Snapshot& s, const Catalog& c, std::vector<Finding>& out);
bool BeyondCatalog(const Catalog& c, const PackageInfo& torch, const Platform& p);

// How one environment's packages fit together (rules_stack.cc).
void CheckCompanionBuilds(const Snapshot& s, const Catalog& c, std::vector<Finding>& out);
void CheckNvidiaWheels(const Snapshot& s, const Catalog& c, std::vector<Finding>& out);

// Toolchain and environment (rules_env.cc).
void CheckNvccMajor(const Snapshot& s, const Catalog& c, std::vector<Finding>& out);
void CheckGccTooNew(const Snapshot& s, const Catalog& c, std::vector<Finding>& out);
void CheckLdLibraryPath(const Snapshot& s, const Catalog& c, std::vector<Finding>& out);
void CheckPipMirror(const Snapshot& s, const Catalog& c, std::vector<Finding>& out);

// Shared helpers.
EvidenceItem Ev(std::string id, MessageArgs args = {});
// The driver's kernel module, user space and CUDA, one item each ("evidence.no_driver" if none).
std::vector<EvidenceItem> DriverEvidence(const DriverInfo& d);
EvidenceItem TorchEvidence(const PythonEnv& env, const PackageInfo& torch);
EvidenceItem PackageEvidence(const PackageInfo& pkg);
EvidenceItem GpuEvidence(const GpuInfo& g);
// The environment's interpreter for "<python> -m pip ..." ("python" when unknown).
std::string PythonOf(const PythonEnv& env);
// The catalog row of an installed build, when its release and variant are known.
const TorchVariant* InstalledVariant(const Catalog& c, const PackageInfo& torch, const Platform& p);

}  // namespace cudamatch
