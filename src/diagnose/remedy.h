// What would fix a finding, as data. A rule states a RemedyNeed ("a torch build for environment
// 2 that this driver runs"); the remedy planner (plan/remedy.h) turns it into a Remedy (a pip
// install with its pins and index, an environment change, a driver step, a rebuild, or words);
// plan/remedy_text.h renders a Remedy for the user's shell. Verification applies a Remedy to a
// copy of the snapshot; nothing reads a printed command back.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/version.h"

namespace cudamatch {

// A requirement as torch's metadata writes it, split: "nvidia-nccl-cu12" and ">=2.20.5".
struct NeededRequirement {
  std::string name;
  std::string spec;  // "==8.9.2.26", ">=2.20.5", "" for any version
  bool operator==(const NeededRequirement&) const = default;
};

struct RemedyNeed {
  enum class Kind {
    kNone,
    kTorchBuild,        // a torch build for `env` this driver runs (fully when full_driver) with code for every GPU
    kTorchVariant,      // the installed torch release from wheel variant `variant`
    kCompanion,         // `package` (torchvision/torchaudio) matching the installed torch
    kCompanionRebuild,  // `package` at `version` from the index of torch's variant `variant`, replacing the build
    kTorchPin,          // exactly torch `version`, as an extension's pin asks
    kNvidiaWheels,      // `requirements` installed as torch's metadata writes them
    kBestPlan,          // the best plan for the machine (its primary environment)
    kDriverInstall,     // install the NVIDIA driver on distribution `os_id`
    kDriverReinstall,   // reinstall the driver packages of `branch` on `os_id`, then reboot
    kReboot,
    kLoadModule,         // load the nvidia kernel module
    kPurgeLinuxDriver,   // remove a Linux driver installed inside WSL
    kContainerGpus,      // start the container with the GPUs passed through
    kPodNvidiaRuntime,   // run the Kubernetes pod with the nvidia runtime (runtimeClassName)
    kHostCompiler,       // install g++-`gcc` and make it the compiler
    kExtensionRebuild,   // rebuild `package` at `version` from source for `arch_list`, CUDA_HOME=`path` when set;
                         // in project directory `project` when it was installed editable (`develop`: by setup.py develop)
    kExtensionWheel,     // the wheel file at URL `path` of `package` at `version`, replacing the installed one
    kUnsetEnv,           // unset `names`
    kUseToolkit,         // CUDA_HOME=`path`, PATH=`path`/bin:$PATH
    kPythonMinusMPip,    // run pip as "python -m pip" (words: the arguments are the user's)
    kJetsonIndex,        // torch for `env` from the JetPack release's pip index at `path`
    kSetEnv,             // export `names`[0]=`path`
  };
  Kind kind = Kind::kNone;
  int env = -1;  // index into Snapshot::pythons of the environment the remedy changes; -1: none
  bool full_driver = false;
  std::string variant;
  std::string package;
  std::optional<Pep440> version;
  std::vector<NeededRequirement> requirements;
  std::string os_id, branch, path, arch_list;
  std::string project;   // kExtensionRebuild of an editable install: its project directory
  bool develop = false;  // ... installed by setup.py develop (else pip install -e)
  // kExtensionRebuild: whether the rebuild must compile. A package whose setup.py fetches the
  // prebuilt file named after this torch (flash-attn, mamba-ssm, causal-conv1d) is told to compile
  // unless that file is the fix (another CUDA or cuDNN major: the one for torch's CUDA).
  bool fetch_ok = false;
  std::vector<std::string> names;
  int gcc = 0;
  bool reinstall = false;  // kNvidiaWheels: the wheels are installed but lack their files

  bool empty() const { return kind == Kind::kNone; }
  bool operator==(const RemedyNeed&) const = default;
};

// ---- Remedies: what to run, as data ----

enum class Shell { kPosix, kPowerShell, kCmd };
enum class Installer { kPip, kUv, kConda };

// One requirement of an install. An exact pin ("torch==2.3.1+cu118") has `version` and `label`;
// a requirement copied from metadata keeps its text in `spec` and is quoted when rendered.
struct InstallPin {
  std::string name;
  std::optional<Pep440> version;  // "==" this public version
  std::string label;              // the local label the pin names ("cu118"), or ""
  std::string spec;               // otherwise: the specifier as written (">=2.20.5", "" for any)
  std::optional<Pep440> picks;    // for `spec`: the version an install would get (lowest allowed)
  bool Exact() const { return version.has_value(); }
};

enum class IndexOption { kNone, kIndexUrl, kExtraIndexUrl, kFindLinks, kShortIndex };

struct PackageInstall {
  Installer installer = Installer::kPip;
  std::string interpreter;  // "<interpreter> -m pip install"; "" for a bare "pip install"
  bool force_reinstall = false;
  bool no_deps = false;
  std::vector<InstallPin> pins;
  IndexOption index = IndexOption::kNone;  // "--index-url URL", "--extra-index-url URL", "-f URL", "-i URL"
  std::string index_url;
  std::string variant;  // the wheel variant the index serves ("cu118"), "" when it is PyPI's default
  int env = -1;         // the environment it installs into (Snapshot::pythons index); -1 unknown
  std::string pypi_index;  // a PyPI mirror for the other packages, beside a PyTorch-wheel mirror
  // PEP 668: `interpreter` is externally managed, so the install creates (or reuses) this venv
  // with it and runs that venv's pip; "" to install into `interpreter` itself.
  bool into_venv = false;
};

struct EnvAssign {
  std::string name, value;
  bool prepend = false;  // value + ":$NAME"
};
struct EnvChange {
  std::vector<std::string> unset;
  std::vector<EnvAssign> set;
};

struct SystemStep {
  enum class Kind { kInstallDriver, kReinstallDriver, kReboot, kLoadModule, kPurgeLinuxDriver, kContainerGpus,
                    kPodNvidiaRuntime, kInstallCompiler };
  Kind kind = Kind::kReboot;
  std::string os_id, branch;
  int gcc = 0;
};

struct Rebuild {
  std::string package;
  std::optional<Pep440> version;
  std::string arch_list;  // TORCH_CUDA_ARCH_LIST, "" to keep the default
  std::string cuda_home;  // CUDA_HOME, "" to keep the default
  // What the package's own build needs to compile at all rather than fetch a prebuilt file:
  // flash-attn's setup.py downloads the wheel named after torch's major.minor, CUDA and C++ ABI
  // unless FLASH_ATTENTION_FORCE_BUILD=TRUE (Dao-AILab/flash-attention setup.py, CachedWheelsCommand).
  std::vector<EnvAssign> build_env;
  // An editable install is rebuilt where it lives, the way it was installed:
  //   cd PROJECT && python -m pip install -e . --no-build-isolation   (pip install -e)
  //   cd PROJECT && python setup.py develop                           (setup.py develop)
  std::string project;      // "" for an install from an index
  bool develop = false;
  // The environment's python ("python" when its path is unknown); "" for a machine described by
  // flags, whose user's own `pip` installs.
  std::string interpreter;
  // A first install from source (check's advice before anything is installed): its dependencies
  // come with it, and nothing installed is replaced.
  bool fresh = false;
};

// Words: advice whose details are the user's ("python -m pip install ...").
struct Advice {
  std::string text;
};

using RemedyStep = std::variant<PackageInstall, EnvChange, SystemStep, Rebuild, Advice>;

// Steps run one after another ("... && sudo reboot"), rendered for `shell`.
struct Remedy {
  std::vector<RemedyStep> steps;
  Shell shell = Shell::kPosix;
};

}  // namespace cudamatch
