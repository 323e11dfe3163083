#include "probe/env_cache.h"

#include <algorithm>
#include <set>
#include <utility>

#include "core/text.h"
#include "probe/binaries.h"
#include "probe/packages.h"

namespace cudamatch {

namespace {

constexpr size_t kEntryCap = 16 * 1024 * 1024;

// Passes every call through and notes, before each path is first looked at, what stat (or lstat,
// for links) says about it: the entry's dependencies.
class RecordingFs : public Fs {
 public:
  explicit RecordingFs(const Fs& inner) : inner_(inner) {}

  Result<std::string> Read(std::string_view path, size_t max_bytes) const override {
    Note(path, true);
    return inner_.Read(path, max_bytes);
  }
  Result<std::unique_ptr<RandomAccessFile>> Open(std::string_view path) const override {
    Note(path, true);
    return inner_.Open(path);
  }
  Result<std::vector<std::string>> List(std::string_view path) const override {
    Note(path, true);
    listed_.emplace(path);
    return inner_.List(path);
  }
  FileInfo Stat(std::string_view path) const override { return Note(path, true); }
  FileInfo LStat(std::string_view path) const override { return Note(path, false); }
  Result<std::string> ReadLink(std::string_view path) const override {
    Note(path, false);
    return inner_.ReadLink(path);
  }
  Result<std::string> Resolve(std::string_view path) const override {
    Note(path, true);
    return inner_.Resolve(path);
  }
  const std::string& root() const override { return inner_.root(); }
  std::vector<Unreadable> unreadable() const override { return inner_.unreadable(); }

  std::vector<FileSig> Take() { return std::move(deps_); }
  const std::set<std::string, std::less<>>& listed() const { return listed_; }

 private:
  FileInfo Note(std::string_view path, bool follow) const {
    auto key = std::pair(std::string(path), follow);
    if (auto it = seen_.find(key); it != seen_.end()) return deps_[it->second].info;
    FileInfo info = follow ? inner_.Stat(path) : inner_.LStat(path);
    seen_.emplace(key, deps_.size());
    deps_.push_back(FileSig{key.first, follow, info});
    return info;
  }

