#include "core/http.h"

#include <algorithm>

#include "core/text.h"

namespace cudamatch {

// "https://download.pytorch.org:443/whl/cu124/torch/" -> {https, download.pytorch.org, 443,
// /whl/cu124/torch/}
std::optional<UrlParts> ParseUrl(std::string_view url) {
  size_t colon = url.find("://");
  if (colon == std::string_view::npos) return std::nullopt;
  UrlParts u;
  u.scheme = ToLower(url.substr(0, colon));
  if (u.scheme != "http" && u.scheme != "https") return std::nullopt;
  std::string_view rest = url.substr(colon + 3);
  size_t slash = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, slash);
  u.path = slash == std::string_view::npos ? "/" : std::string(rest.substr(slash));
  if (authority.empty() || authority.find('@') != std::string_view::npos) return std::nullopt;
  size_t port = authority.rfind(':');
  if (port != std::string_view::npos && authority.find(']') == std::string_view::npos) {
    u.port = std::string(authority.substr(port + 1));
    authority = authority.substr(0, port);
    if (u.port.empty() || !std::all_of(u.port.begin(), u.port.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return std::nullopt;
    }
  }
  u.host = ToLower(authority);
  if (u.host.empty()) return std::nullopt;
  for (char c : u.host) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
    if (!ok) return std::nullopt;
  }
  return u;
}

std::string UrlRefusal(std::string_view url, const HttpLimits& limits) {
  auto u = ParseUrl(url);
  if (!u) return "not an absolute https URL";
  if (u->scheme == "https") return "";
  if (limits.allow_loopback_http && u->host == "127.0.0.1") return "";
  return "plain http is refused (only https)";
}

std::string RedirectRefusal(std::string_view from, std::string_view location, const HttpLimits& limits,
                            std::string* resolved) {
  auto base = ParseUrl(from);
  if (!base) return "not an absolute https URL";
  std::string target(location);
  if (!target.empty() && target[0] == '/' && (target.size() < 2 || target[1] != '/')) {
    target = base->scheme + "://" + base->host + (base->port.empty() ? "" : ":" + base->port) + target;
  } else if (target.find("://") == std::string::npos) {
    size_t colon = target.find(':');
    if (colon != std::string::npos && target.find('/') > colon) return "a redirect to " + ToLower(target.substr(0, colon)) + ":";
    return "a redirect to a relative location " + Quote(location);
  }
  size_t colon = target.find("://");
  std::string scheme = ToLower(target.substr(0, colon));
  if (scheme != "https" && scheme != "http") return "a redirect to " + scheme + "://";
  if (std::string why = UrlRefusal(target, limits); !why.empty()) return "a redirect to " + target + ": " + why;
  auto to = ParseUrl(target);
  bool listed = std::find(limits.redirect_hosts.begin(), limits.redirect_hosts.end(), to->host) != limits.redirect_hosts.end();
  if (to->host != base->host && !listed) return "a redirect to another host (" + to->host + ")";
  if (resolved != nullptr) *resolved = target;
  return "";
}

std::string MediaType(std::string_view content_type) {
  std::string_view t = content_type.substr(0, content_type.find(';'));
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
  return ToLower(t);
}

Result<HttpResponse> GetFollowingRedirects(const std::string& url, const HttpLimits& limits, const HttpOnce& once) {
  std::string current = url;
  for (int hop = 0; hop <= limits.max_redirects; ++hop) {
    if (std::string why = UrlRefusal(current, limits); !why.empty()) return Err(current + ": " + why);
    std::string location;
    auto r = once(current, &location);
    if (!r) return r;
    if (r->status < 300 || r->status >= 400) {
      if (r->status != 200) return Err(current + ": HTTP status " + std::to_string(r->status));
      return r;
    }
    std::string next;
    if (location.empty()) return Err(current + ": HTTP status " + std::to_string(r->status) + " without a location");
    if (std::string why = RedirectRefusal(current, location, limits, &next); !why.empty()) {
      return Err(current + ": refused " + why);
    }
    current = next;
  }
  return Err(url + ": more than " + std::to_string(limits.max_redirects) + " redirects");
}

}  // namespace cudamatch
