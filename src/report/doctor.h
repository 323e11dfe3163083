// The doctor report, top-down: a summary (the machine in one line, a verdict per environment with
// torch, the counts), the findings, most severe first, then the details: the three CUDA versions
// side by side and the machine's facts section by section. Text in the chosen language, wrapped to
// TextOptions::width; JSON neutral.
#pragma once

#include <string>
#include <vector>

#include "diagnose/finding.h"
#include "diagnose/summary.h"
#include "probe/snapshot.h"
#include "report/json.h"
#include "report/text.h"

namespace cudamatch {

// The summary block the report starts with (diagnose/summary.h, worded): the machine, one line
// per environment with torch, the counts of errors and warnings.
std::string RenderDoctorSummary(const Snapshot& snap, const std::vector<Finding>& findings, const TextOptions& o);
std::string RenderDoctor(const Snapshot& snap, const std::vector<Finding>& findings, const TextOptions& o);
std::string RenderFinding(const Finding& f, const TextOptions& o);
// The details sections the report ends with (the three CUDA versions, driver, GPUs, toolkits,
// cuDNN, Pythons, host, what could not be read; the probe trail when verbose), each under its
// heading, folded to o.width.
std::string RenderDoctorDetails(const Snapshot& snap, const TextOptions& o);
std::string RenderTrail(const std::vector<Evidence>& trail, const TextOptions& o);

// Whether `dir` or a place under it could not be read: the facts found there (device nodes under
// /dev, the packages of an environment) are then "could not be read", never "none".
bool UnreadableUnder(const Snapshot& snap, std::string_view dir);

// doctor --from: whether the paste could not show `gap` (false for a machine); the block under the
// summary that names the paste, its formats and what it cannot show ("" for a machine); and the
// JSON "paste" object.
bool NotInPaste(const Snapshot& snap, PasteGap gap);
std::string RenderPasteBlock(const Snapshot& snap, const TextOptions& o);
Json PasteJson(const PasteInfo& paste);

Json DoctorJson(const Snapshot& snap, const std::vector<Finding>& findings);
Json FindingJson(const Finding& f);

}  // namespace cudamatch
