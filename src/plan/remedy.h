// The remedy planner: what a finding's RemedyNeed means on this machine, as a Remedy value. The
// torch fixes keep what the user has where they can (the installed release from the index of a
// variant that runs, only the mismatched companion).
#pragma once

#include <optional>

#include "diagnose/rules.h"
#include "plan/plan.h"
#include "probe/snapshot.h"

namespace cudamatch {

// The shell a remedy is written for on `os`: PowerShell on Windows, POSIX sh elsewhere.
Shell ShellFor(Os os);

// The remedy for `need` on `s`, or nullopt when none can be planned (no build fits, a
// distribution without a known driver command).
std::optional<Remedy> PlanRemedy(const Catalog& c, const Snapshot& s, const RemedyNeed& need);

// The install of a torch build for `env`: the installed release from another variant's index
// when one fits, else the newest plan. With `full_driver`, only variants the driver runs
// without minor-version compatibility.
std::optional<PackageInstall> TorchBuildInstall(const Catalog& c, const Snapshot& s, const PythonEnv& env, bool full_driver);
// The installed torch release (and its installed companions) from the index of `variant`.
std::optional<PackageInstall> TorchVariantInstall(const Catalog& c, const Snapshot& s, const PythonEnv& env,
                                                  const std::string& variant);
// Only `package` (torchvision or torchaudio), from the index of the installed torch build.
std::optional<PackageInstall> CompanionInstall(const Catalog& c, const Snapshot& s, const PythonEnv& env,
                                               std::string_view package);

// pip keeps an installed 2.3.1+cu121 for "torch==2.3.1": `p` (a plan's install of the same
// release) made to replace the installed build: every torch, torchvision and torchaudio pin
// names `tag`, or, for PyPI's own build (no label), --force-reinstall.
void ReplaceInstalledBuild(PackageInstall& p, const std::string& tag, bool from_pypi);

// A build of `package` from source; with `compile`, one that compiles rather than fetches the
// prebuilt file its setup.py names after torch (flash-attn's FLASH_ATTENTION_FORCE_BUILD=TRUE).
// Architecture list, CUDA_HOME and interpreter are left to the caller.
Rebuild SourceBuild(const std::string& package, const std::optional<Pep440>& version, bool compile);

// The planner's answer to the rules (diagnose/rules.h): MakePlan for the primary environment.
const PlanQuery& ThePlanner();

}  // namespace cudamatch
