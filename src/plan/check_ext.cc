#include "plan/check_ext.h"

#include <algorithm>

#include "catalog/extensions.h"
#include "catalog/query.h"
#include "core/text.h"
#include "plan/remedy.h"
#include "plan/remedy_text.h"

namespace cudamatch {

namespace {

bool IsTorchPackage(std::string_view name) { return name == "torch" || name == "torchvision" || name == "torchaudio"; }

// The version an exact pin names ("==0.0.27", "==0.0.27+cu121"); nullopt for a range or a bare name.
std::optional<Pep440> ExactVersion(const Pin& pin) {
  auto set = SpecifierSet::Parse(pin.specifier);
  if (pin.specifier.empty() || !set || set->clauses.size() != 1) return std::nullopt;
  const Specifier& s = set->clauses.front();
  if ((s.op != SpecOp::kEqual && s.op != SpecOp::kArbitrary) || s.wildcard) return std::nullopt;
  return s.version;
}

// The torch build the pins install, as far as the check knows it.
struct Judged {
  Pep440 torch;
  std::string text;                  // "2.3.1+cu121" or "2.3.1"
  std::optional<CudaVersion> cuda;   // the build's CUDA
  bool build_known = false;          // whether the build (CUDA or not) is known
};

// A torch the catalog does not list whose version names no build (NGC's 2.2.0a0+81ea7a4, a local
// build): no extension wheel was built against it.
bool Unpublished(const CheckResult& r, const Judged& j) { return r.release == nullptr && !j.build_known; }

std::optional<Judged> JudgedTorch(const CheckResult& r) {
  if (r.release != nullptr) {
    Judged j{r.release->torch, r.release->torch.Public(), std::nullopt, r.variant != nullptr};
    if (r.variant) {
      j.text += "+" + r.variant->variant.tag;
      j.cuda = r.variant->variant.cuda;
    }
    return j;
  }
  if (r.build.empty()) return std::nullopt;
  auto build = Pep440::Parse(r.build);
  if (!build) return std::nullopt;
  auto variant = Variant::Parse(build->LocalLabel());
  return Judged{*build, r.build, variant ? variant->cuda : std::nullopt, static_cast<bool>(variant)};
}

std::string NeedText(const ExtensionRelease& e) { return e.torch ? e.torch->text : ""; }

std::string RequiresText(const ExtensionRelease& e) {
  return e.need == ExtensionRelease::TorchNeed::kAny ? "any" : NeedText(e);
}

// Of the releases that fit (newest first), the nearest to `pinned`: the oldest at or above it,
// else the newest below it.
const ExtensionRelease* Nearest(const std::vector<const ExtensionRelease*>& fits, const Pep440& pinned) {
  const ExtensionRelease* above = nullptr;
  for (const ExtensionRelease* e : fits) {
    if (e->version >= pinned && (!above || e->version < above->version)) above = e;
  }
  return above ? above : (fits.empty() ? nullptr : fits.front());
}

// The torch release nearest to `torch` that `e` accepts: the oldest above it, else the newest.
const TorchRelease* NearestTorch(const Catalog& c, const ExtensionRelease& e, const Pep440& torch) {
  std::vector<const TorchRelease*> ok = TorchForExtension(c, e);
  for (const TorchRelease* t : ok) {
    if (t->torch > torch) return t;
  }
  return ok.empty() ? nullptr : ok.back();
}

// Whether the wheel of `e` that fits `build` was built against a release of torch's line no newer
// than torch itself (or the row does not say): not one the built-against judgement would flag.
bool BuiltForIt(const Catalog& c, const ExtensionRelease& e, std::string_view platform, const TorchBuild& build) {
  std::vector<const ExtensionWheel*> wheels = WheelsFor(c, e, platform, build);
  if (wheels.empty()) return true;
  std::optional<Pep440> built = WheelBuiltAgainst(*wheels.front(), build.torch);
  return !built || (!built->IsPrerelease() && !(build.torch.WithoutLocal() < *built));
}

// The releases that fit, those whose wheel was built for this very torch first kept alone when
// there are any (a fix should not lead to the next warning).
std::vector<const ExtensionRelease*> PreferBuiltForIt(const Catalog& c, std::vector<const ExtensionRelease*> fits,
                                                      std::string_view platform, const TorchBuild& build) {
  std::vector<const ExtensionRelease*> clean;
  for (const ExtensionRelease* e : fits) {
    if (BuiltForIt(c, *e, platform, build)) clean.push_back(e);
  }
  return clean.empty() ? fits : clean;
}

std::string PinText(std::string_view name, const Pep440& v) { return std::string(name) + "==" + v.Public(); }

struct Ctx {
  const Catalog& c;
  std::string platform;
  CheckResult& r;
  Shell shell;
  std::string interpreter;  // the machine's, for the command of a build from source; "" for a bare pip
};

// Whether the catalog lists any wheel of the release, on any platform: without one, what it
// publishes is not known, which is no evidence that it publishes nothing.
bool HasAnyWheel(const Catalog& c, const ExtensionRelease& e) {
  return std::any_of(c.extension_wheels.begin(), c.extension_wheels.end(),
                     [&](const ExtensionWheel& w) { return w.package == e.package && w.version == e.version; });
}

TorchBuild BuildOf(const Judged& j) { return TorchBuild{j.torch, j.cuda, CxxAbi::kUnknown}; }

void JudgeTorch(Ctx& x, const Pin& pin, const ExtensionRelease& e, const Judged& j) {
  const ExtensionMessageIds& ids = ExtensionIds();
  MessageArgs args = {{"name", pin.name}, {"version", e.version.Public()}, {"need", NeedText(e)}, {"torch", j.torch.Public()}};
  std::vector<const ExtensionRelease*> fits =
      PreferBuiltForIt(x.c, ExtensionsFor(x.c, e.package, x.platform, BuildOf(j)), x.platform, BuildOf(j));
  if (!j.cuda) {  // a CPU build or an unknown one: any release that accepts this torch
    fits.clear();
    // Beside an unpublished torch no other release has a wheel built against it either.
    if (!Unpublished(x.r, j)) {
      for (const ExtensionRelease* o : ExtensionReleases(x.c, e.package)) {
        if (ExtensionAllowsTorch(*o, j.torch).value_or(false)) fits.insert(fits.begin(), o);
      }
    }
  }
  if (const ExtensionRelease* alt = Nearest(fits, e.version)) {
    args.push_back({"alt", alt->version.Public()});
    x.r.problems.push_back({ids.torch_required, std::move(args), {}, PinText(pin.name, alt->version)});
    return;
  }
  const TorchRelease* moved = NearestTorch(x.c, e, j.torch);
  args.push_back({"date", x.c.data_date});
  args.push_back({"moved", moved ? moved->torch.Public() : "torch" + NeedText(e)});
  x.r.problems.push_back({ids.torch_moves, std::move(args), {}, moved ? PinText("torch", moved->torch) : ""});
}

// A wheel chosen by torch's line was built against one release of it: a torch older than that
// one lacks what the binaries may use ("undefined symbol" at import), and one built against a
// nightly of the line matches no release exactly.
// Returns whether it found a problem.
bool JudgeBuiltAgainst(Ctx& x, const Pin& pin, const ExtensionRelease& e, const Judged& j, const ExtensionWheel& w) {
  const ExtensionMessageIds& ids = ExtensionIds();
  std::optional<Pep440> built = WheelBuiltAgainst(w, j.torch);
  if (!built) return false;
  Pep440 torch = j.torch.WithoutLocal();
  std::string line = std::to_string(torch.Part(0)) + "." + std::to_string(torch.Part(1));
  MessageArgs args = {{"name", pin.name}, {"version", e.version.Public()}, {"torch", torch.Public()},
                      {"line", line}, {"built", built->Public()}};
  if (built->IsPrerelease()) {
    x.r.notes.push_back({ids.built_nightly, std::move(args)});
  } else if (torch < *built && FindTorch(x.c, *built) != nullptr) {
    x.r.problems.push_back({ids.built_newer, std::move(args), {}, PinText("torch", *built)});
    return true;
  }
  return false;
}

// Beside a torch that is no published release, every prebuilt wheel of the release was built
// against another torch and fails to import with "undefined symbol" (Dao-AILab/flash-attention#784:
// NGC's 2.2.0a0+81ea7a4 and flash-attn's wheel for torch 2.2; the maintainer: build it from source).
// The fix is that build, compiled rather than fetched (SourceBuild).
void JudgeUnpublished(Ctx& x, const Pin& pin, const ExtensionRelease& e, const Judged& j) {
  if (!HasAnyWheel(x.c, e)) return;  // what it publishes is not known
  Rebuild build = SourceBuild(pin.name, e.version, true);
  build.fresh = true;
  build.interpreter = x.interpreter;
  std::string command = RemedyText(Remedy{{build}, x.shell});
  x.r.problems.push_back({ExtensionIds().unpublished, {{"name", pin.name}, {"version", e.version.Public()}, {"torch", j.text}},
                          {}, command});
}

void JudgeWheel(Ctx& x, const Pin& pin, const ExtensionRelease& e, const Judged& j) {
  const ExtensionMessageIds& ids = ExtensionIds();
  if (Unpublished(x.r, j)) return JudgeUnpublished(x, pin, e, j);
  if (!j.build_known || !j.cuda) return;
  std::vector<const ExtensionWheel*> wheels = WheelsFor(x.c, e, x.platform, BuildOf(j));
  if (!wheels.empty()) {
    x.r.extensions.back().wheel = WheelLocationName(wheels.front()->location);
    if (JudgeBuiltAgainst(x, pin, e, j, *wheels.front())) return;
    x.r.notes.push_back({ids.fits, {{"name", pin.name}, {"version", e.version.Public()}, {"torch", j.text},
                                    {"where", std::string(WheelLocationName(wheels.front()->location))}}});
    return;
  }
  std::vector<std::string> cudas = ExtensionCudaList(x.c, e, x.platform);
  const ExtensionRelease* alt =
      Nearest(PreferBuiltForIt(x.c, ExtensionsFor(x.c, e.package, x.platform, BuildOf(j)), x.platform, BuildOf(j)),
              e.version);
  std::string fix = alt ? PinText(pin.name, alt->version) : "";
  MessageArgs args = {{"name", pin.name}, {"version", e.version.Public()}, {"platform", x.platform},
                      {"torch", j.torch.Public()}, {"cuda", j.cuda->MajorMinor()}};
  if (cudas.empty() && !HasAnyWheel(x.c, e)) {
    x.r.notes.push_back({ids.wheels_unknown, {{"name", pin.name}, {"version", e.version.Public()}, {"date", x.c.data_date}}});
    x.r.unchecked.push_back(pin.name + " " + e.version.Public());
    return;
  }
  if (cudas.empty()) {
    args.push_back({"date", x.c.data_date});
    x.r.problems.push_back({ids.no_platform, std::move(args), {}, fix});
    return;
  }
  args.push_back({"list", Join(cudas, ", ")});
  std::vector<std::string> lines = ExtensionTorchList(x.c, e, x.platform);
  if (!lines.empty()) args.push_back({"lines", Join(lines, ", ")});
  // A release with a binary wheel on PyPI for the platform is installed all the same (pip builds
  // nothing): it is its CUDA code that fails to load (bitsandbytes: "Configured CUDA binary not found").
  std::vector<const ExtensionWheel*> here = ExtensionWheelsOf(x.c, e.package, e.version, x.platform);
  bool on_pypi = std::any_of(here.begin(), here.end(),
                             [](const ExtensionWheel* w) { return w->location == WheelLocation::kPypi; });
  const char* id = on_pypi ? ids.no_wheel_pypi : lines.empty() ? ids.no_wheel : ids.no_wheel_torch;
  x.r.problems.push_back({id, std::move(args), {}, fix});
}

// Without a torch pin: the torch the release pulls in, and on platforms where PyPI's build of
// it is CPU-only, that it is.
void NotePulled(Ctx& x, const Pin& pin, const ExtensionRelease& e) {
  const ExtensionMessageIds& ids = ExtensionIds();
  auto pinned = ExtensionPinnedTorch(e);
  const TorchRelease* t = pinned ? FindTorch(x.c, *pinned) : nullptr;
  if (t == nullptr || t != x.r.release) return;
  MessageArgs args = {{"name", pin.name}, {"version", e.version.Public()}, {"need", NeedText(e)}, {"torch", t->torch.Public()}};
  const TorchVariant* def = PypiDefaultVariant(x.c, *t, x.platform);
  bool cpu = def && def->variant.kind == Variant::Kind::kCpu;
  if (cpu) args.push_back({"platform", x.platform});
  x.r.notes.push_back({cpu ? ids.pulls_cpu : ids.pulls, std::move(args)});
}

void JudgePin(Ctx& x, const Pin& pin, const Pep440& version, bool torch_pinned) {
  const ExtensionMessageIds& ids = ExtensionIds();
  const ExtensionRelease* e = FindExtension(x.c, pin.name, version);
  x.r.extensions.push_back({pin.name, version.Public(), e != nullptr, e ? RequiresText(*e) : "", ""});
  if (e == nullptr) {
    x.r.notes.push_back({ids.not_in_catalog, {{"name", pin.name}, {"version", version.Public()}, {"date", x.c.data_date}}});
    x.r.unchecked.push_back(pin.name + " " + version.Public());
    return;
  }
  if (!torch_pinned) NotePulled(x, pin, *e);
  std::optional<Judged> j = JudgedTorch(x.r);
  if (!j) return;
  std::optional<bool> allows = ExtensionAllowsTorch(*e, j->torch);
  if (!allows) {
    x.r.notes.push_back({ids.torch_unknown, {{"name", pin.name}, {"version", e->version.Public()}, {"date", x.c.data_date}}});
  } else if (!*allows) {
    JudgeTorch(x, pin, *e, *j);
    return;
  }
  JudgeWheel(x, pin, *e, *j);
}

bool IsExtensionPin(const Catalog& c, const Pin& p) { return !IsTorchPackage(p.name) && IsCatalogExtension(c, p.name); }

}  // namespace

const ExtensionMessageIds& ExtensionIds() {
  static const ExtensionMessageIds kIds = {
      "check.ext_torch",         "check.ext_torch_moves", "check.ext_no_wheel", "check.ext_no_wheel_torch",
      "check.ext_no_platform",   "check.ext_not_in_catalog", "check.ext_torch_unknown", "check.ext_wheels_unknown",
      "check.ext_pulls",
      "check.ext_pulls_cpu",     "check.ext_fits",        "check.ext_built_newer", "check.ext_built_nightly",
      "check.ext_no_wheel_pypi", "check.ext_unpublished_torch"};
  return kIds;
}

bool IsExtensionProblem(const Problem& p) {
  const ExtensionMessageIds& ids = ExtensionIds();
  for (const char* id : {ids.torch_required, ids.torch_moves, ids.no_wheel, ids.no_wheel_torch, ids.no_platform, ids.built_newer,
                         ids.no_wheel_pypi, ids.unpublished}) {
    if (p.id == id) return true;
  }
  return false;
}

const TorchRelease* TorchPulledByExtensions(const Catalog& c, const PinSet& pins) {
  for (const Pin& p : pins.pins) {
    auto v = IsExtensionPin(c, p) ? ExactVersion(p) : std::nullopt;
    const ExtensionRelease* e = v ? FindExtension(c, p.name, *v) : nullptr;
    auto pinned = e ? ExtensionPinnedTorch(*e) : std::nullopt;
    if (const TorchRelease* t = pinned ? FindTorch(c, *pinned) : nullptr) return t;
  }
  return nullptr;
}

void CheckExtensionPins(const Catalog& c, const MachineSpec& spec, const PinSet& pins, CheckResult& r) {
  Ctx x{c, spec.platform.Name(), r, ShellFor(spec.platform.os), spec.interpreter};
  bool torch_pinned = std::any_of(pins.pins.begin(), pins.pins.end(), [](const Pin& p) { return p.name == "torch"; });
  for (const Pin& p : pins.pins) {
    if (!IsExtensionPin(c, p)) continue;
    if (auto v = ExactVersion(p)) JudgePin(x, p, *v, torch_pinned);
  }
}

}  // namespace cudamatch
