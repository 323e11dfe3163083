// HTTP GET through libcurl, loaded at run time from a trusted system directory.
#include <cstdint>
#include <cstring>
#include <mutex>

#include "core/curl_abi.h"
#include "core/dynlib.h"
#include "core/http.h"

namespace cudamatch {

namespace {

constexpr const char* kInstallHint =
    "install libcurl (Debian/Ubuntu: apt-get install libcurl4; Fedora/RHEL: dnf install libcurl; "
    "Arch: pacman -S curl; Alpine: apk add libcurl)";

// This architecture's multiarch directories first (Debian, Ubuntu), then the others' layouts.
const std::vector<std::string>& LibraryDirs() {
#if defined(__aarch64__)
  static const std::vector<std::string> kDirs = {"/usr/lib/aarch64-linux-gnu", "/lib/aarch64-linux-gnu", "/usr/lib64",
                                                 "/lib64", "/usr/lib", "/lib", "/usr/local/lib"};
#else
  static const std::vector<std::string> kDirs = {"/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib64",
                                                 "/lib64", "/usr/lib", "/lib", "/usr/local/lib"};
#endif
  return kDirs;
}

template <typename F>
bool Bind(const DynamicLibrary& lib, const char* name, F* slot) {
  *slot = reinterpret_cast<F>(FindSymbol(lib, name));
  return *slot != nullptr;
}

Result<const curl::Api*> LoadCurl() {
  static std::once_flag once;
  static curl::Api api;
  static std::string error;
  std::call_once(once, [] {
    // Each directory in turn: a library of another architecture (x86_64's under qemu) fails to
    // load, and the next one may be the right one.
    DynamicLibrary lib;
    std::string path;
    std::vector<std::string> tried;
    for (const std::string& dir : LibraryDirs()) {
      LibraryChoice choice = ChooseTrustedLibrary("libcurl.so.4", {dir});
      for (const std::string& r : choice.rejected) tried.push_back(r);
      if (choice.path.empty()) continue;
      lib = LoadDynamicLibrary(choice.path);
      if (lib.handle != nullptr) {
        path = choice.path;
        break;
      }
      tried.push_back(lib.error);
    }
    if (lib.handle == nullptr) {
      error = "libcurl.so.4 was not found in the system library directories";
      if (!tried.empty()) error += " (" + tried.front() + ")";
      return;
    }
    bool ok = Bind(lib, "curl_global_init", &api.global_init) && Bind(lib, "curl_easy_init", &api.easy_init) &&
              Bind(lib, "curl_easy_setopt", &api.easy_setopt) && Bind(lib, "curl_easy_perform", &api.easy_perform) &&
              Bind(lib, "curl_easy_getinfo", &api.easy_getinfo) && Bind(lib, "curl_easy_cleanup", &api.easy_cleanup) &&
              Bind(lib, "curl_easy_strerror", &api.easy_strerror) && Bind(lib, "curl_slist_append", &api.slist_append) &&
              Bind(lib, "curl_slist_free_all", &api.slist_free_all);
    if (!ok || api.global_init(curl::kGlobalDefault) != curl::kOk) error = path + " lacks the curl_easy functions";
  });
  if (!error.empty()) return Err(error + "; " + kInstallHint);
  return &api;
}

struct Sink {
  std::string body;
  size_t cap = 0;
  bool over = false;
};

size_t Collect(char* data, size_t size, size_t count, void* user) {
  auto* sink = static_cast<Sink*>(user);
  size_t n = size * count;
  if (sink->body.size() + n > sink->cap) {
    sink->over = true;
    return 0;  // libcurl stops with CURLE_WRITE_ERROR
  }
  sink->body.append(data, n);
  return n;
}

class CurlClient : public HttpClient {
 public:
  CurlClient(const curl::Api* api, HttpLimits limits) : api_(api), limits_(std::move(limits)) {}

  Result<HttpResponse> Get(const std::string& url, const std::string& accept) override {
    return GetFollowingRedirects(url, limits_, [&](const std::string& u, std::string* location) {
      return Once(u, accept, location);
    });
  }

 private:
  Result<HttpResponse> Once(const std::string& url, const std::string& accept, std::string* location) {
    curl::Handle* h = api_->easy_init();
    if (h == nullptr) return Err(url + ": curl_easy_init failed");
    Sink sink;
    sink.cap = limits_.max_body_bytes;
    char errbuf[curl::kErrorSize] = {};
    curl::Slist* headers = api_->slist_append(nullptr, ("Accept: " + accept).c_str());
    const char* protocols = limits_.allow_loopback_http ? "http,https" : "https";
    api_->easy_setopt(h, curl::kUrl, url.c_str());
    api_->easy_setopt(h, curl::kErrorBuffer, errbuf);
    api_->easy_setopt(h, curl::kNoSignal, 1L);
    api_->easy_setopt(h, curl::kProtocolsStr, protocols);
    api_->easy_setopt(h, curl::kRedirProtocolsStr, "https");
    api_->easy_setopt(h, curl::kFollowLocation, 0L);
    api_->easy_setopt(h, curl::kSslVerifyPeer, 1L);
    api_->easy_setopt(h, curl::kSslVerifyHost, 2L);
    api_->easy_setopt(h, curl::kConnectTimeout, limits_.connect_timeout_s);
    api_->easy_setopt(h, curl::kTimeout, limits_.total_timeout_s);
    api_->easy_setopt(h, curl::kMaxFileSizeLarge, static_cast<int64_t>(limits_.max_body_bytes));
    api_->easy_setopt(h, curl::kAcceptEncoding, "");
    api_->easy_setopt(h, curl::kHttpHeader, headers);
    api_->easy_setopt(h, curl::kUserAgent, "cudamatch-catalog-update");
    api_->easy_setopt(h, curl::kWriteFunction, &Collect);
    api_->easy_setopt(h, curl::kWriteData, &sink);
    int code = api_->easy_perform(h);
    HttpResponse r;
    char* type = nullptr;
    char* redirect = nullptr;
    api_->easy_getinfo(h, curl::kResponseCode, &r.status);
    if (api_->easy_getinfo(h, curl::kContentType, &type) == curl::kOk && type != nullptr) r.content_type = type;
    if (api_->easy_getinfo(h, curl::kRedirectUrl, &redirect) == curl::kOk && redirect != nullptr) *location = redirect;
    api_->easy_cleanup(h);
    api_->slist_free_all(headers);
    if (sink.over || code == 63 /* CURLE_FILESIZE_EXCEEDED */) {
      return Err(url + ": the answer is larger than " + std::to_string(limits_.max_body_bytes >> 20) + " MB (decoded)");
    }
    if (code == curl::kTimedOut) {
      return Err(url + ": no complete answer within " + std::to_string(limits_.total_timeout_s) + " s");
    }
    if (code != curl::kOk) {
      std::string why = errbuf[0] != '\0' ? std::string(errbuf) : api_->easy_strerror(code);
      return Err(url + ": " + why + " (curl error " + std::to_string(code) + ")");
    }
    r.body = std::move(sink.body);
    r.url = url;
    return r;
  }

  const curl::Api* api_;
  HttpLimits limits_;
};

}  // namespace

Result<std::unique_ptr<HttpClient>> OpenHttpClient(const HttpLimits& limits) {
  auto api = LoadCurl();
  if (!api) return Error{api.err()};
  return std::unique_ptr<HttpClient>(std::make_unique<CurlClient>(*api, limits));
}

}  // namespace cudamatch
