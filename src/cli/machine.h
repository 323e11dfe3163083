// Probing the machine for doctor, plan and check: --root and --python, and the NVIDIA
// libraries only when the root is this machine's own "/".
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/common.h"
#include "core/dir_proofs.h"
#include "core/fs.h"
#include "probe/context.h"
#include "probe/env_cache.h"

namespace cudamatch {

struct MachineOptions {
  std::string root;        // --root DIR, when root_given
  bool root_given = false;
  std::vector<std::string> pythons;
  std::string driver_timeout;  // --driver-timeout SECONDS, else CUDAMATCH_DRIVER_TIMEOUT, else 2
  bool no_cache = false;       // --no-cache: read every environment afresh
  bool cache = false;          // --cache: use the environment cache under --root too
};

struct MachineProbe {
  std::unique_ptr<DirProofs> dir_proofs;  // with the environment cache: what directories proved
  std::unique_ptr<Fs> fs;
  std::unique_ptr<NvmlApi> nvml;
  std::unique_ptr<CudaApi> cuda;
  std::unique_ptr<EnvCache> env_cache;
  Snapshot snapshot;
};

void AddRootOption(Command& sub, MachineOptions& opt, std::string_view help);
void AddDriverTimeoutOption(Command& sub, MachineOptions& opt);
void AddMachineOptions(Command& sub, MachineOptions& opt);
// An error (a usage error: exit 2) when --root does not name an image directory.
Result<MachineProbe> ProbeMachine(const MachineOptions& opt, const Context& ctx);

// doctor --from FILE|-: the snapshot of a paste, read from that one file (or stdin) through the
// capped file layer; nothing of this machine is probed. A file with no known output is an error.
Result<Snapshot> PasteMachine(const std::string& from, const Context& ctx);

// --root must name an existing directory other than this machine's "/" once links are
// resolved; a relative path is taken from the working directory. Returns the resolved path.
Result<std::string> ValidateRoot(const std::string& root, Lang lang = Lang::kEn);
// An error when the tree under a --root is no image of `os`: it cannot be listed, it is empty,
// or it lacks every sign of that system (cli/tree_check.cc names the signs). `shown_root` is the
// root as the user gave it.
Status CheckTree(const Fs& fs, Os os, const std::string& shown_root);
// Where the environment cache is on (this machine's "/" unless --no-cache or CUDAMATCH_CACHE=off;
// a --root with --cache or CUDAMATCH_CACHE=on), the root whose report the report cache may keep
// (cli/report_cache.h); otherwise nullopt.
std::optional<std::string> KeptRoot(const MachineOptions& opt, const std::map<std::string, std::string>& env);
// The cache directory: CUDAMATCH_CACHE_DIR, else $XDG_CACHE_HOME/cudamatch, else ~/.cache/cudamatch.
std::string CacheDirFrom(const std::map<std::string, std::string>& env);
// The file layer's options from the environment (CUDAMATCH_NO_OPENAT2).
FsOptions FsOptionsFrom(const std::map<std::string, std::string>& env);
// Milliseconds from "--driver-timeout 2.5" or CUDAMATCH_DRIVER_TIMEOUT: more than 0, at most 600 s.
Result<int> DriverTimeoutMs(const std::string& flag, const std::string& env);

}  // namespace cudamatch
