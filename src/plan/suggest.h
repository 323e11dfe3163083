// When nothing fits: the smallest changes to the machine or the request that make a plan exist
// (a driver branch, a Python, leaving a GPU out, the last release for a GPU, a source build for
// a GPU newer than every wheel). Every suggestion except the source build is checked by planning
// again with the change applied.
#pragma once

#include <vector>

#include "plan/plan.h"

namespace cudamatch {

std::vector<Reason> Suggest(const Catalog& c, const MachineSpec& spec, const Plan& failed);

}  // namespace cudamatch
