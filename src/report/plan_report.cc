#include "report/plan_report.h"

#include "core/text.h"
#include "plan/check_fix.h"

namespace cudamatch {

std::string ReasonText(const Reason& r, Lang lang) { return TrArgs(lang, r.id, r.args); }

std::string SpecSummary(const MachineSpec& spec, Lang lang) {
  std::vector<std::string> parts;
  if (spec.probed) parts.push_back(spec.root.empty() ? Tr(lang, "spec.this_machine") : Tr(lang, "spec.image", {{"root", spec.root}}));
  if (spec.driver) parts.push_back(Tr(lang, "spec.driver", {{"driver", spec.driver->text}}));
  else if (spec.driver_cuda) parts.push_back(Tr(lang, "spec.driver_cuda", {{"cuda", spec.driver_cuda->MajorMinor()}}));
  else parts.push_back(Tr(lang, "spec.no_driver"));
  for (size_t i = 0; i < spec.gpus.size(); ++i) {
    std::string name = i < spec.gpu_names.size() && !spec.gpu_names[i].empty() ? spec.gpu_names[i] + " " : "";
    parts.push_back(name + "(" + spec.gpus[i].Sm() + ")");
  }
  if (spec.gpus.empty()) parts.push_back(Tr(lang, spec.has_nvidia_gpu ? "spec.gpu_unknown" : "spec.no_gpu"));
  if (!spec.python) parts.push_back(Tr(lang, "spec.python_any"));
  else if (spec.python_from.empty()) parts.push_back("Python " + spec.python->ToString());
  else parts.push_back(Tr(lang, "spec.python_from", {{"python", spec.python->ToString()}, {"path", spec.python_from}}));
  if (spec.platform_from_gpu && spec.gpu_host) {
    parts.push_back(Tr(lang, "spec.platform_from_gpu", {{"platform", spec.platform.Name()}, {"gpu", spec.gpu_host->gpu}}));
  } else {
    parts.push_back(spec.platform.Name());
  }
  if (!spec.torch.text.empty()) parts.push_back("torch" + spec.torch.text + (spec.variant ? "+" + spec.variant->tag : ""));
  return Join(parts, Tr(lang, "common.list_sep"));
}

namespace {

// Separators between clauses: full-width in Chinese.
std::string Semicolon(Lang lang) { return lang == Lang::kZh ? "；" : "; "; }
std::string Colon(Lang lang) { return lang == Lang::kZh ? "：" : ": "; }

std::string ReasonsText(const std::vector<Reason>& reasons, Lang lang) {
  std::vector<std::string> parts;
  for (const Reason& r : reasons) parts.push_back(ReasonText(r, lang));
  return Join(parts, Semicolon(lang));
}

// "2.7.1+cu128, 2.7.0+cu128: reason; reason", the members shortened unless verbose.
std::string GroupText(const RejectionGroup& g, const TextOptions& o) {
  std::vector<std::string> names;
  for (size_t i = 0; i < g.members.size(); ++i) {
    if (i == 3 && !o.verbose) {
      names.push_back(Tr(o.lang, "plan.group_more", {{"count", std::to_string(g.members.size() - 3)}}));
      break;
    }
    names.push_back(g.members[i]->candidate);
  }
  std::vector<std::string> parts;
  for (const Reason* r : g.reasons) parts.push_back(ReasonText(*r, o.lang));
  if (parts.empty()) parts.push_back(Tr(o.lang, "plan.group_only_shared"));
  return Join(names, ", ") + Colon(o.lang) + Join(parts, Semicolon(o.lang));
}

// The rejections a plan shows: a release the catalog knows only in part is no candidate to
// reject unless asked (-v), or when nothing fits; none for a Jetson's CPU-only plan unless asked.
std::vector<Rejection> ShownRejections(const Plan& plan, const TextOptions& o) {
  std::vector<Rejection> out;
  if (plan.cpu_only && !o.verbose) return out;  // a Jetson's CPU build is a side answer
  for (const Rejection& r : plan.rejected) {
    if (o.verbose || !plan.release || !r.partly_known) out.push_back(r);
  }
  return out;
}

std::string RejectedText(const std::vector<Rejection>& rejected, const TextOptions& o) {
  std::string out;
  if (o.verbose) {
    for (const Rejection& r : rejected) out += "  " + r.candidate + Colon(o.lang) + ReasonsText(r.reasons, o.lang) + "\n";
    return out;
  }
  RejectionSummary summary = GroupRejections(rejected);
  for (const Reason& r : summary.shared) out += "  " + Tr(o.lang, "plan.all_candidates", {{"reason", ReasonText(r, o.lang)}}) + "\n";
  for (size_t i = 0; i < summary.groups.size(); ++i) {
    if (i == 8) {
      out += "  " + o.style.Dim(Tr(o.lang, "plan.more", {{"count", std::to_string(summary.groups.size() - 8)}})) + "\n";
      break;
    }
    out += "  " + GroupText(summary.groups[i], o) + "\n";
  }
  return out;
}

// In Chinese the official command comes first and the mirrored one is the line under it
// (through --mirror or the locale's mirror); elsewhere the pip line is the one asked for.
std::string AlternativeLine(const Plan& plan, const MachineSpec& spec, const TextOptions& o, std::string& pip) {
  const std::optional<Plan::Alternative>& alt = plan.alternative;
  if (!alt || o.lang != Lang::kZh || alt->commands.pip == pip) return "";
  if (alt->mirror == nullptr) {  // the commands go through --mirror: the official ones first
    std::string mirrored = pip;
    pip = alt->commands.pip;
    return "  " + Tr(o.lang, "plan.alt.mirror", {{"mirror", spec.mirror->name}}) + "  " + mirrored + "\n";
  }
  return "  " + Tr(o.lang, "plan.alt.mirror", {{"mirror", alt->mirror->name}}) + "  " + alt->commands.pip + "\n";
}

std::string CommandsText(const Plan& plan, const MachineSpec& spec, const TextOptions& o) {
  Lang L = o.lang;
  std::string pip = plan.commands.pip;
  std::string alternative = AlternativeLine(plan, spec, o, pip);
  std::string out = "\n  pip    " + o.style.Green(pip) + "\n" + alternative;
  out += "  uv     " + (alternative.empty() || plan.alternative->mirror != nullptr ? plan.commands.uv : plan.alternative->commands.uv) + "\n";
  out += "  conda  " + (plan.commands.conda ? *plan.commands.conda : o.style.Dim(Tr(L, "plan.no_conda"))) + "\n";
  for (const std::string& n : plan.commands.notes) {
    // The fallback of a PyPI mirror is said once, by its caveat.
    if (n != "note.pypi_default" && n != "note.mirror_cannot_serve") out += "  " + o.style.Dim(Tr(L, n)) + "\n";
  }
  for (const Reason& r : plan.command_notes) out += "  " + o.style.Dim(ReasonText(r, L)) + "\n";
  return out;
}

}  // namespace

namespace {

// A Jetson's plan (Plan::cpu_only) opens with where its CUDA builds are: the platform's notes,
// the first one standing as the heading.
std::string JetsonHead(const Plan& plan, const TextOptions& o) {
  std::string out;
  for (const Reason& r : plan.platform_notes) {
    if (r.id == "caveat.jetson_not_pypi") out += o.style.Bold(ReasonText(r, o.lang)) + "\n";
    else out += "  " + ReasonText(r, o.lang) + "\n";
  }
  return out + "\n";
}

// "NVIDIA GH200 (sm_90)", every GPU of the spec.
std::string GpusText(const MachineSpec& spec) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < spec.gpus.size(); ++i) {
    std::string name = i < spec.gpu_names.size() && !spec.gpu_names[i].empty() ? spec.gpu_names[i] + " " : "";
    parts.push_back(name + "(" + spec.gpus[i].Sm() + ")");
  }
  return Join(parts, ", ");
}

