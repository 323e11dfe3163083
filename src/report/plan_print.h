// One value of a plan on one line, for install scripts and Dockerfiles: `plan --print FIELD`
// (`RUN pip install $(cudamatch plan --print pip-args)`). Each field is declared once, in
// PlanFields(); the command table's allowed values for --print come from there.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/message.h"
#include "plan/plan.h"

namespace cudamatch {

enum class PlanField {
  kIndexUrl,      // the index that serves the chosen build (PyPI's for PyPI's default build)
  kPipArgs,       // the requirement pins and the index option, as separate shell words
  kTorchBackend,  // uv's --torch-backend value (cu128, cpu, rocm6.2, xpu)
  kVariant,       // the wheel variant tag (cu124, cpu)
  kCuda,          // the CUDA the chosen build was made with, X.Y
  kDriverCuda,    // the newest CUDA the machine's driver serves, X.Y (a base image's CUDA)
};

struct PlanFieldInfo {
  PlanField field;
  std::string_view name;  // the --print value
  std::string_view help;
};
const std::vector<PlanFieldInfo>& PlanFields();
std::optional<PlanField> FindPlanField(std::string_view name);

// The field's one line (no newline), or why the plan has no such value: a message id and its
// values ("plan.print.nothing_fits").
struct FieldValue {
  std::optional<std::string> line;
  std::string why_id;
  MessageArgs why_args;
};
FieldValue PlanFieldValue(const Catalog& c, const Plan& plan, const MachineSpec& spec, PlanField field);

// Whether `word` passes through a shell's word splitting and globbing unchanged: `$(...)` output
// is split on blanks and globbed, never unquoted, so a word must hold no blank, quote or pattern.
bool IsShellWordSafe(std::string_view word);

}  // namespace cudamatch
