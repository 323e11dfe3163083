// Jetson (Tegra) detection. Sources, in order:
//   /etc/nv_tegra_release        the L4T release line, written by the nvidia-l4t-core package
//   /proc/device-tree/model      the board name the firmware reports ("NVIDIA Jetson AGX Orin ...")
//   /proc/device-tree/compatible NUL-separated device-tree strings; the nvidia,tegra* one names the SoC
//   /var/lib/dpkg/status         nvidia-l4t-core's version, only when the release file gave no L4T
//   /proc/driver/nvidia/version  the Tegra GPU module's line, numbered as the L4T release
// The release file, a Jetson model or a Tegra SoC marks the machine as a Jetson; what was read
// goes into Snapshot::host.jetson. The integrated GPU is listed by derive/ from the SoC.
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

// "NVIDIA Jetson AGX Orin Developer Kit\0" -> "NVIDIA Jetson AGX Orin Developer Kit" (also the
// Orin Nano / NX kits' "NVIDIA Orin Nano Developer Kit"); empty when the model is not a Jetson
// board (other device-tree machines, e.g. a Raspberry Pi).
std::string JetsonModel(std::string_view device_tree_model);

// "nvidia,p3737-0000+p3701-0000\0nvidia,p3701-0000\0nvidia,tegra234\0" -> "tegra234"; "" when no
// entry is nvidia,tegra<digits> (an entry with a suffix such as tegra210b01 keeps it).
std::string ParseTegraSoc(std::string_view device_tree_compatible);

// "NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  35.3.1  Release Build  (...)" ->
// "35.3.1": the Tegra module numbers itself as the L4T release (major below 100, which no
// desktop driver branch is). nullopt for a desktop driver's line (550.54.14) or no NVRM line.
std::optional<std::string> ParseTegraModuleVersion(std::string_view proc_driver_version);

// The Version: of the nvidia-l4t-core stanza in a dpkg status file, cut at its '-':
// "Package: nvidia-l4t-core ... Version: 36.4.3-20250107174145" -> "36.4.3".
std::optional<std::string> ParseL4tCoreVersion(std::string_view dpkg_status);

void ProbeJetson(const ProbeInput& in, Snapshot& snap);

}  // namespace cudamatch
