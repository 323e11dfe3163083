// Diagnosis with checked fixes: the rules' findings (diagnose/), each need planned into a Remedy
// (plan/remedy.h), and each install remedy applied to a copy of the environment it targets as
// if installed. A remedy that leaves its finding or raises a new error is not printed.
#pragma once

#include <optional>
#include <vector>

#include "diagnose/rules.h"

namespace cudamatch {

// Every rule's findings, most severe first (stable within a severity), remedies planned and
// checked: an install of torch, torchvision, torchaudio or nvidia-* wheels clears its finding
// and raises no new error finding in its environment, or the finding carries no remedy.
std::vector<Finding> Diagnose(const Snapshot& snap, const Catalog& c);

// Every rule's findings in rule order, remedies planned but not checked.
std::vector<Finding> PlannedFindings(const Snapshot& snap, const Catalog& c);

// kNotModelled: an install of packages the snapshot model does not apply (numpy, an extension).
enum class FixCheck { kClears, kStillThere, kRaisesError, kCannotApply, kNotAPipInstall, kNotModelled };

// What `r` does for `f` on `snap`; `before` are the findings of `snap`. Only the environment the
// remedy installs into is changed and only the rules that see one environment run again.
FixCheck VerifyRemedy(const Catalog& c, const Snapshot& snap, const Finding& f, const Remedy& r,
                      const std::vector<Finding>& before);

// The install `r` is, when it is one install of packages the model applies.
const PackageInstall* ModelledInstall(const Remedy& r);

// `snap` after the install `r` ran in its environment; nullopt when it cannot be applied.
std::optional<Snapshot> ApplyRemedy(const Catalog& c, const Snapshot& snap, const Remedy& r);

}  // namespace cudamatch
