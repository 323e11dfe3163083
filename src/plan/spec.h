// A MachineSpec from what the probes saw, for plans about this machine and for the fixes that
// findings suggest.
#pragma once

#include "plan/plan.h"
#include "probe/snapshot.h"

namespace cudamatch {

// The environment a plan is for when none is named: the activated one (VIRTUAL_ENV,
// CONDA_PREFIX, ./.venv), else the first interpreter on PATH, else the first found.
const PythonEnv* PrimaryPython(const Snapshot& snap);

MachineSpec SpecFromSnapshot(const Snapshot& snap, const PythonEnv* env);

}  // namespace cudamatch