  const Fs& inner_;
  mutable std::map<std::pair<std::string, bool>, size_t> seen_;
  mutable std::vector<FileSig> deps_;
  mutable std::set<std::string, std::less<>> listed_;
};

bool SameFile(const FileInfo& a, const FileInfo& b) {
  return a.type == b.type && a.size == b.size && a.device == b.device && a.inode == b.inode &&
         a.mtime_ns == b.mtime_ns && a.ctime_ns == b.ctime_ns;
}

// One stat per path; the first that differs ends the check.
bool StillValid(const Fs& fs, const EnvScan& scan) {
  for (const FileSig& d : scan.deps) {
    if (!SameFile(d.info, d.follow ? fs.Stat(d.path) : fs.LStat(d.path))) return false;
  }
  return true;
}

bool Recent(const std::vector<FileSig>& deps, const EnvCacheOptions& o) {
  for (const FileSig& d : deps) {
    if (d.info.mtime_ns > o.now_ns - o.racy_ns || d.info.ctime_ns > o.now_ns - o.racy_ns) return true;
  }
  return false;
}

bool IsSite(const PythonEnv& env, std::string_view dir) {
  return std::find(env.site_packages.begin(), env.site_packages.end(), dir) != env.site_packages.end();
}

// A *.dist-info directory directly in one of the environment's site directories.
bool IsDistInfo(const PythonEnv& env, std::string_view dir) {
  return EndsWith(dir, ".dist-info") && IsSite(env, Dirname(dir));
}

// The dependencies an entry is validated by (env_cache.h): of those the scan looked at, drops
// (1) a missing path whose directory is itself a dependency (the directory's times change when
// an entry is added to it), (2) the files of a *.dist-info directory whose RECORD the scan
// saw: an installer writes RECORD last, whole, and never edits a finished dist-info in place, it
// removes it (pip, uv and conda uninstall, upgrade and reinstall alike), which changes the site
// directory, itself a dependency; (3) the shared objects those RECORD files list that decide
// nothing (EnvScan::plain_objects); and (4) a directory the scan did not list, asked only whether
// it is one, when a file in it that is there is a dependency and no missing name in it was left
// out for it by (1): that file's stat (device, inode, times) says the directory is still there
// (torch-1.13.0.egg-info beside its PKG-INFO).
std::vector<FileSig> Prune(std::vector<FileSig> deps, const PythonEnv& env, const std::vector<std::string>& plain,
                           const std::set<std::string, std::less<>>& listed) {
  std::set<std::string_view> plain_set(plain.begin(), plain.end());
  std::set<std::string, std::less<>> dirs, finished;
  for (const FileSig& d : deps) {
    if (d.follow && d.info.type == FileType::kDirectory) dirs.insert(d.path);
    if (d.info.type == FileType::kRegular && Basename(d.path) == "RECORD" && IsDistInfo(env, Dirname(d.path))) {
      finished.insert(std::string(Dirname(d.path)));
    }
  }
  std::vector<FileSig> out;
  std::set<std::string, std::less<>> vouched, relied;  // (4): directories with a file kept / a missing name dropped
  for (FileSig& d : deps) {
    std::string_view dir = Dirname(d.path);
    if (!d.info.exists() && dirs.count(dir) && d.path != dir) {
      relied.emplace(dir);
      continue;
    }
    if (d.info.type == FileType::kRegular && finished.count(dir) && dirs.count(Dirname(dir))) continue;
    if (d.info.type == FileType::kRegular && plain_set.count(d.path)) continue;
    if (d.info.type == FileType::kRegular && d.follow) vouched.emplace(dir);
    out.push_back(std::move(d));
  }
  out.erase(std::remove_if(out.begin(), out.end(),
                           [&](const FileSig& d) {
                             return d.follow && d.info.type == FileType::kDirectory && vouched.count(d.path) &&
                                    !relied.count(d.path) && !listed.count(d.path);
                           }),
            out.end());
  return out;
}

std::string ScanKey(const PythonEnv& env) {
  return env.prefix + "\n" + (env.version ? env.version->ToString() : "");
}

void Apply(const EnvScan& scan, PythonEnv& env, Snapshot& snap) {
  env.packages = scan.packages;
  env.extensions = scan.extensions;
  snap.trail.insert(snap.trail.end(), scan.package_trail.begin(), scan.package_trail.end());
}

}  // namespace

EnvScan ReadEnvironment(const Fs& fs, PythonEnv& env, Snapshot& snap) {
  EnvScan scan;
  size_t start = snap.trail.size();
  Trail python(snap, "python");
  ScanPackages(fs, env, python);
  // Whether the dist-info a package's metadata came from is finished (its RECORD is there): then
  // the metadata needs no stat of its own on the next run (Prune).
  for (const auto& [name, pkg] : env.packages) {
    if (IsDistInfo(env, pkg.location)) fs.Stat(pkg.location + "/RECORD");
  }
  scan.package_trail.assign(snap.trail.begin() + static_cast<std::ptrdiff_t>(start), snap.trail.end());
  Snapshot side;
  Trail binaries(side, "binaries");
  ReadTorchLibs(fs, env, binaries);
  scan.torch_trail = std::move(side.trail);
  side.trail.clear();
  env.extensions = ScanExtensions(fs, env, binaries, &scan.plain_objects);
  ReadTorchAbi(fs, env, binaries);
  LookUpTorchSymbols(fs, env, binaries);
  scan.extension_trail = std::move(side.trail);
  scan.packages = env.packages;
  scan.extensions = env.extensions;
  return scan;
}

EnvCache::EnvCache(std::unique_ptr<CacheStore> store, EnvCacheOptions options)
    : store_(std::move(store)), options_(std::move(options)) {}

std::string EnvCache::KeyOf(const Fs& fs, const PythonEnv& env) const {
  std::string key = "cudamatch " + options_.tool_version + "\ncatalog " + options_.catalog_date + "\nroot " +
                    fs.root() + "\nprefix " + env.prefix + "\n";
  for (const std::string& site : env.site_packages) key += "site " + site + "\n";
  return key;
}

std::string EnvCache::FileName(const std::string& key) {
  return "env-" + EnvCacheChecksum(key);
}

void EnvCache::Scan(const ProbeInput& in, PythonEnv& env, Snapshot& snap) {
  std::string key = KeyOf(*in.fs, env);
  std::string name = FileName(key);
  if (store_) {
    if (auto text = store_->Get(name, kEntryCap)) {
      if (auto scan = DecodeEnvScan(key, *text); scan && StillValid(*in.fs, *scan)) {
        ++stats_.hits;
        Apply(*scan, env, snap);
        scans_[ScanKey(env)] = std::move(*scan);
        return;
      }
    }
  }
  ++stats_.misses;
  RecordingFs recording(*in.fs);
  size_t unreadable = in.fs->unreadable().size();
  EnvScan scan = ReadEnvironment(recording, env, snap);
  scan.deps = recording.Take();
  const auto& listed = recording.listed();
  bool clean = in.fs->unreadable().size() == unreadable && !Recent(scan.deps, options_);
  scan.deps = Prune(std::move(scan.deps), env, scan.plain_objects, listed);
  if (store_ && clean) {
    if (auto text = EncodeEnvScan(key, scan); text && store_->Put(name, *text)) ++stats_.written;
  }
  scans_[ScanKey(env)] = std::move(scan);
}

const EnvScan* EnvCache::Scanned(const PythonEnv& env) const {
  auto it = scans_.find(ScanKey(env));
  return it == scans_.end() ? nullptr : &it->second;
}

std::string EnvCacheChecksum(std::string_view payload) {
  return Hex16(Checksum64(payload));
}

}  // namespace cudamatch
