// What a report for strangers must not show, and what stands in its place. A report pasted into
// a public issue names no home directory, user name or credential of the machine it describes:
// every line goes through Redact, with the set RedactionsFor found in the report and in the
// run's environment. What replaces each kind is one table (redact.cc, kReplacements); commands
// keep working after it: "~" in POSIX shells, %USERPROFILE% in cmd, $env:USERPROFILE in
// PowerShell. Host names need nothing: no report prints one.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace cudamatch {

// Where a redacted line goes: prose (or the details block), or a command for one shell.
enum class RedactFor { kProse, kPosix, kPowerShell, kCmd };

struct RedactionSet {
  std::vector<std::string> homes;  // home directories named by the environment ("/data/ann"), longest first
  std::vector<std::string> users;  // user names, longest first
};

// The homes and user names to redact: HOME, USERPROFILE, USER, USERNAME and LOGNAME of `env`,
// and the name in every home directory `text` shows (/home/NAME, /Users/NAME, C:\Users\NAME).
// Names that belong to no person (root, admin, Public, the list in redact.cc) are not redacted
// where they stand alone.
RedactionSet RedactionsFor(std::string_view text, const std::map<std::string, std::string>& env);

// `text` with credentials in URLs (core/safe_text.h, RedactCredentials), home directories
// (those of `set` and every /home/NAME, /Users/NAME, X:\Users\NAME and /root) and the user names
// of `set` (as whole words) replaced, as `place` writes them.
std::string Redact(std::string_view text, const RedactionSet& set, RedactFor place);

}  // namespace cudamatch
