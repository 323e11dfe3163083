// Declares only the ABI cudamatch uses, after NVIDIA's documentation:
//   NVML API Reference (https://docs.nvidia.com/deploy/nvml-api/): nvmlInit_v2,
//   nvmlSystemGetDriverVersion, nvmlSystemGetCudaDriverVersion_v2, nvmlDeviceGetCount_v2,
//   nvmlDeviceGetHandleByIndex_v2, nvmlDeviceGetName, nvmlDeviceGetUUID,
//   nvmlDeviceGetPciInfo_v3 (nvmlPciInfo_t), nvmlDeviceGetCudaComputeCapability,
//   nvmlDeviceGetMemoryInfo (nvmlMemory_t), nvmlErrorString.
//   CUDA Driver API (https://docs.nvidia.com/cuda/cuda-driver-api/): cuDriverGetVersion.
#include "probe/nvidia_api.h"

#include <dlfcn.h>

#include <array>

namespace cudamatch {

namespace {

using nvmlReturn_t = int;
using nvmlDevice_t = struct nvmlDevice_st*;

constexpr nvmlReturn_t kNvmlSuccess = 0;
constexpr unsigned kNvmlStringBuffer = 96;  // NVML_DEVICE_NAME_V2_BUFFER_SIZE, >= UUID (80)

struct NvmlPciInfo {  // nvmlPciInfo_t
  char bus_id_legacy[16];
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pci_device_id;  // device id in the high 16 bits, vendor id in the low 16
  unsigned int pci_subsystem_id;
  char bus_id[32];
};

struct NvmlMemory {  // nvmlMemory_t
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};

// dlsym with the "_v2" name tried first.
void* Symbol(void* lib, const char* name, const char* v2_name = nullptr) {
  if (v2_name != nullptr) {
    if (void* sym = dlsym(lib, v2_name)) return sym;
  }
  return dlsym(lib, name);
}

std::string DlError(const char* what) {
  const char* e = dlerror();
  return std::string(what) + ": " + (e ? e : "unknown dlopen error");
}

class RealNvml : public NvmlApi {
 public:
  explicit RealNvml(std::string library) : library_(std::move(library)) {}

  Status Init() override {
    lib_ = dlopen(library_.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (lib_ == nullptr) return Err(DlError(("dlopen " + library_).c_str()));
    error_string_ = reinterpret_cast<ErrorStringFn>(Symbol(lib_, "nvmlErrorString"));
    auto init = reinterpret_cast<nvmlReturn_t (*)()>(Symbol(lib_, "nvmlInit", "nvmlInit_v2"));
    if (init == nullptr) return Err(library_ + " has no nvmlInit_v2");
    nvmlReturn_t rc = init();
    if (rc != kNvmlSuccess) return Err(Describe(rc));
    return Status::Ok();
  }

  Result<std::string> DriverVersion() override {
    auto fn = reinterpret_cast<nvmlReturn_t (*)(char*, unsigned)>(Symbol(lib_, "nvmlSystemGetDriverVersion"));
    if (fn == nullptr) return Err("nvmlSystemGetDriverVersion missing");
    std::array<char, kNvmlStringBuffer> buf{};
    if (nvmlReturn_t rc = fn(buf.data(), buf.size()); rc != kNvmlSuccess) return Err(Describe(rc));
    return std::string(buf.data());
  }

  Result<int> CudaDriverVersion() override {
    auto fn = reinterpret_cast<nvmlReturn_t (*)(int*)>(
        Symbol(lib_, "nvmlSystemGetCudaDriverVersion", "nvmlSystemGetCudaDriverVersion_v2"));
    if (fn == nullptr) return Err("nvmlSystemGetCudaDriverVersion missing");
    int version = 0;
    if (nvmlReturn_t rc = fn(&version); rc != kNvmlSuccess) return Err(Describe(rc));
    return version;
  }

  Result<std::vector<NvmlGpu>> Gpus() override {
    auto count_fn = reinterpret_cast<nvmlReturn_t (*)(unsigned*)>(
        Symbol(lib_, "nvmlDeviceGetCount", "nvmlDeviceGetCount_v2"));
    auto handle_fn = reinterpret_cast<nvmlReturn_t (*)(unsigned, nvmlDevice_t*)>(
        Symbol(lib_, "nvmlDeviceGetHandleByIndex", "nvmlDeviceGetHandleByIndex_v2"));
    if (count_fn == nullptr || handle_fn == nullptr) return Err("nvmlDeviceGetCount_v2 missing");
    unsigned count = 0;
    if (nvmlReturn_t rc = count_fn(&count); rc != kNvmlSuccess) return Err(Describe(rc));
    std::vector<NvmlGpu> gpus;
    for (unsigned i = 0; i < count && i < 64; ++i) {
      nvmlDevice_t dev = nullptr;
      if (handle_fn(i, &dev) != kNvmlSuccess) continue;
      gpus.push_back(Describe(dev));
    }
    return gpus;
  }

 private:
  using ErrorStringFn = const char* (*)(nvmlReturn_t);

  std::string Describe(nvmlReturn_t rc) const {
    std::string name = NvmlStatusName(rc);
    if (error_string_ != nullptr) {
      if (const char* text = error_string_(rc)) name += std::string(": ") + text;
    }
    return name;
  }

  std::string DeviceString(const char* symbol, nvmlDevice_t dev) const {
    auto fn = reinterpret_cast<nvmlReturn_t (*)(nvmlDevice_t, char*, unsigned)>(Symbol(lib_, symbol));
    std::array<char, kNvmlStringBuffer> buf{};
    if (fn == nullptr || fn(dev, buf.data(), buf.size()) != kNvmlSuccess) return "";
    return std::string(buf.data());
  }

  NvmlGpu Describe(nvmlDevice_t dev) const {
    NvmlGpu gpu;
    gpu.name = DeviceString("nvmlDeviceGetName", dev);
    gpu.uuid = DeviceString("nvmlDeviceGetUUID", dev);
    auto pci_fn = reinterpret_cast<nvmlReturn_t (*)(nvmlDevice_t, NvmlPciInfo*)>(
        Symbol(lib_, "nvmlDeviceGetPciInfo", "nvmlDeviceGetPciInfo_v3"));
    NvmlPciInfo pci{};
    if (pci_fn != nullptr && pci_fn(dev, &pci) == kNvmlSuccess) {
      pci.bus_id[sizeof(pci.bus_id) - 1] = '\0';
      gpu.pci_bus_id = pci.bus_id;
      gpu.pci_device_id = pci.pci_device_id >> 16;
    }
    auto cc_fn = reinterpret_cast<nvmlReturn_t (*)(nvmlDevice_t, int*, int*)>(
        Symbol(lib_, "nvmlDeviceGetCudaComputeCapability"));
    int major = 0, minor = 0;
    if (cc_fn != nullptr && cc_fn(dev, &major, &minor) == kNvmlSuccess && major > 0) {
      gpu.cc = ComputeCapability{major, minor, 0};
    }
    auto mem_fn = reinterpret_cast<nvmlReturn_t (*)(nvmlDevice_t, NvmlMemory*)>(
        Symbol(lib_, "nvmlDeviceGetMemoryInfo"));
    NvmlMemory mem{};
    if (mem_fn != nullptr && mem_fn(dev, &mem) == kNvmlSuccess) gpu.memory_bytes = mem.total;
    return gpu;
  }

  std::string library_;
  void* lib_ = nullptr;
  ErrorStringFn error_string_ = nullptr;
};

class RealCuda : public CudaApi {
 public:
  explicit RealCuda(std::string library) : library_(std::move(library)) {}

