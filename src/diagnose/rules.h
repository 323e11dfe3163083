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

// Every rule's findings, most severe first (stable within a severity).
std::vector<Finding> Diagnose(const Snapshot& snap, const Catalog& c);

// Every finding id a rule can emit, for the message-catalog test.
const std::vector<std::string_view>& FindingIds();

bool HasErrors(const std::vector<Finding>& findings);

}  // namespace cudamatch
