// Questions answered from the catalog alone: pairings, driver requirements, GPU identity and
// NVIDIA's binary-compatibility rules. Pure functions over a parsed Catalog.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"
#include "core/platform.h"
#include "core/version.h"

namespace cudamatch {

// ---- PyTorch ----

// The release whose version equals `v` (local label ignored; 1.13 == 1.13.0).
const TorchRelease* FindTorch(const Catalog& c, const Pep440& v);
// Every torch release paired with this torchvision / torchaudio version: the releases whose row
// names it, and the release companions.tsv says it was published for (oldest first).
std::vector<const TorchRelease*> TorchForVision(const Catalog& c, const Pep440& v);
std::vector<const TorchRelease*> TorchForAudio(const Catalog& c, const Pep440& v);
// The variant plain `pip install torch==X` gets on `platform` (PyPI's own wheel); nullptr when
// the catalog does not know it.
const TorchVariant* PypiDefaultVariant(const Catalog& c, const TorchRelease& t, std::string_view platform);
// A torchvision / torchaudio release (local label ignored).
const Companion* FindCompanion(const Catalog& c, std::string_view package, const Pep440& version);
// Every version of `package` published for this torch release, newest first.
std::vector<const Companion*> CompanionsFor(const Catalog& c, std::string_view package, const Pep440& torch);
// Whether `version` of `package` pairs with torch release `t`: named by its row, or published
// for it (a release line pairs with every patch release of the matching companion line).
bool CompanionPairs(const Catalog& c, std::string_view package, const Pep440& version, const TorchRelease& t);
// The wheel variants of a release on a platform, in catalog order.
std::vector<const TorchVariant*> VariantsOf(const Catalog& c, const Pep440& torch,
                                            std::string_view platform);
const TorchVariant* FindVariant(const Catalog& c, const Pep440& torch, std::string_view platform,
                                std::string_view tag);
// The torch_complete.tsv row saying VariantsOf(torch, platform) is every variant PyTorch
// published there, or nullptr where the list may lack some.
const TorchCompleteList* CompleteVariantList(const Catalog& c, const Pep440& torch, std::string_view platform);
// Releases nearest to `v`: the release itself, its major.minor line, then outward in release
// order, the newer first at the same distance (9.9.9: the newest releases). For "no such
// release" answers and for fixes that change as little as they can.
std::vector<const TorchRelease*> NearestTorch(const Catalog& c, const Pep440& v, size_t limit);
// The same order over any ascending list of versions: indexes into `sorted`, nearest first.
std::vector<size_t> NearestOrder(const std::vector<Pep440>& sorted, const Pep440& v);
// Whether a release publishes wheels for this CPython (stable or experimental).
enum class PythonFit { kSupported, kExperimental, kUnsupported, kUnknown };
PythonFit FitPython(const TorchRelease& t, const PyVersion& py);

// ---- CUDA and drivers ----

// Every release of one CUDA minor (12.4 -> 12.4.0, 12.4.1), oldest first.
std::vector<const CudaToolkit*> ToolkitReleases(const Catalog& c, const CudaVersion& minor);
const MinorCompat* MinorCompatFor(const Catalog& c, int cuda_major);

struct DriverRequirement {
  std::optional<DriverVersion> toolkit_min;   // the minimum driver of the minor's first release
  std::optional<DriverVersion> minor_compat;  // the minor-version-compatibility floor of the major
  bool windows_not_listed = false;            // NVIDIA lists no Windows toolkit driver (13.x)
};
DriverRequirement MinDriverFor(const Catalog& c, const CudaVersion& cuda, Os os);

// The newest CUDA a driver serves (what nvidia-smi prints), from the branch table: a Linux driver
// by its branch (535.104.05 is R535), a Windows driver by the branch its number falls in
// (WindowsDriverBranch). Otherwise (a branch the table lacks, an older Windows driver) the newest
// CUDA minor whose toolkit minimum the driver meets, a lower bound when a newer minor's minimum
// is unknown.
struct DriverCuda {
  std::optional<CudaVersion> cuda;
  bool from_branch_table = false;
  int branch = 0;            // with from_branch_table
  bool lower_bound = false;  // "at least": a newer CUDA's requirement is unknown
};
DriverCuda MaxCudaForDriver(const Catalog& c, const DriverVersion& driver, Os os);
const DriverBranch* FindBranch(const Catalog& c, int branch);
// Windows drivers have numbers of their own: 566.36 is R565, 572.16 is R570, 475.14 is R470.
// From R450 on, a Windows driver's major falls at or above its branch's number and below the
// next branch's (catalog/NOTES.md, "Windows driver numbers"); nullptr below R450 or past the
// newest branch.
const DriverBranch* WindowsDriverBranch(const Catalog& c, const DriverVersion& driver);

// How a driver runs code built with CUDA runtime `cuda`:
//   kFull:        the driver serves this CUDA version (or newer);
//   kMinorCompat: older than the toolkit's driver but above the major's minor-version floor:
//                 runs, but PTX JIT of newer code and some new APIs fail;
//   kTooOld:      below the minor-version floor, or a different, newer major: does not run;
//   kUnknown:     the catalog lacks the facts to say.
enum class DriverFit { kFull, kMinorCompat, kTooOld, kUnknown };
DriverFit FitDriver(const Catalog& c, const DriverVersion& driver, const CudaVersion& cuda, Os os);
DriverFit FitDriverCuda(const Catalog& c, const CudaVersion& driver_cuda,
                        const std::optional<DriverVersion>& driver, const CudaVersion& cuda, Os os);

// ---- GPUs ----

struct GpuMatch {
  std::vector<const GpuModel*> models;      // best matches (several when ambiguous)
  std::vector<std::string> suggestions;     // "did you mean" names when nothing matched
};
// "RTX 3090", "3090", "rtx3090", "GeForce RTX 3090", "NVIDIA A100-SXM4-80GB". Suggestions cost
// an edit distance per model; the probe, which shows none, asks without them.
GpuMatch MatchGpuName(const Catalog& c, std::string_view query, bool suggest = true);
std::vector<const GpuModel*> GpusByPciId(const Catalog& c, uint32_t device_id);
// A Jetson module (NVIDIA names every one "Jetson ..."): an integrated Tegra GPU that PyPI's
// CUDA wheels, built for discrete GPUs and SBSA servers, do not serve.
bool IsJetson(const GpuModel& g);
// The one host CPU architecture a GPU model comes with (gpu_hosts.tsv), null for a GPU that goes
// into any host.
const GpuHost* HostOfGpu(const Catalog& c, std::string_view gpu_name);
const GpuArchitecture* ArchitectureFor(const Catalog& c, const ComputeCapability& cc);
// The compute capability that `cc` is an earlier CUDA release's name of (10.1 -> 11.0, Thor);
// nullopt when no architecture lists it in renamed_from.
std::optional<ComputeCapability> RenamedCc(const Catalog& c, const ComputeCapability& cc);
// The CUDA releases whose nvcc can build SASS for `cc` (first and last), from cuda_targets.
std::optional<CudaVersion> FirstCudaFor(const Catalog& c, const ComputeCapability& cc);
std::optional<CudaVersion> LastCudaFor(const Catalog& c, const ComputeCapability& cc);
const CudaTargets* TargetsFor(const Catalog& c, const CudaVersion& cuda);

// NVIDIA's binary compatibility: SASS for X.Y runs on X.Z with Z >= Y (arch-specific "a"
// targets only on X.Y itself); PTX for X.Y JIT-compiles on any X'.Y' >= X.Y.
enum class KernelFit { kSass, kPtx, kNone };
struct ArchFit {
  KernelFit fit = KernelFit::kNone;
  ComputeCapability via;  // the list entry that serves the GPU
};
ArchFit FitArch(const ArchList& list, const ComputeCapability& gpu);
// FitArch for a wheel built with `cuda`: PTX counts only when that CUDA already knew the GPU's
// architecture (its bundled libraries carry no code for GPUs released after it).
ArchFit FitWheel(const Catalog& c, const ArchList& list, const CudaVersion& cuda, const ComputeCapability& gpu);

// ---- cuDNN and compilers ----

const CudnnRelease* CudnnFor(const Catalog& c, const Pep440& cudnn);
const HostCompiler* HostCompilerFor(const Catalog& c, const CudaVersion& cuda);
const SourceRef* FindSource(const Catalog& c, std::string_view id);
const Mirror* FindMirror(const Catalog& c, std::string_view name_or_url);
// A mirror the catalog does not list, given by URL: treated as a PyPI mirror (it serves only
// PyPI's default variant), the safe assumption. Error when `url` is not an http(s) URL.
Result<Mirror> UnlistedMirror(std::string_view url);
// The PyTorch-wheel mirror run by `m`'s operator (`m` itself when it is one), or null: SJTUG's
// pytorch-wheels for its PyPI mirror.
const Mirror* PytorchMirrorOf(const Catalog& c, const Mirror& m);
// The first PyPI mirror (by name) whose operator also mirrors the PyTorch wheels, or null.
const Mirror* MirrorWithPytorchWheels(const Catalog& c);
// The PyPI mirror run by `m`'s operator (`m` itself when it is one), or null.
const Mirror* PypiMirrorOf(const Catalog& c, const Mirror& m);

}  // namespace cudamatch
