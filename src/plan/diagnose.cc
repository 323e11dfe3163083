#include "plan/diagnose.h"

#include <algorithm>
#include <map>
#include <utility>

#include "core/path_form.h"
#include "core/text.h"
#include "plan/remedy.h"
#include "plan/remedy_text.h"

namespace cudamatch {

namespace {

bool IsTorchPackage(std::string_view name) { return name == "torch" || name == "torchvision" || name == "torchaudio"; }
bool IsNvidiaWheel(std::string_view name) { return StartsWith(name, "nvidia-"); }

// The build an unlabelled torch-family pin gets without a variant index: PyPI's default.
std::string DefaultTag(const Catalog& c, const PythonEnv& env, const std::string& name, const Pep440& version,
                       const Platform& p) {
  const TorchRelease* t = name == "torch" ? FindTorch(c, version) : nullptr;
  auto torch = env.packages.find("torch");
  if (name != "torch" && torch != env.packages.end() && torch->second.version) t = FindTorch(c, *torch->second.version);
  const TorchVariant* d = t ? PypiDefaultVariant(c, *t, p.Name()) : nullptr;
  return d ? d->variant.tag : "";
}

// As pip does: "==2.3.1" is satisfied by an installed 2.3.1+cu121 (a local label is ignored
// unless the pin names one), and a satisfied requirement is kept unless --force-reinstall.
bool Satisfied(const PythonEnv& env, const InstallPin& pin, const Pep440& version) {
  auto installed = env.packages.find(pin.name);
  if (installed == env.packages.end() || !installed->second.version) return false;
  const Pep440& have = *installed->second.version;
  return pin.label.empty() ? have.WithoutLocal() == version.WithoutLocal() : have == version;
}

// An installed nvidia-* wheel puts its libraries in site-packages/nvidia/, where torch's
// RUNPATH and its import's preloading find them: torch's sonames that wheel ships and the loader
// did not find get the wheel's copy.
void ProvideWheelLibraries(PythonEnv& env, const std::string& wheel, const std::string& source) {
  auto torch = env.packages.find("torch");
  if (torch == env.packages.end()) return;
  for (RuntimeLib& r : torch->second.runtime) {
    std::string_view of = NvidiaWheelOfSoname(r.soname);
    if (!r.path.empty() || !r.wheel_path.empty() || of.empty()) continue;
    if (wheel == of || StartsWith(wheel, std::string(of) + "-cu")) r.wheel_path = source;
  }
}

// `env` after `p` ran in it; false when a pin names a wheel the catalog cannot describe.
bool ApplyInstall(const Catalog& c, const Platform& platform, const PackageInstall& p, PythonEnv& env) {
  std::string source = "as if installed by: " + InstallText(p, Shell::kPosix);
  for (const InstallPin& pin : p.pins) {
    if (IsNvidiaWheel(pin.name)) {
      PackageInfo& pkg = env.packages[pin.name];
      pkg.name = pin.name;
      pkg.version = pin.Exact() ? pin.version : pin.picks;
      pkg.version_source = source;
      ProvideWheelLibraries(env, pin.name, source);
      continue;
    }
    if (!IsTorchPackage(pin.name) || !pin.Exact()) return false;
    auto version = pin.label.empty() ? Result<Pep440>(*pin.version) : Pep440::Parse(pin.version->Public() + "+" + pin.label);
    if (!version) return false;
    if (!p.force_reinstall && Satisfied(env, pin, *version)) continue;
    std::string tag = !pin.label.empty() ? pin.label : p.variant;
    if (tag.empty()) tag = DefaultTag(c, env, pin.name, *version, platform);
    auto variant = Variant::Parse(tag);
    if (!variant) return false;
    PackageInfo& pkg = env.packages[pin.name];
    pkg.name = pin.name;
    pkg.version = *version;
    pkg.version_source = source;
    pkg.variant = *variant;
    pkg.cuda = variant->cuda;
    pkg.hip.reset();
    if (pin.name == "torch") {
      pkg.runtime.clear();  // what the replaced build's libraries linked
      // What the extensions' symbols were looked up in is gone with it.
      for (ExtensionInfo& ext : env.extensions) {
        for (BinaryInfo& lib : ext.libs) lib.torch_lookup.reset();
      }
    }
  }
  return true;
}

bool SameIn(const Finding& x, int env, const Finding& f) { return x.id == f.id && env == f.env; }

// Checks remedies against one snapshot: a view holding the machine without its environments
// receives one changed environment at a time; the findings after each distinct remedy are kept.
class Verifier {
 public:
  Verifier(const Catalog& c, const Snapshot& snap, const std::vector<Finding>& before)
      : c_(c), snap_(snap), before_(before) {}

