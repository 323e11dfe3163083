// Reads the packages cudamatch cares about from an environment's site-packages directories:
// torch, torchvision, torchaudio, triton and the nvidia-* CUDA wheels. Sources per package:
//   <pkg>/version.py (__version__, cuda, hip), parsed as text and never executed;
//   <name>-<version>.dist-info/METADATA or .egg-info/PKG-INFO (Version, Requires-Dist);
//   the dist-info directory name (nvidia-* wheels);
//   torch/lib/ file names (CUDA and cuDNN libraries bundled by older wheels).
// The first directory that has a package wins, as on sys.path.
#pragma once

#include "core/fs.h"
#include "probe/context.h"
#include "probe/snapshot.h"

namespace cudamatch {

void ScanPackages(const Fs& fs, PythonEnv& env, Trail& trail);

}  // namespace cudamatch
