// Every fix cudamatch prints is checked before printing: applied to the snapshot as if
// installed, it clears its finding and raises no new error finding. These tests run the check
// over every fixture machine and over a machine made for every finding whose fix is a pip
// command, and guard the shape of the minimal fix (same release, only the companion).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "core/fs.h"
#include "core/text.h"
#include "diagnose/rules.h"
#include "derive/derive.h"
#include "plan/diagnose.h"
#include "plan/remedy.h"
#include "plan/remedy_text.h"
#include "probe/context.h"
#include "report/doctor.h"
#include "tests/unit/no_placeholder.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TheCatalog;

using Env = std::map<std::string, std::string>;

Env FixtureEnv(const std::string& dir) {
  Env out;
  std::ifstream env(dir + "/env");
  std::string kv;
  while (std::getline(env, kv)) {
    size_t eq = kv.find('=');
    if (!kv.empty() && kv[0] != '#' && eq != std::string::npos) out[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return out;
}

// A fixture machine: its image, the environment of its `env` file and the system its `os` file
// names (Windows trees).
struct Fixture {
  std::string dir;
  std::unique_ptr<Fs> fs;
  Env env;
  Os os = Os::kLinux;
};

std::vector<Fixture> Fixtures() {
  std::vector<Fixture> out;
  for (const auto& entry : std::filesystem::directory_iterator(testing::SourceDir() + "/tests/fixtures/machines")) {
    if (!entry.is_directory()) continue;
    Fixture f{entry.path().string(), nullptr, {}, Os::kLinux};
    f.fs = MakeRealFs(f.dir + "/root");
    f.env = FixtureEnv(f.dir);
    std::ifstream os(f.dir + "/os");
    std::string name;
    if (os >> name) f.os = ParseOs(name).value();
    if (testing::kWindowsBuild && f.os != Os::kWindows) continue;  // testing::kLinuxTreeSkip
    out.push_back(std::move(f));
  }
  return out;
}

Snapshot ProbeWith(const Fs& fs, const Env& env, Os os = Os::kLinux) {
  ProbeInput in;
  in.fs = &fs;
  in.os = os;
  in.catalog = &TheCatalog();
  in.env = env;
  in.cwd = in.Env("PWD").empty() ? "/" : in.Env("PWD");
  Snapshot s = TakeSnapshot(in);
  Derive(TheCatalog(), s);
  return s;
}


// A remedy that changes the shell's environment, applied to it: unset names, set values (a
// prepended value keeps the old one after it). nullopt for any other remedy.
std::optional<Env> ApplyEnvFix(const Remedy& r, Env env) {
  if (r.steps.size() != 1) return std::nullopt;
  const auto* change = std::get_if<EnvChange>(&r.steps.front());
  if (change == nullptr) return std::nullopt;
  for (const std::string& name : change->unset) env.erase(name);
  Env old = env;
  for (const EnvAssign& a : change->set) env[a.name] = a.value + (a.prepend && old.count(a.name) ? ":" + old[a.name] : "");
  return env;
}

void WithDriver(Snapshot& s, const char* version, const char* cuda) {
  s.driver.kernel_module_loaded = true;
  s.driver.kernel_version = DriverVersion::Parse(version).value();
  s.driver.userspace_version = s.driver.kernel_version;
  s.driver.libcuda_paths = {"/usr/lib/x86_64-linux-gnu/libcuda.so.1"};
  s.driver.cuda = CudaVersion::Parse(cuda).value();
  s.driver.kernel_source = "/proc/driver/nvidia/version";
  s.driver.userspace_source = "libnvidia-ml.so.1";
  s.driver.cuda_source = "cuDriverGetVersion";
  s.driver.device_nodes = true;
}

void WithGpu(Snapshot& s, const char* name, const char* cc) {
  GpuInfo g;
  g.index = static_cast<int>(s.gpus.size());
  g.name = name;
  g.cc = ComputeCapability::Parse(cc).value();
  g.source = "NVML";
  g.cc_source = "nvml";
  s.gpus.push_back(g);
}

void Add(PythonEnv& env, const char* name, const char* version, const char* variant) {
  PackageInfo p;
  p.name = name;
  p.version = Pep440::Parse(version).value();
  if (auto v = Variant::Parse(variant)) p.variant = *v;
  p.version_source = env.prefix + "/lib/python3.10/site-packages/" + name + "/version.py";
  if (auto v = Variant::Parse(variant); v && v->cuda) p.cuda = v->cuda;
  if (std::string_view(variant).rfind("rocm", 0) == 0) p.hip = "6.0";
  env.packages[name] = p;
}

Snapshot Machine(const char* driver, const char* cuda, const char* gpu, const char* cc) {
  Snapshot s;
  s.host.os_id = "ubuntu";
  if (driver) WithDriver(s, driver, cuda);
  WithGpu(s, gpu, cc);
  PythonEnv env;
  env.prefix = "/home/u/venv";
  env.kind = PythonKind::kVenv;
  env.version = PyVersion::Parse("3.10").value();
  env.found_by = {"env:VIRTUAL_ENV"};
  s.pythons.push_back(env);
  return s;
}

struct Made {
  const char* finding;
  std::function<Snapshot()> make;
};

// One machine for every finding whose fix is a pip command.
const std::vector<Made>& MadeMachines() {
  static const std::vector<Made> kMade = {
      {"torch.driver_too_old", [] {
         Snapshot s = Machine("470.82.01", "11.4", "NVIDIA GeForce RTX 3090", "8.6");
         Add(s.pythons[0], "torch", "2.3.1+cu121", "cu121");
         Add(s.pythons[0], "torchvision", "0.18.1+cu121", "cu121");
         return s;
       }},
      {"torch.driver_minor_compat", [] {
         Snapshot s = Machine("525.60.13", "12.0", "NVIDIA H100 80GB HBM3", "9.0");
         Add(s.pythons[0], "torch", "2.3.1+cu121", "cu121");
         return s;
       }},
      {"torch.no_kernels", [] {
         Snapshot s = Machine("470.82.01", "11.4", "NVIDIA GeForce RTX 3090", "8.6");
         s.pythons[0].version = PyVersion::Parse("3.8").value();  // 1.7.1 has wheels for 3.6 to 3.9
         Add(s.pythons[0], "torch", "1.7.1+cu101", "cu101");
         return s;
       }},
      {"torch.vision_unpaired", [] {
         Snapshot s = Machine("550.54.14", "12.4", "NVIDIA GeForce RTX 3090", "8.6");
         Add(s.pythons[0], "torch", "2.3.1+cu118", "cu118");
         Add(s.pythons[0], "torchvision", "0.19.0+cu118", "cu118");
         return s;
       }},
      {"torch.audio_unpaired", [] {
         Snapshot s = Machine("550.54.14", "12.4", "NVIDIA GeForce RTX 3090", "8.6");
         Add(s.pythons[0], "torch", "2.0.1+cu118", "cu118");
         Add(s.pythons[0], "torchaudio", "2.0.1+cu118", "cu118");
         return s;
       }},
      {"torch.vision_cuda_mismatch", [] {
         Snapshot s = Machine("550.54.14", "12.4", "NVIDIA GeForce RTX 3090", "8.6");
         Add(s.pythons[0], "torch", "2.3.1+cu121", "cu121");
         Add(s.pythons[0], "torchvision", "0.18.1+cu118", "cu118");
         return s;
       }},
      {"torch.cpu_build", [] {
         Snapshot s = Machine("550.54.14", "12.4", "NVIDIA GeForce RTX 3090", "8.6");
         Add(s.pythons[0], "torch", "2.3.1+cpu", "cpu");
         return s;
       }},
      {"torch.nvidia_wheels_missing", [] {
         Snapshot s = Machine("550.54.14", "12.4", "NVIDIA GeForce RTX 3090", "8.6");
         Add(s.pythons[0], "torch", "2.3.1", "cu121");
         s.pythons[0].packages["torch"].nvidia_requirements = {"nvidia-cudnn-cu12==8.9.2.26", "nvidia-nccl-cu12>=2.20.5",
                                                               "nvidia-nvtx-cu12"};
         s.pythons[0].packages["torch"].location = "/home/u/venv/lib/python3.10/site-packages/torch-2.3.1.dist-info/METADATA";
         return s;
       }},
      {"torch.nvidia_wheels_mismatch", [] {
         Snapshot s = Machine("550.54.14", "12.4", "NVIDIA GeForce RTX 3090", "8.6");
         Add(s.pythons[0], "torch", "2.3.1", "cu121");
         s.pythons[0].packages["torch"].nvidia_requirements = {"nvidia-cudnn-cu12==8.9.2.26"};
         s.pythons[0].packages["torch"].location = "/home/u/venv/lib/python3.10/site-packages/torch-2.3.1.dist-info/METADATA";
         Add(s.pythons[0], "nvidia-cudnn-cu12", "9.1.0.70", "");
         return s;
       }},
      {"torch.rocm_on_nvidia", [] {
         Snapshot s = Machine("550.54.14", "12.4", "NVIDIA GeForce RTX 3090", "8.6");
         Add(s.pythons[0], "torch", "2.3.1+rocm6.0", "rocm6.0");
         return s;
       }},
  };
  return kMade;
}

bool IsPip(const Finding& f) { return f.remedy && ModelledInstall(*f.remedy) != nullptr; }
std::string Fix(const Finding& f) { return RemedyText(f.remedy); }

// `f`'s remedy with its one install changed by `edit`.
Remedy Edited(const Finding& f, const std::function<void(PackageInstall&)>& edit) {
  Remedy r = *f.remedy;
  edit(std::get<PackageInstall>(r.steps.front()));
  return r;
}

InstallPin Exact(const char* name, const char* version, const char* label = "") {
  return InstallPin{name, Pep440::Parse(version).value(), label, "", std::nullopt};
}

TEST(FixVerification, EveryPipFixOfAMadeMachineClearsItsFinding) {
  std::set<std::string> covered;
  for (const Made& m : MadeMachines()) {
    SCOPED_TRACE(m.finding);
    Snapshot s = m.make();
    std::vector<Finding> raw = PlannedFindings(s, TheCatalog());
    bool seen = false;
    for (const Finding& f : raw) {
      if (f.id != m.finding) continue;
      seen = true;
      ASSERT_TRUE(IsPip(f)) << "no pip fix: " << Fix(f);
      EXPECT_EQ(f.env, 0);
      EXPECT_EQ(VerifyRemedy(TheCatalog(), s, f, *f.remedy, raw), FixCheck::kClears) << Fix(f);
      // The typed remedy and the full-snapshot application agree: the finding is gone after it.
      std::optional<Snapshot> after = ApplyRemedy(TheCatalog(), s, *f.remedy);
      ASSERT_TRUE(after.has_value()) << Fix(f);
      for (const Finding& x : PlannedFindings(*after, TheCatalog())) EXPECT_FALSE(x.id == f.id && x.env == f.env) << Fix(f);
      covered.insert(f.id);
    }
    EXPECT_TRUE(seen);
  }
  EXPECT_EQ(covered.size(), MadeMachines().size());
}

TEST(FixVerification, EveryFixtureMachineFindingWithAPipFixClearsIt) {
  size_t verified = 0;
  for (const Fixture& m : Fixtures()) {
    SCOPED_TRACE(m.dir);
    Snapshot s = ProbeWith(*m.fs, m.env, m.os);
    std::vector<Finding> raw = PlannedFindings(s, TheCatalog());
    for (const Finding& f : raw) {
      if (!IsPip(f)) continue;
      EXPECT_EQ(VerifyRemedy(TheCatalog(), s, f, *f.remedy, raw), FixCheck::kClears) << f.id << ": " << Fix(f);
      ++verified;
    }
    // What doctor prints: a fix survives only when it was verified, and the whole machine
    // after it has neither the finding nor a new error.
    for (const Finding& f : Diagnose(s, TheCatalog())) {
      if (!IsPip(f)) continue;
      EXPECT_EQ(VerifyRemedy(TheCatalog(), s, f, *f.remedy, raw), FixCheck::kClears) << f.id;
      std::optional<Snapshot> after = ApplyRemedy(TheCatalog(), s, *f.remedy);
      ASSERT_TRUE(after.has_value()) << Fix(f);
      for (const Finding& x : PlannedFindings(*after, TheCatalog())) {
        EXPECT_FALSE(x.id == f.id && x.env == f.env) << f.id << " stays after " << Fix(f);
        bool existed = std::any_of(raw.begin(), raw.end(), [&](const Finding& b) { return b.id == x.id && b.env == x.env; });
        EXPECT_TRUE(existed || x.severity != Severity::kError) << Fix(f) << " raises " << x.id;
      }
    }
  }
  RecordProperty("verified", static_cast<int>(verified));
}

// Fixes that change the environment are checked by probing the same image again with the
// changed environment: the finding is gone and no new error appears. (Driver installs and
// reboots change the machine itself and are not modelled.)
TEST(FixVerification, EveryFixtureMachineFindingWithAnEnvironmentFixClearsIt) {
  // The machines with such fixes are Linux trees.
  if (testing::kWindowsBuild) GTEST_SKIP() << testing::kLinuxTreeSkip;
  size_t verified = 0;
  for (const Fixture& m : Fixtures()) {
    SCOPED_TRACE(m.dir);
    std::vector<Finding> before = PlannedFindings(ProbeWith(*m.fs, m.env, m.os), TheCatalog());
    for (const Finding& f : before) {
      auto changed = f.remedy ? ApplyEnvFix(*f.remedy, m.env) : std::nullopt;
      if (!changed) continue;
      ++verified;
      for (const Finding& x : PlannedFindings(ProbeWith(*m.fs, *changed, m.os), TheCatalog())) {
        EXPECT_FALSE(x.id == f.id && x.env == f.env) << f.id << " stays after: " << Fix(f);
        bool existed = std::any_of(before.begin(), before.end(), [&](const Finding& b) { return b.id == x.id; });
        EXPECT_TRUE(existed || x.severity != Severity::kError) << Fix(f) << " raises " << x.id;
      }
    }
  }
  EXPECT_GE(verified, 3u);  // gpu-server's CUDA_HOME, ld-shadow's and cudnn-shadow's LD_LIBRARY_PATH
}

TEST(FixVerification, EveryFindingRendersInBothLanguagesWithoutPlaceholders) {
  std::vector<std::pair<std::string, Snapshot>> machines;
  for (const Made& m : MadeMachines()) machines.push_back({m.finding, m.make()});
  for (const Fixture& m : Fixtures()) machines.push_back({m.dir, ProbeWith(*m.fs, m.env, m.os)});
  for (const auto& [name, s] : machines) {
    std::vector<Finding> findings = Diagnose(s, TheCatalog());
    for (Lang lang : {Lang::kEn, Lang::kZh}) {
      for (const Finding& f : findings) {
        testing::ExpectNoPlaceholders(RenderFinding(f, TextOptions{lang, Style{}, true}), name + " " + f.id);
      }
    }
  }
}

TEST(FixVerification, ModelsInstallsOfTorchFamilyPinsAndNvidiaWheelsOnly) {
  auto remedy = [](std::vector<InstallPin> pins, bool force = false) {
    PackageInstall p;
    p.pins = std::move(pins);
    p.force_reinstall = force;
    p.env = 0;
    return Remedy{{p}, Shell::kPosix};
  };
  EXPECT_NE(ModelledInstall(remedy({Exact("torch", "2.3.1", "cu118")})), nullptr);
  EXPECT_NE(ModelledInstall(remedy({Exact("torchvision", "0.17.1")}, true)), nullptr);
  EXPECT_NE(ModelledInstall(remedy({InstallPin{"nvidia-nccl-cu12", std::nullopt, "", ">=2.20", Pep440::Parse("2.20").value()}})),
            nullptr);
  EXPECT_EQ(ModelledInstall(remedy({Exact("numpy", "1.26.4")})), nullptr);
  EXPECT_EQ(ModelledInstall(remedy({InstallPin{"torch", std::nullopt, "", "", std::nullopt}})), nullptr);  // no version
  EXPECT_EQ(ModelledInstall(remedy({})), nullptr);
  EXPECT_EQ(ModelledInstall(Remedy{{EnvChange{{"LD_LIBRARY_PATH"}, {}}}, Shell::kPosix}), nullptr);
}

TEST(FixVerification, AnNvidiaWheelFixThatInstallsTheWrongVersionDoesNotClearIt) {
  for (const Made& m : MadeMachines()) {
    if (std::string(m.finding) != "torch.nvidia_wheels_mismatch") continue;
    Snapshot s = m.make();
    std::vector<Finding> raw = PlannedFindings(s, TheCatalog());
    ASSERT_FALSE(raw.empty());
    const Finding& f = raw.front();
    ASSERT_EQ(f.id, m.finding);
    Remedy wrong = Edited(f, [](PackageInstall& p) {
      p.pins = {InstallPin{"nvidia-cudnn-cu12", std::nullopt, "", "==9.1.0.70", Pep440::Parse("9.1.0.70").value()}};
    });
    EXPECT_EQ(RemedyText(wrong), "/home/u/venv/bin/python -m pip install 'nvidia-cudnn-cu12==9.1.0.70'");  // the env's own pip
    EXPECT_EQ(VerifyRemedy(TheCatalog(), s, f, wrong, raw), FixCheck::kStillThere);
  }
}

// pip keeps an installed 2.3.1+cu121 for "torch==2.3.1": such a fix changes nothing, and the
// check says so; naming the build or --force-reinstall replaces it.
TEST(FixVerification, APinTheInstalledBuildSatisfiesChangesNothing) {
  Snapshot s = MadeMachines()[0].make();  // driver 470, torch 2.3.1+cu121, torchvision 0.18.1+cu121
  std::vector<Finding> raw = PlannedFindings(s, TheCatalog());
  size_t checked = 0;
  for (const Finding& f : raw) {
    if (f.id != "torch.driver_too_old") continue;
    auto install = [&](bool force, const char* label) {
      return Edited(f, [&](PackageInstall& p) {
        p.interpreter.clear();
        p.force_reinstall = force;
        p.pins = {Exact("torch", "2.3.1", label), Exact("torchvision", "0.18.1", label)};
      });
    };
    const std::string index = " --index-url https://download.pytorch.org/whl/cu118";
    EXPECT_EQ(RemedyText(install(false, "")), "pip install torch==2.3.1 torchvision==0.18.1" + index);
    EXPECT_EQ(VerifyRemedy(TheCatalog(), s, f, install(false, ""), raw), FixCheck::kStillThere);
    EXPECT_EQ(RemedyText(install(true, "")), "pip install --force-reinstall torch==2.3.1 torchvision==0.18.1" + index);
    EXPECT_EQ(VerifyRemedy(TheCatalog(), s, f, install(true, ""), raw), FixCheck::kClears);
    EXPECT_EQ(RemedyText(install(false, "cu118")), "pip install torch==2.3.1+cu118 torchvision==0.18.1+cu118" + index);
    EXPECT_EQ(VerifyRemedy(TheCatalog(), s, f, install(false, "cu118"), raw), FixCheck::kClears);
    ++checked;
  }
  EXPECT_EQ(checked, 1u);
}

TEST(FixVerification, AFixThatDoesNotClearItsFindingIsNotPrinted) {
  Snapshot s = MadeMachines()[0].make();  // driver 470, torch 2.3.1+cu121
  std::vector<Finding> raw = PlannedFindings(s, TheCatalog());
  size_t checked = 0;
  for (const Finding& f : raw) {
    if (f.id != "torch.driver_too_old") continue;
    Remedy wrong = Edited(f, [](PackageInstall& p) {
      p.pins = {Exact("torch", "2.3.1")};
      p.index_url = "https://download.pytorch.org/whl/cu121";
      p.variant = "cu121";
    });
    EXPECT_EQ(VerifyRemedy(TheCatalog(), s, f, wrong, raw), FixCheck::kStillThere);
    ++checked;
  }
  EXPECT_EQ(checked, 1u);
  // And doctor prints the verified fix, not a wrong one.
  for (const Finding& f : Diagnose(s, TheCatalog())) {
    if (f.id == "torch.driver_too_old") {
      EXPECT_NE(Fix(f).find("cu118"), std::string::npos) << Fix(f);
    }
  }
}

TEST(FixVerification, DriverTooOldKeepsTheInstalledRelease) {
  Snapshot s = MadeMachines()[0].make();
  std::string fix = InstallText(TorchBuildInstall(TheCatalog(), s, s.pythons[0], false).value(), Shell::kPosix);
  // Labelled pins: pip would keep the installed 2.3.1+cu121 for "torch==2.3.1".
  EXPECT_EQ(fix, "pip install torch==2.3.1+cu118 torchvision==0.18.1+cu118 --index-url https://download.pytorch.org/whl/cu118");
}

TEST(FixVerification, OldWheelOnNewGpuKeepsTheReleaseFromAnotherIndex) {
  Snapshot s = MadeMachines()[2].make();  // 1.7.1+cu101 on an RTX 3090: 1.7.1+cu110 has sm_86
  std::string fix = InstallText(TorchBuildInstall(TheCatalog(), s, s.pythons[0], false).value(), Shell::kPosix);
  EXPECT_NE(fix.find("torch==1.7.1+cu110"), std::string::npos) << fix;
}

TEST(FixVerification, MinorCompatFixRunsWithoutTheCaveat) {
  Snapshot s = MadeMachines()[1].make();  // driver 525.60 runs cu121 only through minor compat
  std::string fix = InstallText(TorchBuildInstall(TheCatalog(), s, s.pythons[0], true).value(), Shell::kPosix);
  EXPECT_NE(fix.find("torch==2.3.1"), std::string::npos) << fix;
  EXPECT_NE(fix.find("cu118"), std::string::npos) << fix;
}

TEST(FixVerification, UnpairedTorchvisionChangesOnlyTorchvision) {
  Snapshot s = MadeMachines()[3].make();
  std::string fix = InstallText(CompanionInstall(TheCatalog(), s, s.pythons[0], "torchvision").value(), Shell::kPosix);
  EXPECT_EQ(fix, "pip install torchvision==0.18.1 --index-url https://download.pytorch.org/whl/cu118");
}

}  // namespace
}  // namespace cudamatch