  Result<int> DriverGetVersion() override {
    void* lib = dlopen(library_.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (lib == nullptr) return Err(DlError(("dlopen " + library_).c_str()));
    auto fn = reinterpret_cast<int (*)(int*)>(dlsym(lib, "cuDriverGetVersion"));
    if (fn == nullptr) return Err(library_ + " has no cuDriverGetVersion");
    int version = 0;
    if (int rc = fn(&version); rc != 0) return Err("cuDriverGetVersion returned CUresult " + std::to_string(rc));
    return version;
  }

 private:
  std::string library_;
};

}  // namespace

std::unique_ptr<NvmlApi> MakeRealNvml(std::string library) { return std::make_unique<RealNvml>(std::move(library)); }
std::unique_ptr<CudaApi> MakeRealCuda(std::string library) { return std::make_unique<RealCuda>(std::move(library)); }

std::string NvmlStatusName(int status) {
  static const char* const kNames[] = {
      "NVML_SUCCESS",
      "NVML_ERROR_UNINITIALIZED",
      "NVML_ERROR_INVALID_ARGUMENT",
      "NVML_ERROR_NOT_SUPPORTED",
      "NVML_ERROR_NO_PERMISSION",
      "NVML_ERROR_ALREADY_INITIALIZED",
      "NVML_ERROR_NOT_FOUND",
      "NVML_ERROR_INSUFFICIENT_SIZE",
      "NVML_ERROR_INSUFFICIENT_POWER",
      "NVML_ERROR_DRIVER_NOT_LOADED",
      "NVML_ERROR_TIMEOUT",
      "NVML_ERROR_IRQ_ISSUE",
      "NVML_ERROR_LIBRARY_NOT_FOUND",
      "NVML_ERROR_FUNCTION_NOT_FOUND",
      "NVML_ERROR_CORRUPTED_INFOROM",
      "NVML_ERROR_GPU_IS_LOST",
      "NVML_ERROR_RESET_REQUIRED",
      "NVML_ERROR_OPERATING_SYSTEM",
      "NVML_ERROR_LIB_RM_VERSION_MISMATCH",
      "NVML_ERROR_IN_USE",
      "NVML_ERROR_MEMORY",
      "NVML_ERROR_NO_DATA",
      "NVML_ERROR_VGPU_ECC_NOT_ENABLED",
      "NVML_ERROR_INSUFFICIENT_RESOURCES",
      "NVML_ERROR_FREQ_NOT_SUPPORTED",
      "NVML_ERROR_ARGUMENT_VERSION_MISMATCH",
      "NVML_ERROR_DEPRECATED",
      "NVML_ERROR_NOT_READY",
      "NVML_ERROR_GPU_NOT_FOUND",
      "NVML_ERROR_INVALID_STATE",
  };
  if (status >= 0 && status < static_cast<int>(std::size(kNames))) return kNames[status];
  if (status == 999) return "NVML_ERROR_UNKNOWN";
  return "NVML status " + std::to_string(status);
}

}  // namespace cudamatch
