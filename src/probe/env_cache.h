// What was read from a Python environment's own files, kept between runs in the user's cache
// directory (core/cache_store.h), one file per environment: its packages (packages.cc), the
// build facts of torch's CUDA libraries and of its extensions (binaries*.cc), and the trail
// entries those scans wrote. Where torch's libraries will load the CUDA runtime from depends on
// the machine outside the environment (LD_LIBRARY_PATH, ld.so.conf) and is worked out every run.
//
// The dependency set. The scan records every path it looked at (read, opened, listed, stat'ed,
// links read) with what stat said about it before it was looked at: type, device, inode, size,
// modification and change time in nanoseconds (a missing path as missing). Two kinds are then
// left out, because another dependency already changes whenever they do:
//   - a missing path in a directory that is itself a dependency (creating it changes the
//     directory's modification and change time): torch/lib/libtorch_cuda_cu.so when torch/lib
//     was listed;
//   - the files of a finished distribution: in a *.dist-info directory of a site directory whose
//     RECORD the scan found, RECORD, METADATA and the rest. Installers (pip, uv, conda) write
//     RECORD last and whole, and never edit a finished dist-info in place: an uninstall, upgrade
//     or reinstall removes the directory (and writes a new one), which changes the site
//     directory's listing, a dependency. A dist-info without RECORD (an install under way, a
//     tool that writes none) keeps every file it has, and the missing RECORD, as dependencies.
//     A hand edit of a finished RECORD or METADATA that leaves its directory alone is not seen:
//     that is the one case the cache trusts the installers' way of writing for;
//   - for the same reason, the shared objects such a RECORD lists that the scan read and found
//     to link neither CUDA nor torch and to carry no GPU code (orjson, PyYAML's _yaml, cryptography's
//     bindings): they decide no verdict, and an installer replaces them only by replacing the
//     dist-info. Replacing one by hand, in place, with a CUDA build is not seen. The shared
//     objects of extensions and torch's own libraries stay dependencies.
// What stays: every listed directory (the site directories, torch/lib, conda-meta), every file
// read that no installer metadata covers (torch/version.py, torch's METADATA, conda-meta
// records, an egg-info's PKG-INFO), every shared object whose headers were read (an in-place
// rebuild of a .so or an edit of version.py changes no directory), and missing paths elsewhere.
// An entry is used only when one stat of each dependency says the same again, so a file changed,
// replaced (a rename gives another inode and change time even with the same size and
// modification time), added to or removed from a directory listed, or deleted makes the next run
// read the environment again. The key holds the root, the environment's prefix and site
// directories, cudamatch's version and the catalog's date. An entry is not written when a path
// the scan looked at (dropped ones included) changed less than two seconds before the scan began
// (a change within the same clock tick could leave its times as they were), when anything could
// not be read, or for a Windows tree. Format: a line "cudamatch-env-cache 8", a line with the
// Checksum64 (core/text.h) of the rest, then the entry's values (env_cache_codec.cc); an entry that does
// not parse, fails its checksum or names another key is ignored (and replaced).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/cache_store.h"
#include "probe/context.h"

namespace cudamatch {

struct FileSig {
  std::string path;
  bool follow = true;  // stat (true) or lstat (false)
  FileInfo info;
};

// The facts of one environment read from its files.
struct EnvScan {
  std::map<std::string, PackageInfo> packages;  // torch's `binaries` filled, `runtime` empty
  std::vector<ExtensionInfo> extensions;
  std::vector<Evidence> package_trail;    // the python probe's entries
  std::vector<Evidence> torch_trail;      // the binaries probe's, torch's libraries
  std::vector<Evidence> extension_trail;  // the binaries probe's, the extensions
  std::vector<FileSig> deps;
  // Shared objects a finished dist-info's RECORD listed that link neither CUDA nor torch and
  // carry no GPU code: not dependencies (Prune, env_cache.cc); not kept in the entry.
  std::vector<std::string> plain_objects;
};

struct EnvCacheOptions {
  std::string tool_version;
  std::string catalog_date;
  int64_t now_ns = 0;                         // when the run began (wall clock)
  int64_t racy_ns = 2'000'000'000;            // changes this recent keep an entry from being written
};

struct EnvCacheStats {
  size_t hits = 0, misses = 0, written = 0;
};

class EnvCache {
 public:
  EnvCache(std::unique_ptr<CacheStore> store, EnvCacheOptions options);

  // The python probe: fills env.packages and env.extensions, from the cache or by reading the
  // environment (and then keeps the result), and appends the package trail.
  void Scan(const ProbeInput& in, PythonEnv& env, Snapshot& snap);
  // The binaries probe: the scan made for `env` this run, or nullptr.
  const EnvScan* Scanned(const PythonEnv& env) const;
  const EnvCacheStats& stats() const { return stats_; }
  // The directory's store, shared with the driver-answer cache (env_cache_driver.h).
  const CacheStore* store() const { return store_.get(); }

  std::string KeyOf(const Fs& fs, const PythonEnv& env) const;
  static std::string FileName(const std::string& key);

 private:
  std::unique_ptr<CacheStore> store_;
  EnvCacheOptions options_;
  EnvCacheStats stats_;
  std::map<std::string, EnvScan> scans_;  // by prefix and version
};

// Reads the environment's files through `fs` (packages, torch's libraries, extensions).
EnvScan ReadEnvironment(const Fs& fs, PythonEnv& env, Snapshot& snap);

// The entry's text (paths and details are kept byte for byte) and back; nullopt for anything
// but a whole, intact entry of `key`.
std::optional<std::string> EncodeEnvScan(const std::string& key, const EnvScan& scan);
std::optional<EnvScan> DecodeEnvScan(const std::string& key, std::string_view text);
// The key an intact entry was written under; nullopt for anything else.
std::optional<std::string> EnvScanKey(std::string_view text);
// 16 hex digits of Checksum64 (core/text.h).
std::string EnvCacheChecksum(std::string_view payload);

}  // namespace cudamatch
