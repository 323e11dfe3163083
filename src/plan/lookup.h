// Everything the catalog knows about one entity: a torch / torchvision / torchaudio release, a
// CUDA version, a driver, a GPU. Built from catalog queries; rendered by report/.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/query.h"
#include "plan/commands.h"
#include "plan/plan.h"

namespace cudamatch {

struct LookupQuery {
  enum class Kind { kTorch, kTorchvision, kTorchaudio, kCuda, kDriver, kGpu };
  Kind kind = Kind::kTorch;
  std::string text;  // the version or the GPU query as given
  bool all = false;  // --all: the full matrix after the answer
};

// What an answer is for: the platform, the Python and the driver, each asked with a flag or
// taken from this machine (the report says which).
struct LookupTarget {
  Platform platform;
  bool platform_from_machine = false;      // neither --os nor --arch given
  std::string platform_from_gpu;           // lookup gpu without --arch: the GPU whose host architecture it is (gpu_hosts.tsv)
  std::optional<PyVersion> python;         // --python; nullopt: any Python
  std::optional<DriverVersion> driver;     // --driver, or this machine's (lookup gpu)
  std::optional<CudaVersion> driver_cuda;  // the CUDA that driver serves
  bool driver_from_machine = false;
  bool driver_checked = false;             // false: the platform was asked, no driver was looked for
};

// One torch build an answer names: the release, its wheel variant and where it comes from.
struct TorchPick {
  const TorchRelease* release = nullptr;  // null: no build fits
  const TorchVariant* variant = nullptr;
  DriverFit driver_fit = DriverFit::kUnknown;
  std::optional<KernelFit> kernel;         // lookup gpu: SASS or PTX for the GPU
  std::string index_url;                   // "" when plain PyPI serves it
  std::string pip;                         // the pip command for torch alone
  std::optional<DriverVersion> min_driver;  // the variant CUDA's own minimum on the target OS
};

// The releases on the target platform whose CUDA wheels carry code for one GPU.
struct GpuCodeSpan {
  const TorchRelease* first = nullptr;  // oldest release with code for it; null: none has
  const TorchRelease* last = nullptr;   // newest release with code for it
  std::vector<std::string> first_variants, last_variants;  // variants with code in those releases
  std::vector<std::string> last_without;  // CUDA variants of `last` without code for it
  const TorchRelease* newest = nullptr;  // newest release with CUDA wheels on the platform
  const TorchRelease* oldest = nullptr;  // oldest release with CUDA wheels on the platform
  size_t releases = 0;                   // releases with code for it
  bool unknown_after_last = false;       // a newer release has CUDA wheels whose arch list is unknown
  bool ended() const { return last != nullptr && newest != last; }
  bool starts_later() const { return first != nullptr && oldest != first; }
};

// lookup gpu, answered for the target: what runs, what last had code for it, what changes next.
struct GpuVerdict {
  LookupTarget target;
  TorchPick newest;             // newest build that runs (GPU, driver, Python, platform)
  TorchPick newer_driver;       // a newer build another driver would run; empty when none
  std::vector<Reason> why_none;  // newest is empty: the driver cannot drive the GPU (plan's reasons)
  const TorchVariant* pypi_default = nullptr;  // of span.newest, when it carries no code for the GPU
  GpuCodeSpan span;
  std::vector<Reason> next;     // what the catalog knows changes next (message id + values)
};

// A run of wheel variants (by CUDA, oldest first) that fit a driver the same way.
struct FitRun {
  DriverFit fit = DriverFit::kUnknown;
  std::string first, last;  // variant tags
  size_t count = 0;
};

// lookup driver, answered for the target platform and Python.
struct DriverVerdict {
  LookupTarget target;
  TorchPick newest;       // newest torch that runs (without caveats preferred within a release)
  TorchPick newest_full;  // newest torch that runs without minor-version compatibility
  std::vector<FitRun> runs;
};

// "torch==1.13.0", "torchvision==0.14.0", "cuda==12.4", "driver==470.82.01", {"gpu", "RTX 3090"}.
Result<LookupQuery> ParseLookupQuery(const std::vector<std::string>& args);

struct VariantAnswer {
  const TorchVariant* row = nullptr;
  bool pypi_default = false;
  DriverRequirement linux_driver;
  DriverRequirement windows_driver;
  InstallCommands commands;
};

struct TorchAnswer {
  const TorchRelease* release = nullptr;
  std::vector<const TorchRelease*> paired;  // every torch release of an asked torchvision/torchaudio
  const TorchVariant* pypi_default = nullptr;  // on the asked platform; null = unknown
  std::vector<VariantAnswer> variants;
};

struct CudaAnswer {
  CudaVersion cuda;
  std::vector<const CudaToolkit*> releases;
  DriverRequirement linux_driver;
  DriverRequirement windows_driver;
  const CudaTargets* targets = nullptr;
  std::vector<const CudnnRelease*> cudnn;
  const HostCompiler* compilers = nullptr;
  std::vector<const TorchVariant*> torch_wheels;  // releases with a wheel for this CUDA
};

struct VariantFitAnswer {
  std::string tag;
  CudaVersion cuda;
  DriverFit fit = DriverFit::kUnknown;
};

struct DriverAnswer {
  DriverVersion driver;
  Os os = Os::kLinux;
  DriverCuda served;
  std::vector<VariantFitAnswer> variants;   // every CUDA wheel variant the catalog lists
  const TorchRelease* newest_torch = nullptr;        // newest release with a variant that runs fully
  const TorchVariant* newest_variant = nullptr;
  const TorchRelease* newest_torch_compat = nullptr;  // ... counting minor-version compatibility
  const TorchVariant* newest_variant_compat = nullptr;
  DriverVerdict verdict;
};

struct WheelFit {
  const TorchVariant* variant = nullptr;
  std::optional<ArchFit> fit;  // nullopt: the wheel's architecture list is unknown
};

struct GpuAnswer {
  std::vector<const GpuModel*> models;  // empty when asked by compute capability alone
  ComputeCapability cc;
  const GpuArchitecture* architecture = nullptr;
  std::optional<CudaVersion> first_cuda;
  std::optional<CudaVersion> last_cuda;
  bool still_supported = false;  // the newest CUDA in the catalog still targets it
  DriverRequirement min_driver;  // for first_cuda
  std::vector<WheelFit> wheels;  // CUDA wheels of every platform, newest release first
  bool jetson = false;           // a Jetson module: no PyPI CUDA wheel of any platform serves it
  std::optional<GpuVerdict> verdict;  // the answer for the target; nullopt for a Jetson module
  std::optional<ComputeCapability> renamed_from;  // asked by an earlier CUDA release's name (10.1)
};

// A lookup that found nothing: what was asked, and the nearest real answers.
// Not an answer that it does not exist: the catalog's data (of `date`) does not list it.
struct NotFound {
  std::string what;
  std::vector<std::string> suggestions;
  std::string date;  // the catalog's data_date, for a release or CUDA version; "" for a GPU
};

struct LookupResult {
  LookupQuery query;
  std::string platform;  // "linux-x86_64"
  std::optional<TorchAnswer> torch;
  std::optional<CudaAnswer> cuda;
  std::optional<DriverAnswer> driver;
  std::optional<GpuAnswer> gpu;
  std::optional<NotFound> not_found;
};

// Platform chooses the wheel variants and commands (Linux x86_64 unless --os/--arch say else).
Result<LookupResult> Lookup(const Catalog& c, const LookupQuery& q, const Platform& platform,
                            const Mirror* mirror);
// The same, with the answers of lookup gpu / lookup driver for `target` (its platform is used).
Result<LookupResult> Lookup(const Catalog& c, const LookupQuery& q, const LookupTarget& target,
                            const Mirror* mirror);

// The answers (plan/lookup_answer.cc).
GpuVerdict AnswerGpuFor(const Catalog& c, const GpuAnswer& gpu, const LookupTarget& target, const Mirror* mirror);
DriverVerdict AnswerDriverFor(const Catalog& c, const DriverAnswer& driver, const LookupTarget& target,
                              const Mirror* mirror);
GpuCodeSpan CodeSpanOn(const Catalog& c, const ComputeCapability& cc, const std::string& platform);

// Nearest real torchvision / torchaudio versions to a mistyped one ("1.4.0" -> 0.14.0).
std::vector<std::pair<Pep440, const TorchRelease*>> NearestPaired(const Catalog& c, const Pep440& v,
                                                                  bool audio, size_t limit);

}  // namespace cudamatch
