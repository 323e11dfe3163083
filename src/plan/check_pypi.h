// Plain pip where PyPI's wheel of a release is its CPU build while download.pytorch.org has CUDA
// builds for the platform: Linux aarch64 before PyPI's aarch64 wheel became a CUDA build (2.12),
// and Windows. `check` says so beside a pin without a variant, and names the index to use. The
// same naming of a CUDA build where a pinned variant was never built for the platform.
#pragma once

#include <optional>

#include "catalog/catalog.h"
#include "plan/check.h"
#include "plan/plan.h"

namespace cudamatch {

// The note `check.pypi_cpu` for release `t` on spec's platform: the release's CUDA builds there
// and the install command of the one that fits the machine best (the newest that fits, or fails
// only for an architecture list the catalog lacks; else the newest). nullopt without CUDA builds.
std::optional<Reason> PypiCpuNote(const Catalog& c, const MachineSpec& spec, const TorchRelease& t);

// The problem for variant `tag` of `t`, which `list` (torch_complete.tsv) says was never built for
// spec's platform: `check.no_such_build` with the variants that were and the install command of
// the CUDA build that fits the machine best (as PypiCpuNote names it), or
// `check.no_such_build_listed` where the platform has no CUDA build of `t`.
Reason NoSuchBuild(const Catalog& c, const MachineSpec& spec, const TorchRelease& t, const TorchCompleteList& list,
                   std::string_view tag);

// The problem `check.no_wheels_platform` for `t`, which `list` (a torch_complete.tsv row with no
// variant row) says has no wheel at all for spec's platform (macOS x86_64 from 2.3.0), with the
// newest release that has one; fix: that release.
Problem NoWheelsForPlatform(const Catalog& c, const MachineSpec& spec, const TorchRelease& t,
                            const TorchCompleteList& list);

}  // namespace cudamatch
