// Install plans: the best torch (+ torchvision + torchaudio) release and wheel variant for a
// machine, this one or one described by flags. Every constraint must hold: the driver runs the
// variant's CUDA; the driver can drive every GPU (its architecture's first driver branch, and
// the last one for legacy architectures); every GPU has kernels in the variant's architecture
// list; each package of the set has a wheel for the Python and platform. Among what fits: the
// newest torch, then a variant the driver runs without caveats, then the newest CUDA.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/query.h"
#include "core/message.h"
#include "plan/commands.h"

namespace cudamatch {

struct MachineSpec {
  std::optional<DriverVersion> driver;
  std::optional<CudaVersion> driver_cuda;  // --cuda-max, or what the driver reported
  std::vector<ComputeCapability> gpus;
  std::vector<std::string> gpu_names;      // for messages, parallel to gpus
  bool has_nvidia_gpu = false;             // GPUs present even when their capability is unknown
  bool jetson = false;                     // a Jetson module (plan/platform_gate.h)
  std::string jetson_model, jetson_l4t;    // "NVIDIA Jetson AGX Orin Developer Kit", "36.3.0"
  std::optional<PyVersion> python;
  Platform platform;
  // A GPU given that comes only with one host architecture (a Grace superchip, a Jetson module:
  // gpu_hosts.tsv), and whether that architecture chose `platform` (no --arch, nothing probed).
  struct GpuHostNote {
    std::string gpu;  // "NVIDIA GH200"
    Arch arch = Arch::kAarch64;
  };
  std::optional<GpuHostNote> gpu_host;
  bool platform_from_gpu = false;
  SpecifierSet torch;                      // --torch "==1.13.*"; empty = any
  std::optional<Variant> variant;          // only this wheel variant (cu121); nullopt = any
  bool require_full_driver = false;        // reject variants that run only through minor-version compatibility
  bool with_torchvision = true;
  bool with_torchaudio = true;
  const Mirror* mirror = nullptr;
  std::shared_ptr<const Mirror> unlisted_mirror;  // owns `mirror` when the catalog lacks it
  // Where the facts came from, said with every verdict: probed (this machine, or the image
  // under `root`) or described by flags; the interpreter whose version `python` is ("" when the
  // version was given, or there is none).
  bool probed = false;
  std::string root;
  std::string python_from;
  // The Python the commands install into, as its user writes it ("/usr/bin/python3.11",
  // "C:\Users\ann\...\python.exe"); "" for a described machine (the user's `pip`).
  std::string interpreter;
  std::string externally_managed;  // its PEP 668 marker file, as written on the machine; "" none
  // Commands through this mirror as a second line beside the official ones (with `mirror` set:
  // the official commands beside the mirrored ones); null for none.
  const Mirror* alternative_mirror = nullptr;
};

// Why a candidate (a release, or one variant of it) was left out: a message id and its values.
struct Reason {
  std::string id;
  MessageArgs args;
};

struct Rejection {
  std::string candidate;        // "2.7.1" or "2.7.1+cu128"
  std::string line;             // the release line, "2.7"
  std::vector<Reason> reasons;  // every constraint the candidate fails
  bool partly_known = false;    // a release the catalog knows only in part (plan/gaps.h): shown with -v
};

// Rejections of one release line that fail for the same causes (the same reasons), the
// causes every rejection shares set apart.
struct RejectionGroup {
  std::string line;
  std::vector<const Rejection*> members;  // newest first
  std::vector<const Reason*> reasons;     // the first member's, less the shared ones
};
struct RejectionSummary {
  std::vector<Reason> shared;  // failed by every candidate (the same id and values)
  std::vector<RejectionGroup> groups;
};
RejectionSummary GroupRejections(const std::vector<Rejection>& rejected);

struct Plan {
  const TorchRelease* release = nullptr;  // null: nothing fits
  const TorchVariant* variant = nullptr;
  InstallCommands commands;
  DriverFit driver_fit = DriverFit::kUnknown;
  std::vector<Reason> caveats;
  // What the platform changes for every plan (plan/platform_gate.h): said before the caveats.
  std::vector<Reason> platform_notes;
  // A Jetson PyPI's CUDA builds do not serve: the release chosen, if any, is the CPU build only,
  // and NVIDIA's CUDA builds are those of `jetpacks` (the JetPack lines named in platform_notes).
  bool cpu_only = false;
  std::vector<const JetPackRelease*> jetpacks;
  std::vector<Rejection> rejected;
  std::vector<Reason> suggestions;  // when nothing fits: the smallest changes that make a plan exist
  // When nothing fits: the newest candidate that fails only because the catalog does not know its
  // GPU architecture list, so whether it has code for the GPUs is unknown (neither confirmed nor
  // ruled out). `release` stays null: no plan is confirmed.
  struct Unconfirmed {
    const TorchRelease* release = nullptr;
    const TorchVariant* variant = nullptr;
    InstallCommands commands;
    std::vector<Reason> caveats;  // the candidate's own (the driver unknown, ...)
  };
  std::optional<Unconfirmed> unconfirmed;
  std::vector<Reason> command_notes;  // what the commands assume or do: the interpreter, PEP 668's venv, the mirror
  // The same install another way: through MachineSpec::alternative_mirror, or, when the
  // commands go through a mirror, from the official indexes (`official`).
  struct Alternative {
    const Mirror* mirror = nullptr;  // null: the official indexes
    InstallCommands commands;
  };
  std::optional<Alternative> alternative;
};

Plan MakePlan(const Catalog& c, const MachineSpec& spec);
// MakePlan without the search for changes that would make a plan exist.
Plan PlanWithoutSuggestions(const Catalog& c, const MachineSpec& spec);
// When nothing fits: the newest release whose candidates fail only for an unknown architecture
// list, its best such variant (the rank of BestVariant), planned with its commands.
std::optional<Plan::Unconfirmed> UnconfirmedCandidate(const Catalog& c, const MachineSpec& spec);

// Every constraint one candidate fails (empty: it fits; caveats appended).
std::vector<Reason> CheckCandidate(const Catalog& c, const MachineSpec& spec, const TorchRelease& t,
                                   const TorchVariant& v, std::vector<Reason>* caveats);
// The constraints of a release alone: the --torch specifier and each package's Python range.
std::vector<Reason> CheckRelease(const Catalog& c, const TorchRelease& t, const MachineSpec& spec);
// How the machine's driver (or the CUDA it reports) runs a variant's CUDA.
DriverFit DriverFitFor(const Catalog& c, const MachineSpec& spec, const TorchVariant& v);
// The GPUs this driver cannot drive at all (first and last driver branch of the architecture).
std::vector<Reason> CheckDriverWindow(const Catalog& c, const MachineSpec& spec);

}  // namespace cudamatch
