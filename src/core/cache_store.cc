#include "core/cache_store.h"

namespace cudamatch {

std::string DefaultCacheDir(const std::string& xdg_cache_home, const std::string& home, const std::string& local_app_data) {
#ifdef _WIN32
  (void)xdg_cache_home;
  (void)home;
  return local_app_data.empty() ? "" : local_app_data + "\\cudamatch";
#else
  (void)local_app_data;
  if (!xdg_cache_home.empty() && xdg_cache_home[0] == '/') return xdg_cache_home + "/cudamatch";
  if (!home.empty() && home[0] == '/') return home + "/.cache/cudamatch";
  return "";
#endif
}

}  // namespace cudamatch
