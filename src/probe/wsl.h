// WSL 2: how the driver probe marks it in the evidence trail (the one spelling the probe writes
// and the WSL rule looks for), the Windows driver store WSL mounts, and the system whose driver
// tables apply to the driver a snapshot found.
#pragma once

#include <string_view>

#include "probe/context.h"

namespace cudamatch {

inline constexpr std::string_view kWslKernelSource = "/proc/version";
inline constexpr std::string_view kWslKernelDetail = "WSL kernel";
// C:\Windows\System32\DriverStore\FileRepository as WSL mounts it (read-only).
inline constexpr std::string_view kWslDriverStore = "/usr/lib/wsl/drivers";

// The Windows driver's version from its DLLs in the driver store under kWslDriverStore; sets
// the user-space version and its source when a package's DLL has one. Reads files only.
void ProbeWslDriverStore(const ProbeInput& in, DriverInfo& d, Trail& trail);

// In a container under WSL 2: the driver store package the toolkit mounted libcuda.so.1.1 from,
// and whether it mounted libnvdxgdmal.so.1 beside it (two stats per package at most).
void ProbeWslContainerLibraries(const ProbeInput& in, DriverInfo& d, Trail& trail);

// A driver library WSL provides (/usr/lib/wsl/lib, the driver store) rather than one a Linux
// driver package installed inside the distribution (apt install nvidia-driver-*).
bool IsWslDriverPath(std::string_view path);

// Under WSL 2, a libcuda.so.1 or libnvidia-ml.so.1 outside /usr/lib/wsl/: a Linux driver installed
// inside WSL, which shadows the Windows driver's libraries. It is a broken install, not the
// driver: its version and its answers are not the Windows driver's.
bool ShadowedByLinuxDriver(const DriverInfo& d);

// Under WSL 2 the driver is the Windows one: its version numbers and minimums are Windows'.
inline Os DriverOs(const Snapshot& s) { return s.driver.wsl ? Os::kWindows : s.platform.os; }

}  // namespace cudamatch
