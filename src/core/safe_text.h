// Text that is safe to show and to paste. Every string that reaches stdout or JSON goes through
// SafeText: credentials are redacted first, on the text as read, and control characters are
// escaped after, so an escape can never end a URL early and let the rest of a secret through.
#pragma once

#include <string>
#include <string_view>

namespace cudamatch {

// Where a string goes; each is redacted first, then escaped for that place.
enum class Sink {
  // One value inside the text report (a name, a path, a version read from a file, a GPU name):
  // every control character is escaped, line breaks and tabs included, so a value can never
  // start a line of its own. ESC is left for kReport to judge (colour kept only when on).
  kValue,
  // The whole text report, line by line: its own line breaks stay; every other control
  // character is escaped; with `keep_sgr`, the report's own colour sequences stay too.
  kReport,
  // One JSON string value: bytes that are not UTF-8 become the text "\xNN". The JSON writer
  // escapes C0 itself and EscapeJsonControls escapes DEL, C1 and bidi controls after it.
  kJson,
};

// The one output function: RedactCredentials, then the escaping of `sink`.
std::string SafeText(std::string_view text, Sink sink, bool keep_sgr = false);
// Printable ASCII with nothing to redact: SafeText returns such text unchanged for every sink.
bool IsPlainText(std::string_view text);

// Escapes, as visible text: C0 controls ("\x1b"; "\n", "\t" and "\r" by name) except '\n' with
// `keep_newline`, DEL, C1 controls (U+0080 to U+009F, "\u009b"), bidirectional controls and line
// separators (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069, U+2028, U+2029:
// "\u202e") and bytes that are not UTF-8 ("\x9b"). With `keep_sgr`, the colour sequences the
// report writes itself (report/style.h) stay; every other sequence is escaped, since one such as
// ESC [8m (concealed) would hide text. With `keep_esc`, ESC stays for a later pass to judge.
std::string EscapeControls(std::string_view text, bool keep_sgr, bool keep_newline = true, bool keep_esc = false);

// The escaping left to do on JSON text the writer produced: DEL, C1 and bidi controls, which JSON
// allows raw, become \u escapes.
std::string EscapeJsonControls(std::string_view json);

// Replaces the credentials in every URL of `text` with "***": the whole userinfo (everything
// between "://" and the last '@' before the host: any characters, quotes, backslashes, control
// bytes and '@' included), the values of query parameters that carry secrets (the list in
// safe_text.cc, each with its source) and the token path segments of known package hosts
// (conda's "/t/<token>/", Cloudsmith, Gemfury). A URL ends at a space or at the end of `text`:
// pass one value or one line.
std::string RedactCredentials(std::string_view text);

}  // namespace cudamatch
