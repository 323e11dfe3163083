// Declares only the ABI cudamatch uses, after NVIDIA's documentation:
//   NVML API Reference (https://docs.nvidia.com/deploy/nvml-api/): nvmlInit_v2,
//   nvmlSystemGetDriverVersion, nvmlSystemGetCudaDriverVersion_v2, nvmlDeviceGetCount_v2,
//   nvmlDeviceGetHandleByIndex_v2, nvmlDeviceGetName, nvmlDeviceGetUUID,
//   nvmlDeviceGetPciInfo_v3 (nvmlPciInfo_t), nvmlDeviceGetCudaComputeCapability,
//   nvmlDeviceGetMemoryInfo (nvmlMemory_t), nvmlErrorString.
//   CUDA Driver API (https://docs.nvidia.com/cuda/cuda-driver-api/): cuDriverGetVersion.
#include "probe/nvidia_api.h"

#include <array>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <variant>

#include "core/child.h"
#include "core/dynlib.h"
#include "core/text.h"

namespace cudamatch {

namespace {

using nvmlReturn_t = int;
using nvmlDevice_t = struct nvmlDevice_st*;

constexpr nvmlReturn_t kNvmlSuccess = 0;
constexpr unsigned kNvmlStringBuffer = 96;  // NVML_DEVICE_NAME_V2_BUFFER_SIZE, >= UUID (80)
constexpr unsigned kMaxGpus = 64;

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

// The symbol with the "_v2" name tried first.
void* Symbol(const DynamicLibrary& lib, const char* name, const char* v2_name = nullptr) {
  if (v2_name != nullptr) {
    if (void* sym = FindSymbol(lib, v2_name)) return sym;
  }
  return FindSymbol(lib, name);
}

// Text a library wrote into a buffer of `size` bytes: up to the first NUL, never past the buffer.
std::string Bounded(const char* text, size_t size) {
  if (text == nullptr) return "";
  return std::string(text, strnlen(text, size));
}

// ---- in the child: the calls themselves, answered as wire records ----

using ErrorStringFn = const char* (*)(nvmlReturn_t);

std::string Describe(ErrorStringFn error_string, nvmlReturn_t rc) {
  std::string name = NvmlStatusName(rc);
  if (error_string != nullptr) {
    if (const char* text = error_string(rc)) name += ": " + Bounded(text, 256);
  }
  return name;
}

std::string DeviceString(const DynamicLibrary& lib, const char* symbol, nvmlDevice_t dev) {
  auto fn = reinterpret_cast<nvmlReturn_t (*)(nvmlDevice_t, char*, unsigned)>(Symbol(lib, symbol));
  std::array<char, kNvmlStringBuffer> buf{};
  if (fn == nullptr || fn(dev, buf.data(), buf.size()) != kNvmlSuccess) return "";
  return Bounded(buf.data(), buf.size());
}

void PutGpu(const DynamicLibrary& lib, nvmlDevice_t dev, WireWriter& w) {
  w.Put("gpu", "");
  w.Put("name", DeviceString(lib, "nvmlDeviceGetName", dev));
  w.Put("uuid", DeviceString(lib, "nvmlDeviceGetUUID", dev));
  auto pci_fn = reinterpret_cast<nvmlReturn_t (*)(nvmlDevice_t, NvmlPciInfo*)>(
      Symbol(lib, "nvmlDeviceGetPciInfo", "nvmlDeviceGetPciInfo_v3"));
  NvmlPciInfo pci{};
  if (pci_fn != nullptr && pci_fn(dev, &pci) == kNvmlSuccess) {
    w.Put("pci_bus_id", Bounded(pci.bus_id, sizeof(pci.bus_id)));
    w.Put("pci_device_id", pci.pci_device_id >> 16);
  }
  auto cc_fn = reinterpret_cast<nvmlReturn_t (*)(nvmlDevice_t, int*, int*)>(
      Symbol(lib, "nvmlDeviceGetCudaComputeCapability"));
  int major = 0, minor = 0;
  if (cc_fn != nullptr && cc_fn(dev, &major, &minor) == kNvmlSuccess) {
    w.Put("cc_major", major);
    w.Put("cc_minor", minor);
  }
  auto mem_fn = reinterpret_cast<nvmlReturn_t (*)(nvmlDevice_t, NvmlMemory*)>(Symbol(lib, "nvmlDeviceGetMemoryInfo"));
  NvmlMemory mem{};
  if (mem_fn != nullptr && mem_fn(dev, &mem) == kNvmlSuccess) w.Put("memory", std::to_string(mem.total));
}

void PutGpus(const DynamicLibrary& lib, ErrorStringFn error_string, WireWriter& w) {
  auto count_fn = reinterpret_cast<nvmlReturn_t (*)(unsigned*)>(Symbol(lib, "nvmlDeviceGetCount", "nvmlDeviceGetCount_v2"));
  auto handle_fn = reinterpret_cast<nvmlReturn_t (*)(unsigned, nvmlDevice_t*)>(
      Symbol(lib, "nvmlDeviceGetHandleByIndex", "nvmlDeviceGetHandleByIndex_v2"));
  if (count_fn == nullptr || handle_fn == nullptr) return w.Put("gpus_error", "nvmlDeviceGetCount_v2 missing");
  unsigned count = 0;
  if (nvmlReturn_t rc = count_fn(&count); rc != kNvmlSuccess) return w.Put("gpus_error", Describe(error_string, rc));
  w.Put("gpus", "");
  for (unsigned i = 0; i < count && i < kMaxGpus; ++i) {
    nvmlDevice_t dev = nullptr;
    if (handle_fn(i, &dev) == kNvmlSuccess) PutGpu(lib, dev, w);
  }
}

void PutSystem(const DynamicLibrary& lib, ErrorStringFn error_string, WireWriter& w) {
  auto version_fn = reinterpret_cast<nvmlReturn_t (*)(char*, unsigned)>(Symbol(lib, "nvmlSystemGetDriverVersion"));
  std::array<char, kNvmlStringBuffer> buf{};
  if (version_fn == nullptr) {
    w.Put("driver_error", "nvmlSystemGetDriverVersion missing");
  } else if (nvmlReturn_t rc = version_fn(buf.data(), buf.size()); rc != kNvmlSuccess) {
    w.Put("driver_error", Describe(error_string, rc));
  } else {
    w.Put("driver", Bounded(buf.data(), buf.size()));
  }
  auto cuda_fn = reinterpret_cast<nvmlReturn_t (*)(int*)>(
      Symbol(lib, "nvmlSystemGetCudaDriverVersion", "nvmlSystemGetCudaDriverVersion_v2"));
  int version = 0;
  if (cuda_fn == nullptr) {
    w.Put("cuda_error", "nvmlSystemGetCudaDriverVersion missing");
  } else if (nvmlReturn_t rc = cuda_fn(&version); rc != kNvmlSuccess) {
    w.Put("cuda_error", Describe(error_string, rc));
  } else {
    w.Put("cuda", version);
  }
}

std::string AskNvml(const std::vector<std::string>& args) {
  WireWriter w;
  if (args.size() != 1) return w.Put("init_error", "no library named"), w.text();
  const std::string& library = args[0];
  DynamicLibrary lib = LoadDynamicLibrary(library);
  if (lib.handle == nullptr) return w.Put("init_error", lib.error), w.text();
  auto error_string = reinterpret_cast<ErrorStringFn>(Symbol(lib, "nvmlErrorString"));
  auto init = reinterpret_cast<nvmlReturn_t (*)()>(Symbol(lib, "nvmlInit", "nvmlInit_v2"));
  if (init == nullptr) return w.Put("init_error", library + " has no nvmlInit_v2"), w.text();
  if (nvmlReturn_t rc = init(); rc != kNvmlSuccess) return w.Put("init_error", Describe(error_string, rc)), w.text();
  w.Put("init", "ok");
  PutSystem(lib, error_string, w);
  PutGpus(lib, error_string, w);
  return w.text();
}

std::string AskCuda(const std::vector<std::string>& args) {
  WireWriter w;
  if (args.size() != 1) return w.Put("error", "no library named"), w.text();
  const std::string& library = args[0];
  DynamicLibrary lib = LoadDynamicLibrary(library);
  if (lib.handle == nullptr) return w.Put("error", lib.error), w.text();
  auto fn = reinterpret_cast<int (*)(int*)>(FindSymbol(lib, "cuDriverGetVersion"));
  if (fn == nullptr) return w.Put("error", library + " has no cuDriverGetVersion"), w.text();
  int version = 0;
  if (int rc = fn(&version); rc != 0) return w.Put("error", "cuDriverGetVersion returned CUresult " + std::to_string(rc)), w.text();
  w.Put("version", version);
  return w.text();
}

// ---- in the parent: run the child, decode its answer ----

// The child's answer, or the fault that kept it from answering.
std::variant<WireRecords, LibraryFault> Decode(const std::string& name, const ChildOutcome& out, int timeout_ms) {
  LibraryFault fault{name, LibraryFault::Kind::kNotStarted, "", 0, timeout_ms};
  switch (out.kind) {
    case ChildOutcome::Kind::kAnswered: {
      WireRecords records = ParseWire(out.reply);
      if (!records.empty()) return records;
      fault.kind = LibraryFault::Kind::kExited;
      return fault;
    }
    case ChildOutcome::Kind::kTimedOut: fault.kind = LibraryFault::Kind::kTimedOut; break;
    case ChildOutcome::Kind::kSignaled:
      fault.kind = LibraryFault::Kind::kCrashed;
      fault.signal = SignalName(out.signal);
      break;
    case ChildOutcome::Kind::kExited:
      fault.kind = LibraryFault::Kind::kExited;
      fault.exit_status = out.exit_status;
      break;
    case ChildOutcome::Kind::kNotStarted: break;
  }
  return fault;
}

std::variant<WireRecords, LibraryFault> Ask(const std::string& name, const ChildTask& task, int timeout_ms) {
  return Decode(name, RunInChild(task, timeout_ms), timeout_ms);
}

std::optional<int> IntValue(const std::string& text) {
  if (auto n = ParseUint(text); n && *n <= INT32_MAX) return static_cast<int>(*n);
  if (StartsWith(text, "-")) {
    if (auto n = ParseUint(text.substr(1)); n && *n <= INT32_MAX) return -static_cast<int>(*n);
  }
  return std::nullopt;
}

// Fills one field of the GPU being decoded.
// `cc_major` is kNoMajor until the GPU's major has been read (any other value, even an implausible
// negative one, is passed on to be judged).
constexpr int kNoMajor = INT_MIN;

void DecodeGpuField(const std::string& key, const std::string& value, NvmlGpu& gpu, int& cc_major) {
  if (key == "name") gpu.name = value;
  else if (key == "uuid") gpu.uuid = value;
  else if (key == "pci_bus_id") gpu.pci_bus_id = value;
  else if (key == "pci_device_id") gpu.pci_device_id = static_cast<uint32_t>(IntValue(value).value_or(0));
  else if (key == "memory") gpu.memory_bytes = static_cast<uint64_t>(ParseUint(value).value_or(0));
  else if (key == "cc_major") cc_major = IntValue(value).value_or(kNoMajor);
  else if (key == "cc_minor" && cc_major != kNoMajor) gpu.cc = ComputeCapability{cc_major, IntValue(value).value_or(-1), 0};
}

class RealNvml : public NvmlApi {
 public:
  RealNvml(std::string library, int timeout_ms) : library_(std::move(library)), timeout_ms_(timeout_ms) {}

