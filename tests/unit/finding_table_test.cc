// The finding table declares each finding once: ids unique, the rows of a rule together and of
// one scope, and every rule of the table run by RunRules.
#include <gtest/gtest.h>

#include <set>

#include "diagnose/rules.h"

namespace cudamatch {
namespace {

TEST(FindingTable, IdsAreUniqueAndRulesAreGroupedWithOneScope) {
  std::set<std::string_view> ids;
  std::set<RuleFn> rules;
  for (const FindingDecl& d : FindingTable()) EXPECT_TRUE(ids.insert(d.id).second) << d.id;
  for (const Rule& r : Rules()) {
    EXPECT_TRUE(rules.insert(r.check).second) << r.name << ": its rows are not together";
    for (std::string_view id : r.ids) EXPECT_EQ(FindFinding(id)->scope, r.scope) << id;
    EXPECT_EQ(r.name, r.ids.front());
  }
  EXPECT_EQ(FindingIds().size(), FindingTable().size());
  EXPECT_EQ(FindFinding("no.such"), nullptr);
  EXPECT_EQ(FindFinding("torch.driver_too_old")->severity, Severity::kError);
}

}  // namespace
}  // namespace cudamatch
