// Renderings of `plan` and `check` results: text in the chosen language, neutral JSON.
#pragma once

#include <string>

#include "plan/check.h"
#include "plan/plan.h"
#include "report/json.h"
#include "report/text.h"

namespace cudamatch {

std::string RenderPlan(const Plan& plan, const MachineSpec& spec, const TextOptions& o);
Json PlanJson(const Plan& plan, const MachineSpec& spec);

std::string RenderCheck(const CheckResult& r, const TextOptions& o);
Json CheckJson(const CheckResult& r);

// A reason or caveat rendered in a language.
std::string ReasonText(const Reason& r, Lang lang);
// The machine as a plan saw it: "driver 470.82.01, RTX 3090 (sm_86), Python 3.10, linux-x86_64".
std::string SpecSummary(const MachineSpec& spec, Lang lang);

}  // namespace cudamatch
