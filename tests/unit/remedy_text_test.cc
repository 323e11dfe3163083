// Remedies rendered for the user's shell: the POSIX forms doctor prints on Linux (byte for byte
// what the goldens hold), PowerShell on Windows, cmd quoting.
#include <gtest/gtest.h>

#include "plan/remedy.h"
#include "plan/remedy_text.h"

namespace cudamatch {
namespace {

PackageInstall NvidiaWheels() {
  PackageInstall p;
  p.interpreter = "/home/u/venv/bin/python3.10";
  p.pins = {InstallPin{"nvidia-cudnn-cu12", std::nullopt, "", "==9.1.0.70", Pep440::Parse("9.1.0.70").value()},
            InstallPin{"nvidia-nccl-cu12", std::nullopt, "", ">=2.20.5", Pep440::Parse("2.20.5").value()}};
  return p;
}

TEST(RemedyText, InstallsQuoteRequirementsForEachShell) {
  PackageInstall p = NvidiaWheels();
  EXPECT_EQ(InstallText(p, Shell::kPosix),
            "/home/u/venv/bin/python3.10 -m pip install 'nvidia-cudnn-cu12==9.1.0.70' 'nvidia-nccl-cu12>=2.20.5'");
  EXPECT_EQ(InstallText(p, Shell::kPowerShell),
            "/home/u/venv/bin/python3.10 -m pip install 'nvidia-cudnn-cu12==9.1.0.70' 'nvidia-nccl-cu12>=2.20.5'");
  EXPECT_EQ(InstallText(p, Shell::kCmd),
            "/home/u/venv/bin/python3.10 -m pip install \"nvidia-cudnn-cu12==9.1.0.70\" \"nvidia-nccl-cu12>=2.20.5\"");
  // uv names the interpreter too: `uv pip install` alone picks a venv or fails.
  p.installer = Installer::kUv;
  EXPECT_EQ(InstallText(p, Shell::kPosix),
            "uv pip install --python /home/u/venv/bin/python3.10 'nvidia-cudnn-cu12==9.1.0.70' 'nvidia-nccl-cu12>=2.20.5'");
}

TEST(RemedyText, ExactPinsNameTheirLabelAndTheIndex) {
  PackageInstall p;
  p.force_reinstall = p.no_deps = true;
  p.pins = {InstallPin{"torchvision", Pep440::Parse("0.17.1").value(), "", "", std::nullopt}};
  p.index = IndexOption::kIndexUrl;
  p.index_url = "https://download.pytorch.org/whl/cpu";
  EXPECT_EQ(InstallText(p, Shell::kPosix),
            "pip install --force-reinstall --no-deps torchvision==0.17.1 --index-url https://download.pytorch.org/whl/cpu");
  ReplaceInstalledBuild(p, "cu118", false);
  EXPECT_EQ(InstallText(p, Shell::kPosix),
            "pip install --force-reinstall --no-deps torchvision==0.17.1+cu118 --index-url https://download.pytorch.org/whl/cpu");
}

TEST(RemedyText, EnvironmentChangesPerShell) {
  Remedy unset{{EnvChange{{"LD_LIBRARY_PATH"}, {}}}, Shell::kPosix};
  EXPECT_EQ(RemedyText(unset), "unset LD_LIBRARY_PATH");
  unset.shell = Shell::kPowerShell;
  EXPECT_EQ(RemedyText(unset), "Remove-Item Env:LD_LIBRARY_PATH");
  unset.shell = Shell::kCmd;
  EXPECT_EQ(RemedyText(unset), "set LD_LIBRARY_PATH=");
  Remedy toolkit{{EnvChange{{}, {{"CUDA_HOME", "/usr/local/cuda-11.8"}, {"PATH", "/usr/local/cuda-11.8/bin", true}}}},
                 Shell::kPosix};
  EXPECT_EQ(RemedyText(toolkit), "export CUDA_HOME=/usr/local/cuda-11.8 PATH=/usr/local/cuda-11.8/bin:$PATH");
  toolkit.shell = Shell::kPowerShell;
  EXPECT_EQ(RemedyText(toolkit),
            "$env:CUDA_HOME = \"/usr/local/cuda-11.8\"; $env:PATH = \"/usr/local/cuda-11.8/bin;$env:PATH\"");
  toolkit.shell = Shell::kCmd;
  EXPECT_EQ(RemedyText(toolkit), "set \"CUDA_HOME=/usr/local/cuda-11.8\" && set \"PATH=/usr/local/cuda-11.8/bin;%PATH%\"");
}

TEST(RemedyText, StepsJoinAndAStepWithoutACommandLeavesNone) {
  Remedy reinstall{{SystemStep{SystemStep::Kind::kReinstallDriver, "ubuntu", "550", 0},
                    SystemStep{SystemStep::Kind::kReboot, "ubuntu", "", 0}},
                   Shell::kPosix};
  EXPECT_EQ(RemedyText(reinstall), "sudo apt-get install --reinstall nvidia-driver-550 && sudo reboot");
  std::get<SystemStep>(reinstall.steps[0]).os_id = "gentoo";  // no known command
  EXPECT_EQ(RemedyText(reinstall), "");
  Remedy gcc{{SystemStep{SystemStep::Kind::kInstallCompiler, "", "", 8}, EnvChange{{}, {{"CC", "gcc-8"}, {"CXX", "g++-8"}}}},
             Shell::kPosix};
  EXPECT_EQ(RemedyText(gcc), "sudo apt-get install g++-8 && export CC=gcc-8 CXX=g++-8");
}

TEST(RemedyText, RebuildSetsTheArchListBeforeTheEnvironmentsPip) {
  Rebuild rebuild{"flash-attn", Pep440::Parse("2.6.3").value(), "7.5", ""};
  rebuild.interpreter = "/home/dave/.venvs/sd/bin/python3.11";
  Remedy r{{rebuild}, Shell::kPosix};
  EXPECT_EQ(RemedyText(r),
            "TORCH_CUDA_ARCH_LIST=\"7.5\" /home/dave/.venvs/sd/bin/python3.11 -m pip install --force-reinstall --no-deps "
            "--no-build-isolation --no-binary flash-attn \"flash-attn==2.6.3\"");
  // PowerShell runs a quoted interpreter path through its call operator.
  std::get<Rebuild>(r.steps[0]).interpreter = "C:\\Program Files\\Python311\\python.exe";
  r.shell = Shell::kPowerShell;
  EXPECT_EQ(RemedyText(r),
            "$env:TORCH_CUDA_ARCH_LIST = \"7.5\"; & 'C:\\Program Files\\Python311\\python.exe' -m pip install "
            "--force-reinstall --no-deps --no-build-isolation --no-binary flash-attn \"flash-attn==2.6.3\"");
  // No interpreter known (a machine described by flags): the user's own pip, as installs say it.
  // A first install (check's advice) keeps its dependencies and replaces nothing.
  std::get<Rebuild>(r.steps[0]).interpreter.clear();
  std::get<Rebuild>(r.steps[0]).fresh = true;
  r.shell = Shell::kPosix;
  EXPECT_EQ(RemedyText(r),
            "TORCH_CUDA_ARCH_LIST=\"7.5\" pip install --no-build-isolation --no-binary flash-attn \"flash-attn==2.6.3\"");
}

// An editable install is rebuilt where it lives, the way it was installed
// (facebookresearch/detectron2#235: `TORCH_CUDA_ARCH_LIST=... python -m pip install -e detectron2`).
TEST(RemedyText, RebuildOfAnEditableInstallRunsInItsProjectDirectory) {
  Rebuild pep660{"detectron2", Pep440::Parse("0.6").value(), "5.2;7.5", "/usr/local/cuda-12.1"};
  pep660.project = "/data2/detectron2";
  pep660.interpreter = "/venv/bin/python";
  EXPECT_EQ(RemedyText(Remedy{{pep660}, Shell::kPosix}),
            "cd '/data2/detectron2' && TORCH_CUDA_ARCH_LIST=\"5.2;7.5\" CUDA_HOME=/usr/local/cuda-12.1 /venv/bin/python -m pip "
            "install -e . --no-build-isolation");
  Rebuild develop{"detectron2", std::nullopt, "", ""};
  develop.project = "/home/ubuntu/my detectron2";
  develop.develop = true;
  develop.interpreter = "python";
  EXPECT_EQ(RemedyText(Remedy{{develop}, Shell::kPosix}), "cd '/home/ubuntu/my detectron2' && python setup.py develop");
}

}  // namespace
}  // namespace cudamatch
