// The top of the doctor report: the machine in one line, one verdict line per environment with
// torch, the counts. What it says comes from diagnose/summary.h; this file only words it.
#include "core/safe_text.h"
#include "core/text.h"
#include "report/doctor.h"

namespace cudamatch {

namespace {

std::string DriverFact(const Snapshot& s, DriverState state, Lang L) {
  const DriverInfo& d = s.driver;
  std::string version = d.version() ? d.version()->text : Tr(L, "common.unknown");
  switch (state) {
    case DriverState::kNone: return Tr(L, NotInPaste(s, PasteGap::kDriver) ? "doctor.summary.driver_not_pasted" : "doctor.summary.no_driver");
    case DriverState::kModuleNotLoaded: return Tr(L, "doctor.summary.module_not_loaded", {{"version", version}});
    case DriverState::kMismatch:
      return Tr(L, "doctor.summary.mismatch", {{"kernel", d.kernel_version->text}, {"userspace", d.userspace_version->text}});
    case DriverState::kLoaded: break;
  }
  if (!d.version()) return Tr(L, "doctor.summary.driver_unknown");
  if (!d.cuda) return Tr(L, "doctor.summary.driver_no_cuda", {{"version", version}});
  return Tr(L, "doctor.summary.driver", {{"version", version}, {"cuda", d.cuda->MajorMinor()}});
}

std::string MachineLine(const Snapshot& s, const Summary& sum, const TextOptions& o) {
  Lang L = o.lang;
  std::vector<std::string> facts = {DriverFact(s, sum.driver, L)};
  if (sum.gpus.empty() && NotInPaste(s, PasteGap::kGpus)) {
    facts.push_back(Tr(L, "doctor.summary.gpus_not_pasted"));
  } else if (sum.gpus.empty()) {
    facts.push_back(Tr(L, sum.gpus_not_visible ? "doctor.summary.gpus_not_visible" : "doctor.summary.no_gpu"));
  }
  for (const GpuGroup& g : sum.gpus) {
    const GpuInfo& face = s.gpus[g.members.front()];
    std::string label = GroupLabel(s.gpus, g);
    facts.push_back(face.cc ? Tr(L, "doctor.summary.gpu_group", {{"gpus", label}, {"sm", face.cc->Sm()}})
                            : Tr(L, "doctor.summary.gpu_group_unknown", {{"gpus", label}}));
  }
  if (s.driver.container) facts.push_back(Tr(L, "doctor.summary.container"));
  if (s.driver.wsl) facts.push_back(Tr(L, "doctor.summary.wsl"));
  const char* label = s.paste ? "doctor.summary.pasted_machine" : "doctor.summary.machine";
  return o.style.Bold(Tr(L, label, {{"facts", Join(facts, " · ")}}));
}

std::string Count(Lang L, const char* one, const char* many, size_t n) {
  return Tr(L, n == 1 ? one : many, {{"n", std::to_string(n)}});
}

std::string VerdictText(const Snapshot& s, const EnvSummary& e, const std::vector<Finding>& findings, const TextOptions& o) {
  Lang L = o.lang;
  std::string id = "doctor.verdict." + std::string(TorchVerdictName(e.verdict));
  // A paste without a GPU list says nothing of the GPUs: only that the build is CPU-only.
  if (e.verdict == TorchVerdict::kCpuBuild && NotInPaste(s, PasteGap::kGpus)) id += "_gpus_not_pasted";
  switch (e.verdict) {
    case TorchVerdict::kRunsOnAllGpus: return o.style.Green(Tr(L, id));
    case TorchVerdict::kCannotRun: {
      const Finding& f = findings[static_cast<size_t>(e.reason)];
      return o.style.Red(Tr(L, id, {{"reason", TrArgs(L, "summary.reason." + f.id, f.args)}}));
    }
    case TorchVerdict::kCpuBuild: return Tr(L, id);
    default: return o.style.Yellow(Tr(L, id));
  }
}

std::string EnvLine(const Snapshot& s, const EnvSummary& e, const std::vector<Finding>& findings, const TextOptions& o) {
  Lang L = o.lang;
  const PythonEnv& env = s.pythons[static_cast<size_t>(e.env)];
  const PackageInfo& torch = env.packages.at("torch");
  std::vector<std::string> counts;
  if (e.errors > 0) counts.push_back(Count(L, "doctor.errors_one", "doctor.errors_many", e.errors));
  if (e.warnings > 0) counts.push_back(Count(L, "doctor.warnings_one", "doctor.warnings_many", e.warnings));
  std::string problems = counts.empty() ? "" : Tr(L, "doctor.summary.env_problems", {{"counts", Join(counts, Tr(L, "common.list_sep"))}});
  return Tr(L, "doctor.summary.env", {{"torch", SafeText(OrUnknown(torch.version, L), Sink::kValue)},
                                      {"env", SafeText(env.prefix, Sink::kValue)},
                                      {"verdict", VerdictText(s, e, findings, o)}, {"problems", problems}});
}

}  // namespace

std::string RenderDoctorSummary(const Snapshot& s, const std::vector<Finding>& findings, const TextOptions& o) {
  Lang L = o.lang;
  Summary sum = Summarize(s, findings);
  std::vector<std::string> lines = {MachineLine(s, sum, o)};
  for (const EnvSummary& e : sum.envs) lines.push_back(EnvLine(s, e, findings, o));
  if (sum.envs.empty()) {
    lines.push_back(Tr(L, "doctor.summary.no_torch", {{"count", std::to_string(s.pythons.size())}}));
  } else if (sum.without_torch > 0) {
    lines.push_back(o.style.Dim(Tr(L, "doctor.summary.without_torch", {{"count", std::to_string(sum.without_torch)}})));
  }
  std::string counts = Tr(L, "doctor.summary", {{"errors", Count(L, "doctor.errors_one", "doctor.errors_many", sum.errors)},
                                                {"warnings", Count(L, "doctor.warnings_one", "doctor.warnings_many", sum.warnings)}});
  lines.push_back(sum.errors > 0 ? o.style.Red(counts) : sum.warnings > 0 ? o.style.Yellow(counts) : o.style.Green(counts));
  std::string out;
  for (const std::string& line : lines) out += WrapLine(line, o.width, "    ");
  return out;
}

}  // namespace cudamatch
