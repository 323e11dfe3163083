// A finding: one problem (or notable fact) about a machine, with the evidence it rests on, why it
// matters and the command that fixes it. Text is carried as message ids plus values, so the
// same finding renders in English or Chinese and as language-neutral JSON.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cudamatch {

enum class Severity { kError = 0, kWarning = 1, kInfo = 2 };

std::string_view SeverityName(Severity s);  // "error", "warning", "info"

// A message argument's value; nullopt when unknown (rendered "unknown" in the user's language,
// null in JSON).
using ArgValue = std::optional<std::string>;
using MessageArgs = std::vector<std::pair<std::string, ArgValue>>;

// `v`'s text by `text(*v)`, or nullopt when `v` is unknown.
template <class T, class F>
ArgValue ArgOf(const std::optional<T>& v, F text) {
  return v ? ArgValue(text(*v)) : std::nullopt;
}
// A string that is empty when unknown.
inline ArgValue ArgOf(const std::string& s) { return s.empty() ? std::nullopt : ArgValue(s); }

// One fact a finding rests on: a message id ("evidence.driver_kernel") and its values, so it
// renders in every language and stays language-neutral in JSON.
struct EvidenceItem {
  std::string id;
  MessageArgs args;
};

struct Finding {
  std::string id;  // stable: "driver.too_old_for_torch"
  Severity severity = Severity::kInfo;
  MessageArgs args;                   // values for the finding's messages
  std::vector<EvidenceItem> evidence;  // {"evidence.driver_kernel", {{"version", "535.104.05"}, ...}}
  std::string fix;                    // a command to run, or "" when the fix is not a command
  std::string topic;                  // `cudamatch explain <topic>`
  std::string fix_next;               // a command for when `fix` does not help, or ""
  // Message ids are derived from the id: "finding.<id>.message", ".why", ".fix" (the last is
  // optional prose shown before the command).
};

}  // namespace cudamatch
