#include "probe/externally_managed.h"

#include "core/text.h"

namespace cudamatch {

std::string FindExternallyManaged(const Fs& fs, const PythonEnv& env) {
  if (env.kind == PythonKind::kVenv || env.kind == PythonKind::kConda || env.prefix.empty()) return "";
  bool windows = EndsWith(ToLower(env.executable), ".exe");
  if (!windows && !env.version) return "";
  std::string stdlib = windows ? env.prefix + "/Lib" : env.prefix + "/lib/python" + env.version->ToString();
  std::string marker = stdlib + "/EXTERNALLY-MANAGED";
  return fs.IsFile(marker) ? marker : "";
}

}  // namespace cudamatch
