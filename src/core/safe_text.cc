#include "core/safe_text.h"

#include <algorithm>
#include <array>
#include <cstdint>

#include "core/text.h"

namespace cudamatch {

namespace {

constexpr std::string_view kRedacted = "***";

// ---- escaping ----

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

// Length of the well-formed UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, at
// most U+10FFFF) at s[i], with its code point in `cp`; 0 when the bytes there are not UTF-8.
size_t Utf8Length(std::string_view s, size_t i, uint32_t& cp) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (len == 0 || i + len > s.size()) return 0;
  cp = len == 1 ? c : c & (0x7f >> len);
  for (size_t k = 1; k < len; ++k) {
    unsigned char b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3f);
  }
  bool overlong = (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
  if (overlong || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return 0;
  return len;
}

// C1 controls, and the characters that reorder or break text without being seen: the Unicode
// bidirectional controls (UAX #9: ALM, LRM, RLM, LRE..RLO, LRI..PDI) and the line and paragraph
// separators.
bool IsHiddenControl(uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || cp == 0x200e || cp == 0x200f ||
         (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029;
}

// One ASCII byte: kept, or escaped as "\n", "\t", "\r" or "\xNN".
void AppendAscii(std::string& out, char c, bool keep_newline) {
  if (c == '\n' && keep_newline) out += c;
  else if (c == '\n') out += "\\n";
  else if (c == '\t') out += "\\t";
  else if (c == '\r') out += "\\r";
  else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) AppendHex(out, "\\x", static_cast<unsigned char>(c), 2);
  else out += c;
}

// ---- redaction ----

// Query parameters whose value is a credential, compared without regard to case.
constexpr std::array<std::string_view, 27> kSecretParams = {
    // AWS S3 presigned URLs (SigV4 query auth; SigV2 AWSAccessKeyId/Signature), docs.aws.amazon.com
    // AmazonS3/latest/API/sigv4-query-string-auth.html and RESTAuthentication.html
    "x-amz-security-token", "x-amz-signature", "x-amz-credential", "awsaccesskeyid", "signature",
    // Google Cloud Storage signed URLs, cloud.google.com/storage/docs/authentication/signatures
    "x-goog-signature", "x-goog-credential",
    // Azure Storage shared access signatures, learn.microsoft.com/rest/api/storageservices/create-service-sas
    "sig",
    // GitLab package registry tokens, docs.gitlab.com/ee/api/rest/#personalprojectgroup-access-tokens
    "private-token", "private_token", "job-token", "job_token",
    // OAuth 2.0 bearer token in a query (RFC 6750 section 2.3) and client secret (RFC 6749 2.3.1)
    "access_token", "client_secret",
    // Generic names servers and mirrors use for a credential in a query
    "token", "auth_token", "key", "api_key", "apikey", "secret", "password", "passwd", "pass", "auth",
    "credential", "credentials", "session_token"};

bool IsSecretParam(std::string_view key) {
  std::string lower = ToLower(key);
  for (std::string_view k : kSecretParams) {
    if (lower == k) return true;
  }
  return false;
}

// Calls `rewrite(url, out)` for each URL of `text`, from just after "://" to the first of
// `stops` (or the next "://", or the end), and copies the text around them unchanged.
template <typename Fn>
std::string RewriteUrls(std::string_view text, std::string_view stops, Fn rewrite) {
  std::string out;
  out.reserve(text.size());
  size_t pos = 0;
  for (size_t scheme; (scheme = text.find("://", pos)) != std::string_view::npos;) {
    size_t begin = scheme + 3;
    size_t end = std::min(text.find_first_of(stops, begin), text.find("://", begin));
    if (end == std::string_view::npos) end = text.size();
    out.append(text.substr(pos, begin - pos));
    rewrite(text.substr(begin, end - begin), out);
    pos = end;
  }
  out.append(text.substr(pos));
  return out;
}

// "user:pass@host" -> "***@host": everything before the last '@' of the authority. The
// authority ends at '/', '?' or '#' only (RFC 3986 3.2), never at a quote, a backslash, a
// control byte or a space, which a password may hold.
std::string RedactUserinfo(std::string_view text) {
  return RewriteUrls(text, "/?#", [](std::string_view authority, std::string& out) {
    size_t at = authority.rfind('@');
    if (at != std::string_view::npos) {
      out += kRedacted;
      authority.remove_prefix(at);
    }
    out.append(authority);
  });
}

// "?a=1&token=abc#f" -> "?a=1&token=***#f". A value ends at '&', '#' or the end of the URL.
void RedactQuery(std::string_view query, std::string& out) {
  bool first = true;
  for (std::string_view param : Split(query, '&')) {
    if (!first) out += '&';
    first = false;
    size_t eq = param.find('=');
    if (eq != std::string_view::npos && IsSecretParam(param.substr(0, eq))) {
      out.append(param.substr(0, eq + 1));
      out += kRedacted;
    } else {
      out.append(param);
    }
  }
}

// Whether path segment `i` of a URL on `host` is a token: conda and mamba take "/t/<token>/" out
// of any channel URL (conda/common/url.py split_anaconda_token; anaconda.org and
// conda.anaconda.org tokens, docs.anaconda.com "Using tokens"); Cloudsmith puts an entitlement
// token first ("dl.cloudsmith.io/<token>/<owner>/<repo>/python/simple/", unless "public" or
// "basic": help.cloudsmith.io/docs/entitlements).
// A segment after a token is never one itself.
bool IsTokenSegment(std::string_view host, const std::vector<std::string_view>& segs, size_t i, bool after_token) {
  if (i > 0 && segs[i - 1] == "t" && !after_token && !segs[i].empty()) return true;
  return i == 0 && ToLower(host) == "dl.cloudsmith.io" && segs[i] != "public" && segs[i] != "basic" && !segs[i].empty();
}

void RedactPath(std::string_view host, std::string_view path, std::string& out) {
  std::vector<std::string_view> segs = Split(path, '/');  // path starts with '/': segs[0] is ""
  segs.erase(segs.begin());
  bool after_token = false;
  for (size_t i = 0; i < segs.size(); ++i) {
    bool token = IsTokenSegment(host, segs, i, after_token);
    out += '/';
    out.append(token ? kRedacted : segs[i]);
    after_token = token;
  }
}

// Query parameters and path tokens of one URL (its authority already redacted). A URL ends at
// a space: pip splits index lists there and prose ends a URL there.
std::string RedactPathsAndQueries(std::string_view text) {
  return RewriteUrls(text, " ", [](std::string_view url, std::string& out) {
    size_t path = url.find_first_of("/?#");
    std::string_view authority = url.substr(0, path);
    out.append(authority);
    if (path == std::string_view::npos) return;
    std::string_view host = authority.substr(authority.rfind('@') == std::string_view::npos ? 0 : authority.rfind('@') + 1);
    host = host.substr(0, host.find(':'));
    std::string_view rest = url.substr(path);
    size_t query = rest.find_first_of("?#");
    RedactPath(host, rest.substr(0, query), out);
    if (query == std::string_view::npos) return;
    rest.remove_prefix(query);
    if (rest.front() == '?') {
      size_t fragment = rest.find('#');
      out += '?';
      RedactQuery(rest.substr(1, fragment == std::string_view::npos ? std::string_view::npos : fragment - 1), out);
      if (fragment == std::string_view::npos) return;
      rest.remove_prefix(fragment);
    }
    out.append(rest);  // the fragment
  });
}

std::string EscapeInvalidUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    uint32_t cp = 0;
    size_t n = Utf8Length(text, i, cp);
    if (n == 0) {
      AppendHex(out, "\\x", static_cast<unsigned char>(text[i]), 2);
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

}  // namespace

std::string EscapeControls(std::string_view text, bool keep_sgr, bool keep_newline, bool keep_esc) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == '\x1b' && (keep_esc || keep_sgr)) {
      size_t n = keep_esc ? 1 : SgrLength(text.substr(i));
      if (n > 0) {
        out.append(text.substr(i, n));
        i += n;
        continue;
      }
    }
    uint32_t cp = 0;
    size_t n = Utf8Length(text, i, cp);
    if (n == 0) {
      AppendHex(out, "\\x", static_cast<unsigned char>(c), 2);
      n = 1;
    } else if (n == 1) {
      AppendAscii(out, c, keep_newline);
    } else if (IsHiddenControl(cp)) {
      AppendHex(out, "\\u", cp, 4);
    } else {
      out.append(text.substr(i, n));
    }
    i += n;
  }
  return out;
}

