// A directory of this user's own in which whole files are kept by name: the environment cache
// (probe/env_cache.h) lives in one. Each file is replaced whole (written under a temporary name,
// then renamed over the old one), so a reader sees the old or the new content, never a mix, and
// runs at the same time never see each other's half-written files.
//
// The directory is made 0700 when missing and used only when it is a real directory (not a
// symbolic link), owned by this user and closed to everyone else, inside a parent that is owned
// by this user or root and that nobody else may rename entries in; files in it are opened without
// following links and must be regular files of this user. Otherwise the store is not opened.
#pragma once

#include <memory>
#include <optional>
#include <string>

namespace cudamatch {

class CacheStore {
 public:
  virtual ~CacheStore() = default;
  // The file's content, at most `cap` bytes; nullopt when absent, unreadable, larger or not ours.
  virtual std::optional<std::string> Get(const std::string& name, size_t cap) const = 0;
  // Replaces the file whole; false when it could not be written (the old one stays).
  virtual bool Put(const std::string& name, const std::string& content) const = 0;
  // Removes the files whose names start with `prefix`, oldest written first, until at most `keep`
  // are left (files of one kind that a run adds by the key, such as kept reports).
  virtual void Trim(const std::string& prefix, size_t keep) const = 0;
};

// nullptr when `dir` cannot be made or is not safe to use (see above).
std::unique_ptr<CacheStore> OpenCacheStore(const std::string& dir);

// The user's cache directory for cudamatch: $XDG_CACHE_HOME/cudamatch, else ~/.cache/cudamatch
// (%LOCALAPPDATA%\cudamatch on Windows); "" when neither is known. Pure: the values come from the
// caller.
std::string DefaultCacheDir(const std::string& xdg_cache_home, const std::string& home, const std::string& local_app_data);

}  // namespace cudamatch
