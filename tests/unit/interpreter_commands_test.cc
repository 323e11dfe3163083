// Install commands for the interpreter they target: "<interpreter> -m pip" and
// "uv pip install --python <interpreter>" quoted for each shell, a venv for an externally
// managed Python (PEP 668), paths of a Windows tree in Windows form, and mirrors whose operator
// also copies the PyTorch wheels.
#include <gtest/gtest.h>

#include <algorithm>

#include "catalog/query.h"
#include "core/fs.h"
#include "core/path_form.h"
#include "plan/diagnose.h"
#include "plan/plan.h"
#include "plan/remedy_text.h"
#include "probe/externally_managed.h"
#include "report/plan_report.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TheCatalog;

PackageInstall TorchInstall(std::string interpreter) {
  PackageInstall p;
  p.interpreter = std::move(interpreter);
  p.pins = {InstallPin{"torch", Pep440::Parse("2.5.1").value(), "", "", std::nullopt}};
  p.index = IndexOption::kIndexUrl;
  p.index_url = "https://download.pytorch.org/whl/cu121";
  return p;
}

MachineSpec Rtx3090(const char* python) {
  MachineSpec s;
  s.driver = DriverVersion::Parse("550.54.14").value();
  s.gpus = {ComputeCapability::Parse("8.6").value()};
  s.has_nvidia_gpu = true;
  s.python = PyVersion::Parse(python).value();
  s.torch = SpecifierSet::Parse("==2.5.1").value();
  s.variant = Variant::Parse("cu121").value();
  return s;
}

