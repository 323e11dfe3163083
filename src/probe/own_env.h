// cudamatch's own Python environment. `pip install cudamatch` into a venv, `pipx install` and
// `uv tool install` put the binary at <prefix>/bin/cudamatch next to <prefix>/pyvenv.cfg; run
// from there without activating anything, that environment is still one of this machine's.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/fs.h"

namespace cudamatch {

// PythonEnv::found_by names this discovery FoundByName(FoundBy::kOwnEnv) (probe/snapshot.h).

// The environment prefix when `exe` (the running binary, links resolved) is <prefix>/bin/<name>
// and <prefix>/pyvenv.cfg is a file; nullopt otherwise (a system or .deb install, a build tree).
std::optional<std::string> OwnEnvironmentPrefix(const Fs& fs, std::string_view exe);

}  // namespace cudamatch
