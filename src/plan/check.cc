#include "plan/check.h"

#include <algorithm>

#include "core/fs.h"
#include "core/text.h"
#include "plan/check_ext.h"
#include "plan/check_fix.h"
#include "plan/check_pypi.h"
#include "plan/companions.h"
#include "plan/gaps.h"
#include "plan/remedy.h"
#include "plan/remedy_text.h"
#include "plan/lookup.h"
#include "plan/platform_gate.h"
#include "plan/suggest.h"

namespace cudamatch {

namespace {

CheckResult CheckPinsUncorrected(const Catalog& c, const MachineSpec& spec, const PinSet& pins);
CheckResult CheckPinsWith(const Catalog& c, const MachineSpec& spec, const PinSet& pins, bool correct);

std::optional<SpecifierSet> SetOf(const Pin& pin) {
  if (pin.specifier.empty()) return SpecifierSet{};
  auto set = SpecifierSet::Parse(pin.specifier);
  return set ? std::optional<SpecifierSet>(*set) : std::nullopt;
}

// The version an exact pin names ("==2.3.1+cu121"), if it is exact.
std::optional<Pep440> Exact(const Pin& pin) {
  auto set = SetOf(pin);
  if (!set || set->clauses.size() != 1) return std::nullopt;
  const Specifier& s = set->clauses.front();
  if ((s.op != SpecOp::kEqual && s.op != SpecOp::kArbitrary) || s.wildcard) return std::nullopt;
  return s.version;
}

// Whether a pin allows `v`; an exact pin's local tag names the wheel variant, not the version.
bool Allows(const Pin& pin, const Pep440& v) {
  if (auto e = Exact(pin)) return e->WithoutLocal() == v.WithoutLocal();
  auto set = SetOf(pin);
  return set && set->Matches(v.WithoutLocal());
}

bool AllAllow(const std::vector<const Pin*>& pins, const Pep440& v) {
  return std::all_of(pins.begin(), pins.end(), [&](const Pin* p) { return Allows(*p, v); });
}

const char* kPackages[] = {"torch", "torchvision", "torchaudio"};

struct State {
  const Catalog& c;
  const MachineSpec& spec;
  const PinSet& pins;
  CheckResult result;
  std::vector<const Pin*> of[3];  // torch, torchvision, torchaudio
  const TorchRelease* release = nullptr;
  std::string label;              // the variant the pins ask for
  bool machine_problem = false;
  bool variant_problem = false;   // the pinned build itself does not run here (not only its Python)
  std::string corrected_tag;      // the corrected plan's variant, where its index is not PyPI
};

std::optional<Pep440> ExactOf(const State& s, int pkg) {
  for (const Pin* p : s.of[pkg]) {
    if (auto e = Exact(*p)) return e;
  }
  return std::nullopt;
}

// The versions of a package the catalog knows: torch releases, or the paired companion versions.
std::vector<Pep440> KnownVersions(const Catalog& c, int pkg) {
  std::vector<Pep440> out;
  for (const TorchRelease& t : c.torch) {
    auto v = pkg == 0 ? std::optional<Pep440>(t.torch) : PairedVersion(t, kPackages[pkg]);
    if (v) out.push_back(*v);
  }
  return out;
}

// Two pins of one package conflict when no version satisfies both.
void CheckConflicts(State& s) {
  for (int pkg = 0; pkg < 3; ++pkg) {
    const auto& pins = s.of[pkg];
    if (pins.size() < 2) continue;
    bool conflict = false;
    std::vector<std::string> labels;
    for (const Pin* p : pins) {
      if (auto e = Exact(*p); e && !e->LocalLabel().empty()) labels.push_back(e->LocalLabel());
    }
    for (size_t i = 1; i < labels.size(); ++i) conflict = conflict || labels[i] != labels[0];
    std::vector<Pep440> candidates = KnownVersions(s.c, pkg);
    if (auto e = ExactOf(s, pkg)) candidates.push_back(*e);
    conflict = conflict || std::none_of(candidates.begin(), candidates.end(), [&](const Pep440& v) { return AllAllow(pins, v); });
    if (!conflict) continue;
    std::vector<std::string> texts;
    for (const Pin* p : pins) texts.push_back(p->text);
    s.result.problems.push_back({"check.pins_conflict", {{"name", kPackages[pkg]}, {"pins", Join(texts, ", ")}}, {}, ""});
  }
}

// Whether the companion pins allow what `t` pairs with.
bool CompanionsPair(const State& s, const TorchRelease& t) {
  for (int pkg = 1; pkg < 3; ++pkg) {
    for (const Pin* p : s.of[pkg]) {
      auto e = Exact(*p);
      if (e ? !PairsWith(s.c, t, kPackages[pkg], *e) : !(PairedVersion(t, kPackages[pkg]) && Allows(*p, *PairedVersion(t, kPackages[pkg])))) {
        return false;
      }
    }
  }
  return true;
}

// The torch release the pins mean: the exact pin's; without a torch pin, the one an extension
// pin requires; else the newest the pins allow that pairs with the companion pins, else the
// newest the pins allow.
void ChooseRelease(State& s) {
  if (auto e = ExactOf(s, 0)) {
    s.release = FindTorch(s.c, *e);
    return;
  }
  if (s.of[0].empty()) s.release = TorchPulledByExtensions(s.c, s.pins);
  if (s.release) return;
  const TorchRelease* newest = nullptr;
  const TorchRelease* partly = nullptr;  // chosen only when no release the catalog knows whole is allowed
  for (auto it = s.c.torch.rbegin(); it != s.c.torch.rend(); ++it) {
    if (!AllAllow(s.of[0], it->torch)) continue;
    if (PartlyKnown(s.c, *it)) {
      if (!partly) partly = &*it;
      continue;
    }
    if (!newest) newest = &*it;
    if (CompanionsPair(s, *it)) {
      s.release = &*it;
      return;
    }
  }
  if (!s.of[0].empty()) s.release = newest ? newest : partly;
}

bool IsOutsideCatalog(const Pep440& v) {
  if (v.IsPrerelease()) return true;
  std::string label = v.LocalLabel();
  return !label.empty() && !Variant::Parse(label);
}

// A torch version the catalog does not list is a gap in the data, said as a note.
void CheckTorchExists(State& s) {
  auto e = ExactOf(s, 0);
  if (!e || s.release || IsOutsideCatalog(*e)) return;
  s.result.notes.push_back(TorchNotInCatalog(s.c, *e));
}

void CheckCompanion(State& s, int pkg) {
  const char* name = kPackages[pkg];
  const TorchRelease* t = s.release;
  auto paired = t ? PairedVersion(*t, name) : std::nullopt;
  for (const Pin* p : s.of[pkg]) {
    auto e = Exact(*p);
    if (e && KnowCompanion(s.c, name, *e) == CompanionKnown::kUnknown) {
      // Not in the catalog: a note, unless the pinned torch release's own pair is known.
      if (!paired) {
        s.result.notes.push_back(CompanionNotInCatalog(s.c, name, *e));
        continue;
      }
      s.result.problems.push_back({"check.paired_missing",
                                   {{"name", name}, {"version", e->Public()}, {"date", s.c.data_date},
                                    {"torch", t->torch.Public()}, {"paired", paired->Public()}}, {},
                                   std::string(name) + "==" + paired->Public()});
      continue;
    }
    if (!t || !paired) continue;
    bool pairs = e ? PairsWith(s.c, *t, name, *e) : Allows(*p, *paired);
    if (pairs) continue;
    s.result.problems.push_back({e ? "check.unpaired" : "check.unpaired_set",
                                 {{"name", name}, {"version", e ? e->Public() : p->specifier},
                                  {"torch", t->torch.Public()}, {"paired", paired->Public()}}, {},
                                 std::string(name) + "==" + paired->Public()});
  }
}

// A companion pinned with another variant's tag than torch's ("torchaudio==2.6.0+cu124" beside
// "torch==2.6.0+cu126"): it was built against another CUDA build of torch and refuses to import.
// One pinned without a tag where the pins name no index is torch's variant when installed with
// torch's index, but PyPI's default build of the release on this platform when installed apart
// (a second pip command, a requirements file without the index): said as a note, since the pins
// do not say which. PyTorch's promotion to PyPI takes torchvision's and
// torchaudio's wheels of each platform from the same variant as torch's (test-infra
// release/pypi/promote_pypi_to_staging.sh, catalog source ti-pypi-promote-*). tenstorrent/tt-forge#890:
// torch 2.9.0+cpu beside PyPI's CUDA torchvision 0.24.0, "operator torchvision::nms does not exist".
void CheckCompanionLabels(State& s, const std::string& torch_tag) {
  bool from_pypi = s.pins.index_url.empty() && s.pins.extra_urls.empty();
  const TorchVariant* pypi = s.release && from_pypi ? PypiDefaultVariant(s.c, *s.release, s.spec.platform.Name()) : nullptr;
  for (int pkg = 1; pkg < 3; ++pkg) {
    auto e = ExactOf(s, pkg);
    if (e && e->LocalLabel().empty() && pypi && pypi->variant.tag != torch_tag) {
      s.result.notes.push_back({"check.companion_pypi",
                                {{"name", kPackages[pkg]}, {"version", e->Public()}, {"torch", torch_tag},
                                 {"other", pypi->variant.tag}, {"platform", s.spec.platform.Name()},
                                 {"symptom", pkg == 1 ? "operator torchvision::nms does not exist"
                                                      : "libtorchaudio.so: undefined symbol"}}});
      continue;
    }
    if (!e || e->LocalLabel().empty() || !Variant::Parse(e->LocalLabel()) || e->LocalLabel() == torch_tag) continue;
    std::string fix = std::string(kPackages[pkg]) + "==" + e->Public() + "+" + torch_tag;
    if (pkg == 1) {
      s.result.problems.push_back({"check.label_mismatch", {{"torch", torch_tag}, {"vision", e->LocalLabel()}}, {}, fix});
    } else {
      s.result.problems.push_back({"check.companion_label", {{"name", kPackages[pkg]}, {"torch", torch_tag}, {"other", e->LocalLabel()}}, {}, fix});
    }
  }
}

// The variant the pins ask for: a "+cu121" tag, else the index URL, else PyPI's default.
void FindLabel(State& s) {
  auto torch = ExactOf(s, 0);
  bool torch_tagged = torch && !torch->LocalLabel().empty() && Variant::Parse(torch->LocalLabel());
  if (torch_tagged) CheckCompanionLabels(s, torch->LocalLabel());
  auto vision = ExactOf(s, 1);
  if (torch_tagged) s.label = torch->LocalLabel();
  else if (vision && !vision->LocalLabel().empty() && Variant::Parse(vision->LocalLabel())) s.label = vision->LocalLabel();
  else if (!s.pins.index_url.empty()) s.label = VariantFromIndexUrl(s.pins.index_url);
  for (size_t i = 0; s.label.empty() && i < s.pins.extra_urls.size(); ++i) s.label = VariantFromIndexUrl(s.pins.extra_urls[i]);
}

std::string GpuName(const MachineSpec& spec);

// A CUDA build pinned where no CUDA build from PyTorch's index runs: macOS, which has no CUDA, or
// a Jetson whose JetPack is not SBSA's (linux-aarch64 CUDA builds are made for SBSA servers). The
// platform's notes (where the JetPack's own builds are) come with it.
void CheckPlatformBuild(State& s) {
  auto variant = Variant::Parse(s.label);
  if (!variant || !variant->is_cuda()) return;
  bool macos = s.spec.platform.os == Os::kMacos;
  if (!macos && !s.spec.jetson) return;
  PlatformGate gate = GatePlatform(s.c, s.spec);
  if (!macos && !gate.cpu_only) return;  // JetPack 7 (Thor): PyPI's SBSA builds run
  auto e = ExactOf(s, 0);
  std::string version = e ? e->Public() : s.release ? s.release->torch.Public() : "";
  std::string candidate = version.empty() ? variant->tag : version + "+" + variant->tag;
  s.machine_problem = s.variant_problem = true;
  if (macos) {
    s.result.problems.push_back({"check.macos_cuda", {{"candidate", candidate}}, {}, ""});
    return;
  }
  std::string gpu = !s.spec.jetson_model.empty() ? s.spec.jetson_model : GpuName(s.spec);
  s.result.problems.push_back({"check.jetson_cuda", {{"candidate", candidate}, {"gpu", gpu}}, {}, ""});
  for (Reason& note : gate.notes) {
    if (note.id != "caveat.jetson_not_pypi") s.result.notes.push_back(std::move(note));
  }
}

// The spec the pins are checked and corrected under: which companions they name.
MachineSpec PinSpec(const State& s) {
  MachineSpec spec = s.spec;
  spec.with_torchvision = !s.of[1].empty();
  spec.with_torchaudio = !s.of[2].empty();
  return spec;
}

const TorchVariant* ChosenVariant(State& s, const TorchRelease& t) {
  std::string tag = s.label;
  // A release with no wheel at all for the platform (macOS x86_64 from 2.3.0): no variant of it
  // is to be had there, tagged or not.
  const TorchCompleteList* list = CompleteVariantList(s.c, t.torch, s.spec.platform.Name());
  if (list && VariantsOf(s.c, t.torch, s.spec.platform.Name()).empty()) {
    s.machine_problem = s.variant_problem = true;
    s.result.problems.push_back(NoWheelsForPlatform(s.c, PinSpec(s), t, *list));
    return nullptr;
  }
  if (tag.empty()) {
    if (const TorchVariant* def = PypiDefaultVariant(s.c, t, s.spec.platform.Name())) return def;
    // On macOS no variant tag or CUDA index applies: PyTorch builds no CUDA wheels for it.
    s.result.notes.push_back({s.spec.platform.os == Os::kMacos ? "gap.default_macos" : "gap.default", {{"torch", t.torch.Public()}, {"platform", s.spec.platform.Name()}, {"date", s.c.data_date}}});
    return nullptr;
  }
  const TorchVariant* v = FindVariant(s.c, t.torch, s.spec.platform.Name(), tag);
  if (v != nullptr || s.variant_problem) return v;
  // Where the catalog's list of the platform's variants is complete, a variant missing from it
  // was never built (no wheel to install), not a gap in the data.
  if (const TorchCompleteList* list = CompleteVariantList(s.c, t.torch, s.spec.platform.Name())) {
    s.machine_problem = s.variant_problem = true;
    Reason r = NoSuchBuild(s.c, PinSpec(s), t, *list, tag);
    s.result.problems.push_back({r.id, std::move(r.args), {}, ""});
    return nullptr;
  }
  s.result.notes.push_back(VariantNotInCatalog(s.c, t, tag, s.spec.platform.Name()));
  return v;
}

bool HasGpu(const MachineSpec& spec) { return spec.has_nvidia_gpu || !spec.gpus.empty(); }

std::string GpuName(const MachineSpec& spec) {
  if (!spec.gpu_names.empty() && !spec.gpu_names.front().empty()) return spec.gpu_names.front();
  return spec.gpus.empty() ? "NVIDIA GPU" : spec.gpus.front().Sm();
}

Reason ArchGap(const State& s, const TorchRelease& t, const TorchVariant& v) {
  return {"gap.arch", {{"candidate", t.torch.Public() + "+" + v.variant.tag}, {"gpu", GpuName(s.spec)},
                       {"date", s.c.data_date}}};
}

void CheckCandidateFits(State& s, const TorchRelease& t, const TorchVariant& v, std::vector<Reason> reasons) {
  s.result.variant = &v;
  if (v.variant.kind == Variant::Kind::kCpu && HasGpu(s.spec)) {
    s.machine_problem = s.variant_problem = true;
    s.result.problems.push_back({"check.cpu_on_gpu", {{"candidate", t.torch.Public() + "+cpu"}, {"gpu", GpuName(s.spec)}}, {}, ""});
  }
  if (s.label.empty() && v.variant.kind == Variant::Kind::kCpu) {
    if (auto note = PypiCpuNote(s.c, PinSpec(s), t)) s.result.notes.push_back(std::move(*note));
  }
  std::vector<Reason> caveats;
  for (Reason& r : CheckCandidate(s.c, PinSpec(s), t, v, &caveats)) reasons.push_back(std::move(r));
  for (Reason& c : caveats) {
    if (c.id == "caveat.python_experimental") s.result.notes.push_back(std::move(c));
  }
  // An architecture list the catalog lacks confirms nothing and rules nothing out: a note.
  std::erase_if(reasons, [&](const Reason& r) {
    if (r.id != "reject.arch_unknown") return false;
    s.result.notes.push_back(ArchGap(s, t, v));
    return true;
  });
  if (reasons.empty()) return;
  s.machine_problem = true;
  s.variant_problem = s.variant_problem || std::any_of(reasons.begin(), reasons.end(), [](const Reason& r) {
    return !StartsWith(r.id, "reject.python") && !StartsWith(r.id, "reject.companion_python");
  });
  s.result.problems.push_back({"check.machine", {{"candidate", t.torch.Public() + "+" + v.variant.tag}}, std::move(reasons), ""});
}

// What the catalog does not know of the release (its Python range) is a note, not a failure.
void NoteUnknown(State& s, const TorchRelease& t, std::vector<Reason>& reasons) {
  std::erase_if(reasons, [&](const Reason& r) {
    if (r.id != "reject.python_unknown") return false;
    s.result.notes.push_back({"gap.python", {{"torch", t.torch.Public()}, {"python", r.args[0].second}, {"date", s.c.data_date}}});
    return true;
  });
}

// The pinned variant the catalog does not list: judged from the CUDA its tag declares.
void JudgeUnlistedVariant(State& s, const TorchRelease& t, std::vector<Reason>& reasons) {
  auto variant = Variant::Parse(s.label);
  if (s.label.empty() || !variant || !variant->cuda || s.variant_problem) return;
  for (Reason& r : JudgeFromCuda(s.c, PinSpec(s), t.torch, *variant)) reasons.push_back(std::move(r));
  s.result.notes.push_back({"gap.judged", {{"build", t.torch.Public() + "+" + variant->tag}, {"cuda", variant->cuda->MajorMinor()}}});
}

void CheckMachine(State& s) {
  const TorchRelease* t = s.release;
  if (t == nullptr) return;
  s.result.release = t;
  MachineSpec spec = PinSpec(s);
  spec.torch = SpecifierSet{};
  std::vector<Reason> release_reasons = CheckRelease(s.c, *t, spec);
  NoteUnknown(s, *t, release_reasons);
  const TorchVariant* v = ChosenVariant(s, *t);
  if (v != nullptr) {
    CheckCandidateFits(s, *t, *v, std::move(release_reasons));
    return;
  }
  JudgeUnlistedVariant(s, *t, release_reasons);
  if (!release_reasons.empty()) {
    s.machine_problem = true;
    std::string candidate = t->torch.Public() + (s.label.empty() ? "" : "+" + s.label);
    s.result.problems.push_back({"check.machine", {{"candidate", candidate}}, std::move(release_reasons), ""});
  }
}

// A build the catalog does not list (nightly, pre-release, local, or a release after the
// data): judged from the CUDA its tag declares and what that CUDA can target.
void JudgeBuild(State& s) {
  auto e = ExactOf(s, 0);
  if (!e || s.release) return;
  bool outside = IsOutsideCatalog(*e);
  auto variant = Variant::Parse(e->LocalLabel());
  if (!outside && !variant) return;  // a release after the data, no build named: its note says so
  s.result.build = e->ToString();
  if (s.variant_problem) return;  // a build that cannot run on this platform at all
  if (!variant || !variant->cuda) {
    if (variant && variant->kind == Variant::Kind::kCpu && HasGpu(s.spec)) {
      s.machine_problem = true;
      s.result.problems.push_back({"check.cpu_on_gpu", {{"candidate", e->ToString()}, {"gpu", GpuName(s.spec)}}, {}, ""});
    } else if (outside) {
      s.result.notes.push_back({"check.build_undeclared", {{"build", e->ToString()}}});
      s.result.unchecked.push_back("torch " + e->ToString());
    }
    return;
  }
  std::vector<Reason> reasons = JudgeFromCuda(s.c, PinSpec(s), *e, *variant);
  MessageArgs args = {{"build", e->ToString()}, {"cuda", variant->cuda->MajorMinor()}};
  if (reasons.empty()) {
    s.result.notes.push_back({outside ? "check.build_judged" : "gap.judged", args});
    return;
  }
  s.machine_problem = true;
  if (!outside) s.result.notes.push_back({"gap.judged", args});
  s.result.problems.push_back({"check.build", args, std::move(reasons), ""});
}

// The index options of the requirements that the printed command must keep: every URL that is
// neither a PyTorch variant index (the command names its own) nor a mirror the catalog knows.
std::string KeepIndexes(const State& s, std::string cmd) {
  std::vector<std::string> urls = s.pins.extra_urls;
  if (!s.pins.index_url.empty()) urls.insert(urls.begin(), s.pins.index_url);
  for (const std::string& url : urls) {
    if (VariantFromIndexUrl(url).empty() && FindMirror(s.c, url) == nullptr) cmd += " --extra-index-url " + url;
  }
  return cmd;
}

std::optional<Plan> TryPlan(const State& s, const MachineSpec& spec) {
  Plan p = PlanWithoutSuggestions(s.c, spec);
  return p.release ? std::optional<Plan>(std::move(p)) : std::nullopt;
}

// The variants of `t` that keep the kind of build `keep` names, nearest first: the same tag; for
// a CUDA build, the other CUDA variants, the lowest CUDA at or above the pinned one first, then
// those below it (cu121 pinned, release with cu118/cu124/cu126: cu124, cu126, cu118).
std::vector<std::string> KeptVariants(const State& s, const TorchRelease& t, const std::string& keep) {
  auto kept = Variant::Parse(keep);
  if (!kept) return {};
  std::vector<std::string> out = {keep};
  if (!kept->cuda) return out;
  std::vector<const TorchVariant*> above, below;
  for (const TorchVariant* v : VariantsOf(s.c, t.torch, s.spec.platform.Name())) {
    if (!v->variant.cuda || v->variant.tag == keep) continue;
    (*v->variant.cuda >= *kept->cuda ? above : below).push_back(v);
  }
  auto by_cuda = [](const TorchVariant* a, const TorchVariant* b) { return *a->variant.cuda < *b->variant.cuda; };
  std::sort(above.begin(), above.end(), by_cuda);
  std::sort(below.begin(), below.end(), [&](auto* a, auto* b) { return by_cuda(b, a); });
  for (const auto* list : {&above, &below}) {
    for (const TorchVariant* v : *list) out.push_back(v->variant.tag);
  }
  return out;
}

// A plan with release `t`: from the variant the pins meant where it fits (the pinned build, the
// index's variant, or PyPI's default), else from any variant. The pinned kind of build is not
// kept when it is what fails here, nor a CPU build on a machine with an NVIDIA GPU.
std::optional<Plan> PlanWithRelease(const State& s, MachineSpec spec, const TorchRelease& t) {
  spec.torch = SpecifierSet::Parse("==" + t.torch.Public()).value();
  std::string keep;
  if (!s.variant_problem) {
    keep = s.label;
    if (&t == s.release && s.result.variant) keep = s.result.variant->variant.tag;
    if (keep.empty()) {
      if (const TorchVariant* def = PypiDefaultVariant(s.c, t, s.spec.platform.Name())) keep = def->variant.tag;
    }
    auto kind = Variant::Parse(keep);
    if (kind && kind->kind == Variant::Kind::kCpu && HasGpu(s.spec)) keep.clear();
  }
  for (const std::string& tag : KeptVariants(s, t, keep)) {
    spec.variant = VariantOrNone(tag);
    if (auto plan = TryPlan(s, spec)) return plan;
  }
  spec.variant.reset();
  if (auto plan = TryPlan(s, spec)) return plan;
  // The pinned release is kept where its build for this machine fails only for an architecture
  // list the catalog lacks (GH200 and 2.6.0's aarch64 cu126): not ruled out, so no reason to move
  // the pin; the corrected pins say it is unconfirmed.
  if (&t != s.release) return std::nullopt;
  Plan p = PlanWithoutSuggestions(s.c, spec);
  std::optional<Plan::Unconfirmed> unconfirmed = p.release ? std::nullopt : UnconfirmedCandidate(s.c, spec);
  if (!unconfirmed || unconfirmed->release != &t) return std::nullopt;
  p.release = unconfirmed->release;
  p.variant = unconfirmed->variant;
  p.commands = std::move(unconfirmed->commands);
  return p;
}

// The plan that changes least: the pinned release (its variant, then another variant's index),
// then the nearest release that fits (its own line first, then outward, newer first). Without
// a torch version to stay near, the newest that fits.
std::optional<Plan> CorrectedPlan(const State& s) {
  MachineSpec spec = PinSpec(s);
  spec.torch = SpecifierSet{};
  spec.variant.reset();
  if (spec.mirror == nullptr && !s.pins.index_url.empty()) spec.mirror = FindMirror(s.c, s.pins.index_url);
  std::optional<Pep440> anchor = s.release ? std::optional<Pep440>(s.release->torch) : ExactOf(s, 0);
  if (!anchor) return TryPlan(s, spec);
  for (const TorchRelease* t : NearestTorch(s.c, *anchor, s.c.torch.size())) {
    if (auto plan = PlanWithRelease(s, spec, *t)) return plan;
  }
  return std::nullopt;
}

void Correct(State& s) {
  if (s.result.ok()) return;
  std::optional<Plan> plan = CorrectedPlan(s);
  if (!plan) return;
  const TorchRelease& t = *plan->release;
  // Local tags only where the command's index serves them (not PyPI's default build).
  bool from_pypi = plan->commands.FromPypi();
  // The pinned release with another build: whoever has the pinned build installed keeps it for
  // "torch==X", so the pins name the build (or the command reinstalls PyPI's).
  bool replaces = &t == s.release && s.variant_problem;
  std::string tag = (s.label.empty() && !replaces) || from_pypi ? "" : "+" + plan->variant->variant.tag;
  s.result.corrected.push_back("torch==" + t.torch.Public() + tag);
  if (!s.of[1].empty() && t.torchvision) s.result.corrected.push_back("torchvision==" + t.torchvision->Public() + tag);
  if (!s.of[2].empty() && t.torchaudio) s.result.corrected.push_back("torchaudio==" + t.torchaudio->Public() + (replaces ? tag : ""));
  PackageInstall install = plan->commands.pip_install;
  if (replaces) ReplaceInstalledBuild(install, plan->variant->variant.tag, from_pypi);
  std::string pip = replaces ? InstallText(install, ShellFor(s.spec.platform.os)) : plan->commands.pip;
  s.result.install = KeepIndexes(s, pip);
  if (!from_pypi) s.corrected_tag = plan->variant->variant.tag;
  if (plan->variant->variant.cuda && !plan->variant->arch_list && HasGpu(s.spec)) s.result.notes.push_back(ArchGap(s, t, *plan->variant));
}

// The corrected pins are what check itself passes: checked again on the same machine, or dropped.
void VerifyCorrected(State& s) {
  if (s.result.corrected.empty()) return;
  std::vector<std::string> texts = s.result.corrected;
  for (std::string& t : texts) {
    // The install's index serves the corrected variant: the pins checked name it.
    if (!s.corrected_tag.empty() && t.find('+') == std::string::npos && !StartsWith(t, "torchaudio")) t += "+" + s.corrected_tag;
  }
  auto pins = ParsePinArgs(texts);
  if (pins && CheckPinsUncorrected(s.c, s.spec, *pins).ok()) return;
  s.result.corrected.clear();
  s.result.install.clear();
}

// Where only the Python keeps the pinned build from this machine: the Pythons it has wheels
// for, found by planning that release and variant with each Python (plan/suggest.h).
void OfferPython(State& s) {
  if (!s.machine_problem || s.variant_problem || !s.release || !s.spec.python) return;
  MachineSpec spec = PinSpec(s);
  spec.torch = SpecifierSet::Parse("==" + s.release->torch.Public()).value();
  if (s.result.variant) spec.variant = s.result.variant->variant;
  Plan failed = PlanWithoutSuggestions(s.c, spec);
  if (failed.release) return;
  for (Reason& r : Suggest(s.c, spec, failed)) {
    if (r.id == "suggest.python") s.result.alternatives.push_back(std::move(r));
  }
}

}  // namespace

std::string VariantFromIndexUrl(std::string_view url) {
  std::string u = ToLower(url);
  while (!u.empty() && u.back() == '/') u.pop_back();
  std::string_view last = Basename(u);
  auto v = Variant::Parse(last);
  return v ? v->tag : "";
}

CheckResult CheckPins(const Catalog& c, const MachineSpec& spec, const PinSet& pins) {
  return CheckPinsWith(c, spec, pins, true);
}

namespace {

CheckResult CheckPinsUncorrected(const Catalog& c, const MachineSpec& spec, const PinSet& pins) {
  return CheckPinsWith(c, spec, pins, false);
}

CheckResult CheckPinsWith(const Catalog& c, const MachineSpec& spec, const PinSet& pins, bool correct) {
  State s{c, spec, pins, {}, {}, nullptr, "", false, false, ""};
  s.result.spec = spec;
  for (const Pin& p : pins.pins) {
    for (int pkg = 0; pkg < 3; ++pkg) {
      if (p.name == kPackages[pkg]) s.of[pkg].push_back(&p);
    }
  }
  for (const ParseIssue& i : pins.issues) {
    s.result.problems.push_back({i.why, {{"file", i.file}, {"line", std::to_string(i.line)}, {"text", i.text}}, {}, ""});
  }
  CheckConflicts(s);
  ChooseRelease(s);
  if (!s.release && s.of[0].empty()) {
    for (int pkg = 1; pkg < 3 && !s.release; ++pkg) {
      auto e = ExactOf(s, pkg);
      auto ts = e ? TorchForCompanion(c, kPackages[pkg], *e) : std::vector<const TorchRelease*>{};
      if (!ts.empty()) s.release = ts.back();
    }
  }
  CheckTorchExists(s);
  CheckCompanion(s, 1);
  CheckCompanion(s, 2);
  FindLabel(s);
  CheckPlatformBuild(s);
  CheckMachine(s);
  JudgeBuild(s);
  if (!correct) return std::move(s.result);
  Correct(s);
  VerifyCorrected(s);
  OfferPython(s);
  AlignFixes(s.result);
  CheckExtensionPins(c, spec, pins, s.result);
  return std::move(s.result);
}

}  // namespace

}  // namespace cudamatch
