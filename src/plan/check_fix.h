// One voice for `check`: the fix printed under each problem agrees with the corrected pins.
// A problem about one package (a torchvision that does not pair, a tag that differs from
// torch's) is fixed by the pin the corrected pins give that package, as long as the corrected
// pins keep the pinned torch release; when they move torch, every problem is fixed by the one
// corrected install. Problems that share a fix are kept together, so the fix is said once.
#pragma once

#include <string>

#include "plan/check.h"

namespace cudamatch {

// The package a problem is about ("torchvision"), or "" when it is about the whole set.
std::string ProblemPackage(const Problem& p);

// Gives every problem (but requirements-file issues) a fix that agrees with r.corrected and
// r.install, and groups problems by fix, in the order each fix first appears. Without
// corrected pins, a fix that pins a package differently from another problem's fix is dropped.
void AlignFixes(CheckResult& r);

// The torch release the corrected pins move to when it is not the pinned one ("2.9.0" for a
// torch==2.7.0 whose corrected pins say torch==2.9.0); "" when they keep it or pin no torch.
std::string MovedTorch(const CheckResult& r);

// Whether a fix line is said under problem `i`: the last problem of its run of equal fixes.
bool SaysFix(const CheckResult& r, size_t i);

}  // namespace cudamatch
