// Rules: pure checks over (Snapshot, Catalog) -> Findings, in one explicit list. No I/O.
// The list comes from the finding table (diagnose/finding_table.cc): each finding id is declared
// there once, with its severity and the rule that emits it.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"
#include "diagnose/finding.h"
#include "probe/snapshot.h"

namespace cudamatch {

// The best torch build for a machine, as the install planner (plan/) finds it. Rules that need
// it (driver.missing names the driver the best build needs) ask through this interface, which
// plan/ implements, so diagnose/ does not depend on plan/.
struct BestBuild {
  const TorchRelease* release = nullptr;
  const TorchVariant* variant = nullptr;
};
class PlanQuery {
 public:
  virtual ~PlanQuery() = default;
  // The plan for the machine's primary environment; nullopt when nothing fits.
  virtual std::optional<BestBuild> Best(const Snapshot& s, const Catalog& c) const = 0;
};

using RuleFn = void (*)(const Snapshot&, const Catalog&, const PlanQuery&, std::vector<Finding>&);

// kEnvironment: what the rule says of one environment depends only on that environment and on
// the machine's other facts (driver, GPUs, toolkits, host), never on other environments, so a
// change to one environment is checked by running the rule over that environment alone.
enum class RuleScope { kMachine, kEnvironment };

struct FindingDecl {
  std::string_view id;  // "torch.driver_too_old"; messages "finding.<id>.message" and ".why"
  Severity severity;
  RuleFn rule;          // the rule that emits it
  RuleScope scope;      // the rule's scope (the same on every row of a rule)
};

// Every finding, one row each, grouped by rule in the order the rules run.
const std::vector<FindingDecl>& FindingTable();
// The row of `id`, or null.
const FindingDecl* FindFinding(std::string_view id);

struct Rule {
  std::string_view name;  // the rule's first finding id
  RuleFn check;
  RuleScope scope;
  std::vector<std::string_view> ids;  // the findings it emits
};

// The rules of the finding table, in its order.
const std::vector<Rule>& Rules();

// Every finding id of the table, in its order.
const std::vector<std::string_view>& FindingIds();

// Every rule's findings as the rules emit them (remedies not yet planned).
std::vector<Finding> RunRules(const Snapshot& snap, const Catalog& c, const PlanQuery& plans);
// The findings of the rules of `scope` only.
std::vector<Finding> RunRules(const Snapshot& snap, const Catalog& c, const PlanQuery& plans, RuleScope scope);

// Most severe first, stable within a severity.
void SortBySeverity(std::vector<Finding>& findings);

bool HasErrors(const std::vector<Finding>& findings);

// The nvidia-* wheel, without its -cuNN suffix, that ships a CUDA library soname as pip lays them
// out under site-packages/nvidia/ ("libcudart.so.12" -> "nvidia-cuda-runtime"); "" for none.
std::string_view NvidiaWheelOfSoname(std::string_view soname);


}  // namespace cudamatch
