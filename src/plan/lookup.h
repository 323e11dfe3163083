// Everything the catalog knows about one entity: a torch / torchvision / torchaudio release, a
// CUDA version, a driver, a GPU. Built from catalog queries; rendered by report/.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/query.h"
#include "plan/commands.h"

namespace cudamatch {

struct LookupQuery {
  enum class Kind { kTorch, kTorchvision, kTorchaudio, kCuda, kDriver, kGpu };
  Kind kind = Kind::kTorch;
  std::string text;  // the version or the GPU query as given
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
};

// A lookup that found nothing: what was asked, and the nearest real answers.
struct NotFound {
  std::string what;
  std::vector<std::string> suggestions;
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

// Nearest real torchvision / torchaudio versions to a mistyped one ("1.4.0" -> 0.14.0).
std::vector<std::pair<Pep440, const TorchRelease*>> NearestPaired(const Catalog& c, const Pep440& v,
                                                                  bool audio, size_t limit);

}  // namespace cudamatch
