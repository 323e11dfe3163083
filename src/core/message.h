// A message: an id in messages/*.tsv and the values for its {placeholders}. Every layer that
// says something to the user (findings, plan reasons, evidence) carries text this way, so it
// renders in every language and stays language-neutral in JSON.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace cudamatch {

using MessageArgs = std::vector<std::pair<std::string, std::string>>;

}  // namespace cudamatch
