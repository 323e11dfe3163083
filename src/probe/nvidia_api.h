// The two NVIDIA user-space libraries cudamatch asks, behind small interfaces that return our
// own types. The real implementations dlopen the runtime sonames (libnvidia-ml.so.1,
// libcuda.so.1), resolve "_v2" symbols first, keep the dlerror() text and never dlclose. Every
// call into a library runs in a child process forked for it (core/child.h), which answers with
// plain values within a bound; a hang, crash or abort is returned as a LibraryFault. Strings the
// library writes are cut at their buffer's size. The build needs no CUDA and no driver; tests use
// fakes.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/child.h"
#include "core/result.h"
#include "core/version.h"
#include "probe/snapshot.h"

namespace cudamatch {

struct NvmlGpu {
  std::string name;
  std::string uuid;
  std::string pci_bus_id;
  std::optional<uint32_t> pci_device_id;  // 16-bit device id, vendor stripped
  std::optional<ComputeCapability> cc;  // as NVML gave it: the GPU probe checks it is plausible
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
  // Set when the library did not answer (hang, crash, abort); Init() then failed.
  virtual std::optional<LibraryFault> fault() const { return std::nullopt; }
};

class CudaApi {
 public:
  virtual ~CudaApi() = default;
  // Starts asking in the background (the real library: its child is forked now), so the caller
  // can work until DriverGetVersion() collects the answer. Optional: DriverGetVersion() asks
  // itself when nothing was started.
  virtual void Start() {}
  // cuDriverGetVersion: needs no cuInit and no GPU. 12020 = CUDA 12.2.
  virtual Result<int> DriverGetVersion() = 0;
  // Set when the library did not answer (hang, crash, abort); DriverGetVersion() then failed.
  virtual std::optional<LibraryFault> fault() const { return std::nullopt; }
};

// How long a library call may take before its child is killed: 2 s unless --driver-timeout or
// CUDAMATCH_DRIVER_TIMEOUT says otherwise.
inline constexpr int kDefaultDriverTimeoutMs = 2000;

// The library names are the runtime sonames; tests pass the path of a fake library.
std::unique_ptr<NvmlApi> MakeRealNvml(std::string library = "libnvidia-ml.so.1",
                                      int timeout_ms = kDefaultDriverTimeoutMs);
std::unique_ptr<CudaApi> MakeRealCuda(std::string library = "libcuda.so.1", int timeout_ms = kDefaultDriverTimeoutMs);

// The tasks a watched child runs ("nvml", "cuda"), for ServeChildTask in main.
ChildTaskFn FindNvidiaTask(std::string_view name);

// "libcuda did not answer within 2 s", "NVML crashed with SIGSEGV".
std::string DescribeFault(const LibraryFault& fault);

// Names of the NVML status codes documented in nvml.h (nvmlReturn_t), for messages.
std::string NvmlStatusName(int status);

}  // namespace cudamatch
