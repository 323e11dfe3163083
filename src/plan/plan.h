// Install plans: the best torch (+ torchvision + torchaudio) release and wheel variant for a
// machine, this one or one described by flags. Every constraint must hold: the driver runs the
// variant's CUDA, every GPU has kernels in its architecture list, a wheel exists for the
// Python and platform. Among what fits: the newest torch, then a variant the driver runs without
// caveats, then the newest CUDA.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/query.h"
#include "diagnose/finding.h"
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
  SpecifierSet torch;                      // --torch "==1.13.*"; empty = any
  bool with_torchvision = true;
  bool with_torchaudio = true;
  const Mirror* mirror = nullptr;
  std::shared_ptr<const Mirror> unlisted_mirror;  // owns `mirror` when the catalog lacks it
};

// Why a candidate (a release, or one variant of it) was left out: a message id and its values.
struct Reason {
  std::string id;
  MessageArgs args;
};

struct Rejection {
  std::string candidate;  // "2.7.1" or "2.7.1+cu128"
  Reason reason;
};

struct Plan {
  const TorchRelease* release = nullptr;  // null: nothing fits
  const TorchVariant* variant = nullptr;
  InstallCommands commands;
  DriverFit driver_fit = DriverFit::kUnknown;
  std::vector<Reason> caveats;
  std::vector<Rejection> rejected;
  std::vector<Reason> reasons;  // when nothing fits: which constraint excluded what
};

Plan MakePlan(const Catalog& c, const MachineSpec& spec);

// Evaluates one candidate; nullopt when it fits (caveats appended), else why not.
std::optional<Reason> CheckCandidate(const Catalog& c, const MachineSpec& spec, const TorchRelease& t,
                                     const TorchVariant& v, std::vector<Reason>* caveats);
std::optional<Reason> CheckRelease(const TorchRelease& t, const MachineSpec& spec);

}  // namespace cudamatch
