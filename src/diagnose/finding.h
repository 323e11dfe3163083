// A finding: one problem (or notable fact) about a machine, with the evidence it rests on, why it
// matters and what would fix it. Text is carried as message ids plus values, so the same finding
// renders in English or Chinese and as language-neutral JSON. Each finding id is declared once,
// in diagnose/finding_table.cc.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/message.h"
#include "diagnose/remedy.h"

namespace cudamatch {

enum class Severity { kError = 0, kWarning = 1, kInfo = 2 };

std::string_view SeverityName(Severity s);  // "error", "warning", "info"

// One fact a finding rests on: a message id ("evidence.driver_kernel") and its values, so it
// renders in every language and stays language-neutral in JSON.
struct EvidenceItem {
  std::string id;
  MessageArgs args;
};

struct Finding {
  std::string id;  // stable: "driver.too_old_for_torch"
  Severity severity = Severity::kInfo;
  MessageArgs args;                    // values for the finding's messages
  std::vector<EvidenceItem> evidence;  // {"evidence.driver_kernel", {{"version", "535.104.05"}, ...}}
  std::string topic;                   // `cudamatch explain <topic>`
  int env = -1;                        // the environment it is about (Snapshot::pythons index), -1: the machine
  RemedyNeed need;                     // what would fix it, as the rule states it
  RemedyNeed need_next;                // what to do when that does not help
  std::optional<Remedy> remedy;        // the planned fix (plan/remedy.h), verified where it can be
  std::optional<Remedy> remedy_next;
  std::vector<std::string> merged;     // ids of findings folded into this one (one cause, one finding)
  // Message ids are derived from the id: "finding.<id>.message", ".why", ".fix" (the last is
  // optional prose shown before the command).
};

}  // namespace cudamatch
