#include "plan/fix.h"

#include <algorithm>

#include "core/fs.h"
#include "core/text.h"
#include "plan/check.h"
#include "plan/spec.h"

namespace cudamatch {

namespace {

bool Has(const PythonEnv& env, const char* name) {
  auto it = env.packages.find(name);
  return it != env.packages.end() && it->second.version;
}

std::optional<std::string> PlanCommandFor(const Catalog& c, const MachineSpec& spec) {
  Plan p = PlanWithoutSuggestions(c, spec);
  if (!p.release) return std::nullopt;
  return p.commands.pip;
}



// One requirement of the command: "torch==2.3.1", "'nvidia-cudnn-cu12>=9.1'", "nvidia-nccl-cu12".
struct PipPin {
  std::string name;
  std::optional<Pep440> exact;  // "==X"
  SpecifierSet set;             // any other specifier; empty for a bare name
};

struct PipArgs {
  std::vector<PipPin> pins;
  std::string tag;  // from an index URL
  bool force = false;  // --force-reinstall
};

bool IsTorchPackage(std::string_view name) { return name == "torch" || name == "torchvision" || name == "torchaudio"; }
bool IsNvidiaWheel(std::string_view name) { return StartsWith(name, "nvidia-"); }

std::optional<PipPin> ParsePipPin(std::string_view text) {
  size_t op = text.find_first_of("=<>!~");
  PipPin pin{std::string(text.substr(0, op)), std::nullopt, {}};
  if (pin.name.empty()) return std::nullopt;
  if (op == std::string_view::npos) return pin;
  std::string_view spec = text.substr(op);
  if (StartsWith(spec, "==") && spec.find_first_of(",*", 2) == std::string_view::npos) {
    auto v = Pep440::Parse(spec.substr(2));
    if (!v) return std::nullopt;
    pin.exact = *v;
    return pin;
  }
  auto set = SpecifierSet::Parse(spec);
  if (!set) return std::nullopt;
  pin.set = *set;
  return pin;
}

// A version pip could pick for a set: its lowest bound the set allows ("'nvidia-x>=9.1'" -> 9.1).
std::optional<Pep440> VersionIn(const PipPin& pin) {
  if (pin.exact) return pin.exact;
  for (const Specifier& c : pin.set.clauses) {
    if ((c.op == SpecOp::kGreaterEqual || c.op == SpecOp::kCompatible || c.op == SpecOp::kEqual) && !c.wildcard && pin.set.Matches(c.version)) return c.version;
  }
  return std::nullopt;
}

bool TakesValue(const std::string& opt) {
  return opt == "-i" || opt == "--index-url" || opt == "--extra-index-url" || opt == "-f" || opt == "--find-links";
}

std::optional<PipArgs> ParsePip(const std::string& command) {
  if (!IsPipInstall(command)) return std::nullopt;
  std::vector<std::string> words = SplitNonEmpty(command, ' ');
  size_t i = 0;
  while (i < words.size() && words[i] != "install") ++i;
  PipArgs out;
  for (++i; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (StartsWith(w, "-")) {
      if (w == "--force-reinstall") out.force = true;
      if (!TakesValue(w)) continue;
      if (i + 1 < words.size() && out.tag.empty()) out.tag = VariantFromIndexUrl(words[i + 1]);
      ++i;
      continue;
    }
    std::string pin = w;
    if (pin.size() >= 2 && (pin.front() == '\'' || pin.front() == '"') && pin.back() == pin.front()) {
      pin = pin.substr(1, pin.size() - 2);
    }
    auto parsed = ParsePipPin(pin);
    if (!parsed) return std::nullopt;
    out.pins.push_back(std::move(*parsed));
  }
  return out;
}

}  // namespace

// pip keeps an installed 2.3.1+cu121 for "torch==2.3.1" ("Requirement already satisfied"): a fix
// that changes only the build of the installed release names the build in every pin
// ("torch==2.3.1+cu118"), as the variant's index serves it; PyPI's own build has no label, so
// there the command reinstalls.
std::string ReplacingBuild(const std::string& command, const std::string& tag, bool from_pypi) {
  std::vector<std::string> words = SplitNonEmpty(command, ' ');
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) {
    std::string w = words[i];
    bool pin = StartsWith(w, "torch==") || StartsWith(w, "torchvision==") || StartsWith(w, "torchaudio==");
    if (pin && !from_pypi && w.find('+') == std::string::npos) w += "+" + tag;
    out += (out.empty() ? "" : " ") + w;
    if (w == "install" && from_pypi) out += " --force-reinstall";
  }
  return out;
}

bool IsPipInstall(const std::string& command) {
  std::vector<std::string> w = SplitNonEmpty(command, ' ');
  if (w.size() >= 2 && w[0] == "pip" && w[1] == "install") return true;
  return w.size() >= 4 && StartsWith(Basename(w[0]), "python") && w[1] == "-m" && w[2] == "pip" && w[3] == "install";
}

bool InstallsModelledPackages(const std::string& command) {
  auto args = ParsePip(command);
  if (!args) return false;
  for (const PipPin& pin : args->pins) {
    if (IsTorchPackage(pin.name) ? !pin.exact : !IsNvidiaWheel(pin.name)) return false;
  }
  return !args->pins.empty();
}

