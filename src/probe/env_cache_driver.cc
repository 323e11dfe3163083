#include "probe/env_cache_driver.h"

#include <algorithm>
#include <utility>

#include "core/text.h"
#include "probe/context.h"
#include "probe/env_cache.h"

namespace cudamatch {

namespace {

constexpr std::string_view kMagic = "cudamatch-driver-cache 2\n";
constexpr size_t kEntryCap = 64 * 1024;

struct KeyParts {
  std::string key;           // "" when not to be kept
  int64_t changed_ns = 0;    // the library's latest modification or change time
};

// A kernel module file's text, or why there is none: the key tells "absent" from any content.
std::string ModuleText(const Fs& fs, const char* path) {
  if (!fs.Stat(path).exists()) return std::string(path) + " absent\n";
  auto text = fs.Read(path, kSmallFileCap);
  return std::string(path) + (text ? " " + std::to_string(text->size()) + "\n" + *text : " unreadable\n");
}

KeyParts Parts(const Fs& fs, const std::string& library, const DriverCacheOptions& o) {
  if (library.empty() || library[0] != '/') return {};
  auto real = fs.Resolve(library);
  if (!real) return {};
  FileInfo info = fs.Stat(*real);
  if (info.type != FileType::kRegular) return {};
  std::string key = "cudamatch " + o.tool_version + "\nlibrary " + library + "\nfile " + *real + "\nstat " +
                    std::to_string(info.device) + " " + std::to_string(info.inode) + " " + std::to_string(info.size) +
                    " " + std::to_string(info.mtime_ns) + " " + std::to_string(info.ctime_ns) + "\nenv " +
                    o.environment + "\n";
  std::string proc = ModuleText(fs, "/proc/driver/nvidia/version");
  key += proc;
  if (EndsWith(proc, " absent\n")) key += ModuleText(fs, "/sys/module/nvidia/version");
  return {key, std::max(info.mtime_ns, info.ctime_ns)};
}

class CachedCuda : public CudaApi {
 public:
  CachedCuda(std::unique_ptr<CudaApi> inner, const CacheStore* store, const Fs* fs, std::string library,
             DriverCacheOptions options)
      : inner_(std::move(inner)), store_(store), fs_(fs), library_(std::move(library)), options_(std::move(options)) {}

  void Start() override {
    if (started_) return;
    started_ = true;
    parts_ = Parts(*fs_, library_, options_);
    if (!parts_.key.empty()) {
      if (auto text = store_->Get(FileName(), kEntryCap)) cached_ = DecodeDriverEntry(*text, parts_.key);
    }
    if (!cached_) inner_->Start();
  }

  Result<int> DriverGetVersion() override {
    Start();
    if (cached_) return *cached_;
    Result<int> answer = inner_->DriverGetVersion();
    bool settled = parts_.changed_ns <= options_.now_ns - options_.racy_ns;
    if (answer && !inner_->fault() && !parts_.key.empty() && settled) {
      store_->Put(FileName(), EncodeDriverEntry(parts_.key, *answer));
    }
    return answer;
  }

  std::optional<LibraryFault> fault() const override { return cached_ ? std::nullopt : inner_->fault(); }

 private:
  std::string FileName() const { return "driver-" + EnvCacheChecksum(library_); }

  std::unique_ptr<CudaApi> inner_;
  const CacheStore* store_;
  const Fs* fs_;
  std::string library_;
  DriverCacheOptions options_;
  bool started_ = false;
  KeyParts parts_;
  std::optional<int> cached_;
};

}  // namespace

std::string DriverCacheKey(const Fs& fs, const std::string& library, const DriverCacheOptions& options) {
  return Parts(fs, library, options).key;
}

std::string EncodeDriverEntry(const std::string& key, int version) {
  std::string payload = key + "\nversion " + std::to_string(version);
  return std::string(kMagic) + EnvCacheChecksum(payload) + "\n" + payload;
}

// cudamatch-driver-cache 2
// 0123456789abcdef
// cudamatch 0.9.0 ... (the key) ...
// version 12020
std::optional<int> DecodeDriverEntry(std::string_view text, const std::string& key) {
  if (text.substr(0, kMagic.size()) != kMagic) return std::nullopt;
  text.remove_prefix(kMagic.size());
  if (text.size() < 17 || text[16] != '\n') return std::nullopt;
  std::string_view payload = text.substr(17);
  if (text.substr(0, 16) != EnvCacheChecksum(payload)) return std::nullopt;
  std::string head = key + "\nversion ";
  if (payload.substr(0, head.size()) != head) return std::nullopt;
  auto n = ParseUint(payload.substr(head.size()));
  if (!n || *n > 1'000'000) return std::nullopt;
  return static_cast<int>(*n);
}

std::unique_ptr<CudaApi> MakeCachedCuda(std::unique_ptr<CudaApi> inner, const CacheStore* store, const Fs* fs,
                                        std::string library, DriverCacheOptions options) {
  if (store == nullptr || fs == nullptr) return inner;
  return std::make_unique<CachedCuda>(std::move(inner), store, fs, std::move(library), std::move(options));
}

}  // namespace cudamatch