std::string SetText(const TorchRelease& t, const MachineSpec& spec) {
  std::string set = "torch " + t.torch.Public();
  if (spec.with_torchvision && t.torchvision) set += " + torchvision " + t.torchvision->Public();
  if (spec.with_torchaudio && t.torchaudio) set += " + torchaudio " + t.torchaudio->Public();
  return set;
}

// The candidate whose architecture list is unknown: neither confirmed nor ruled out, said as such.
std::string UnconfirmedText(const Plan::Unconfirmed& u, const MachineSpec& spec, const TextOptions& o) {
  Lang L = o.lang;
  std::string out = "\n" + o.style.Bold(Tr(L, "plan.unconfirmed", {{"set", SetText(*u.release, spec)}, {"variant", u.variant->variant.tag}})) + "\n";
  out += "  " + Tr(L, "plan.why.unconfirmed", {{"variant", u.variant->variant.tag}, {"gpus", GpusText(spec)}}) + "\n";
  for (const Reason& r : u.caveats) out += "  " + o.style.Yellow("! ") + ReasonText(r, L) + "\n";
  Plan shown;
  shown.commands = u.commands;
  return out + CommandsText(shown, spec, o);
}

}  // namespace

std::string RenderPlan(const Plan& plan, const MachineSpec& spec, const TextOptions& o) {
  Lang L = o.lang;
  std::string out = o.style.Dim(Tr(L, "plan.for", {{"spec", SpecSummary(spec, L)}})) + "\n";
  if (plan.cpu_only) out += JetsonHead(plan, o);
  if (!plan.release) {
    // On a Jetson the CPU build is a side answer: why each candidate fails is said with -v.
    std::string none = plan.cpu_only ? "plan.none_cpu_only" : plan.unconfirmed ? "plan.none_confirmed" : "plan.none";
    out += o.style.Red(Tr(L, none)) + "\n";
    if (!plan.cpu_only || o.verbose) out += RejectedText(plan.rejected, o);
    if (plan.unconfirmed) out += UnconfirmedText(*plan.unconfirmed, spec, o);
    if (!plan.suggestions.empty()) out += "\n" + Tr(L, plan.cpu_only ? "plan.suggestions_cpu_only" : "plan.suggestions") + "\n";
    for (const Reason& r : plan.suggestions) out += "  - " + ReasonText(r, L) + "\n";
    return out;
  }
  std::string set = SetText(*plan.release, spec);
  out += o.style.Bold(Tr(L, plan.cpu_only ? "plan.chosen_cpu_only" : "plan.chosen", {{"set", set}, {"variant", plan.variant->variant.tag}})) + "\n";
  std::string why = plan.cpu_only                      ? "plan.why.cpu_only"
                    : plan.variant->variant.is_cuda() ? "plan.why." + std::string(DriverFitName(plan.driver_fit))
                                                      : "plan.why.cpu";
  out += "  " + Tr(L, why, {{"variant", plan.variant->variant.tag}}) + "\n";
  if (!plan.cpu_only) {
    for (const Reason& r : plan.platform_notes) out += "  " + o.style.Yellow("! ") + ReasonText(r, L) + "\n";
  }
  for (const Reason& r : plan.caveats) out += "  " + o.style.Yellow("! ") + ReasonText(r, L) + "\n";
  out += CommandsText(plan, spec, o);
  std::vector<Rejection> shown = ShownRejections(plan, o);
  if (!shown.empty()) out += "\n" + Tr(L, "plan.rejected") + "\n" + RejectedText(shown, o);
  return out;
}

