// HTTP GET through WinHTTP, a system DLL: proxies from the system settings (automatic proxy
// where Windows 8.1 or newer offers it), TLS verified by Windows, redirects followed by hand.
#include <windows.h>
#include <winhttp.h>

#include <chrono>

#include "core/http.h"
#include "core/win_text.h"

namespace cudamatch {

namespace {

struct Handle {
  HINTERNET h = nullptr;
  explicit Handle(HINTERNET value) : h(value) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() {
    if (h != nullptr) WinHttpCloseHandle(h);
  }
};

std::string LastError(const std::string& url, const char* step) {
  DWORD code = GetLastError();
  if (code == ERROR_WINHTTP_TIMEOUT) return url + ": no answer in time (" + step + ")";
  return url + ": " + step + ": " + WindowsErrorText(code) + " (error " + std::to_string(code) + ")";
}

std::wstring QueryText(HINTERNET req, DWORD what) {
  DWORD size = 0;
  WinHttpQueryHeaders(req, what, WINHTTP_HEADER_NAME_BY_INDEX, WINHTTP_NO_OUTPUT_BUFFER, &size, WINHTTP_NO_HEADER_INDEX);
  if (GetLastError() != ERROR_INSUFFICIENT_BUFFER || size == 0) return L"";
  std::wstring out(size / sizeof(wchar_t), L'\0');
  if (!WinHttpQueryHeaders(req, what, WINHTTP_HEADER_NAME_BY_INDEX, out.data(), &size, WINHTTP_NO_HEADER_INDEX)) return L"";
  out.resize(size / sizeof(wchar_t));
  return out;
}

class WinHttpClient : public HttpClient {
 public:
  WinHttpClient(HINTERNET session, HttpLimits limits) : session_(session), limits_(std::move(limits)) {}

  Result<HttpResponse> Get(const std::string& url, const std::string& accept) override {
    return GetFollowingRedirects(url, limits_, [&](const std::string& u, std::string* location) {
      return Once(u, accept, location);
    });
  }

 private:
  Result<HttpResponse> Once(const std::string& url, const std::string& accept, std::string* location) {
    auto start = std::chrono::steady_clock::now();
    auto u = ParseUrl(url);
    if (!u) return Err(url + ": not an absolute URL");
    bool https = u->scheme == "https";
    INTERNET_PORT port = static_cast<INTERNET_PORT>(u->port.empty() ? (https ? 443 : 80) : std::stoi(u->port));
    Handle conn(WinHttpConnect(session_.h, WideFromUtf8(u->host).c_str(), port, 0));
    if (conn.h == nullptr) return Err(LastError(url, "connect"));
    Handle req(WinHttpOpenRequest(conn.h, L"GET", WideFromUtf8(u->path).c_str(), nullptr, WINHTTP_NO_REFERER,
                                  WINHTTP_DEFAULT_ACCEPT_TYPES, https ? WINHTTP_FLAG_SECURE : 0));
    if (req.h == nullptr) return Err(LastError(url, "open request"));
    DWORD never = WINHTTP_OPTION_REDIRECT_POLICY_NEVER;
    WinHttpSetOption(req.h, WINHTTP_OPTION_REDIRECT_POLICY, &never, sizeof(never));
    DWORD decompress = WINHTTP_DECOMPRESSION_FLAG_ALL;  // Windows 8.1 and newer; older ones ignore it
    WinHttpSetOption(req.h, WINHTTP_OPTION_DECOMPRESSION, &decompress, sizeof(decompress));
    std::wstring headers = L"Accept: " + WideFromUtf8(accept);
    if (!WinHttpSendRequest(req.h, headers.c_str(), static_cast<DWORD>(-1L), WINHTTP_NO_REQUEST_DATA, 0, 0, 0) ||
        !WinHttpReceiveResponse(req.h, nullptr)) {
      return Err(LastError(url, "request"));
    }
    HttpResponse r;
    DWORD status = 0, size = sizeof(status);
    WinHttpQueryHeaders(req.h, WINHTTP_QUERY_STATUS_CODE | WINHTTP_QUERY_FLAG_NUMBER, WINHTTP_HEADER_NAME_BY_INDEX,
                        &status, &size, WINHTTP_NO_HEADER_INDEX);
    r.status = static_cast<long>(status);
    r.content_type = Utf8FromWide(QueryText(req.h, WINHTTP_QUERY_CONTENT_TYPE));
    *location = Utf8FromWide(QueryText(req.h, WINHTTP_QUERY_LOCATION));
    for (;;) {
      DWORD available = 0;
      if (!WinHttpQueryDataAvailable(req.h, &available)) return Err(LastError(url, "read"));
      if (available == 0) break;
      if (r.body.size() + available > limits_.max_body_bytes) {
        return Err(url + ": the answer is larger than " + std::to_string(limits_.max_body_bytes >> 20) + " MB (decoded)");
      }
      size_t used = r.body.size();
      r.body.resize(used + available);
      DWORD read = 0;
      if (!WinHttpReadData(req.h, r.body.data() + used, available, &read)) return Err(LastError(url, "read"));
      r.body.resize(used + read);
      if (std::chrono::steady_clock::now() - start > std::chrono::seconds(limits_.total_timeout_s)) {
        return Err(url + ": no complete answer within " + std::to_string(limits_.total_timeout_s) + " s");
      }
    }
    r.url = url;
    return r;
  }

  Handle session_;
  HttpLimits limits_;
};

}  // namespace

Result<std::unique_ptr<HttpClient>> OpenHttpClient(const HttpLimits& limits) {
  HINTERNET session = WinHttpOpen(L"cudamatch-catalog-update", WINHTTP_ACCESS_TYPE_AUTOMATIC_PROXY,
                                  WINHTTP_NO_PROXY_NAME, WINHTTP_NO_PROXY_BYPASS, 0);
  if (session == nullptr) {
    session = WinHttpOpen(L"cudamatch-catalog-update", WINHTTP_ACCESS_TYPE_DEFAULT_PROXY, WINHTTP_NO_PROXY_NAME,
                          WINHTTP_NO_PROXY_BYPASS, 0);
  }
  if (session == nullptr) return Err("WinHttpOpen failed: " + WindowsErrorText(GetLastError()));
  int connect_ms = static_cast<int>(limits.connect_timeout_s * 1000), total_ms = static_cast<int>(limits.total_timeout_s * 1000);
  WinHttpSetTimeouts(session, connect_ms, connect_ms, total_ms, total_ms);
  return std::unique_ptr<HttpClient>(std::make_unique<WinHttpClient>(session, limits));
}

}  // namespace cudamatch
