// Text that is safe to show and to paste: control characters from scanned content escaped, and
// credentials in URLs redacted. cli/ passes everything it writes through these.
#pragma once

#include <string>
#include <string_view>

namespace cudamatch {

// Escapes every C0 control character except '\n' and '\t', DEL and the C1 controls (U+0080 to
// U+009F) as visible text ("\x1b", "\u009b"). With `keep_sgr`, the colour sequences the report
// writes itself (reset, bold, dim, red, green, yellow, cyan) stay as they are; every other one
// is escaped, since a sequence such as ESC [8m (concealed) would hide text.
std::string EscapeControls(std::string_view text, bool keep_sgr);

// The same for JSON text: DEL and the C1 controls, which JSON allows raw, become \u escapes.
std::string EscapeJsonControls(std::string_view json);

// Replaces credentials in every URL of `text`: the user and password before '@'
// ("https://user:token@host" -> "https://***@host") and the values of query parameters that
// carry secrets (token, access_token, password, key, secret, signature, ...).
std::string RedactCredentials(std::string_view text);

}  // namespace cudamatch