  Status Init() override {
    auto answer = Ask("NVML", ChildTask{"nvml", {library_}, &AskNvml}, timeout_ms_);
    if (auto* fault = std::get_if<LibraryFault>(&answer)) {
      fault_ = *fault;
      return Err(DescribeFault(*fault));
    }
    Decode(std::get<WireRecords>(answer));
    if (!init_error_.empty()) return Err(init_error_);
    return Status::Ok();
  }
  Result<std::string> DriverVersion() override { return driver_; }
  Result<int> CudaDriverVersion() override { return cuda_; }
  Result<std::vector<NvmlGpu>> Gpus() override { return gpus_; }
  std::optional<LibraryFault> fault() const override { return fault_; }

 private:
  void Decode(const WireRecords& records) {
    int cc_major = kNoMajor;
    std::vector<NvmlGpu> gpus;
    for (const auto& [key, value] : records) {
      if (key == "init_error") init_error_ = value;
      else if (key == "driver") driver_ = value;
      else if (key == "driver_error") driver_ = Err(value);
      else if (key == "cuda") cuda_ = IntValue(value) ? Result<int>(*IntValue(value)) : Err("not a number");
      else if (key == "cuda_error") cuda_ = Err(value);
      else if (key == "gpus_error") gpus_ = Err(value);
      else if (key == "gpu") gpus.emplace_back(), cc_major = kNoMajor;
      else if (!gpus.empty()) DecodeGpuField(key, value, gpus.back(), cc_major);
    }
    if (gpus_.ok()) gpus_ = std::move(gpus);
  }

