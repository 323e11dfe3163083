#include "diagnose/rules.h"

#include <algorithm>

#include "diagnose/rule_fns.h"
#include "diagnose/summary.h"
#include "core/text.h"

namespace cudamatch {

std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kInfo: break;
  }
  return "info";
}

std::vector<Finding> RunRules(const Snapshot& snap, const Catalog& c, const PlanQuery& plans) {
  std::vector<Finding> out;
  for (const Rule& rule : Rules()) rule.check(snap, c, plans, out);
  MergeConsequences(out);
  return out;
}

std::vector<Finding> RunRules(const Snapshot& snap, const Catalog& c, const PlanQuery& plans, RuleScope scope) {
  std::vector<Finding> out;
  for (const Rule& rule : Rules()) {
    if (rule.scope == scope) rule.check(snap, c, plans, out);
  }
  MergeConsequences(out);
  return out;
}

void SortBySeverity(std::vector<Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(),
                   [](const Finding& a, const Finding& b) { return a.severity < b.severity; });
}

bool HasErrors(const std::vector<Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(),
                     [](const Finding& f) { return f.severity == Severity::kError; });
}

bool Observed(const Snapshot& s, PasteGap gap) {
  if (!s.paste) return true;
  const std::vector<PasteGap>& gaps = s.paste->not_checked;
  return std::find(gaps.begin(), gaps.end(), gap) == gaps.end();
}

EvidenceItem Ev(std::string id, MessageArgs args) { return EvidenceItem{std::move(id), std::move(args)}; }

Finding Emit(std::string_view id, MessageArgs args, std::vector<EvidenceItem> evidence, std::string topic,
             RemedyNeed need, RemedyNeed next) {
  const FindingDecl* decl = FindFinding(id);
  Finding f;
  f.id = std::string(id);
  f.severity = decl != nullptr ? decl->severity : Severity::kError;  // an undeclared id fails the table test
  f.args = std::move(args);
  f.evidence = std::move(evidence);
  f.topic = std::move(topic);
  f.need = std::move(need);
  f.need_next = std::move(next);
  return f;
}

Finding EmitFor(const Snapshot& s, const PythonEnv& env, std::string_view id, MessageArgs args,
                std::vector<EvidenceItem> evidence, std::string topic, RemedyNeed need) {
  int index = EnvIndex(s, env);
  if (!need.empty()) need.env = index;
  Finding f = Emit(id, std::move(args), std::move(evidence), std::move(topic), std::move(need));
  f.env = index;
  return f;
}

int EnvIndex(const Snapshot& s, const PythonEnv& env) {
  if (s.pythons.empty() || &env < s.pythons.data() || &env >= s.pythons.data() + s.pythons.size()) return -1;
  return static_cast<int>(&env - s.pythons.data());
}

RemedyNeed Need(RemedyNeed::Kind kind) {
  RemedyNeed n;
  n.kind = kind;
  return n;
}

const ToolkitInfo* NvccOfMajor(const Snapshot& s, int major) {
  for (const ToolkitInfo& t : s.toolkits) {
    if (t.has_nvcc && t.version && t.version->major == major) return &t;
  }
  return nullptr;
}

std::vector<EvidenceItem> DriverEvidence(const DriverInfo& d) {
  std::vector<EvidenceItem> out;
  if (d.kernel_version) out.push_back(Ev("evidence.driver_kernel", {{"version", d.kernel_version->text}, {"source", d.kernel_source}}));
  if (d.userspace_version) {
    out.push_back(Ev("evidence.driver_userspace", {{"version", d.userspace_version->text}, {"source", d.userspace_source}}));
  }
  if (d.cuda) out.push_back(Ev("evidence.driver_cuda", {{"cuda", d.cuda->MajorMinor()}, {"source", d.cuda_source}}));
  if (out.empty()) out.push_back(Ev("evidence.no_driver"));
  return out;
}

EvidenceItem TorchEvidence(const PythonEnv& env, const PackageInfo& torch) {
  MessageArgs args = {{"version", ArgOf(torch.version, [](const Pep440& v) { return v.ToString(); })}, {"env", env.prefix}, {"source", torch.version_source}};
  if (!torch.cuda) return Ev("evidence.torch", std::move(args));
  args.emplace_back("cuda", torch.cuda->MajorMinor());
  return Ev("evidence.torch_cuda", std::move(args));
}

EvidenceItem PackageEvidence(const PackageInfo& pkg) {
  return Ev("evidence.package", {{"package", pkg.name}, {"version", pkg.version->ToString()}, {"source", pkg.version_source}});
}

EvidenceItem GpuEvidence(const GpuInfo& g) {
  MessageArgs args = {{"gpu", g.name.empty() ? "NVIDIA GPU" : g.name}, {"source", g.source}};
  if (!g.cc) return Ev("evidence.gpu", std::move(args));
  args.emplace_back("cc", g.cc->ToString());
  return Ev("evidence.gpu_cc", std::move(args));
}

const TorchVariant* InstalledVariant(const Catalog& c, const PackageInfo& torch, const Platform& p) {
  if (!torch.version || !torch.variant) return nullptr;
  return FindVariant(c, *torch.version, p.Name(), VariantTag(torch));
}

}  // namespace cudamatch
