// GPU probe. Sources, in order (the first that lists any GPU wins):
//   1. NVML, when the driver probe initialised it: name, UUID, PCI bus id, compute capability,
//      memory;
//   2. /proc/driver/nvidia/gpus/<bus id>/information (model, UUID, bus location) with the PCI
//      device id from /sys/bus/pci/devices/<bus id>/device;
//   3. PCI sysfs: /sys/bus/pci/devices/* with vendor 0x10de and a display class (0x03xxxx).
// Compute capability and architecture not reported by NVML are derived from the catalog (by name,
// then by PCI device id) in derive/.
#include "core/text.h"
#include "probe/context.h"
#include "probe/parsers.h"

namespace cudamatch {

namespace {

constexpr uint32_t kNvidiaVendor = 0x10de;

std::optional<uint32_t> PciAttr(const Fs& fs, const std::string& bus_id, const char* attr) {
  auto text = fs.Read("/sys/bus/pci/devices/" + bus_id + "/" + attr, 64);
  if (!text) return std::nullopt;
  return ParseSysfsHex(*text);
}

// NVML's compute capability is used only when it could be one (derive/ checks that it names a
// known architecture).
std::optional<ComputeCapability> PlausibleCc(const NvmlGpu& g, Snapshot& snap, Trail& trail) {
  if (!g.cc) return std::nullopt;
  if (g.cc->major > 0 && g.cc->minor >= 0) return g.cc;
  std::string value = std::to_string(g.cc->major) + "." + std::to_string(g.cc->minor);
  std::string source = "NVML nvmlDeviceGetCudaComputeCapability";
  trail.Error(source, "implausible value " + value + " (expected a known architecture)");
  snap.implausible.push_back(ImplausibleValue{source, value, "the compute capability of a known GPU architecture"});
  return std::nullopt;
}

bool FromNvml(const ProbeInput& in, Snapshot& snap, Trail& trail) {
  if (in.nvml == nullptr || snap.driver.nvml != NvmlState::kOk) return false;
  auto gpus = in.nvml->Gpus();
  if (!gpus) {
    trail.Error("nvml:nvmlDeviceGetCount_v2", gpus.error());
    return false;
  }
  for (const NvmlGpu& g : *gpus) {
    GpuInfo info;
    info.index = static_cast<int>(snap.gpus.size());
    info.name = g.name;
    if (!info.name.empty()) info.name_origin = Origin::kObserved;
    info.uuid = g.uuid;
    info.pci_bus_id = g.pci_bus_id;
    info.pci_device_id = g.pci_device_id;
    info.cc = PlausibleCc(g, snap, trail);
    if (info.cc) {
      info.cc_source = "NVML";
      info.cc_origin = Origin::kObserved;
    }
    info.memory_bytes = g.memory_bytes;
    info.source = "NVML";
    snap.gpus.push_back(std::move(info));
  }
  trail.Found("nvml:nvmlDeviceGetCount_v2", std::to_string(gpus->size()) + " GPUs");
  return !gpus->empty();
}

bool FromProc(const ProbeInput& in, Snapshot& snap, Trail& trail) {
  const std::string dir = "/proc/driver/nvidia/gpus";
  auto buses = in.fs->List(dir);
  if (!buses) {
    trail.Missing(dir);
    return false;
  }
  for (const std::string& bus : *buses) {
    std::string path = dir + "/" + bus + "/information";
    auto text = ReadRecorded(*in.fs, trail, path);
    if (!text) continue;
    ProcGpuInformation parsed = ParseProcGpuInformation(*text);
    GpuInfo info;
    info.index = static_cast<int>(snap.gpus.size());
    info.name = parsed.model;
    if (!info.name.empty()) info.name_origin = Origin::kObserved;
    info.uuid = parsed.uuid;
    info.pci_bus_id = parsed.bus_location.empty() ? bus : parsed.bus_location;
    info.pci_device_id = PciAttr(*in.fs, ToLower(info.pci_bus_id), "device");
    info.source = path;
    trail.Found(path, parsed.model);
    snap.gpus.push_back(std::move(info));
  }
  return !snap.gpus.empty();
}

bool FromPci(const ProbeInput& in, Snapshot& snap, Trail& trail) {
  const std::string dir = "/sys/bus/pci/devices";
  auto buses = in.fs->List(dir);
  if (!buses) {
    trail.Missing(dir);
    return false;
  }
  for (const std::string& bus : *buses) {
    if (PciAttr(*in.fs, bus, "vendor") != kNvidiaVendor) continue;
    auto cls = PciAttr(*in.fs, bus, "class");
    if (!cls || (*cls >> 16) != 0x03) continue;  // display controllers only (VGA, 3D)
    GpuInfo info;
    info.index = static_cast<int>(snap.gpus.size());
    info.pci_bus_id = bus;
    info.pci_device_id = PciAttr(*in.fs, bus, "device");
    info.source = dir + "/" + bus;
    trail.Found(info.source, "NVIDIA display device");
    snap.gpus.push_back(std::move(info));
  }
  return !snap.gpus.empty();
}

}  // namespace

void ProbeGpus(const ProbeInput& in, Snapshot& snap) {
  Trail trail(snap, "gpus");
  if (!FromNvml(in, snap, trail) && !FromProc(in, snap, trail)) FromPci(in, snap, trail);
}

void ProbeGpusFromNvml(const ProbeInput& in, Snapshot& snap, Trail& trail) {
  FromNvml(in, snap, trail);
}

}  // namespace cudamatch
