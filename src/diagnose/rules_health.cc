// What the probes could not trust: an NVIDIA library that hung, crashed or aborted when asked,
// and values a source gave that cannot be true.
#include "diagnose/rule_fns.h"
#include "probe/nvidia_api.h"

namespace cudamatch {

void CheckLibraryFaults(const Snapshot& s, const Catalog&, std::vector<Finding>& out) {
  for (const LibraryFault& fault : s.driver.library_faults) {
    out.push_back(Finding{"driver.library_fault", Severity::kWarning,
                          {{"library", fault.library}},
                          {DescribeFault(fault), DriverEvidence(s.driver)},
                          "",
                          "driver"});
  }
}

void CheckImplausibleValues(const Snapshot& s, const Catalog&, std::vector<Finding>& out) {
  for (const ImplausibleValue& v : s.implausible) {
    out.push_back(Finding{"driver.implausible_value", Severity::kWarning,
                          {{"source", v.source}, {"value", v.value}},
                          {v.source + " gave " + v.value + "; expected " + v.expected},
                          "",
                          "driver"});
  }
}

}  // namespace cudamatch
