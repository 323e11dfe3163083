// How Python installations lie on disk, for the one Python probe (python.cc): POSIX prefixes
// (bin/python3.X, lib/python3.X/site-packages) or Windows ones (python.exe at the prefix,
// Scripts/, python3XY.dll, Lib/site-packages). The probe's loop (resolve, dedupe, version,
// packages, active) is shared; discovery and the on-disk names come from the layout.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "probe/context.h"

namespace cudamatch {

struct PyCandidate {
  std::string prefix;
  std::string executable;
  std::optional<PyVersion> version;
  std::optional<PythonKind> kind;  // what discovery already knows
  std::string name;
  std::string found_by;
  bool known_dir = false;  // discovery already saw a directory there
};

struct PyVersionHit {
  PyVersion version;
  std::string source;
};

struct PythonLayout {
  std::vector<PyCandidate> (*discover)(const ProbeInput& in);
  // The version from a prefix's files, when neither pyvenv.cfg nor the interpreter's name gave it.
  std::optional<PyVersionHit> (*prefix_version)(const Fs& fs, const std::string& prefix);
  std::string (*executable)(const Fs& fs, const PythonEnv& env);
  // Site directories to look in, in sys.path order (absent ones are dropped by the probe).
  std::vector<std::string> (*site_dirs)(const ProbeInput& in, const PythonEnv& env);
  // The prefix a bare `python` runs in this shell and why; {"", ""} when none is known.
  std::pair<std::string, std::string> (*active)(const ProbeInput& in);
};

const PythonLayout& WindowsPythonLayout();  // windows_python.cc
void ProbePythonsWith(const ProbeInput& in, const PythonLayout& layout, Snapshot& snap);

}  // namespace cudamatch