std::string EscapeJsonControls(std::string_view json) {
  // DEL, C1 and the bidi controls all start with a byte of 0x7f or more.
  if (std::all_of(json.begin(), json.end(), [](char ch) { return static_cast<unsigned char>(ch) < 0x7f; })) {
    return std::string(json);
  }
  std::string out;
  out.reserve(json.size());
  for (size_t i = 0; i < json.size();) {
    uint32_t cp = 0;
    size_t n = Utf8Length(json, i, cp);
    if (n == 0) {  // the writer replaced such bytes already; left as they are
      n = 1;
      cp = 0;
    }
    if (cp == 0x7f || (n > 1 && IsHiddenControl(cp))) AppendHex(out, "\\u", cp, 4);
    else out.append(json.substr(i, n));
    i += n;
  }
  return out;
}

namespace {

// Whether `text` has what any redaction above needs: a URL with userinfo ('@'), a query ('?'),
// conda's "/t/" or a Cloudsmith host. Text without them comes out of RedactCredentials unchanged.
bool MayHoldCredentials(std::string_view text) {
  if (text.find("://") == std::string_view::npos) return false;
  return text.find_first_of("@?") != std::string_view::npos || text.find("/t/") != std::string_view::npos ||
         ToLower(text).find("cloudsmith") != std::string::npos;
}

}  // namespace

std::string RedactCredentials(std::string_view text) {
  if (!MayHoldCredentials(text)) return std::string(text);
  return RedactPathsAndQueries(RedactUserinfo(text));
}

namespace {

// Printable ASCII (and, with `newlines`, line breaks) with nothing to redact: nothing to change and
// nothing to escape, the text of almost every value and line. Checked in one pass first, so the
// common case costs a scan instead of the redaction and escaping passes.
bool Plain(std::string_view text, bool newlines) {
  for (char ch : text) {
    auto b = static_cast<unsigned char>(ch);
    if ((b < 0x20 || b > 0x7e) && !(newlines && b == '\n')) return false;
  }
  return !MayHoldCredentials(text);
}

}  // namespace

bool IsPlainText(std::string_view text) { return Plain(text, false); }

std::string SafeText(std::string_view text, Sink sink, bool keep_sgr) {
  if (Plain(text, sink == Sink::kReport)) return std::string(text);
  switch (sink) {
    case Sink::kValue:
      return EscapeControls(RedactCredentials(text), false, false, true);
    case Sink::kJson:
      return EscapeInvalidUtf8(RedactCredentials(text));
    case Sink::kReport:
      break;
  }
  std::string out;
  out.reserve(text.size());
  for (size_t pos = 0; pos <= text.size();) {
    size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    if (Plain(line, false)) out += line;
    else out += EscapeControls(RedactCredentials(line), keep_sgr);
    if (nl == std::string_view::npos) break;
    out += '\n';
    pos = nl + 1;
  }
  return out;
}

}  // namespace cudamatch