Json PlanJson(const Plan& plan, const MachineSpec& spec) {
  Json j = JsonHeader("plan");
  Json machine;
  machine["driver"] = OptString(spec.driver);
  machine["cuda_max"] = spec.driver_cuda ? Json(spec.driver_cuda->MajorMinor()) : Json(nullptr);
  Json gpus = Json::array();
  for (const auto& cc : spec.gpus) gpus.push_back(cc.ToString());
  machine["compute_capabilities"] = gpus;
  machine["python"] = OptString(spec.python);
  machine["platform"] = spec.platform.Name();
  machine["platform_from_gpu"] = spec.platform_from_gpu && spec.gpu_host ? Json(spec.gpu_host->gpu) : Json(nullptr);
  machine["interpreter"] = OptText(spec.interpreter);
  machine["externally_managed"] = OptText(spec.externally_managed);
  j["machine"] = machine;
  const TorchRelease* t = plan.release;
  j["torch"] = t ? Json(t->torch.ToString()) : Json(nullptr);
  j["torchvision"] = t && spec.with_torchvision ? OptString(t->torchvision) : Json(nullptr);
  j["torchaudio"] = t && spec.with_torchaudio ? OptString(t->torchaudio) : Json(nullptr);
  j["variant"] = plan.variant ? Json(plan.variant->variant.tag) : Json(nullptr);
  j["driver_fit"] = plan.variant && plan.variant->variant.is_cuda() ? Json(DriverFitName(plan.driver_fit)) : Json(nullptr);
  Json commands;
  commands["pip"] = t ? Json(plan.commands.pip) : Json(nullptr);
  commands["uv"] = t ? Json(plan.commands.uv) : Json(nullptr);
  commands["conda"] = plan.commands.conda ? Json(*plan.commands.conda) : Json(nullptr);
  j["commands"] = commands;
  Json caveats = Json::array();
  for (const Reason& r : plan.platform_notes) caveats.push_back(ReasonText(r, Lang::kEn));
  for (const Reason& r : plan.caveats) caveats.push_back(ReasonText(r, Lang::kEn));
  j["caveats"] = caveats;
  j["cpu_only"] = plan.cpu_only;
  Json jetpacks = Json::array();
  for (const JetPackRelease* jp : plan.jetpacks) {
    jetpacks.push_back(Json{{"jetpack", std::string(jp->jetpack)}, {"l4t", std::string(jp->l4t)},
                            {"cuda", jp->cuda ? Json(jp->cuda->MajorMinor()) : Json(nullptr)},
                            {"python", OptString(jp->python)}, {"wheels", std::string(jp->wheels)},
                            {"kind", jp->index ? "index" : "page"}, {"sbsa", jp->sbsa}});
  }
  j["jetpacks"] = jetpacks;
  Json unconfirmed(nullptr);
  if (const std::optional<Plan::Unconfirmed>& u = plan.unconfirmed) {
    Json ucaveats = Json::array();
    for (const Reason& r : u->caveats) ucaveats.push_back(ReasonText(r, Lang::kEn));
    unconfirmed = Json{{"torch", u->release->torch.ToString()},
                       {"torchvision", spec.with_torchvision ? OptString(u->release->torchvision) : Json(nullptr)},
                       {"torchaudio", spec.with_torchaudio ? OptString(u->release->torchaudio) : Json(nullptr)},
                       {"variant", u->variant->variant.tag},
                       {"commands", Json{{"pip", u->commands.pip}, {"uv", u->commands.uv},
                                         {"conda", u->commands.conda ? Json(*u->commands.conda) : Json(nullptr)}}},
                       {"caveats", ucaveats}};
  }
  j["unconfirmed"] = unconfirmed;
  Json rejected = Json::array();
  for (const Rejection& r : plan.rejected) {
    Json reasons = Json::array();
    for (const Reason& x : r.reasons) reasons.push_back(Json{{"id", x.id}, {"message", ReasonText(x, Lang::kEn)}});
    rejected.push_back(Json{{"candidate", r.candidate}, {"line", r.line}, {"partly_known", r.partly_known}, {"reasons", reasons}});
  }
  j["rejected"] = rejected;
  Json suggestions = Json::array();
  for (const Reason& r : plan.suggestions) suggestions.push_back(Json{{"id", r.id}, {"message", ReasonText(r, Lang::kEn)}});
  j["suggestions"] = suggestions;
  Json notes = Json::array();
  for (const Reason& r : plan.command_notes) notes.push_back(Json{{"id", r.id}, {"message", ReasonText(r, Lang::kEn)}});
  j["command_notes"] = notes;
  return j;
}

