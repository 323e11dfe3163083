// Pin checks: torch / torchvision / torchaudio pins from arguments or a requirements file,
// checked the way pip reads them (exact pins with their local tag and that variant's index,
// ranges as sets, two pins of one package together) against the catalog (do they exist, do
// they pair by release line) and against a machine (the driver, every GPU, each package's
// wheel for the Python), with corrected pins that keep what the user wrote where they can.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "plan/plan.h"
#include "plan/requirements.h"

namespace cudamatch {

struct Problem {
  std::string id;  // "check.unpaired"
  MessageArgs args;
  std::vector<Reason> reasons;  // for "check.machine": every constraint that fails
  std::string fix;
};

// An exact extension pin ("xformers==0.0.27") and what the catalog says of it (plan/check_ext.h).
struct ExtensionVerdict {
  std::string name;          // "xformers"
  std::string version;       // "0.0.27"
  bool in_catalog = false;
  std::string torch;         // what it requires of torch ("==2.3.1", "any"); "" when not known
  std::string wheel;         // where its prebuilt wheel for the judged torch build is ("pypi"); "" when none or not judged
};

struct CheckResult {
  std::vector<Problem> problems;
  std::vector<Reason> notes;           // facts that are not problems (a build outside the catalog)
  std::vector<std::string> corrected;  // pins that fix every problem found
  std::string install;                 // the pip command for the corrected pins, if any
  const TorchRelease* release = nullptr;
  const TorchVariant* variant = nullptr;
  std::string build;                   // a torch build outside the catalog, judged from its tag
  // Changes to the machine that keep the pinned release ("suggest.python": use Python 3.10),
  // each checked by planning with the change, offered beside the corrected pins.
  std::vector<Reason> alternatives;
  MachineSpec spec;                    // the facts the pins were checked against
  std::vector<ExtensionVerdict> extensions;
  // What the pins name that could not be checked ("torch 2.2.0a0+81ea7a4", "flash-attn 2.5.0"):
  // no problem found is then not a fit confirmed.
  std::vector<std::string> unchecked;
  bool ok() const { return problems.empty(); }
};

// Problems, each with a fix that agrees with the corrected pins (plan/check_fix.h); the
// corrected pins are checked again and kept only when they pass.
CheckResult CheckPins(const Catalog& c, const MachineSpec& spec, const PinSet& pins);

// The wheel variant an index URL serves: ".../whl/cu121" -> "cu121"; "" if none.
std::string VariantFromIndexUrl(std::string_view url);

}  // namespace cudamatch