bool HasNote(const Plan& p, const std::string& id) {
  for (const Reason& r : p.command_notes) {
    if (r.id == id) return true;
  }
  return false;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(InterpreterCommands, AnInterpreterPathIsQuotedForEachShell) {
  PackageInstall p = TorchInstall("/opt/my python/bin/python3.12");
  EXPECT_EQ(InstallText(p, Shell::kPosix),
            "'/opt/my python/bin/python3.12' -m pip install torch==2.5.1 --index-url https://download.pytorch.org/whl/cu121");
  p.interpreter = "C:\\Program Files\\Python312\\python.exe";
  // PowerShell runs a quoted path only through its call operator; cmd takes it in double quotes.
  EXPECT_EQ(InstallText(p, Shell::kPowerShell).rfind("& 'C:\\Program Files\\Python312\\python.exe' -m pip install torch==2.5.1", 0), 0u);
  EXPECT_EQ(InstallText(p, Shell::kCmd).rfind("\"C:\\Program Files\\Python312\\python.exe\" -m pip install torch==2.5.1", 0), 0u);
  p.interpreter = "C:\\Users\\ann\\AppData\\Local\\Programs\\Python\\Python312\\python.exe";
  EXPECT_EQ(InstallText(p, Shell::kPowerShell).rfind("C:\\Users\\ann\\AppData\\Local\\Programs\\Python\\Python312\\python.exe -m pip", 0), 0u);
  p.interpreter = "/home/o'brien/venv/bin/python";
  EXPECT_EQ(InstallText(p, Shell::kPosix).rfind("'/home/o'\\''brien/venv/bin/python' -m pip install", 0), 0u);
}

TEST(InterpreterCommands, UvNamesTheInterpreter) {
  PackageInstall p = TorchInstall("/usr/local/bin/python3.12");
  p.installer = Installer::kUv;
  EXPECT_EQ(InstallText(p, Shell::kPosix),
            "uv pip install --python /usr/local/bin/python3.12 torch==2.5.1 --index-url https://download.pytorch.org/whl/cu121");
}

TEST(InterpreterCommands, AnExternallyManagedPythonInstallsIntoAVenv) {
  PackageInstall p = TorchInstall("/usr/bin/python3.11");
  p.into_venv = true;
  EXPECT_EQ(InstallText(p, Shell::kPosix),
            "/usr/bin/python3.11 -m venv ~/.venvs/torch && ~/.venvs/torch/bin/python -m pip install torch==2.5.1 "
            "--index-url https://download.pytorch.org/whl/cu121");
  EXPECT_EQ(InstallText(p, Shell::kPowerShell).rfind("/usr/bin/python3.11 -m venv $HOME\\.venvs\\torch; & $HOME\\.venvs\\torch\\Scripts\\python.exe -m pip", 0), 0u);
  p.installer = Installer::kUv;
  EXPECT_EQ(InstallText(p, Shell::kPosix).rfind(
                "uv venv --allow-existing ~/.venvs/torch --python /usr/bin/python3.11 && "
                "uv pip install --python ~/.venvs/torch/bin/python torch==2.5.1",
                0),
            0u);
  EXPECT_EQ(InstallText(p, Shell::kPosix).find("--break-system-packages"), std::string::npos);
}

TEST(InterpreterCommands, PlanForAKnownInterpreterRunsItsPip) {
  MachineSpec s = Rtx3090("3.11");
  s.interpreter = "/usr/bin/python3.11";
  Plan p = MakePlan(TheCatalog(), s);
  ASSERT_NE(p.release, nullptr);
  EXPECT_EQ(p.commands.pip.rfind("/usr/bin/python3.11 -m pip install torch==2.5.1", 0), 0u) << p.commands.pip;
  EXPECT_EQ(p.commands.uv.rfind("uv pip install --python /usr/bin/python3.11 torch==2.5.1", 0), 0u) << p.commands.uv;
  EXPECT_FALSE(HasNote(p, "plan.note.assumed_python"));
  EXPECT_FALSE(HasNote(p, "plan.note.externally_managed"));
}

TEST(InterpreterCommands, PlanForADebianSystemPythonMakesAVenvAndSaysWhy) {
  MachineSpec s = Rtx3090("3.11");
  s.interpreter = "/usr/bin/python3.11";
  s.externally_managed = "/usr/lib/python3.11/EXTERNALLY-MANAGED";
  Plan p = MakePlan(TheCatalog(), s);
  ASSERT_NE(p.release, nullptr);
  EXPECT_EQ(p.commands.pip.rfind("/usr/bin/python3.11 -m venv ~/.venvs/torch && ~/.venvs/torch/bin/python -m pip install torch==2.5.1", 0), 0u)
      << p.commands.pip;
  ASSERT_TRUE(HasNote(p, "plan.note.externally_managed"));
  std::string text = RenderPlan(p, s, TextOptions{});
  EXPECT_NE(text.find("/usr/lib/python3.11/EXTERNALLY-MANAGED"), std::string::npos) << text;
  EXPECT_EQ(Count(text, "--break-system-packages"), 1u);  // mentioned, never in a command
  EXPECT_EQ(p.commands.pip.find("--break-system-packages"), std::string::npos);
}

TEST(InterpreterCommands, PlanForADescribedMachineSaysWhichPythonItAssumes) {
  Plan p = MakePlan(TheCatalog(), Rtx3090("3.10"));
  ASSERT_NE(p.release, nullptr);
  EXPECT_EQ(p.commands.pip.rfind("pip install torch==2.5.1", 0), 0u);
  ASSERT_TRUE(HasNote(p, "plan.note.assumed_python"));
  std::string text = RenderPlan(p, Rtx3090("3.10"), TextOptions{});
  EXPECT_NE(text.find("assume it belongs to Python 3.10"), std::string::npos) << text;
}

TEST(InterpreterCommands, WindowsTreePathsInWindowsForm) {
  EXPECT_EQ(WindowsPathForm("/Users/ann/AppData/Local/Programs/Python/Python312/python.exe"),
            "C:\\Users\\ann\\AppData\\Local\\Programs\\Python\\Python312\\python.exe");
  EXPECT_EQ(WindowsPathForm("/Python312/python.exe", "D:"), "D:\\Python312\\python.exe");
  EXPECT_EQ(PathForOs("/usr/bin/python3", Os::kLinux), "/usr/bin/python3");
}

TEST(InterpreterCommands, ExternallyManagedOnlyForTheSystemPythonItself) {
  FakeFs fs;
  fs.AddFile("/usr/lib/python3.11/EXTERNALLY-MANAGED", "[externally-managed]\nError=To install Python packages system-wide, try apt install\n");
  PythonEnv system;
  system.prefix = "/usr";
  system.executable = "/usr/bin/python3.11";
  system.version = PyVersion::Parse("3.11").value();
  EXPECT_EQ(FindExternallyManaged(fs, system), "/usr/lib/python3.11/EXTERNALLY-MANAGED");
  // A venv made from it, or a conda environment, is not externally managed, even with the marker.
  PythonEnv venv = system;
  venv.kind = PythonKind::kVenv;
  EXPECT_EQ(FindExternallyManaged(fs, venv), "");
  fs.AddFile("/opt/conda/lib/python3.11/EXTERNALLY-MANAGED", "[externally-managed]\n");
  PythonEnv conda = system;
  conda.prefix = "/opt/conda";
  conda.kind = PythonKind::kConda;
  EXPECT_EQ(FindExternallyManaged(fs, conda), "");
  PythonEnv other = system;
  other.version = PyVersion::Parse("3.12").value();
  EXPECT_EQ(FindExternallyManaged(fs, other), "");
}

TEST(InterpreterCommands, SjtuPypiMirrorUsesItsOperatorsPytorchWheels) {
  MachineSpec s = Rtx3090("3.10");
  s.mirror = FindMirror(TheCatalog(), "sjtu");
  ASSERT_NE(s.mirror, nullptr);
  Plan p = MakePlan(TheCatalog(), s);
  ASSERT_NE(p.release, nullptr);
  EXPECT_FALSE(p.commands.mirror_cannot_serve);
  EXPECT_EQ(p.commands.pip.find("download.pytorch.org"), std::string::npos) << p.commands.pip;
  EXPECT_NE(p.commands.pip.find("-f https://mirror.sjtu.edu.cn/pytorch-wheels/torch_stable.html"), std::string::npos);
  EXPECT_NE(p.commands.pip.find("-i https://mirror.sjtu.edu.cn/pypi/web/simple"), std::string::npos);
  EXPECT_NE(p.commands.pip.find("torch==2.5.1+cu121"), std::string::npos);  // find-links pins name the label
  EXPECT_TRUE(HasNote(p, "plan.note.operator_mirror"));
}

TEST(InterpreterCommands, TheLtsWheelsAreNotOnAFindLinksMirror) {
  MachineSpec s = Rtx3090("3.8");
  s.driver = DriverVersion::Parse("470.82.01").value();
  s.torch = SpecifierSet::Parse("==1.8.2").value();
  s.variant.reset();
  s.mirror = FindMirror(TheCatalog(), "sjtu");
  Plan p = MakePlan(TheCatalog(), s);
  ASSERT_NE(p.release, nullptr);
  EXPECT_NE(p.commands.pip.find("https://download.pytorch.org/whl/lts/1.8/"), std::string::npos) << p.commands.pip;
  EXPECT_EQ(p.commands.pip.find("mirror.sjtu.edu.cn"), std::string::npos) << p.commands.pip;
  EXPECT_TRUE(p.commands.mirror_cannot_serve);
  EXPECT_FALSE(HasNote(p, "plan.note.operator_mirror"));
}

TEST(InterpreterCommands, AFallbackToThePytorchIndexIsSaidOnce) {
  MachineSpec s = Rtx3090("3.10");
  s.variant = Variant::Parse("cu118").value();
  s.mirror = FindMirror(TheCatalog(), "tuna");  // no PyTorch-wheel mirror of TUNA in the catalog
  Plan p = MakePlan(TheCatalog(), s);
  ASSERT_NE(p.release, nullptr);
  EXPECT_TRUE(p.commands.mirror_cannot_serve);
  std::string text = RenderPlan(p, s, TextOptions{});
  EXPECT_EQ(Count(text, "PyTorch index"), 1u) << text;
}

TEST(InterpreterCommands, ChineseLocaleShowsTheMirroredCommandUnderTheOfficialOne) {
  MachineSpec s = Rtx3090("3.10");
  s.alternative_mirror = MirrorWithPytorchWheels(TheCatalog());
  ASSERT_NE(s.alternative_mirror, nullptr);
  Plan p = MakePlan(TheCatalog(), s);
  ASSERT_NE(p.release, nullptr);
  std::string text = RenderPlan(p, s, TextOptions{Lang::kZh, Style{}, false});
  size_t official = text.find("pip    pip install torch==2.5.1 torchvision");
  size_t mirrored = text.find("镜像 sjtu  pip install torch==2.5.1+cu121");
  ASSERT_NE(official, std::string::npos) << text;
  ASSERT_NE(mirrored, std::string::npos) << text;
  EXPECT_LT(official, mirrored);
  EXPECT_EQ(text.find('\n', official) + 1, text.rfind('\n', mirrored) + 1);  // the next line
  // With --mirror in Chinese: the official command first, the mirrored one under it.
  MachineSpec m = Rtx3090("3.10");
  m.mirror = FindMirror(TheCatalog(), "sjtu");
  Plan pm = MakePlan(TheCatalog(), m);
  std::string zh = RenderPlan(pm, m, TextOptions{Lang::kZh, Style{}, false});
  EXPECT_LT(zh.find("--index-url https://download.pytorch.org/whl/cu121"), zh.find("镜像 sjtu  pip install")) << zh;
  // English keeps one pip line: the one asked for.
  std::string en = RenderPlan(pm, m, TextOptions{});
  EXPECT_EQ(en.find("download.pytorch.org/whl/cu121"), std::string::npos) << en;
}

// Debian's system Python with a CPU torch (pip install --break-system-packages once) on a GPU
// machine: the fix installs the CUDA build into a venv made with that Python, and says why.
TEST(InterpreterCommands, DoctorFixForAnExternallyManagedPythonUsesAVenv) {
  Snapshot s = testing::MachineWithDriver("570.133.07", "12.8");
  s.host.os_id = "debian";
  GpuInfo g;
  g.name = "NVIDIA GeForce RTX 4090";
  g.cc = ComputeCapability::Parse("8.9").value();
  g.cc_source = "catalog";
  s.gpus.push_back(g);
  PythonEnv env;
  env.prefix = "/usr";
  env.executable = "/usr/bin/python3.11";
  env.version = PyVersion::Parse("3.11").value();
  env.externally_managed = "/usr/lib/python3.11/EXTERNALLY-MANAGED";
  PackageInfo torch;
  torch.name = "torch";
  torch.version = Pep440::Parse("2.4.0+cpu").value();
  torch.variant = *Variant::Parse("cpu");
  env.packages["torch"] = torch;
  s.pythons.push_back(env);
  for (const Finding& f : PlannedFindings(s, TheCatalog())) {
    if (f.id != "torch.cpu_build") continue;
    std::string fix = RemedyText(f.remedy);
    EXPECT_EQ(fix.rfind("/usr/bin/python3.11 -m venv ~/.venvs/torch && ~/.venvs/torch/bin/python -m pip install torch==", 0), 0u) << fix;
    bool said = std::any_of(f.evidence.begin(), f.evidence.end(), [](const EvidenceItem& e) {
      auto marker = std::find_if(e.args.begin(), e.args.end(), [](const auto& a) { return a.first == "marker"; });
      return e.id == "evidence.externally_managed" && marker != e.args.end() &&
             marker->second == "/usr/lib/python3.11/EXTERNALLY-MANAGED";
    });
    EXPECT_TRUE(said);
    return;
  }
  ADD_FAILURE() << "no torch.cpu_build finding";
}

}  // namespace
}  // namespace cudamatch
