// Rules: pure checks over (Snapshot, Catalog) -> Findings, in one explicit list. No I/O.
#pragma once

#include <string_view>
#include <vector>

#include "catalog/catalog.h"
#include "diagnose/finding.h"
#include "probe/snapshot.h"

namespace cudamatch {

using RuleFn = void (*)(const Snapshot&, const Catalog&, std::vector<Finding>&);

struct Rule {
  std::string_view name;  // a short name for docs and tests
  RuleFn check;
};

const std::vector<Rule>& Rules();

// Every rule's findings, most severe first (stable within a severity). Each fix that is a pip
// install of torch, torchvision or torchaudio has been applied to the snapshot as if installed:
// it clears its finding and raises no new error finding, or the finding carries no fix.
std::vector<Finding> Diagnose(const Snapshot& snap, const Catalog& c);

// Every rule's findings as the rules emit them, fixes unchecked.
std::vector<Finding> RunRules(const Snapshot& snap, const Catalog& c);

// kNotModelled: a pip install of other packages (nvidia-* wheels), which the snapshot model
// does not apply; such fixes are printed unchecked.
enum class FixCheck { kClears, kStillThere, kRaisesError, kCannotApply, kNotAPipInstall, kNotModelled };
// What `f.fix` does when applied to `snap`; `before` are the findings of `snap`.
FixCheck VerifyFix(const Snapshot& snap, const Catalog& c, const Finding& f, const std::vector<Finding>& before);

// Every finding id a rule can emit, for the message-catalog test.
const std::vector<std::string_view>& FindingIds();

bool HasErrors(const std::vector<Finding>& findings);

}  // namespace cudamatch
