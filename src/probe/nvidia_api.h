// The two NVIDIA user-space libraries cudamatch asks, behind small interfaces that return our
// own types. The real implementations dlopen the runtime sonames (libnvidia-ml.so.1,
// libcuda.so.1), resolve "_v2" symbols first, keep the dlerror() text and never dlclose. The
// build needs no CUDA and no driver; tests use fakes.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "core/version.h"

namespace cudamatch {

struct NvmlGpu {
  std::string name;
  std::string uuid;
  std::string pci_bus_id;
  std::optional<uint32_t> pci_device_id;  // 16-bit device id, vendor stripped
  std::optional<ComputeCapability> cc;
  std::optional<uint64_t> memory_bytes;
};

class NvmlApi {
 public:
  virtual ~NvmlApi() = default;
  // Loads the library and calls nvmlInit_v2. The error names the NVML status
  // ("NVML_ERROR_DRIVER_NOT_LOADED: Driver Not Loaded") or the dlopen failure.
  virtual Status Init() = 0;
  virtual Result<std::string> DriverVersion() = 0;  // nvmlSystemGetDriverVersion
  virtual Result<int> CudaDriverVersion() = 0;      // nvmlSystemGetCudaDriverVersion_v2
  virtual Result<std::vector<NvmlGpu>> Gpus() = 0;
};

class CudaApi {
 public:
  virtual ~CudaApi() = default;
  // cuDriverGetVersion: needs no cuInit and no GPU. 12020 = CUDA 12.2.
  virtual Result<int> DriverGetVersion() = 0;
};

// The library names are the runtime sonames; tests pass the path of a fake library.
std::unique_ptr<NvmlApi> MakeRealNvml(std::string library = "libnvidia-ml.so.1");
std::unique_ptr<CudaApi> MakeRealCuda(std::string library = "libcuda.so.1");

// Names of the NVML status codes documented in nvml.h (nvmlReturn_t), for messages.
std::string NvmlStatusName(int status);

}  // namespace cudamatch
