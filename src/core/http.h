// HTTPS GET for `cudamatch catalog update`, the one command that uses the network. Linux loads
// libcurl (libcurl.so.4) at run time, so the binary needs nothing beyond glibc until it is asked
// to fetch; Windows uses WinHTTP, a system DLL. Proxies come from the environment (https_proxy,
// HTTPS_PROXY, no_proxy; on Windows the system's proxy settings).
//
// Every fetch is bounded: connect and total timeouts, a cap on the body after decompression (a
// gzip bomb stops at the cap), TLS verification on, and redirects followed by hand, only to https
// on the same host or a listed one. Plain http is refused except to 127.0.0.1 when the caller
// allows it (tests only).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace cudamatch {

struct HttpLimits {
  long connect_timeout_s = 15;
  long total_timeout_s = 90;
  size_t max_body_bytes = 24u << 20;   // decoded bytes, per response
  int max_redirects = 5;
  bool allow_loopback_http = false;    // http://127.0.0.1:PORT/ (tests)
  std::vector<std::string> redirect_hosts;  // hosts a redirect may lead to besides the same one
};

struct HttpResponse {
  long status = 0;
  std::string content_type;  // as sent, "text/html; charset=utf-8"
  std::string body;
  std::string url;           // after redirects
};

class HttpClient {
 public:
  virtual ~HttpClient() = default;
  // GETs `url` with an Accept header; an error names the URL and what went wrong. A status other
  // than 200 is an error.
  virtual Result<HttpResponse> Get(const std::string& url, const std::string& accept) = 0;
};

// The client, or why there is none ("libcurl.so.4 is not installed: apt-get install libcurl4").
Result<std::unique_ptr<HttpClient>> OpenHttpClient(const HttpLimits& limits);

// https://host[:port]/path split up; nullopt when not an absolute http(s) URL.
struct UrlParts {
  std::string scheme;  // lower case
  std::string host;    // lower case
  std::string port;    // "" for the default
  std::string path;    // from the first '/', with any query
};
std::optional<UrlParts> ParseUrl(std::string_view url);

// Why `url` may not be fetched under `limits` ("" when it may): https only, or http to 127.0.0.1
// when allowed.
std::string UrlRefusal(std::string_view url, const HttpLimits& limits);
// Why a redirect from `from` to `location` may not be followed ("" when it may). `location` may
// be relative; *resolved receives the absolute URL.
std::string RedirectRefusal(std::string_view from, std::string_view location, const HttpLimits& limits,
                            std::string* resolved);
// One request, no redirect followed: the response (any status) and its Location header, if any.
using HttpOnce = std::function<Result<HttpResponse>(const std::string& url, std::string* location)>;
// GET through `once`, following redirects as `limits` allow (each URL checked by UrlRefusal and
// RedirectRefusal); a status other than 200 at the end is an error naming the URL.
Result<HttpResponse> GetFollowingRedirects(const std::string& url, const HttpLimits& limits, const HttpOnce& once);
// The media type of a Content-Type value, lower case and without parameters.
std::string MediaType(std::string_view content_type);

}  // namespace cudamatch
