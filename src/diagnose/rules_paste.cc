// Rules on the paste itself (doctor --from): two lines that disagree about one fact, nvidia-smi's
// own failure to reach the driver, and a paste cut at its size limit.
#include "diagnose/rule_fns.h"
#include "probe/paste.h"

namespace cudamatch {

namespace {

// "driver_version", "package torch", "gpu 0": the fact two lines disagree on.
std::string FactLabel(const PasteConflict& c) {
  std::string label(PasteFactKindName(c.kind));
  return c.name.empty() ? label : label + " " + c.name;
}

std::string LineOf(const PasteFact& f) { return std::to_string(f.line); }

}  // namespace

void CheckPaste(const Snapshot& s, const Catalog&, const PlanQuery&, std::vector<Finding>& out) {
  if (!s.paste) return;
  for (const PasteConflict& c : s.paste->conflicts) {
    out.push_back(Emit("paste.conflicting_facts",
                       {{"fact", FactLabel(c)}, {"first", c.first.value}, {"second", c.second.value},
                        {"first_line", LineOf(c.first)}, {"second_line", LineOf(c.second)}},
                       {Ev("evidence.paste_line", {{"line", LineOf(c.first)}, {"value", c.first.value}}),
                        Ev("evidence.paste_line", {{"line", LineOf(c.second)}, {"value", c.second.value}})},
                       ""));
  }
  for (const PasteFact& f : s.paste->driver_failures) {
    // A mismatch the paste also shows in versions is driver.mismatch's, with both versions.
    if (f.name == "version_mismatch" && s.driver.mismatch()) continue;
    std::string id = f.name == "no_driver" ? "paste.driver_unreachable" : "paste.driver_version_mismatch";
    out.push_back(Emit(id, {{"line", LineOf(f)}},
                       {Ev("evidence.paste_line", {{"line", LineOf(f)}, {"value", f.value}})}, "driver"));
  }
  if (s.paste->truncated) {
    out.push_back(Emit("paste.truncated",
                       {{"path", s.paste->path}, {"mib", std::to_string(kPasteMaxBytes / (1024 * 1024))},
                        {"lines", std::to_string(s.paste->lines)}},
                       {}, ""));
  }
}

}  // namespace cudamatch
