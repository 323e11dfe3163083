// PEP 668 marker of a Python environment. Source: the file EXTERNALLY-MANAGED in the
// interpreter's stdlib directory (sysconfig's "stdlib" path: <prefix>/lib/python3.X on POSIX,
// <prefix>\Lib on Windows). Its presence is what pip reads; its text only words the refusal.
// A venv (pyvenv.cfg) and a conda environment are never externally managed, whatever their base
// Python is: the marker of the base does not apply inside them.
#pragma once

#include <string>

#include "core/fs.h"
#include "probe/snapshot.h"

namespace cudamatch {

// The marker's path for `env`, or "" when it has none (or is a venv or conda environment).
std::string FindExternallyManaged(const Fs& fs, const PythonEnv& env);

}  // namespace cudamatch
