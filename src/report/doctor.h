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

Json DoctorJson(const Snapshot& snap, const std::vector<Finding>& findings);
Json FindingJson(const Finding& f);

}  // namespace cudamatch
