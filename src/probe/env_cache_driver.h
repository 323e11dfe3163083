// libcuda's answer to cuDriverGetVersion kept between runs, beside the environment cache
// (env_cache.h, same directory). Asking it means a watched child that dlopens the driver's
// 29 MB libcuda.so (about 3 ms of a warm doctor's 6 on a 2-core VM); the answer changes only when
// the library or the kernel module does.
//
// The key holds everything that decides the answer: cudamatch's version; the library path the
// child is given (an absolute path chosen by the driver probe; a bare soname, which the loader
// would search for, is never cached); the file that path resolves to and its type, device, inode,
// size, modification and change time in nanoseconds (a driver update installs a new file: another
// inode, size or time, or a link pointing elsewhere); the kernel module's version, the text of
// /proc/driver/nvidia/version (or, when it is absent, of /sys/module/nvidia/version, or that
// both are absent); and LD_PRELOAD and LD_LIBRARY_PATH as the child inherits them. The entry
// stores the whole key and is used only when the key of this run equals it. Only answers are kept:
// an error or a fault (hang, crash) is asked again next run, and nothing is written while the
// library changed less than two seconds ago. Format: "cudamatch-driver-cache 2\n", the Checksum64 (core/text.h)
// of the rest, "\n", the key, "\nversion N"; anything else is ignored and replaced.
//
// Made only for this machine's own "/" with the cache on (cli/machine.cc): never under --root,
// where no library of this host is loaded, nor with --no-cache or CUDAMATCH_CACHE=off.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/cache_store.h"
#include "core/fs.h"
#include "probe/nvidia_api.h"

namespace cudamatch {

struct DriverCacheOptions {
  std::string tool_version;
  std::string environment;         // LD_PRELOAD and LD_LIBRARY_PATH, as the child inherits them
  int64_t now_ns = 0;              // when the run began (wall clock)
  int64_t racy_ns = 2'000'000'000;  // a library changed this recently is not kept
};

// "" when the answer must not be kept (a bare soname, a library that does not resolve to a
// regular file). Reads through `fs`, so the driver probe's own look at the same paths is shared.
std::string DriverCacheKey(const Fs& fs, const std::string& library, const DriverCacheOptions& options);

// The version an entry holds for `key`; nullopt for anything but an intact entry of that key.
std::optional<int> DecodeDriverEntry(std::string_view text, const std::string& key);
std::string EncodeDriverEntry(const std::string& key, int version);

// Asks `inner` only when the store has no valid answer for this run's key (computed in Start(),
// after the driver probe has looked at the library). `store` and `fs` outlive the result.
std::unique_ptr<CudaApi> MakeCachedCuda(std::unique_ptr<CudaApi> inner, const CacheStore* store, const Fs* fs,
                                        std::string library, DriverCacheOptions options);

}  // namespace cudamatch
