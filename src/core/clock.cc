#include "core/clock.h"

#include <chrono>

#include <fmt/format.h>

#include "core/text.h"

namespace cudamatch {

std::string Rfc3339Utc(std::int64_t seconds_since_epoch) {
  using std::chrono::days;
  using std::chrono::floor;
  std::chrono::sys_seconds t{std::chrono::seconds(seconds_since_epoch)};
  std::chrono::sys_days day = floor<days>(t);
  std::chrono::year_month_day ymd{day};
  std::chrono::hh_mm_ss<std::chrono::seconds> hms{t - day};
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", static_cast<int>(ymd.year()),
                     static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()), hms.hours().count(),
                     hms.minutes().count(), hms.seconds().count());
}

Result<std::int64_t> ParseEpochSeconds(std::string_view text) {
  if (text.empty() || text.size() > 12) return Err(std::string(kNowVariable) + " " + Quote(text) + " is not a number of seconds");
  std::int64_t value = 0;
  for (char ch : text) {
    if (ch < '0' || ch > '9') return Err(std::string(kNowVariable) + " " + Quote(text) + " is not a number of seconds");
    value = value * 10 + (ch - '0');
  }
  return value;
}

std::int64_t NowSeconds() {
  auto now = std::chrono::system_clock::now().time_since_epoch();
  return std::chrono::duration_cast<std::chrono::seconds>(now).count();
}

}  // namespace cudamatch
