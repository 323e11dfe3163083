#include "probe/own_env.h"

namespace cudamatch {

std::optional<std::string> OwnEnvironmentPrefix(const Fs& fs, std::string_view exe) {
  if (exe.empty() || exe[0] != '/') return std::nullopt;
  std::string_view bin = Dirname(exe);
  if (Basename(bin) != "bin") return std::nullopt;
  std::string prefix(Dirname(bin));
  if (!fs.IsFile(prefix + "/pyvenv.cfg")) return std::nullopt;
  return prefix;
}

}  // namespace cudamatch
