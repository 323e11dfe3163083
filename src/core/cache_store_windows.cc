// Windows: no environment cache yet (every run reads the environments); the directory name is
// shared (cache_store.cc).
#include "core/cache_store.h"

namespace cudamatch {

std::unique_ptr<CacheStore> OpenCacheStore(const std::string&) { return nullptr; }

}  // namespace cudamatch
