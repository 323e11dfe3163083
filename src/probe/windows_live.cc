// This Windows machine's driver, asked live (doctor without --root on Windows). Sources, in order:
//   NVML (nvml.dll from System32 or the driver store): nvmlSystemGetDriverVersion ("566.36"),
//   nvmlSystemGetCudaDriverVersion_v2; then, when NVML gave no CUDA, nvcuda.dll's
//   cuDriverGetVersion. Each call runs in a watched child (core/child.h) as on Linux; a hang or
//   crash is recorded as a library fault. The DLLs' file versions (windows.cc) stay the fallback.
#include "core/text.h"
#include "probe/context.h"
#include "probe/nvidia_api.h"

namespace cudamatch {

namespace {

// A driver's CUDA as the API encodes it (12070 = 12.7), within what any driver has answered.
bool PlausibleApiCuda(int v) { return v >= 2000 && v < 100000 && v % 10 == 0; }

void RecordCuda(DriverInfo& d, Snapshot& snap, Trail& trail, const std::string& source, const std::string& id, int v) {
  if (!PlausibleApiCuda(v)) {
    RecordImplausible(snap, trail, source, std::to_string(v), "a CUDA version such as 12070 (12.7)");
    return;
  }
  d.cuda = CudaVersion::FromApiInt(v);
  d.cuda_source = source;
  d.cuda_origin = Origin::kObserved;
  trail.Found(id, std::to_string(v));
}

void AskNvml(const ProbeInput& in, Snapshot& snap, Trail& trail) {
  if (!InitNvml(*in.nvml, snap.driver, trail)) return;
  ReadNvmlDriverVersion(*in.nvml, snap, trail, "a driver version such as 566.36");
  DriverInfo& d = snap.driver;
  if (auto v = in.nvml->CudaDriverVersion()) {
    RecordCuda(d, snap, trail, "NVML nvmlSystemGetCudaDriverVersion_v2", "nvml:nvmlSystemGetCudaDriverVersion_v2", *v);
  } else {
    trail.Error("nvml:nvmlSystemGetCudaDriverVersion_v2", v.error());
  }
}

void AskCuda(const ProbeInput& in, Snapshot& snap, Trail& trail) {
  if (in.cuda == nullptr || snap.driver.cuda) return;
  if (auto v = in.cuda->DriverGetVersion()) {
    RecordCuda(snap.driver, snap, trail, "nvcuda cuDriverGetVersion", "nvcuda:cuDriverGetVersion", *v);
  } else {
    trail.Error("nvcuda:cuDriverGetVersion", v.error());
    if (auto fault = in.cuda->fault()) snap.driver.library_faults.push_back(*fault);
  }
}

}  // namespace

void AskWindowsDriver(const ProbeInput& in, Snapshot& snap, Trail& trail) {
  AskNvml(in, snap, trail);
  AskCuda(in, snap, trail);
}

}  // namespace cudamatch
