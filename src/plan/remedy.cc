#include "plan/remedy.h"

#include <algorithm>

#include "core/path_form.h"
#include "core/text.h"
#include "diagnose/rules.h"
#include "plan/remedy_text.h"
#include "plan/spec.h"

namespace cudamatch {

namespace {

const PackageInfo* Installed(const PythonEnv& env, const char* name) {
  auto it = env.packages.find(name);
  return it == env.packages.end() || !it->second.version ? nullptr : &it->second;
}

bool IsTorchPackage(std::string_view name) { return name == "torch" || name == "torchvision" || name == "torchaudio"; }

// The environment's interpreter for "<python> -m pip ..." as its user writes it: its executable,
// else <prefix>/bin/python (<prefix>\python.exe), "python" when neither is known; C:\... in a
// Windows tree.
std::string PythonOf(const Snapshot& s, const PythonEnv& env) {
  bool windows = s.platform.os == Os::kWindows;
  std::string exe = env.executable;
  if (exe.empty() && !env.prefix.empty()) exe = env.prefix + (windows ? "/python.exe" : "/bin/python");
  return exe.empty() ? "python" : PathForOs(exe, s.platform.os, s.host.system_drive);
}

bool InstallsTorch(const PackageInstall& p) {
  return std::any_of(p.pins.begin(), p.pins.end(), [](const InstallPin& pin) { return pin.name == "torch"; });
}

// Every install names the environment's interpreter; one that brings torch into an externally
// managed Python (PEP 668) goes into a venv made with it instead.
void TargetEnv(const Snapshot& s, const PythonEnv& env, PackageInstall& p) {
  if (p.interpreter.empty() || p.interpreter == "python") p.interpreter = PythonOf(s, env);
  p.into_venv = !env.externally_managed.empty() && InstallsTorch(p);
}

MachineSpec EnvSpec(const Snapshot& s, const PythonEnv& env) {
  MachineSpec spec = SpecFromSnapshot(s, &env);
  spec.with_torchvision = Installed(env, "torchvision") != nullptr;
  spec.with_torchaudio = Installed(env, "torchaudio") != nullptr;
  return spec;
}

// The plan for the installed torch release under `spec` (pinned to that release), replacing the
// installed build when it changes it.
std::optional<PackageInstall> SameRelease(const Catalog& c, MachineSpec spec, const PackageInfo& torch,
                                          const TorchRelease& t) {
  spec.torch = SpecifierSet::Parse("==" + t.torch.Public()).value();
  Plan p = PlanWithoutSuggestions(c, spec);
  if (!p.release) return std::nullopt;
  PackageInstall out = p.commands.pip_install;
  if (p.variant->variant.tag != VariantTag(torch)) ReplaceInstalledBuild(out, p.variant->variant.tag, p.commands.FromPypi());
  return out;
}

const TorchRelease* InstalledRelease(const Catalog& c, const PythonEnv& env) {
  const PackageInfo* torch = Installed(env, "torch");
  return torch ? FindTorch(c, *torch->version) : nullptr;
}

std::optional<PackageInstall> TorchPin(const Catalog& c, const Snapshot& s, const PythonEnv& env, const Pep440& want) {
  const PackageInfo* torch = Installed(env, "torch");
  const TorchRelease* release = FindTorch(c, want);
  const TorchVariant* variant = release && torch ? FindVariant(c, want, s.platform.Name(), VariantTag(*torch)) : nullptr;
  if (release == nullptr || variant == nullptr) {
    PackageInstall p;
    p.pins.push_back(InstallPin{"torch", std::nullopt, "", "==" + want.ToString(), want});
    return p;
  }
  InstallRequest req;
  req.release = release;
  req.variant = variant;
  req.platform = s.platform;
  return BuildInstallCommands(req).pip_install;
}

// The version an install picks for a requirement: its lowest bound the set allows
// (">=9.1" -> 9.1), the pinned one for "==".
std::optional<Pep440> Picks(const SpecifierSet& set) {
  for (const Specifier& c : set.clauses) {
    if ((c.op == SpecOp::kGreaterEqual || c.op == SpecOp::kCompatible || c.op == SpecOp::kEqual) && !c.wildcard && set.Matches(c.version)) return c.version;
  }
  return std::nullopt;
}

PackageInstall NvidiaWheels(const std::vector<NeededRequirement>& reqs, bool reinstall) {
  PackageInstall p;
  p.force_reinstall = reinstall;
  for (const NeededRequirement& r : reqs) {
    auto set = SpecifierSet::Parse(r.spec);
    p.pins.push_back(InstallPin{r.name, std::nullopt, "", r.spec, set ? Picks(*set) : std::nullopt});
  }
  return p;
}

// --force-reinstall: the installed 0.17.1+cu121 already satisfies "==0.17.1", so a plain
// install would keep it.
PackageInstall CompanionRebuild(const RemedyNeed& need) {
  PackageInstall p;
  p.force_reinstall = p.no_deps = true;
  p.pins.push_back(InstallPin{need.package, need.version, "", "", std::nullopt});
  p.index = IndexOption::kIndexUrl;
  p.index_url = "https://download.pytorch.org/whl/" + need.variant;
  p.variant = need.variant;
  return p;
}

// The installed torch satisfies a bare "torch", so the build is replaced, not kept.
PackageInstall JetsonIndexInstall(const RemedyNeed& need) {
  PackageInstall p;
  p.force_reinstall = true;
  p.pins.push_back(InstallPin{"torch", std::nullopt, "", "", std::nullopt});
  p.index = IndexOption::kIndexUrl;
  p.index_url = need.path;
  return p;
}

// pip install --force-reinstall --no-deps URL: the wheel replaces the build installed.
PackageInstall ExtensionWheelInstall(const RemedyNeed& need) {
  PackageInstall p;
  p.force_reinstall = true;
  p.no_deps = true;
  InstallPin pin;
  pin.name = need.path;
  p.pins.push_back(std::move(pin));
  return p;
}

// Packages whose build fetches a prebuilt file instead of compiling unless a variable says so.
struct SourceBuildSwitch {
  std::string_view package, name, value;
};
constexpr SourceBuildSwitch kSourceBuildSwitches[] = {
    // Dao-AILab/flash-attention setup.py (CachedWheelsCommand, every release since 2.0): the wheel
    // named after torch's major.minor, CUDA and C++ ABI is downloaded from the release's assets
    // unless FLASH_ATTENTION_FORCE_BUILD is "TRUE" (no other value): a plain --no-binary rebuild
    // installs the very file that failed (Dao-AILab/flash-attention#784).
    {"flash-attn", "FLASH_ATTENTION_FORCE_BUILD", "TRUE"},
    // state-spaces/mamba setup.py: FORCE_BUILD = os.getenv("MAMBA_FORCE_BUILD", "FALSE") == "TRUE";
    // otherwise CachedWheelsCommand downloads mamba_ssm-V+cuXtorchM.Ncxx11abiB from the release.
    {"mamba-ssm", "MAMBA_FORCE_BUILD", "TRUE"},
    // Dao-AILab/causal-conv1d setup.py: the same, with CAUSAL_CONV1D_FORCE_BUILD.
    {"causal-conv1d", "CAUSAL_CONV1D_FORCE_BUILD", "TRUE"},
};

}  // namespace

Rebuild SourceBuild(const std::string& package, const std::optional<Pep440>& version, bool compile) {
  Rebuild r{package, version, "", "", {}};
  for (const SourceBuildSwitch& sw : kSourceBuildSwitches) {
    if (compile && sw.package == package) r.build_env.push_back({std::string(sw.name), std::string(sw.value)});
  }
  return r;
}

namespace {

Rebuild ExtensionRebuild(const Snapshot& s, const RemedyNeed& need) {
  // Where the file its setup.py fetches for this torch is the fix, it need not compile.
  Rebuild r = SourceBuild(need.package, need.version, !need.fetch_ok);
  r.arch_list = need.arch_list;
  r.cuda_home = need.path;
  r.project = need.project;
  r.develop = need.develop;
  // The environment's own interpreter, as torch's fixes name it: a bare pip may be another one's.
  bool known = need.env >= 0 && need.env < static_cast<int>(s.pythons.size());
  r.interpreter = known ? PythonOf(s, s.pythons[need.env]) : "python";
  return r;
}

SystemStep Step(SystemStep::Kind kind, const RemedyNeed& need) { return SystemStep{kind, need.os_id, need.branch, need.gcc}; }

std::optional<PackageInstall> EnvInstall(const Catalog& c, const Snapshot& s, const RemedyNeed& need) {
  using K = RemedyNeed::Kind;
  if (need.env < 0 || need.env >= static_cast<int>(s.pythons.size())) return std::nullopt;
  const PythonEnv& env = s.pythons[need.env];
  std::optional<PackageInstall> p;
  switch (need.kind) {
    case K::kTorchBuild: p = TorchBuildInstall(c, s, env, need.full_driver); break;
    case K::kTorchVariant:
      p = TorchVariantInstall(c, s, env, need.variant);
      break;
    case K::kCompanion: p = CompanionInstall(c, s, env, need.package); break;
    case K::kCompanionRebuild: p = CompanionRebuild(need); break;
    case K::kTorchPin: p = TorchPin(c, s, env, *need.version); break;
    case K::kNvidiaWheels: p = NvidiaWheels(need.requirements, need.reinstall); break;
    case K::kJetsonIndex: p = JetsonIndexInstall(need); break;
    case K::kExtensionWheel: p = ExtensionWheelInstall(need); break;
    default: break;
  }
  if (!p) return p;
  p->env = need.env;
  TargetEnv(s, env, *p);
  return p;
}

std::optional<RemedyStep> PlanStep(const Catalog& c, const Snapshot& s, const RemedyNeed& need) {
  using K = RemedyNeed::Kind;
  using S = SystemStep::Kind;
  switch (need.kind) {
    case K::kNone: return std::nullopt;
    case K::kBestPlan: {
      Plan plan = MakePlan(c, SpecFromSnapshot(s, PrimaryPython(s)));
      if (!plan.release) return std::nullopt;
      return plan.commands.pip_install;
    }
    case K::kDriverInstall: return Step(S::kInstallDriver, need);
    case K::kReboot: return Step(S::kReboot, need);
    case K::kLoadModule: return Step(S::kLoadModule, need);
    case K::kPurgeLinuxDriver: return Step(S::kPurgeLinuxDriver, need);
    case K::kContainerGpus: return Step(S::kContainerGpus, need);
    case K::kPodNvidiaRuntime: return Step(S::kPodNvidiaRuntime, need);
    case K::kExtensionRebuild: return ExtensionRebuild(s, need);
    case K::kUnsetEnv: return EnvChange{need.names, {}};
    case K::kUseToolkit: return EnvChange{{}, {{"CUDA_HOME", need.path, false}, {"PATH", need.path + "/bin", true}}};
    case K::kSetEnv:
      if (need.names.empty()) return std::nullopt;
      return EnvChange{{}, {{need.names[0], need.path, false}}};
    case K::kPythonMinusMPip: return Advice{"python -m pip install ..."};
    default: break;
  }
  if (auto p = EnvInstall(c, s, need)) return *p;
  return std::nullopt;
}

class Planner : public PlanQuery {
 public:
  std::optional<BestBuild> Best(const Snapshot& s, const Catalog& c) const override {
    Plan plan = MakePlan(c, SpecFromSnapshot(s, PrimaryPython(s)));
    if (!plan.release) return std::nullopt;
    return BestBuild{plan.release, plan.variant};
  }
};

}  // namespace

Shell ShellFor(Os os) { return os == Os::kWindows ? Shell::kPowerShell : Shell::kPosix; }

std::optional<Remedy> PlanRemedy(const Catalog& c, const Snapshot& s, const RemedyNeed& need) {
  using K = RemedyNeed::Kind;
  Remedy r;
  r.shell = ShellFor(s.platform.os);
  if (need.kind == K::kDriverReinstall) {
    r.steps = {Step(SystemStep::Kind::kReinstallDriver, need), Step(SystemStep::Kind::kReboot, need)};
  } else if (need.kind == K::kHostCompiler) {
    std::string n = std::to_string(need.gcc);
    r.steps = {Step(SystemStep::Kind::kInstallCompiler, need), EnvChange{{}, {{"CC", "gcc-" + n}, {"CXX", "g++-" + n}}}};
  } else if (std::optional<RemedyStep> step = PlanStep(c, s, need)) {
    r.steps.push_back(std::move(*step));
  }
  if (r.steps.empty() || RemedyText(r).empty()) return std::nullopt;
  return r;
}

void ReplaceInstalledBuild(PackageInstall& p, const std::string& tag, bool from_pypi) {
  if (from_pypi) {
    p.force_reinstall = true;
    return;
  }
  for (InstallPin& pin : p.pins) {
    if (IsTorchPackage(pin.name) && pin.Exact() && pin.label.empty()) pin.label = tag;
  }
}

std::optional<PackageInstall> TorchBuildInstall(const Catalog& c, const Snapshot& s, const PythonEnv& env, bool full_driver) {
  MachineSpec spec = EnvSpec(s, env);
  spec.require_full_driver = full_driver;
  if (const TorchRelease* t = InstalledRelease(c, env)) {
    if (auto p = SameRelease(c, spec, *Installed(env, "torch"), *t)) return p;
  }
  Plan p = PlanWithoutSuggestions(c, spec);
  if (!p.release) return std::nullopt;
  return p.commands.pip_install;
}

std::optional<PackageInstall> TorchVariantInstall(const Catalog& c, const Snapshot& s, const PythonEnv& env,
                                                  const std::string& variant) {
  const TorchRelease* t = InstalledRelease(c, env);
  if (t == nullptr) return std::nullopt;
  MachineSpec spec = EnvSpec(s, env);
  spec.variant = VariantOrNone(variant);
  return SameRelease(c, spec, *Installed(env, "torch"), *t);
}

std::optional<PackageInstall> CompanionInstall(const Catalog& c, const Snapshot& s, const PythonEnv& env,
                                               std::string_view package) {
  const TorchRelease* t = InstalledRelease(c, env);
  if (t == nullptr) return std::nullopt;
  std::string tag = VariantTag(*Installed(env, "torch"));
  const TorchVariant* v = tag.empty() ? nullptr : FindVariant(c, t->torch, s.platform.Name(), tag);
  if (v == nullptr) v = PypiDefaultVariant(c, *t, s.platform.Name());
  if (v == nullptr) return std::nullopt;
  InstallRequest req{t, v, s.platform, package == "torchvision", package == "torchaudio", nullptr, false};
  return BuildInstallCommands(req).pip_install;
}

const PlanQuery& ThePlanner() {
  static const Planner kPlanner;
  return kPlanner;
}

}  // namespace cudamatch
