#include "cli/report_cache.h"

#include <chrono>
#include <utility>

#include "catalog/overlay.h"
#include "cli/machine.h"
#include "cli/process.h"
#include "core/child.h"
#include "core/clock.h"
#include "core/text.h"
#include "core/value_codec.h"

namespace cudamatch {

namespace {

constexpr size_t kEntryCap = 16 << 20;
constexpr int64_t kRacyNs = 2'000'000'000;
// Reports kept at most: one is kept per key (each working directory, command line and
// environment), so the oldest written go when a new one is.
constexpr size_t kKeptReports = 64;

std::string EntryName(const std::string& key) { return "report-" + Hex16(Checksum64(key)); }

int64_t WallNs() {
  auto now = std::chrono::system_clock::now().time_since_epoch();
  return std::chrono::duration_cast<std::chrono::nanoseconds>(now).count();
}

void PutInfo(Writer& w, const FileInfo& i) {
  w.Int(static_cast<int>(i.type));
  for (uint64_t n : {i.size, i.device, i.inode}) w.Int(static_cast<int64_t>(n));
  w.Int(i.mtime_ns);
  w.Int(i.ctime_ns);
}

std::string Get(const std::map<std::string, std::string>& env, const char* name) {
  auto it = env.find(name);
  return it == env.end() ? std::string() : it->second;
}

}  // namespace

ReportCache::ReportCache(std::unique_ptr<CacheStore> store, std::string key, std::string root,
                         std::map<std::string, std::string> env, int64_t started_ns)
    : store_(std::move(store)), key_(std::move(key)), root_(std::move(root)), env_(std::move(env)), started_ns_(started_ns) {}

std::optional<KeptReport> ReportCache::Find() const {
  auto text = store_->Get(EntryName(key_), kEntryCap);
  if (!text) return std::nullopt;
  auto entry = DecodeReport(*text, key_);
  if (!entry || entry->root != root_) return std::nullopt;
  std::unique_ptr<Fs> fs = MakeRealFs(entry->root, FsOptionsFrom(env_));
  for (const FsDep& dep : entry->deps) {
    if (!DepHolds(*fs, dep)) return std::nullopt;
  }
  return std::move(entry->report);
}

void ReportCache::Keep(const FsJournal& journal, const KeptReport& report) const {
  if (ChildrenStarted() != 0 || WroteStderr()) return;
  if (journal.deps().empty() || journal.root != root_) return;
  if (journal.ChangedSince(started_ns_ - kRacyNs)) return;
  if (store_->Put(EntryName(key_), EncodeReport(key_, journal.root, journal.deps(), report))) {
    store_->Trim("report-", kKeptReports);
  }
}

std::unique_ptr<ReportCache> OpenReportCache(const Command& command, const std::vector<std::string>& args,
                                             const std::map<std::string, std::string>& env, const GlobalFlags& flags,
                                             bool stdout_is_tty) {
#ifdef _WIN32
  (void)command, (void)args, (void)env, (void)flags, (void)stdout_is_tty;
  return nullptr;
#else
  if (!command.kept_root) return nullptr;
  std::optional<std::string> given = command.kept_root(env);
  if (!given) return nullptr;
  if (!flags.catalog_dir.empty() || flags.json || flags.format == "json") return nullptr;
  if (!flags.os.empty() && flags.os != "linux") return nullptr;
  std::string root = "/";
  if (*given != "/") {
    auto valid = ValidateRoot(*given);
    if (!valid) return nullptr;
    root = *valid;
  }
  auto day = RunTime(env);
  if (!day) return nullptr;
  std::string dir = CacheDirFrom(env);
  if (dir.empty()) return nullptr;
  int64_t started_ns = WallNs();
  Writer w;
  w.Str(CUDAMATCH_VERSION);
  w.Str(ProcessIdentity());
  w.Strs(args);
  for (const auto& [name, value] : env) {
    if (IsUnreadVariable(name)) continue;
    w.Str(name);
    w.Str(value);
  }
  w.None();
  w.Bool(stdout_is_tty);
  w.Int(static_cast<int64_t>(stdout_is_tty ? TerminalColumns() : 0));
  w.Str(WorkingDirectory(Get(env, "PWD")));
  HostFacts host = ThisHost();
  w.Strs({host.arch, host.libc, host.self_exe});
  w.Str(day->substr(0, 10));
  w.Str(root);
  std::unique_ptr<Fs> fs = MakeRealFs("/", FsOptionsFrom(env));
  if (!flags.no_overlay && Get(env, "CUDAMATCH_OVERLAY") != "off") {
    std::string overlay_dir = DefaultCacheDir(Get(env, "XDG_CACHE_HOME"), Get(env, "HOME"), Get(env, "LOCALAPPDATA"));
    if (!overlay_dir.empty() && overlay_dir.front() == '/') {
      PutInfo(w, fs->Stat(overlay_dir));
      PutInfo(w, fs->Stat(overlay_dir + "/" + std::string(kOverlayFile)));
    }
  }
  std::unique_ptr<CacheStore> store = OpenCacheStore(dir);
  if (!store) return nullptr;
  return std::make_unique<ReportCache>(std::move(store), std::move(w).Take(), root, env, started_ns);
#endif
}

}  // namespace cudamatch
