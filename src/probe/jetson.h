// Jetson (Tegra) detection. Sources, in order:
//   /etc/nv_tegra_release  the L4T release line, written by the nvidia-l4t-core package
//   /proc/device-tree/model the board name the firmware reports ("NVIDIA Jetson AGX Orin ...")
// Either one marks the machine as a Jetson; both go into Snapshot::host.jetson.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace cudamatch {

struct ProbeInput;
struct Snapshot;

// "# R36 (release), REVISION: 3.0, GCID: 36191598, BOARD: generic, EABI: aarch64, DATE: ..."
// -> "36.3.0". nullopt when the line has no "R<major>" or no REVISION.
std::optional<std::string> ParseNvTegraRelease(std::string_view text);

// "NVIDIA Jetson AGX Orin Developer Kit\0" -> "NVIDIA Jetson AGX Orin Developer Kit"; empty when
// the model is not a Jetson board (other device-tree machines, e.g. a Raspberry Pi).
std::string JetsonModel(std::string_view device_tree_model);

void ProbeJetson(const ProbeInput& in, Snapshot& snap);

}  // namespace cudamatch
