// What the probes could not trust: an NVIDIA library that hung, crashed or aborted when asked,
// and values a source gave that cannot be true.
#include <cstdio>

#include "diagnose/rule_fns.h"

namespace cudamatch {

namespace {

EvidenceItem FaultEvidence(const LibraryFault& f) {
  switch (f.kind) {
    case LibraryFault::Kind::kTimedOut: {
      char seconds[32];
      std::snprintf(seconds, sizeof(seconds), "%g", f.timeout_ms / 1000.0);
      return Ev("evidence.library_timeout", {{"library", f.library}, {"seconds", seconds}});
    }
    case LibraryFault::Kind::kCrashed: return Ev("evidence.library_crash", {{"library", f.library}, {"signal", f.signal}});
    case LibraryFault::Kind::kExited:
      return Ev("evidence.library_exit", {{"library", f.library}, {"status", std::to_string(f.exit_status)}});
    case LibraryFault::Kind::kNotStarted: break;
  }
  return Ev("evidence.library_not_started", {{"library", f.library}});
}

}  // namespace

void CheckLibraryFaults(const Snapshot& s, const Catalog&, const PlanQuery&, std::vector<Finding>& out) {
  for (const LibraryFault& fault : s.driver.library_faults) {
    std::vector<EvidenceItem> evidence = {FaultEvidence(fault)};
    for (EvidenceItem& e : DriverEvidence(s.driver)) evidence.push_back(std::move(e));
    out.push_back(Emit("driver.library_fault", {{"library", fault.library}}, std::move(evidence), "driver"));
  }
}

void CheckImplausibleValues(const Snapshot& s, const Catalog&, const PlanQuery&, std::vector<Finding>& out) {
  for (const ImplausibleValue& v : s.implausible) {
    out.push_back(Emit("driver.implausible_value", {{"source", v.source}, {"value", v.value}},
                       {Ev("evidence.implausible", {{"source", v.source}, {"value", v.value}, {"expected", v.expected}})},
                       "driver"));
  }
}

}  // namespace cudamatch