namespace {

std::string ProblemText(const Problem& p, Lang lang) {
  std::string text = TrArgs(lang, p.id, p.args);
  for (const Reason& r : p.reasons) text += "\n    - " + ReasonText(r, lang);
  return text;
}

}  // namespace

std::string RenderCheck(const CheckResult& r, const TextOptions& o) {
  Lang L = o.lang;
  std::string facts = o.style.Dim(Tr(L, "plan.for", {{"spec", SpecSummary(r.spec, L)}})) + "\n";
  if (r.ok()) {
    std::string notes = facts;
    for (const Reason& n : r.notes) notes += o.style.Dim(ReasonText(n, L)) + "\n";
    std::string what = r.release ? "torch " + r.release->torch.Public() + (r.variant ? "+" + r.variant->variant.tag : "")
                                 : "torch " + r.build;
    // What could not be checked is said rather than called a fit.
    if (!r.unchecked.empty()) return notes + Tr(L, "check.ok_unchecked", {{"unchecked", Join(r.unchecked, L == Lang::kZh ? "、" : ", ")}}) + "\n";
    return notes + o.style.Green(Tr(L, r.variant || !r.build.empty() ? "check.ok" : "check.ok_pins", {{"what", what}})) + "\n";
  }
  std::string out = facts;
  for (const Reason& n : r.notes) out += o.style.Dim(ReasonText(n, L)) + "\n";
  for (size_t i = 0; i < r.problems.size(); ++i) {
    const Problem& p = r.problems[i];
    out += o.style.Red(Tr(L, "severity.error")) + " " + ProblemText(p, L) + "\n";
    if (SaysFix(r, i)) out += "  " + Labelled(L, "finding.fix", o.style.Green(p.fix)) + "\n";
  }
  for (const Reason& a : r.alternatives) out += "  " + Labelled(L, "check.or", ReasonText(a, L)) + "\n";
  if (!r.corrected.empty()) {
    out += "\n" + Tr(L, "check.corrected") + "\n  " + Join(r.corrected, "\n  ") + "\n";
    if (std::string to = MovedTorch(r); !to.empty()) {
      out += "  " + Tr(L, "check.moves_torch", {{"from", r.release->torch.Public()}, {"to", to}}) + "\n";
    }
    if (!r.install.empty()) out += "  " + o.style.Green(r.install) + "\n";
  }
  return out;
}

