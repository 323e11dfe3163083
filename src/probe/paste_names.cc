// The names of the pasted-fact vocabulary (probe/paste_info.h), one table each.

#include "probe/paste_info.h"

#include <utility>

namespace cudamatch {

namespace {

template <typename E, size_t N>
std::string_view NameIn(const std::pair<E, std::string_view> (&table)[N], E e) {
  for (const auto& [value, name] : table) {
    if (value == e) return name;
  }
  return "";
}

constexpr std::pair<PasteFormat, std::string_view> kFormatNames[] = {
    {PasteFormat::kCollectEnv, "collect_env"},
    {PasteFormat::kNvidiaSmi, "nvidia-smi"},
    {PasteFormat::kNvidiaSmiQ, "nvidia-smi -q"},
    {PasteFormat::kNvidiaSmiXml, "nvidia-smi -q -x"},
    {PasteFormat::kNvidiaSmiCsv, "nvidia-smi csv"},
    {PasteFormat::kPipList, "pip list"},
    {PasteFormat::kPipFreeze, "pip freeze"},
    {PasteFormat::kCondaList, "conda list"},
    {PasteFormat::kNvcc, "nvcc"},
    {PasteFormat::kProcDriver, "/proc/driver/nvidia/version"},
    {PasteFormat::kTegraRelease, "nv_tegra_release"},
    {PasteFormat::kDoctorJson, "doctor --json"},
};

constexpr std::pair<PasteFactKind, std::string_view> kKindNames[] = {
    {PasteFactKind::kFormat, "format"},
    {PasteFactKind::kDriverVersion, "driver_version"},
    {PasteFactKind::kDriverCuda, "driver_cuda"},
    {PasteFactKind::kKernelModule, "kernel_module"},
    {PasteFactKind::kGpu, "gpu"},
    {PasteFactKind::kGpuCc, "gpu_cc"},
    {PasteFactKind::kGpuMemoryMib, "gpu_memory_mib"},
    {PasteFactKind::kGpuBusId, "gpu_bus_id"},
    {PasteFactKind::kToolkit, "toolkit"},
    {PasteFactKind::kCudnn, "cudnn"},
    {PasteFactKind::kPythonVersion, "python_version"},
    {PasteFactKind::kPythonPlatform, "python_platform"},
    {PasteFactKind::kOs, "os"},
    {PasteFactKind::kArch, "arch"},
    {PasteFactKind::kGcc, "gcc"},
    {PasteFactKind::kGlibc, "glibc"},
    {PasteFactKind::kPackage, "package"},
    {PasteFactKind::kTorchVersion, "torch_version"},
    {PasteFactKind::kTorchCuda, "torch_cuda"},
    {PasteFactKind::kTorchHip, "torch_hip"},
    {PasteFactKind::kTorchDebug, "torch_debug"},
    {PasteFactKind::kCudaAvailable, "cuda_available"},
    {PasteFactKind::kCudaModuleLoading, "cuda_module_loading"},
    {PasteFactKind::kL4t, "l4t"},
    {PasteFactKind::kJetsonModel, "jetson_model"},
    {PasteFactKind::kWsl, "wsl"},
    {PasteFactKind::kDriverFailure, "driver_failure"},
    {PasteFactKind::kUnparsed, "unparsed"},
};

constexpr std::pair<PasteGap, std::string_view> kGapNames[] = {
    {PasteGap::kDriver, "driver"},
    {PasteGap::kGpus, "gpus"},
    {PasteGap::kToolkits, "toolkits"},
    {PasteGap::kPythonPackages, "python_packages"},
    {PasteGap::kOtherEnvironments, "other_environments"},
    {PasteGap::kLibraries, "libraries"},
    {PasteGap::kBinaries, "binaries"},
    {PasteGap::kFiles, "files"},
};

}  // namespace

std::string_view PasteFormatName(PasteFormat f) { return NameIn(kFormatNames, f); }
std::string_view PasteFactKindName(PasteFactKind k) { return NameIn(kKindNames, k); }
std::string_view PasteGapName(PasteGap g) { return NameIn(kGapNames, g); }

}  // namespace cudamatch
