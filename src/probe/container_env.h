// The NVIDIA Container Toolkit's environment variables, parsed. Their meaning is the toolkit's
// ("Specialized Configurations with Docker", docs.nvidia.com/datacenter/cloud-native/
// container-toolkit/latest/docker-specialized.html):
//   NVIDIA_REQUIRE_*: constraints on cuda (the driver's CUDA), driver, arch and brand; the
//     space-separated groups of one variable are alternatives (any may hold), the
//     comma-separated constraints of a group must all hold.
//   NVIDIA_DRIVER_CAPABILITIES: comma-separated driver features the toolkit mounts (compute for
//     CUDA, utility for nvidia-smi and NVML, graphics, video, compat32, display) or "all".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/version.h"

namespace cudamatch {

enum class RequireKey { kCuda, kDriver, kArch, kBrand, kOther };
enum class RequireOp { kEq, kNe, kLt, kLe, kGt, kGe };

struct RequireConstraint {
  RequireKey key = RequireKey::kOther;
  RequireOp op = RequireOp::kEq;
  std::string value;
};
using RequireGroup = std::vector<RequireConstraint>;

// The nvidia/cuda 12.4.1 images' value (gitlab.com/nvidia/container-images/cuda
// dist/12.4.1/ubuntu2204/base/Dockerfile), shortened:
//   cuda>=12.4 brand=tesla,driver>=470,driver<471 brand=unknown,driver>=470,driver<471 ...
// -> {{cuda>=12.4}, {brand=tesla, driver>=470, driver<471}, ...}. A constraint without an
// operator is skipped.
std::vector<RequireGroup> ParseNvidiaRequire(std::string_view text);

// What NVIDIA_REQUIRE_CUDA asks, for the rules: the CUDA the driver must serve (a group that is
// only "cuda>=X.Y"), and the driver branches its other groups accept ("driver>=535,driver<536"
// -> 535), sorted and unique.
struct CudaRequirement {
  std::optional<CudaVersion> cuda;
  std::vector<int> branches;
  size_t groups = 0;
};
CudaRequirement ReadCudaRequirement(std::string_view text);

// Whether NVIDIA_DRIVER_CAPABILITIES names `capability` ("all" names every one).
bool CapabilitiesInclude(std::string_view capabilities, std::string_view capability);

}  // namespace cudamatch