Json CheckJson(const CheckResult& r) {
  Json j = JsonHeader("check");
  j["ok"] = r.ok();
  Json problems = Json::array();
  for (const Problem& p : r.problems) {
    Json args = Json::object();
    for (const auto& [k, v] : p.args) args[k] = v ? Json(*v) : Json(nullptr);
    Json reasons = Json::array();
    for (const Reason& x : p.reasons) reasons.push_back(Json{{"id", x.id}, {"message", ReasonText(x, Lang::kEn)}});
    problems.push_back(Json{{"id", p.id}, {"message", ProblemText(p, Lang::kEn)}, {"fix", OptText(p.fix)}, {"args", args},
                            {"reasons", reasons}});
  }
  j["problems"] = problems;
  Json notes = Json::array();
  for (const Reason& n : r.notes) notes.push_back(Json{{"id", n.id}, {"message", ReasonText(n, Lang::kEn)}});
  j["notes"] = notes;
  j["corrected"] = StringList(r.corrected);
  j["install"] = OptText(r.install);
  Json alternatives = Json::array();
  for (const Reason& a : r.alternatives) alternatives.push_back(Json{{"id", a.id}, {"message", ReasonText(a, Lang::kEn)}});
  j["alternatives"] = alternatives;
  Json extensions = Json::array();
  for (const ExtensionVerdict& e : r.extensions) {
    extensions.push_back(Json{{"name", e.name}, {"version", e.version}, {"in_catalog", e.in_catalog},
                              {"torch", OptText(e.torch)}, {"wheel", OptText(e.wheel)}});
  }
  j["extensions"] = extensions;
  j["unchecked"] = StringList(r.unchecked);
  const MachineSpec& m = r.spec;
  j["assumed"] = Json{{"probed", m.probed}, {"root", m.root.empty() ? Json(nullptr) : Json(m.root)},
                      {"python", m.python ? Json(m.python->ToString()) : Json(nullptr)},
                      {"python_from", m.python_from.empty() ? Json(nullptr) : Json(m.python_from)},
                      {"platform", m.platform.Name()}};
  return j;
}

}  // namespace cudamatch
