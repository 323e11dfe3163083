// An Fs that asks the one below it about each path once per run: types, listings, link targets
// and small files are remembered, so probes that look at the same place (the site-packages
// listing the package and extension scans both need, /etc/ld.so.conf for every torch) cost one
// set of system calls. Large files opened for positional reads are passed through. A run is one
// look at the machine: what changes during it is seen by the next run. With `proofs`
// (core/dir_proofs.h), a missing path or a listing an earlier run learned is answered from one
// stat of its directory, and what this run learns is added to them; /proc, /sys and /dev, whose
// directories' times do not follow their entries, are always asked.
#pragma once

#include <memory>

#include "core/dir_proofs.h"
#include "core/fs.h"

namespace cudamatch {

std::unique_ptr<Fs> MakeMemoFs(std::unique_ptr<Fs> inner, DirProofs* proofs = nullptr);

}  // namespace cudamatch