namespace {

// The plan for the installed torch release under `spec` (pinned to that release), as a command
// that replaces the installed build when it changes it.
std::optional<std::string> SameReleaseCommand(const Catalog& c, MachineSpec spec, const PackageInfo& torch,
                                              const TorchRelease& t) {
  spec.torch = SpecifierSet::Parse("==" + t.torch.Public()).value();
  Plan p = PlanWithoutSuggestions(c, spec);
  if (!p.release) return std::nullopt;
  if (p.variant->variant.tag == VariantTag(torch)) return p.commands.pip;
  return ReplacingBuild(p.commands.pip, p.variant->variant.tag, p.commands.FromPypi());
}

MachineSpec EnvSpec(const Snapshot& s, const PythonEnv& env) {
  MachineSpec spec = SpecFromSnapshot(s, &env);
  spec.with_torchvision = Has(env, "torchvision");
  spec.with_torchaudio = Has(env, "torchaudio");
  return spec;
}

}  // namespace

std::string TorchFixCommand(const Catalog& c, const Snapshot& s, const PythonEnv& env, bool full_driver) {
  MachineSpec spec = EnvSpec(s, env);
  spec.require_full_driver = full_driver;
  auto torch = env.packages.find("torch");
  if (torch != env.packages.end() && torch->second.version) {
    if (const TorchRelease* t = FindTorch(c, *torch->second.version)) {
      if (auto cmd = SameReleaseCommand(c, spec, torch->second, *t)) return *cmd;
    }
  }
  return PlanCommandFor(c, spec).value_or("");
}

std::string TorchBuildCommand(const Catalog& c, const Snapshot& s, const PythonEnv& env, const std::string& variant) {
  auto torch = env.packages.find("torch");
  if (torch == env.packages.end() || !torch->second.version) return "";
  const TorchRelease* t = FindTorch(c, *torch->second.version);
  if (t == nullptr) return "";
  MachineSpec spec = EnvSpec(s, env);
  spec.variant = VariantOrNone(variant);
  return SameReleaseCommand(c, spec, torch->second, *t).value_or("");
}

std::string CompanionFixCommand(const Catalog& c, const Snapshot& s, const PythonEnv& env, std::string_view package,
                                const Pep440&) {
  auto torch = env.packages.find("torch");
  if (torch == env.packages.end() || !torch->second.version) return "";
  const TorchRelease* t = FindTorch(c, *torch->second.version);
  if (t == nullptr) return "";
  const TorchVariant* v = !torch->second.variant ? nullptr
                                                   : FindVariant(c, t->torch, s.platform.Name(), VariantTag(torch->second));
  if (v == nullptr) v = PypiDefaultVariant(c, *t, s.platform.Name());
  if (v == nullptr) return "";
  InstallRequest req{t, v, s.platform, package == "torchvision", package == "torchaudio", nullptr, false};
  return BuildInstallCommands(req).pip;
}

std::optional<Snapshot> ApplyPipCommand(const Catalog& c, const Snapshot& s, const std::string& env_prefix,
                                        const std::string& command) {
  auto args = ParsePip(command);
  if (!args) return std::nullopt;
  Snapshot out = s;
  PythonEnv* env = nullptr;
  for (PythonEnv& e : out.pythons) {
    if (e.prefix == env_prefix) env = &e;
  }
  if (env == nullptr) return std::nullopt;
  for (const PipPin& pin : args->pins) {
    if (IsNvidiaWheel(pin.name)) {
      PackageInfo& p = env->packages[pin.name];
      p.name = pin.name;
      p.version = VersionIn(pin);
      p.version_source = "as if installed by: " + command;
      continue;
    }
    if (!IsTorchPackage(pin.name) || !pin.exact) return std::nullopt;
    const std::string& name = pin.name;
    const Pep440& version = *pin.exact;
    // As pip does: "==2.3.1" is satisfied by an installed 2.3.1+cu121 (a local label is ignored
    // unless the pin names one), and a satisfied requirement is kept unless --force-reinstall.
    if (auto installed = env->packages.find(name); !args->force && installed != env->packages.end() && installed->second.version) {
      const Pep440& have = *installed->second.version;
      bool satisfied = version.LocalLabel().empty() ? have.WithoutLocal() == version.WithoutLocal() : have == version;
      if (satisfied) continue;
    }
    std::string tag = !version.LocalLabel().empty() ? version.LocalLabel() : args->tag;
    if (tag.empty()) {
      const TorchRelease* t = name == "torch" ? FindTorch(c, version) : nullptr;
      auto torch = out.pythons.empty() ? nullptr : &env->packages["torch"];
      if (name != "torch" && torch && torch->version) t = FindTorch(c, *torch->version);
      const TorchVariant* d = t ? PypiDefaultVariant(c, *t, s.platform.Name()) : nullptr;
      if (d == nullptr) return std::nullopt;
      tag = d->variant.tag;
    }
    auto variant = Variant::Parse(tag);
    if (!variant) return std::nullopt;
    PackageInfo& p = env->packages[name];
    p.name = name;
    p.version = version;
    p.version_source = "as if installed by: " + command;
    p.variant = *variant;
    p.cuda = variant->cuda;
    p.hip.reset();
  }
  return out;
}

}  // namespace cudamatch
