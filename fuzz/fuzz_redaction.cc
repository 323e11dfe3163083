// Output redaction round trip: nothing redacted is ever printed. The input picks a place for a
// secret in a URL (password, user, a credential query parameter, a package host's token path
// segment) and the secret's bytes; the URL goes through SafeText for each place output goes.
// What comes out must be exactly what comes out with another secret: no byte of it survives,
// raw or escaped.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/safe_text.h"

using namespace cudamatch;  // NOLINT: fuzz entry point

namespace {

struct Place {
  const char* before;
  const char* after;
  const char* forbidden;  // bytes that end this part of a URL, so a secret cannot hold them
};

constexpr Place kPlaces[] = {
    {"https://user:", "@pypi.example.com/simple", "/?#"},
    {"https://", ":pw@pypi.example.com/simple", "/?#"},
    {"https://h.example/simple?page=2&token=", "&x=1", "&# "},
    {"https://b.s3.amazonaws.com/simple/?X-Amz-Security-Token=", "#frag", "&# "},
    {"https://h/simple?X-Goog-Signature=", "", "&# "},
    {"https://acct.blob.core.windows.net/s/?sv=1&sig=", "", "&# "},
    {"https://gitlab.example.com/simple?private-token=", "", "&# "},
    {"https://conda.anaconda.org/t/", "/channel/", "/?# "},
    {"https://dl.cloudsmith.io/", "/acme/repo/python/simple/", "/?# "},
};

std::string Url(const Place& p, std::string_view secret) { return p.before + std::string(secret) + p.after; }

bool Allowed(const Place& p, std::string_view secret, bool one_line) {
  if (secret.find("://") != std::string_view::npos || secret == "public" || secret == "basic") return false;
  if (one_line && secret.find('\n') != std::string_view::npos) return false;
  return secret.find_first_of(p.forbidden) == std::string_view::npos;
}

void Check(const Place& p, std::string_view secret, Sink sink) {
  if (secret.empty() || !Allowed(p, secret, sink == Sink::kReport)) return;
  std::string with = SafeText("from " + Url(p, secret) + " here", sink);
  std::string other = SafeText("from " + Url(p, "x") + " here", sink);
  if (with != other) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const Place& place = kPlaces[data[0] % (sizeof(kPlaces) / sizeof(kPlaces[0]))];
  std::string_view secret(reinterpret_cast<const char*>(data + 1), size - 1);
  for (Sink sink : {Sink::kValue, Sink::kReport, Sink::kJson}) Check(place, secret, sink);
  return 0;
}
