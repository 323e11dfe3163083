// The time of a run as JSON writes it: RFC 3339 in UTC ("2026-12-02T00:35:10Z"). A run reads
// the clock once (cli/); CUDAMATCH_NOW (seconds since 1970-01-01 UTC) stands in for it so that
// stored outputs stay the same from run to run.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"

namespace cudamatch {

inline constexpr std::string_view kNowVariable = "CUDAMATCH_NOW";

// 0 -> "1970-01-01T00:00:00Z"; 1767225600 -> "2026-01-01T00:00:00Z".
std::string Rfc3339Utc(std::int64_t seconds_since_epoch);
// "1767225600" -> 1767225600; anything but decimal digits (at most 12) is an error naming the text.
Result<std::int64_t> ParseEpochSeconds(std::string_view text);
// Seconds since the epoch now, by the system clock.
std::int64_t NowSeconds();

}  // namespace cudamatch
