// The doctor report: the machine's facts section by section, the three CUDA versions side by
// side, then the findings, most severe first. Text in the chosen language; JSON neutral.
#pragma once

#include <string>
#include <vector>

#include "diagnose/finding.h"
#include "probe/snapshot.h"
#include "report/json.h"
#include "report/text.h"

namespace cudamatch {

std::string RenderDoctor(const Snapshot& snap, const std::vector<Finding>& findings, const TextOptions& o);
std::string RenderFinding(const Finding& f, const TextOptions& o);
std::string RenderTrail(const std::vector<Evidence>& trail, const TextOptions& o);

// Whether `dir` or a place under it could not be read: the facts found there (device nodes under
// /dev, the packages of an environment) are then "could not be read", never "none".
bool UnreadableUnder(const Snapshot& snap, std::string_view dir);

Json DoctorJson(const Snapshot& snap, const std::vector<Finding>& findings);
Json FindingJson(const Finding& f);

}  // namespace cudamatch
