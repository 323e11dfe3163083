// What the rule functions share. Internal to diagnose/; the rules themselves are declared in
// finding_table.cc, the one place that names them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/query.h"
#include "diagnose/finding.h"
#include "diagnose/rules.h"
#include "probe/snapshot.h"

namespace cudamatch {

// A torch newer than the catalog's wheel facts for the platform (rules_newer.cc).
bool BeyondCatalog(const Catalog& c, const PackageInfo& torch, const Platform& p);

// The GPU code torch's own libraries carry (union over libtorch_cuda*.so), and where it was read.
struct TorchCode {
  FatbinCode code;
  EvidenceItem evidence;  // the first library with GPU code, its list and how much was read
};
// "GPU code in FILE: LIST (N fatbin containers, M entries read...)".
EvidenceItem CodeEvidence(const std::string& path, const FatbinCode& code);
// The major of a versioned soname: libcudart.so.11.0 -> 11, libcudnn.so.9 -> 9.
std::optional<int> SonameMajor(std::string_view soname, std::string_view stem);
// The first DT_NEEDED of `b` that is a versioned `stem` soname, with its major.
std::optional<std::pair<std::string, int>> NeededMajor(const BinaryInfo& b, std::string_view stem);
std::optional<TorchCode> TorchFileCode(const PackageInfo& torch);
// FitArch over the code a library carries: SASS of the same major and a lower or equal minor, or
// PTX of a lower or equal capability.
ArchFit FitCode(const FatbinCode& code, const ComputeCapability& gpu);

// The list torch's kernels are judged by: its own libraries' when they were read, else the
// catalog's for its release and variant (rules_torch.cc).
struct KernelSource {
  FatbinCode code;
  EvidenceItem evidence;
};
std::optional<KernelSource> KernelsOf(const Catalog& c, const PackageInfo& torch, const Platform& p);
// PTX counts only when torch's CUDA already knew the GPU (its bundled libraries carry no code
// for GPUs released after it).
ArchFit FitTorch(const Catalog& c, const FatbinCode& code, const CudaVersion& cuda, const ComputeCapability& gpu);

// Shared helpers.
// Whether the snapshot could show `gap`: always for a machine or an image; for a paste
// (doctor --from) only when the paste held it. A rule that reasons from absence asks first.
bool Observed(const Snapshot& s, PasteGap gap);
// Calls fn(env, torch) for every environment with torch installed.
template <typename Fn>
void ForEachTorch(const Snapshot& s, Fn fn) {
  for (const PythonEnv& env : s.pythons) {
    auto it = env.packages.find("torch");
    if (it != env.packages.end() && it->second.version) fn(env, it->second);
  }
}
EvidenceItem Ev(std::string id, MessageArgs args = {});
// The driver's kernel module, user space and CUDA, one item each ("evidence.no_driver" if none).
std::vector<EvidenceItem> DriverEvidence(const DriverInfo& d);
EvidenceItem TorchEvidence(const PythonEnv& env, const PackageInfo& torch);
EvidenceItem PackageEvidence(const PackageInfo& pkg);
EvidenceItem GpuEvidence(const GpuInfo& g);
// A finding of `id` with the severity its table row declares.
Finding Emit(std::string_view id, MessageArgs args, std::vector<EvidenceItem> evidence, std::string topic,
             RemedyNeed need = {}, RemedyNeed next = {});
// A finding about environment `env` of `s`; its need (if any) targets that environment.
Finding EmitFor(const Snapshot& s, const PythonEnv& env, std::string_view id, MessageArgs args,
                std::vector<EvidenceItem> evidence, std::string topic, RemedyNeed need = {});
// The index of `env` in s.pythons, -1 when it is not one of them.
int EnvIndex(const Snapshot& s, const PythonEnv& env);
RemedyNeed Need(RemedyNeed::Kind kind);
// The first toolkit with nvcc of CUDA `major` on the machine, or nullptr.
const ToolkitInfo* NvccOfMajor(const Snapshot& s, int major);
// The rebuild of extension `e` from source against the installed torch (rules_binaries.cc): for
// every GPU present (TORCH_CUDA_ARCH_LIST) with the nvcc of torch's CUDA major (CUDA_HOME) beside
// a CUDA torch; an editable install in its project directory, the way it was installed. Without
// that nvcc, `evidence` (when given) gets the toolkit to install.
RemedyNeed RebuildNeed(const Snapshot& s, const PythonEnv& env, const ExtensionInfo& e,
                       std::vector<EvidenceItem>* evidence = nullptr);
// Whether a Requires-Dist of `ext` on torch excludes the torch installed in `env` (ext.torch_pin).
bool TorchPinUnmet(const PythonEnv& env, const ExtensionInfo& ext);
// The fix for an extension built against another torch (rules_binaries.cc): the newest release
// with a wheel for this torch on the PyTorch index of its variant, else a rebuild from source
// (RebuildNeed, `evidence` as there).
RemedyNeed BuiltTorchNeed(const Snapshot& s, const Catalog& c, const PythonEnv& env, const PackageInfo& torch,
                          const ExtensionInfo& ext, std::vector<EvidenceItem>* evidence);
// One of torch's nvidia-* requirements ("nvidia-cudnn-cu12==9.1.0.70", "nvidia_nccl_cu12 (>=2.20)")
// as a normalized name and its specifier.
NeededRequirement SplitRequirement(std::string_view req);
// The catalog row of an installed build, when its release and variant are known.
const TorchVariant* InstalledVariant(const Catalog& c, const PackageInfo& torch, const Platform& p);

}  // namespace cudamatch
