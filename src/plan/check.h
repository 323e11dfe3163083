// Pin checks: torch / torchvision / torchaudio pins from arguments or a requirements file,
// checked against the catalog (do they exist, do they pair) and against a machine (does the
// variant run on its driver and GPUs, is there a wheel for its Python), with corrected pins.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "plan/plan.h"

namespace cudamatch {

struct Pin {
  std::string name;       // normalised: "torch"
  std::string specifier;  // "==2.3.1+cu121"
  std::string text;       // the line as written
  int line = 0;           // 0 for a command-line argument
};

struct PinSet {
  std::vector<Pin> pins;
  std::string index_url;  // -i / --index-url / --extra-index-url / -f of a requirements file
};

// One requirement per argument: "torch==1.13.0".
Result<PinSet> ParsePinArgs(const std::vector<std::string>& args);
// requirements.txt: comments, line continuations, -i/--index-url/--extra-index-url/-f options;
// lines that are not torch, torchvision or torchaudio are ignored. Errors name file and line.
Result<PinSet> ParseRequirements(std::string_view file, std::string_view text);

struct Problem {
  std::string id;  // "check.vision_unpaired"
  MessageArgs args;
  std::string fix;
};

struct CheckResult {
  std::vector<Problem> problems;
  std::vector<std::string> corrected;  // pins that fix every problem found
  std::string install;                 // the pip command for the corrected pins, if any
  const TorchRelease* release = nullptr;
  const TorchVariant* variant = nullptr;
  bool ok() const { return problems.empty(); }
};

CheckResult CheckPins(const Catalog& c, const MachineSpec& spec, const PinSet& pins);

// The wheel variant an index URL serves: ".../whl/cu121" -> "cu121"; "" if none.
std::string VariantFromIndexUrl(std::string_view url);

}  // namespace cudamatch