namespace cudamatch {
namespace {

// Each finding names its environment by index; its remedy installs there and nowhere else, and
// is checked against that environment alone.
TEST(FixVerification, ARemedyChangesOnlyTheEnvironmentItTargets) {
  Snapshot s = MadeMachines()[0].make();  // driver 470, torch 2.3.1+cu121 in /home/u/venv
  PythonEnv other = s.pythons[0];
  other.prefix = "/home/u/other";
  other.packages.clear();
  Add(other, "torch", "2.3.1+cpu", "cpu");
  s.pythons.insert(s.pythons.begin(), other);  // the CPU build is env 0, the cu121 build env 1
  std::vector<Finding> raw = PlannedFindings(s, TheCatalog());
  size_t checked = 0;
  for (const Finding& f : raw) {
    if (!IsPip(f)) continue;
    const PackageInstall* p = ModelledInstall(*f.remedy);
    EXPECT_EQ(p->env, f.env) << f.id;
    EXPECT_EQ(s.pythons[f.env].prefix, f.id == "torch.cpu_build" ? "/home/u/other" : "/home/u/venv") << f.id;
    std::optional<Snapshot> after = ApplyRemedy(TheCatalog(), s, *f.remedy);
    ASSERT_TRUE(after.has_value());
    const PythonEnv& untouched = after->pythons[1 - f.env];
    EXPECT_EQ(untouched.packages.at("torch").version->ToString(), s.pythons[1 - f.env].packages.at("torch").version->ToString());
    EXPECT_EQ(VerifyRemedy(TheCatalog(), s, f, *f.remedy, raw), FixCheck::kClears) << f.id << ": " << Fix(f);
    ++checked;
  }
  EXPECT_GE(checked, 2u);  // torch.cpu_build in env 0, torch.driver_too_old in env 1
}

}  // namespace
}  // namespace cudamatch
