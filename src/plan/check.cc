#include "plan/check.h"

#include <algorithm>

#include "core/text.h"
#include "core/fs.h"
#include "plan/lookup.h"
#include "probe/parsers.h"

namespace cudamatch {

namespace {

bool IsTracked(const std::string& name) { return name == "torch" || name == "torchvision" || name == "torchaudio"; }

Result<Pin> ParsePin(std::string_view text, int line) {
  auto req = ParseRequirement(text);
  if (!req || req->specifier.empty()) return Err("expected NAME==VERSION, got " + Quote(text));
  Pin pin{req->name == "pytorch" ? "torch" : req->name, req->specifier, std::string(Trim(text)), line};
  if (IsTracked(pin.name) && !SpecifierSet::Parse(pin.specifier)) return Err("malformed version in " + Quote(text));
  return pin;
}

// The version an exact pin names ("==2.3.1+cu121"), if it is exact.
std::optional<Pep440> ExactVersion(const Pin& pin) {
  auto set = SpecifierSet::Parse(pin.specifier);
  if (!set || set->clauses.size() != 1) return std::nullopt;
  const Specifier& s = set->clauses.front();
  if ((s.op != "==" && s.op != "===") || s.wildcard) return std::nullopt;
  return s.version;
}

// The newest catalog version (of torch, torchvision or torchaudio) a pin allows.
std::optional<Pep440> Resolve(const Catalog& c, const Pin& pin) {
  if (auto exact = ExactVersion(pin)) return exact;
  auto set = SpecifierSet::Parse(pin.specifier);
  std::optional<Pep440> best;
  for (const TorchRelease& t : c.torch) {
    const std::optional<Pep440> v = pin.name == "torch" ? std::optional<Pep440>(t.torch)
                                    : pin.name == "torchvision" ? t.torchvision : t.torchaudio;
    if (v && set && set->Matches(*v) && (!best || *v > *best)) best = v;
  }
  return best;
}

const Pin* FindPin(const PinSet& set, const char* name) {
  for (const Pin& p : set.pins) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

struct State {
  const Catalog& c;
  const MachineSpec& spec;
  const PinSet& pins;
  CheckResult result;
  std::optional<Pep440> torch, vision, audio;
  std::string label;  // the variant the pins ask for
};

void CheckExistence(State& s) {
  if (s.torch && FindTorch(s.c, *s.torch) == nullptr) {
    std::vector<std::string> near;
    for (const TorchRelease* t : NearestTorch(s.c, *s.torch, 3)) near.push_back(t->torch.Public());
    s.result.problems.push_back({"check.torch_missing", {{"version", s.torch->Public()}, {"nearest", Join(near, ", ")}},
                                 near.empty() ? "" : "torch==" + near.front()});
    s.torch.reset();
  }
  for (bool audio : {false, true}) {
    auto& v = audio ? s.audio : s.vision;
    const char* name = audio ? "torchaudio" : "torchvision";
    if (!v || !(audio ? TorchForAudio(s.c, *v) : TorchForVision(s.c, *v)).empty()) continue;
    const TorchRelease* t = s.torch ? FindTorch(s.c, *s.torch) : nullptr;
    const auto& paired = t ? (audio ? t->torchaudio : t->torchvision) : std::nullopt;
    std::vector<std::string> near;
    for (const auto& [ver, rel] : NearestPaired(s.c, *v, audio, 3)) near.push_back(ver.Public() + " (torch " + rel->torch.Public() + ")");
    MessageArgs args = {{"name", name}, {"version", v->Public()}, {"nearest", Join(near, ", ")},
                        {"torch", t ? t->torch.Public() : ""}, {"paired", paired ? paired->Public() : ""}};
    s.result.problems.push_back({paired ? "check.paired_missing" : "check.version_missing", args,
                                 paired ? std::string(name) + "==" + paired->Public() : ""});
    v.reset();
  }
}

void CheckPairs(State& s) {
  const TorchRelease* t = s.torch ? FindTorch(s.c, *s.torch) : nullptr;
  if (t == nullptr) return;
  for (bool audio : {false, true}) {
    const auto& have = audio ? s.audio : s.vision;
    const auto& want = audio ? t->torchaudio : t->torchvision;
    const char* name = audio ? "torchaudio" : "torchvision";
    if (!have || !want || CompanionPairs(s.c, name, *have, *t)) continue;
    s.result.problems.push_back({"check.unpaired",
                                 {{"name", name}, {"version", have->Public()}, {"torch", t->torch.Public()}, {"paired", want->Public()}},
                                 std::string(name) + "==" + want->Public()});
  }
}

// The variant the pins ask for: a "+cu121" label, else the index URL, else PyPI's default.
void FindLabel(State& s) {
  std::vector<std::string> labels;
  for (const auto* v : {&s.torch, &s.vision}) {
    if (*v && !(*v)->LocalLabel().empty() && Variant::Parse((*v)->LocalLabel())) labels.push_back((*v)->LocalLabel());
  }
  if (labels.size() == 2 && labels[0] != labels[1]) {
    s.result.problems.push_back({"check.label_mismatch", {{"torch", labels[0]}, {"vision", labels[1]}},
                                 "torchvision==" + s.vision->Public() + "+" + labels[0]});
  }
  if (!labels.empty()) s.label = labels[0];
  else if (!s.pins.index_url.empty()) s.label = VariantFromIndexUrl(s.pins.index_url);
}

void CheckMachine(State& s) {
  const TorchRelease* t = s.torch ? FindTorch(s.c, *s.torch) : nullptr;
  if (t == nullptr) return;
  s.result.release = t;
  if (auto reason = CheckRelease(*t, s.spec); reason && reason->id != "reject.torch_spec") {
    s.result.problems.push_back({"check.machine", {{"candidate", t->torch.Public()}, {"reason", reason->id}}, ""});
    s.result.problems.back().args.insert(s.result.problems.back().args.end(), reason->args.begin(), reason->args.end());
    return;
  }
  std::string tag = s.label;
  const TorchVariant* pypi = PypiDefaultVariant(s.c, *t, s.spec.platform.Name());
  if (tag.empty() && pypi != nullptr) tag = pypi->variant.tag;
  if (tag.empty() && s.spec.platform.os != Os::kLinux) tag = "cpu";
  const TorchVariant* v = tag.empty() ? nullptr : FindVariant(s.c, t->torch, s.spec.platform.Name(), tag);
  if (v == nullptr) {
    std::vector<std::string> tags;
    for (const TorchVariant* x : VariantsOf(s.c, t->torch, s.spec.platform.Name())) tags.push_back(x->variant.tag);
    s.result.problems.push_back({"check.variant_missing",
                                 {{"torch", t->torch.Public()}, {"variant", tag.empty() ? "?" : tag},
                                  {"platform", s.spec.platform.Name()}, {"list", Join(tags, " ")}}, ""});
    return;
  }
  s.result.variant = v;
  if (auto reason = CheckCandidate(s.c, s.spec, *t, *v, nullptr)) {
    Problem p{"check.machine", {{"candidate", t->torch.Public() + "+" + v->variant.tag}, {"reason", reason->id}}, ""};
    p.args.insert(p.args.end(), reason->args.begin(), reason->args.end());
    s.result.problems.push_back(std::move(p));
  }
}

// Corrected pins: the same torch release in a variant that fits, else the best plan.
void Correct(State& s) {
  if (s.result.ok()) return;
  MachineSpec spec = s.spec;
  if (s.result.release) spec.torch = SpecifierSet::Parse("==" + s.result.release->torch.Public()).value();
  spec.with_torchvision = FindPin(s.pins, "torchvision") != nullptr || FindPin(s.pins, "torch") == nullptr;
  spec.with_torchaudio = FindPin(s.pins, "torchaudio") != nullptr;
  Plan plan = MakePlan(s.c, spec);
  if (!plan.release) plan = MakePlan(s.c, [&] { MachineSpec any = spec; any.torch = SpecifierSet{}; return any; }());
  if (!plan.release) return;
  s.result.corrected.push_back("torch==" + plan.release->torch.Public());
  if (spec.with_torchvision && plan.release->torchvision) s.result.corrected.push_back("torchvision==" + plan.release->torchvision->Public());
  if (spec.with_torchaudio && plan.release->torchaudio) s.result.corrected.push_back("torchaudio==" + plan.release->torchaudio->Public());
  s.result.install = plan.commands.pip;
  for (Problem& p : s.result.problems) {
    if (p.fix.empty()) p.fix = plan.commands.pip;
  }
}

}  // namespace

Result<PinSet> ParsePinArgs(const std::vector<std::string>& args) {
  PinSet set;
  for (const std::string& a : args) {
    auto pin = ParsePin(a, 0);
    if (!pin) return Error{pin.error()};
    set.pins.push_back(std::move(*pin));
  }
  return set;
}

Result<PinSet> ParseRequirements(std::string_view file, std::string_view text) {
  PinSet set;
  std::string pending;
  int line_no = 0, start_line = 0;
  for (std::string_view raw : Lines(text)) {
    ++line_no;
    if (pending.empty()) start_line = line_no;
    std::string_view line = raw;
    if (size_t hash = line.find(" #"); hash != std::string_view::npos) line = line.substr(0, hash);
    if (StartsWith(Trim(line), "#")) continue;
    if (EndsWith(Trim(line), "\\")) {
      std::string_view t = Trim(line);
      pending += std::string(t.substr(0, t.size() - 1)) + " ";
      continue;
    }
    std::string full = pending + std::string(Trim(line));
    pending.clear();
    std::string_view l = Trim(full);
    if (l.empty()) continue;
    if (StartsWith(l, "-")) {
      std::vector<std::string> words = SplitNonEmpty(std::string(l), ' ');
      std::string opt = words[0], value = words.size() > 1 ? words[1] : "";
      if (size_t eq = opt.find('='); eq != std::string::npos) {
        value = opt.substr(eq + 1);
        opt = opt.substr(0, eq);
      }
      if (opt == "-i" || opt == "--index-url" || opt == "--extra-index-url" || opt == "-f" || opt == "--find-links") {
        if (set.index_url.empty() || !VariantFromIndexUrl(value).empty()) set.index_url = value;
      }
      continue;
    }
    auto req = ParseRequirement(l);
    if (!req || !IsTracked(req->name == "pytorch" ? "torch" : req->name)) continue;
    auto pin = ParsePin(l, start_line);
    if (!pin) return Err(std::string(file) + ":" + std::to_string(start_line) + ": " + pin.error());
    set.pins.push_back(std::move(*pin));
  }
  return set;
}

std::string VariantFromIndexUrl(std::string_view url) {
  std::string u = ToLower(url);
  while (!u.empty() && u.back() == '/') u.pop_back();
  std::string_view last = Basename(u);
  auto v = Variant::Parse(last);
  return v ? v->tag : "";
}

CheckResult CheckPins(const Catalog& c, const MachineSpec& spec, const PinSet& pins) {
  State s{c, spec, pins, {}, {}, {}, {}, ""};
  if (const Pin* p = FindPin(pins, "torch")) s.torch = Resolve(c, *p);
  if (const Pin* p = FindPin(pins, "torchvision")) s.vision = Resolve(c, *p);
  if (const Pin* p = FindPin(pins, "torchaudio")) s.audio = Resolve(c, *p);
  if (!s.torch && s.vision) {
    auto ts = TorchForVision(c, *s.vision);
    if (!ts.empty()) s.torch = ts.back()->torch;
  }
  CheckExistence(s);
  CheckPairs(s);
  FindLabel(s);
  CheckMachine(s);
  Correct(s);
  return std::move(s.result);
}

}  // namespace cudamatch