  std::string library_;
  int timeout_ms_;
  std::optional<LibraryFault> fault_;
  std::string init_error_;
  Result<std::string> driver_ = Err("not asked");
  Result<int> cuda_ = Err("not asked");
  Result<std::vector<NvmlGpu>> gpus_ = std::vector<NvmlGpu>{};
};

class RealCuda : public CudaApi {
 public:
  RealCuda(std::string library, int timeout_ms) : library_(std::move(library)), timeout_ms_(timeout_ms) {}

  void Start() override {
    if (!pending_.started()) pending_ = StartChild(ChildTask{"cuda", {library_}, &AskCuda}, timeout_ms_);
  }

  Result<int> DriverGetVersion() override {
    Start();
    auto answer = Decode("libcuda", FinishChild(pending_), timeout_ms_);
    if (auto* fault = std::get_if<LibraryFault>(&answer)) {
      fault_ = *fault;
      return Err(DescribeFault(*fault));
    }
    for (const auto& [key, value] : std::get<WireRecords>(answer)) {
      if (key == "error") return Err(value);
      if (key == "version" && IntValue(value)) return *IntValue(value);
    }
    return Err("libcuda gave no version");
  }
  std::optional<LibraryFault> fault() const override { return fault_; }

 private:
  std::string library_;
  int timeout_ms_;
  std::optional<LibraryFault> fault_;
  PendingChild pending_;
};

}  // namespace

ChildTaskFn FindNvidiaTask(std::string_view name) {
  if (name == "nvml") return &AskNvml;
  if (name == "cuda") return &AskCuda;
  return nullptr;
}

std::unique_ptr<NvmlApi> MakeRealNvml(std::string library, int timeout_ms) {
  return std::make_unique<RealNvml>(std::move(library), timeout_ms);
}
std::unique_ptr<CudaApi> MakeRealCuda(std::string library, int timeout_ms) {
  return std::make_unique<RealCuda>(std::move(library), timeout_ms);
}

std::string DescribeFault(const LibraryFault& fault) {
  switch (fault.kind) {
    case LibraryFault::Kind::kTimedOut: {
      char seconds[32];
      std::snprintf(seconds, sizeof(seconds), "%g", fault.timeout_ms / 1000.0);
      return fault.library + " did not answer within " + seconds + " s";
    }
    case LibraryFault::Kind::kCrashed: return fault.library + " crashed with " + fault.signal;
    case LibraryFault::Kind::kExited:
      return fault.library + " ended its process without answering (exit status " + std::to_string(fault.exit_status) + ")";
    case LibraryFault::Kind::kNotStarted: break;
  }
  return "no process could be started to ask " + fault.library;
}

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
