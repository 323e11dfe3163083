// How the driver probe marks WSL 2 in the evidence trail: the one spelling the probe writes and
// the WSL rule looks for.
#pragma once

#include <string_view>

namespace cudamatch {

inline constexpr std::string_view kWslKernelSource = "/proc/version";
inline constexpr std::string_view kWslKernelDetail = "WSL kernel";

}  // namespace cudamatch
