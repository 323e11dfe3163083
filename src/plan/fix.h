// The fixes findings print, built to keep what the user has where it can (the same torch
// release from the index of a variant that runs, only the mismatched companion), and the means
// to check a fix: a pip command applied to the snapshot as if installed.
#pragma once

#include <optional>
#include <string>

#include "plan/plan.h"
#include "probe/snapshot.h"

namespace cudamatch {

// A pip command that replaces the torch build of `env`: the installed release from another
// variant's index when one fits, else the newest plan; "" when nothing fits. With
// `full_driver`, only variants the driver runs without minor-version compatibility.
std::string TorchFixCommand(const Catalog& c, const Snapshot& s, const PythonEnv& env, bool full_driver);

// The installed torch release (and the companions installed beside it) from the index of
// `variant`, in that release's install form, with pins that replace the installed build; "" when
// the release has no such wheel for this machine.
std::string TorchBuildCommand(const Catalog& c, const Snapshot& s, const PythonEnv& env, const std::string& variant);

// "pip install torchvision==0.15.2 --index-url .../cu118": only the companion, from the index
// of the installed torch build. "" when the installed build is not in the catalog.
std::string CompanionFixCommand(const Catalog& c, const Snapshot& s, const PythonEnv& env, std::string_view package,
                                const Pep440& version);

// pip keeps an installed 2.3.1+cu121 for "torch==2.3.1": `command` (a plan's pip line for the
// same release) made to replace the installed build: every torch, torchvision and torchaudio pin
// names `tag`, or, for PyPI's own build (no label), --force-reinstall.
std::string ReplacingBuild(const std::string& command, const std::string& tag, bool from_pypi);

// "pip install ...", "python -m pip install ...", "/env/bin/python3.10 -m pip install ...".
bool IsPipInstall(const std::string& command);
// A pip install of what ApplyPipCommand models: exact pins of torch, torchvision and torchaudio,
// and NVIDIA's CUDA library wheels (nvidia-*, pinned, a range or bare).
bool InstallsModelledPackages(const std::string& command);

// The snapshot after `command` (a pip install of those packages) ran in
// the environment whose prefix is `env_prefix`; nullopt when the command is not such a pip
// install or names a wheel the catalog cannot describe.
std::optional<Snapshot> ApplyPipCommand(const Catalog& c, const Snapshot& s, const std::string& env_prefix,
                                        const std::string& command);

}  // namespace cudamatch
