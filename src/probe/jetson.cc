#include "probe/jetson.h"

#include <algorithm>

#include "core/text.h"
#include "probe/context.h"

namespace cudamatch {

std::optional<std::string> ParseNvTegraRelease(std::string_view text) {
  size_t r = text.find("# R");
  if (r == std::string_view::npos) return std::nullopt;
  std::string_view rest = text.substr(r + 3);
  size_t digits = 0;
  while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
  if (digits == 0) return std::nullopt;
  std::string major(rest.substr(0, digits));
  size_t rev = text.find("REVISION:");
  if (rev == std::string_view::npos) return std::nullopt;
  std::string_view tail = Trim(text.substr(rev + 9));
  size_t end = 0;
  while (end < tail.size() && ((tail[end] >= '0' && tail[end] <= '9') || tail[end] == '.')) ++end;
  if (end == 0) return std::nullopt;
  return major + "." + std::string(tail.substr(0, end));
}

std::string JetsonModel(std::string_view device_tree_model) {
  std::string_view model = device_tree_model.substr(0, device_tree_model.find('\0'));
  model = Trim(model);
  bool jetson = model.find("Jetson") != std::string_view::npos;
  // The Orin Nano and Orin NX developer kits call themselves "NVIDIA Orin Nano Developer Kit".
  bool orin_kit = StartsWith(model, "NVIDIA Orin ");
  if (!jetson && !orin_kit) return "";
  return std::string(model);
}

std::string ParseTegraSoc(std::string_view compatible) {
  for (std::string_view entry : Split(compatible, '\0')) {
    entry = Trim(entry);
    if (!StartsWith(entry, "nvidia,tegra")) continue;
    std::string_view soc = entry.substr(7);
    if (soc.size() > 5 && soc[5] >= '0' && soc[5] <= '9') return std::string(soc);
  }
  return "";
}

std::optional<std::string> ParseTegraModuleVersion(std::string_view text) {
  for (std::string_view line : Lines(text)) {
    if (!StartsWith(line, "NVRM version:")) continue;
    for (std::string_view token : Split(line.substr(13), ' ')) {
      token = Trim(token);
      std::vector<std::string_view> parts = Split(token, '.');
      if (parts.size() < 2) continue;
      bool numeric = std::all_of(parts.begin(), parts.end(), [](std::string_view p) { return ParseUint(p).has_value(); });
      if (!numeric) continue;
      if (*ParseUint(parts[0]) >= 100) return std::nullopt;
      return std::string(token);
    }
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::string> ParseL4tCoreVersion(std::string_view status) {
  bool in_core = false;
  for (std::string_view line : Lines(status)) {
    if (StartsWith(line, "Package:")) in_core = Trim(line.substr(8)) == "nvidia-l4t-core";
    if (!in_core || !StartsWith(line, "Version:")) continue;
    std::string_view v = Trim(line.substr(8));
    v = v.substr(0, v.find('-'));
    if (v.empty()) return std::nullopt;
    return std::string(v);
  }
  return std::nullopt;
}

namespace {

constexpr size_t kDpkgStatusCap = 8 * 1024 * 1024;

void ReadDeviceTree(const ProbeInput& in, Trail& trail, JetsonInfo& info) {
  if (auto text = ReadRecorded(*in.fs, trail, "/proc/device-tree/model")) {
    info.model = JetsonModel(*text);
    if (!info.model.empty()) {
      trail.Found("/proc/device-tree/model", info.model);
      info.detected = true;
    }
  }
  if (auto text = ReadRecorded(*in.fs, trail, "/proc/device-tree/compatible")) {
    info.soc = ParseTegraSoc(*text);
    if (!info.soc.empty()) {
      info.soc_source = "/proc/device-tree/compatible";
      trail.Found(info.soc_source, "SoC " + info.soc);
      info.detected = true;
    }
  }
}

// Only when the release file gave no L4T, and only on a machine already known as a Jetson.
void ReadL4tCore(const ProbeInput& in, Trail& trail, JetsonInfo& info) {
  if (!info.l4t.empty() || !info.detected) return;
  auto text = ReadRecorded(*in.fs, trail, "/var/lib/dpkg/status", kDpkgStatusCap);
  if (!text) return;
  if (auto v = ParseL4tCoreVersion(*text)) {
    info.l4t = *v;
    info.l4t_source = "/var/lib/dpkg/status (nvidia-l4t-core)";
    trail.Found("/var/lib/dpkg/status", "nvidia-l4t-core " + *v);
  }
}

void ReadGpuModule(const ProbeInput& in, Trail& trail, JetsonInfo& info) {
  if (!info.detected) return;
  auto text = ReadRecorded(*in.fs, trail, "/proc/driver/nvidia/version");
  if (!text) return;
  if (auto v = ParseTegraModuleVersion(*text)) {
    info.gpu_module = *v;
    trail.Found("/proc/driver/nvidia/version", "Tegra GPU module " + *v + " (numbered as the L4T release)");
  }
}

}  // namespace

void ProbeJetson(const ProbeInput& in, Snapshot& snap) {
  Trail trail(snap, "jetson");
  JetsonInfo info;
  if (auto text = ReadRecorded(*in.fs, trail, "/etc/nv_tegra_release")) {
    info.l4t = ParseNvTegraRelease(*text).value_or("");
    if (!info.l4t.empty()) info.l4t_source = "/etc/nv_tegra_release";
    trail.Found("/etc/nv_tegra_release", info.l4t.empty() ? "no L4T release in the file" : "L4T R" + info.l4t);
    info.detected = true;
  }
  ReadDeviceTree(in, trail, info);
  ReadL4tCore(in, trail, info);
  ReadGpuModule(in, trail, info);
  if (info.detected) snap.host.jetson = std::move(info);
}

}  // namespace cudamatch
