// Extension pins in `check`: xformers, flash-attn, bitsandbytes, vllm (catalog/extensions.tsv,
// extension_wheels.tsv) beside the torch pins. Each exact extension pin is judged against the
// torch the pins install: does the release accept that torch, and does it publish a prebuilt
// wheel for that torch's CUDA on the platform. Without a torch pin, the torch the extension
// pulls in is the one judged. A release the catalog does not list is said so, never called
// missing from the world.
#pragma once

#include <string>
#include <vector>

#include "plan/check.h"

namespace cudamatch {

// The problem and note ids of this judgement, one table (messages/en.tsv, zh.tsv).
struct ExtensionMessageIds {
  const char* torch_required;   // the release requires another torch; fix: another release of it
  const char* torch_moves;      // no release of it accepts the pinned torch; fix: move torch
  const char* no_wheel;         // no prebuilt wheel for the torch build's CUDA
  const char* no_wheel_torch;   // ... the wheels name the torch releases or lines they serve
  const char* no_platform;      // no prebuilt wheel at all on the platform
  const char* not_in_catalog;   // note: the release is not in the catalog
  const char* torch_unknown;    // note: what it requires of torch is not known
  const char* wheels_unknown;   // note: the catalog lists none of its wheels, on any platform
  const char* pulls;            // note: without a torch pin, the torch pip installs with it
  const char* pulls_cpu;        // note: ... and from PyPI that torch is a CPU-only build here
  const char* fits;             // note: the release accepts torch and has a wheel for it
  const char* built_newer;      // its wheel for torch's line was built against a newer patch; fix: move torch
  const char* built_nightly;    // note: ... built against a nightly of torch's line
  const char* no_wheel_pypi;    // its PyPI wheel for the platform installs, but serves no build of torch's CUDA
  const char* unpublished;      // torch is no published release: no prebuilt wheel was built against it; fix: a source build
};
const ExtensionMessageIds& ExtensionIds();

// Whether `p` is one of this judgement's problems (its fix moves the pin of args["name"], or
// torch for torch_moves and built_newer, or builds it from source for unpublished).
bool IsExtensionProblem(const Problem& p);

// The torch release an exact extension pin pulls in when no torch is pinned ("xformers==0.0.27"
// -> torch 2.3.1), the first such pin's; nullptr when none pins one the catalog lists.
const TorchRelease* TorchPulledByExtensions(const Catalog& c, const PinSet& pins);

// Adds the problems and notes of every exact extension pin in `pins` to `r`, judged against the
// torch `r` says the pins install (r.release and r.variant, or r.build).
void CheckExtensionPins(const Catalog& c, const MachineSpec& spec, const PinSet& pins, CheckResult& r);

}  // namespace cudamatch