  FixCheck Check(const Finding& f, const Remedy& r) {
    const PackageInstall* p = ModelledInstall(r);
    if (p == nullptr) return std::get_if<PackageInstall>(&r.steps.front()) ? FixCheck::kNotModelled : FixCheck::kNotAPipInstall;
    const std::vector<Finding>* after = After(*p);
    if (after == nullptr) return FixCheck::kCannotApply;
    for (const Finding& x : *after) {
      if (SameIn(x, p->env, f)) return FixCheck::kStillThere;
      bool existed = std::any_of(before_.begin(), before_.end(), [&](const Finding& b) { return SameIn(x, p->env, b); });
      if (x.severity == Severity::kError && !existed) return FixCheck::kRaisesError;
    }
    return FixCheck::kClears;
  }

 private:
  // The environment-scoped findings after `p`, computed once per environment and command.
  const std::vector<Finding>* After(const PackageInstall& p) {
    if (p.env < 0 || p.env >= static_cast<int>(snap_.pythons.size())) return nullptr;
    auto key = std::pair(p.env, InstallText(p, Shell::kPosix));
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second ? &*it->second : nullptr;
    std::optional<std::vector<Finding>>& slot = cache_[key];
    PythonEnv env = snap_.pythons[p.env];
    if (!ApplyInstall(c_, snap_.platform, p, env)) return nullptr;
    if (!view_) {
      view_ = snap_;
      view_->pythons.clear();
    }
    view_->pythons.assign(1, std::move(env));
    slot = RunRules(*view_, c_, ThePlanner(), RuleScope::kEnvironment);
    return &*slot;
  }

  const Catalog& c_;
  const Snapshot& snap_;
  const std::vector<Finding>& before_;
  std::optional<Snapshot> view_;
  std::map<std::pair<int, std::string>, std::optional<std::vector<Finding>>> cache_;
};

// A fix that installs into a venv because the environment is externally managed says why.
void NoteVenv(const Snapshot& snap, const Remedy& r, Finding& f) {
  for (const RemedyStep& step : r.steps) {
    const auto* p = std::get_if<PackageInstall>(&step);
    if (p == nullptr || !p->into_venv || p->env < 0 || p->env >= static_cast<int>(snap.pythons.size())) continue;
    const PythonEnv& env = snap.pythons[p->env];
    f.evidence.push_back({"evidence.externally_managed",
                          {{"python", p->interpreter},
                           {"marker", PathForOs(env.externally_managed, snap.platform.os, snap.host.system_drive)},
                           {"venv", VenvDir(r.shell)}}});
    return;
  }
}

// Plans every finding's remedies, once per distinct need.
void PlanRemedies(const Catalog& c, const Snapshot& snap, std::vector<Finding>& findings) {
  std::vector<std::pair<RemedyNeed, std::optional<Remedy>>> planned;
  auto plan = [&](const RemedyNeed& need) -> std::optional<Remedy> {
    if (need.empty()) return std::nullopt;
    for (const auto& [n, r] : planned) {
      if (n == need) return r;
    }
    planned.emplace_back(need, PlanRemedy(c, snap, need));
    return planned.back().second;
  };
  for (Finding& f : findings) {
    f.remedy = plan(f.need);
    f.remedy_next = plan(f.need_next);
    if (f.remedy) NoteVenv(snap, *f.remedy, f);
  }
}

}  // namespace

const PackageInstall* ModelledInstall(const Remedy& r) {
  if (r.steps.size() != 1) return nullptr;
  const auto* p = std::get_if<PackageInstall>(&r.steps.front());
  if (p == nullptr || p->installer != Installer::kPip || p->pins.empty()) return nullptr;
  for (const InstallPin& pin : p->pins) {
    if (IsTorchPackage(pin.name) ? !pin.Exact() : !IsNvidiaWheel(pin.name)) return nullptr;
  }
  return p;
}

std::optional<Snapshot> ApplyRemedy(const Catalog& c, const Snapshot& snap, const Remedy& r) {
  const PackageInstall* p = ModelledInstall(r);
  if (p == nullptr || p->env < 0 || p->env >= static_cast<int>(snap.pythons.size())) return std::nullopt;
  Snapshot out = snap;
  if (!ApplyInstall(c, snap.platform, *p, out.pythons[p->env])) return std::nullopt;
  return out;
}

FixCheck VerifyRemedy(const Catalog& c, const Snapshot& snap, const Finding& f, const Remedy& r,
                      const std::vector<Finding>& before) {
  if (r.steps.empty()) return FixCheck::kNotAPipInstall;
  return Verifier(c, snap, before).Check(f, r);
}

std::vector<Finding> PlannedFindings(const Snapshot& snap, const Catalog& c) {
  std::vector<Finding> out = RunRules(snap, c, ThePlanner());
  PlanRemedies(c, snap, out);
  return out;
}

std::vector<Finding> Diagnose(const Snapshot& snap, const Catalog& c) {
  std::vector<Finding> out = PlannedFindings(snap, c);
  Verifier verifier(c, snap, out);
  for (Finding& f : out) {
    if (!f.remedy) continue;
    FixCheck check = verifier.Check(f, *f.remedy);
    if (check == FixCheck::kStillThere || check == FixCheck::kRaisesError || check == FixCheck::kCannotApply) f.remedy.reset();
  }
  SortBySeverity(out);
  return out;
}

}  // namespace cudamatch
