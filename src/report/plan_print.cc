#include "report/plan_print.h"

#include <algorithm>
#include <cctype>

#include "catalog/query.h"
#include "core/text.h"

namespace cudamatch {

namespace {

FieldValue Line(std::string line) { return FieldValue{std::move(line), "", {}}; }
FieldValue Why(std::string id, MessageArgs args = {}) { return FieldValue{std::nullopt, std::move(id), std::move(args)}; }

// "torch==2.3.1+cu118" (an exact pin with its label) or "nvidia-nccl-cu12>=2.20.5".
std::string PinWord(const InstallPin& p) {
  if (!p.Exact()) return p.name + p.spec;
  return p.name + "==" + p.version->ToString() + (p.label.empty() ? "" : "+" + p.label);
}

// The index options in their long form: "-i URL" (a PyPI mirror) is "--index-url URL".
std::vector<std::string> IndexWords(const PackageInstall& p) {
  switch (p.index) {
    case IndexOption::kIndexUrl:
    case IndexOption::kShortIndex: return {"--index-url", p.index_url};
    case IndexOption::kExtraIndexUrl: return {"--extra-index-url", p.index_url};
    case IndexOption::kFindLinks: return {"--find-links", p.index_url};
    case IndexOption::kNone: break;
  }
  return {};
}

FieldValue Words(const std::vector<std::string>& words) {
  for (const std::string& w : words) {
    if (!IsShellWordSafe(w)) return Why("plan.print.unsafe_word", {{"word", w}});
  }
  return Line(Join(words, " "));
}

FieldValue PipArgs(const Plan& plan) {
  std::vector<std::string> words;
  for (const InstallPin& p : plan.commands.pip_install.pins) words.push_back(PinWord(p));
  for (std::string& w : IndexWords(plan.commands.pip_install)) words.push_back(std::move(w));
  return Words(words);
}

FieldValue IndexUrl(const Catalog& c, const Plan& plan) {
  const PackageInstall& p = plan.commands.pip_install;
  if (p.index == IndexOption::kFindLinks) {
    return Why("plan.print.find_links", {{"torch", plan.release->torch.Public()}, {"url", p.index_url}});
  }
  if (p.index != IndexOption::kNone) return Words({p.index_url});
  const Mirror* pypi = FindMirror(c, "pypi");
  if (pypi == nullptr) return Why("plan.print.no_index", {{"variant", plan.variant->variant.tag}});
  return Words({pypi->url});
}

// uv names its backends after the PyTorch index they select (docs.rs uv-torch, TorchMode:
// cpu, cu80 ... cu130, rocm4.0.1 ... rocm6.4, xpu), which are the variant tags.
FieldValue TorchBackend(const Variant& v) {
  if (v.kind == Variant::Kind::kOther && v.tag != "xpu") return Why("plan.print.no_backend", {{"variant", v.tag}});
  return Words({v.tag});
}

FieldValue DriverCudaLine(const Catalog& c, const MachineSpec& spec) {
  if (spec.driver_cuda) return Line(spec.driver_cuda->MajorMinor());
  if (spec.driver) {
    DriverCuda d = MaxCudaForDriver(c, *spec.driver, spec.platform.os);
    if (d.cuda && !d.lower_bound) return Line(d.cuda->MajorMinor());
  }
  return Why("plan.print.no_driver_cuda");
}

}  // namespace

const std::vector<PlanFieldInfo>& PlanFields() {
  static const std::vector<PlanFieldInfo> kFields = {
      {PlanField::kIndexUrl, "index-url", "the index URL that serves the chosen build"},
      {PlanField::kPipArgs, "pip-args", "the pins and index option: pip install $(cudamatch plan --print pip-args)"},
      {PlanField::kTorchBackend, "torch-backend", "the value for uv's --torch-backend (cu128, cpu)"},
      {PlanField::kVariant, "variant", "the wheel variant (cu124, cpu)"},
      {PlanField::kCuda, "cuda", "the CUDA version the chosen build was made with (12.4)"},
      {PlanField::kDriverCuda, "driver-cuda", "the newest CUDA the driver serves (a base image's CUDA)"},
  };
  return kFields;
}

std::optional<PlanField> FindPlanField(std::string_view name) {
  for (const PlanFieldInfo& f : PlanFields()) {
    if (f.name == name) return f.field;
  }
  return std::nullopt;
}

bool IsShellWordSafe(std::string_view word) {
  if (word.empty()) return false;
  return std::all_of(word.begin(), word.end(), [](char ch) {
    unsigned char u = static_cast<unsigned char>(ch);
    return std::isalnum(u) || std::string_view("._+-=:/@%,~").find(ch) != std::string_view::npos;
  });
}

FieldValue PlanFieldValue(const Catalog& c, const Plan& plan, const MachineSpec& spec, PlanField field) {
  if (field == PlanField::kDriverCuda) return DriverCudaLine(c, spec);
  if (plan.cpu_only) return Why("plan.print.cpu_only");  // a CPU build is no answer for the Jetson's GPU
  if (plan.release == nullptr || plan.variant == nullptr) return Why("plan.print.nothing_fits");
  const Variant& v = plan.variant->variant;
  switch (field) {
    case PlanField::kIndexUrl: return IndexUrl(c, plan);
    case PlanField::kPipArgs: return PipArgs(plan);
    case PlanField::kTorchBackend: return TorchBackend(v);
    case PlanField::kVariant: return Words({v.tag});
    case PlanField::kCuda:
      if (!v.cuda) return Why("plan.print.no_cuda", {{"variant", v.tag}});
      return Line(v.cuda->MajorMinor());
    case PlanField::kDriverCuda: break;
  }
  return Why("plan.print.nothing_fits");
}

}  // namespace cudamatch
