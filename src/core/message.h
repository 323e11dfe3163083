// A message: an id in messages/*.tsv and the values for its {placeholders}. Every layer that
// says something to the user (findings, plan reasons, evidence) carries text this way, so it
// renders in every language and stays language-neutral in JSON.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cudamatch {

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

}  // namespace cudamatch
