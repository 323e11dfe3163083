#include "probe/jetson.h"

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
  if (model.find("Jetson") == std::string_view::npos) return "";
  return std::string(model);
}

void ProbeJetson(const ProbeInput& in, Snapshot& snap) {
  Trail trail(snap, "jetson");
  JetsonInfo info;
  if (auto text = ReadRecorded(*in.fs, trail, "/etc/nv_tegra_release")) {
    info.l4t = ParseNvTegraRelease(*text).value_or("");
    trail.Found("/etc/nv_tegra_release", info.l4t.empty() ? "no L4T release in the file" : "L4T R" + info.l4t);
    info.detected = true;
  }
  if (auto text = ReadRecorded(*in.fs, trail, "/proc/device-tree/model")) {
    info.model = JetsonModel(*text);
    if (!info.model.empty()) {
      trail.Found("/proc/device-tree/model", info.model);
      info.detected = true;
    }
  }
  if (info.detected) snap.host.jetson = std::move(info);
}

}  // namespace cudamatch
