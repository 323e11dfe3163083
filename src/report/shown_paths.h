// A Windows tree's paths as the user of that machine writes them, for the text reports. The
// probes read a Windows image through paths of the tree ("/Users/ann/AppData/..."); a person on
// that machine reads and types "C:\Users\ann\AppData\...". JSON keeps the tree's paths (and adds
// windows_* fields); the text reports render a copy made here. Other systems' snapshots and
// findings come back unchanged.
#pragma once

#include <vector>

#include "diagnose/finding.h"
#include "probe/snapshot.h"

namespace cudamatch {

// `s` with every path it holds (and every source that starts with one) in Windows form.
Snapshot ShownForUser(const Snapshot& s);
// `findings` with every message and evidence value that is a path of the tree in Windows form.
std::vector<Finding> ShownForUser(const Snapshot& s, std::vector<Finding> findings);

}  // namespace cudamatch
