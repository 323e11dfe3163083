#include "core/safe_text.h"

#include <array>

#include "core/text.h"

namespace cudamatch {

namespace {

constexpr std::string_view kRedacted = "***";

void AppendHex(std::string& out, std::string_view prefix, unsigned value, int digits) {
  static const char* kHex = "0123456789abcdef";
  out += prefix;
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) out += kHex[(value >> shift) & 15];
}

// Length of one of the colour sequences the report itself writes (report/style.h: reset, bold,
// dim, red, green, yellow, cyan) at the start of `s`, else 0. Any other sequence, even another
// colour (concealed text, black on black), may hide what the report says, so it is escaped.
size_t SgrLength(std::string_view s) {
  for (std::string_view own : {"\x1b[0m", "\x1b[1m", "\x1b[2m", "\x1b[31m", "\x1b[32m", "\x1b[33m", "\x1b[36m"}) {
    if (s.substr(0, own.size()) == own) return own.size();
  }
  return 0;
}

bool IsC1(std::string_view s, size_t i) {
  return i + 1 < s.size() && static_cast<unsigned char>(s[i]) == 0xc2 && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
         static_cast<unsigned char>(s[i + 1]) <= 0x9f;
}

bool IsSecretKey(std::string_view key) {
  static constexpr std::array<std::string_view, 17> kKeys = {
      "token",     "access_token", "auth",      "auth_token", "password",     "passwd",
      "pass",      "secret",       "key",       "api_key",    "apikey",       "sig",
      "signature", "private_token", "client_secret", "x-amz-signature", "x-amz-credential"};
  std::string lower = ToLower(key);
  for (std::string_view k : kKeys) {
    if (lower == k) return true;
  }
  return false;
}

bool EndsUrl(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '"' || c == '\'' || c == '<' || c == '>' || c == '`' ||
         c == '\\';
}

// Redacts one URL starting at `pos` (just after "://"); returns where it ends.
size_t RedactUrl(std::string_view text, size_t pos, std::string& out) {
  size_t end = pos;
  while (end < text.size() && !EndsUrl(text[end])) ++end;
  std::string_view url = text.substr(pos, end - pos);
  size_t authority_end = url.find_first_of("/?#");
  std::string_view authority = url.substr(0, authority_end);
  size_t at = authority.rfind('@');
  if (at != std::string_view::npos) {
    out += kRedacted;
    url.remove_prefix(at);
  }
  size_t query = url.find('?');
  out.append(url.substr(0, query == std::string_view::npos ? url.size() : query + 1));
  if (query == std::string_view::npos) return end;
  std::string_view rest = url.substr(query + 1);
  size_t fragment = rest.find('#');
  std::string_view params = rest.substr(0, fragment);
  bool first = true;
  for (std::string_view param : Split(params, '&')) {
    if (!first) out += '&';
    first = false;
    size_t eq = param.find('=');
    if (eq != std::string_view::npos && IsSecretKey(param.substr(0, eq))) {
      out.append(param.substr(0, eq + 1));
      out += kRedacted;
    } else {
      out.append(param);
    }
  }
  if (fragment != std::string_view::npos) out.append(rest.substr(fragment));
  return end;
}

}  // namespace

std::string EscapeControls(std::string_view text, bool keep_sgr) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\x1b' && keep_sgr) {
      if (size_t n = SgrLength(text.substr(i)); n > 0) {
        out.append(text.substr(i, n));
        i += n - 1;
        continue;
      }
    }
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
      AppendHex(out, "\\x", c, 2);
    } else if (IsC1(text, i)) {
      AppendHex(out, "\\u", static_cast<unsigned char>(text[i + 1]), 4);
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string EscapeJsonControls(std::string_view json) {
  std::string out;
  out.reserve(json.size());
  for (size_t i = 0; i < json.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(json[i]);
    if (c == 0x7f) {
      AppendHex(out, "\\u", c, 4);
    } else if (IsC1(json, i)) {
      AppendHex(out, "\\u", static_cast<unsigned char>(json[i + 1]), 4);
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string RedactCredentials(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t pos = 0;
  while (true) {
    size_t scheme = text.find("://", pos);
    if (scheme == std::string_view::npos) break;
    out.append(text.substr(pos, scheme + 3 - pos));
    pos = RedactUrl(text, scheme + 3, out);
  }
  out.append(text.substr(pos));
  return out;
}

}  // namespace cudamatch
