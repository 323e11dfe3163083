// The few parts of libcurl's C interface that core/http_posix.cc calls, declared here so the
// build needs no curl headers: libcurl.so.4 is loaded with dlopen only by `catalog update`.
// Values are libcurl's stable ABI (soname 4), from the public documentation:
//   https://curl.se/libcurl/c/easy_setopt_options.html (option numbers: CURLOPTTYPE_LONG 0,
//   OBJECTPOINT/STRINGPOINT 10000, FUNCTIONPOINT 20000, OFF_T 30000, plus the option's index)
//   https://curl.se/libcurl/c/curl_easy_getinfo.html (CURLINFO_STRING 0x100000, LONG 0x200000)
//   https://curl.se/libcurl/c/libcurl-errors.html (CURLcode values)
// CURLOPT_PROTOCOLS_STR and CURLOPT_REDIR_PROTOCOLS_STR need libcurl 7.85 or newer; older ones
// answer CURLE_UNKNOWN_OPTION, and redirects are never followed by libcurl itself anyway.
#pragma once

#include <cstddef>

namespace cudamatch::curl {

using Handle = void;
struct Slist;
using WriteFn = size_t (*)(char* data, size_t size, size_t count, void* user);

enum Option : int {
  kWriteData = 10001,            // CURLOPT_WRITEDATA
  kUrl = 10002,                  // CURLOPT_URL
  kErrorBuffer = 10010,          // CURLOPT_ERRORBUFFER (CURL_ERROR_SIZE 256 bytes)
  kTimeout = 13,                 // CURLOPT_TIMEOUT (seconds)
  kUserAgent = 10018,            // CURLOPT_USERAGENT
  kHttpHeader = 10023,           // CURLOPT_HTTPHEADER
  kFollowLocation = 52,          // CURLOPT_FOLLOWLOCATION
  kSslVerifyPeer = 64,           // CURLOPT_SSL_VERIFYPEER
  kConnectTimeout = 78,          // CURLOPT_CONNECTTIMEOUT (seconds)
  kSslVerifyHost = 81,           // CURLOPT_SSL_VERIFYHOST (2: the name must match)
  kNoSignal = 99,                // CURLOPT_NOSIGNAL
  kAcceptEncoding = 10102,       // CURLOPT_ACCEPT_ENCODING ("" = every encoding libcurl decodes)
  kWriteFunction = 20011,        // CURLOPT_WRITEFUNCTION
  kMaxFileSizeLarge = 30117,     // CURLOPT_MAXFILESIZE_LARGE (curl_off_t)
  kProtocolsStr = 10318,         // CURLOPT_PROTOCOLS_STR
  kRedirProtocolsStr = 10319,    // CURLOPT_REDIR_PROTOCOLS_STR
};

enum Info : int {
  kContentType = 0x100000 + 18,  // CURLINFO_CONTENT_TYPE (char*)
  kRedirectUrl = 0x100000 + 31,  // CURLINFO_REDIRECT_URL (char*)
  kResponseCode = 0x200000 + 2,  // CURLINFO_RESPONSE_CODE (long)
};

constexpr int kOk = 0;                 // CURLE_OK
constexpr int kWriteError = 23;        // CURLE_WRITE_ERROR: the write callback stopped the transfer
constexpr int kTimedOut = 28;          // CURLE_OPERATION_TIMEDOUT
constexpr long kGlobalDefault = 3;     // CURL_GLOBAL_DEFAULT (CURL_GLOBAL_SSL | CURL_GLOBAL_WIN32)
constexpr size_t kErrorSize = 256;     // CURL_ERROR_SIZE

// The functions, looked up by name (https://curl.se/libcurl/c/allfuncs.html).
struct Api {
  int (*global_init)(long flags) = nullptr;                        // curl_global_init
  Handle* (*easy_init)() = nullptr;                                // curl_easy_init
  int (*easy_setopt)(Handle*, Option, ...) = nullptr;              // curl_easy_setopt
  int (*easy_perform)(Handle*) = nullptr;                          // curl_easy_perform
  int (*easy_getinfo)(Handle*, Info, ...) = nullptr;               // curl_easy_getinfo
  void (*easy_cleanup)(Handle*) = nullptr;                         // curl_easy_cleanup
  const char* (*easy_strerror)(int) = nullptr;                     // curl_easy_strerror
  Slist* (*slist_append)(Slist*, const char*) = nullptr;           // curl_slist_append
  void (*slist_free_all)(Slist*) = nullptr;                        // curl_slist_free_all
};

}  // namespace cudamatch::curl
