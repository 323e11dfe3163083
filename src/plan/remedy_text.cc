#include "plan/remedy_text.h"

#include <cctype>

#include "core/text.h"

namespace cudamatch {

namespace {

// A word the shell must not split or expand: '...' in POSIX sh and PowerShell, "..." in cmd.
std::string Quoted(const std::string& word, Shell shell) {
  if (shell == Shell::kCmd) return "\"" + word + "\"";
  return "'" + word + "'";
}

std::string PinText(const InstallPin& p, Shell shell) {
  if (p.Exact()) return p.name + "==" + p.version->Public() + (p.label.empty() ? "" : "+" + p.label);
  return Quoted(p.name + p.spec, shell);
}

std::string_view IndexFlag(IndexOption o) {
  switch (o) {
    case IndexOption::kIndexUrl: return "--index-url";
    case IndexOption::kExtraIndexUrl: return "--extra-index-url";
    case IndexOption::kFindLinks: return "-f";
    case IndexOption::kShortIndex: return "-i";
    case IndexOption::kNone: break;
  }
  return "";
}

// A word every shell passes as it is: letters, digits and "_-./+:" (and "\\" outside POSIX sh).
bool PlainWord(std::string_view w, Shell shell) {
  std::string_view extra = shell == Shell::kPosix ? "_-./+:" : "_-./+:\\";
  for (char c : w) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && extra.find(c) == std::string_view::npos) return false;
  }
  return !w.empty();
}

// An interpreter path as an argument ("--python PATH"): quoted unless it is a plain word. A
// leading "~/" stays outside the quotes so that the shell expands it.
std::string PathArg(const std::string& path, Shell shell) {
  if (shell == Shell::kPosix && StartsWith(path, "~/")) return "~/" + PathArg(path.substr(2), shell);
  if (PlainWord(path, shell) || StartsWith(path, "$HOME\\") || StartsWith(path, "%USERPROFILE%\\")) return path;
  if (shell == Shell::kCmd) return "\"" + path + "\"";
  std::string out = "'";
  for (char c : path) out += c != '\'' ? std::string(1, c) : shell == Shell::kPosix ? "'\\''" : "''";
  return out + "'";
}

// An interpreter path run as a command: PowerShell runs a quoted path only through its call
// operator ("& 'C:\Program Files\Python312\python.exe'").
std::string RunPath(const std::string& path, Shell shell) {
  std::string word = PathArg(path, shell);
  if (shell == Shell::kPowerShell && (word.front() == '\'' || StartsWith(word, "$"))) return "& " + word;
  return word;
}

// "python3.11 -m venv ~/.venvs/torch && " (or uv's), before an install into that venv.
std::string VenvPrefix(const PackageInstall& p, Shell shell) {
  if (!p.into_venv || p.interpreter.empty()) return "";
  std::string sep = shell == Shell::kPowerShell ? "; " : " && ";
  if (p.installer == Installer::kUv) return "uv venv --allow-existing " + VenvDir(shell) + " --python " + PathArg(p.interpreter, shell) + sep;
  return RunPath(p.interpreter, shell) + " -m venv " + VenvDir(shell) + sep;
}

std::string Command(const PackageInstall& p, Shell shell) {
  std::string interpreter = p.into_venv ? VenvPython(shell) : p.interpreter;
  if (p.installer == Installer::kUv) return interpreter.empty() ? "uv pip install" : "uv pip install --python " + PathArg(interpreter, shell);
  if (p.installer == Installer::kConda) return "conda install";
  return interpreter.empty() ? "pip install" : RunPath(interpreter, shell) + " -m pip install";
}

std::string EnvText(const EnvChange& e, Shell shell) {
  std::vector<std::string> parts;
  for (const std::string& name : e.unset) {
    if (shell == Shell::kPosix) return "unset " + Join(e.unset, " ");
    parts.push_back(shell == Shell::kPowerShell ? "Remove-Item Env:" + name : "set " + name + "=");
  }
  if (!e.set.empty() && shell == Shell::kPosix) {
    std::string out = "export";
    for (const EnvAssign& a : e.set) out += " " + a.name + "=" + a.value + (a.prepend ? ":$" + a.name : "");
    return out;
  }
  for (const EnvAssign& a : e.set) {
    if (shell == Shell::kPowerShell) {
      parts.push_back("$env:" + a.name + " = \"" + a.value + (a.prepend ? ";$env:" + a.name : "") + "\"");
    } else {
      parts.push_back("set \"" + a.name + "=" + a.value + (a.prepend ? ";%" + a.name + "%" : "") + "\"");
    }
  }
  return Join(parts, shell == Shell::kPowerShell ? "; " : " && ");
}

std::string InstallDriver(const std::string& os_id) {
  if (os_id == "ubuntu") return "sudo ubuntu-drivers install";
  if (os_id == "debian") return "sudo apt-get install nvidia-driver firmware-misc-nonfree";
  return "";
}

// Reinstalls the driver packages at one version (the kernel module is rebuilt); "" for
// distributions not known here.
std::string ReinstallDriver(const std::string& os_id, const std::string& branch) {
  if (os_id == "ubuntu" || os_id == "pop" || os_id == "linuxmint") return "sudo apt-get install --reinstall nvidia-driver-" + branch;
  if (os_id == "debian") return "sudo apt-get install --reinstall nvidia-driver nvidia-kernel-dkms";
  if (os_id == "fedora") return "sudo dnf upgrade --refresh 'akmod-nvidia' 'xorg-x11-drv-nvidia*' && sudo akmods --force";
  if (os_id == "rhel" || os_id == "rocky" || os_id == "almalinux" || os_id == "centos") {
    return "sudo dnf upgrade --refresh 'nvidia-driver*' 'kmod-nvidia*'";
  }
  if (StartsWith(os_id, "opensuse") || os_id == "sles") return "sudo zypper update 'nvidia-*'";
  return "";
}

std::string SystemText(const SystemStep& s) {
  switch (s.kind) {
    case SystemStep::Kind::kInstallDriver: return InstallDriver(s.os_id);
    case SystemStep::Kind::kReinstallDriver: return ReinstallDriver(s.os_id, s.branch);
    case SystemStep::Kind::kReboot: return "sudo reboot";
    case SystemStep::Kind::kLoadModule: return "sudo modprobe nvidia";
    case SystemStep::Kind::kPurgeLinuxDriver: return "sudo apt-get purge 'nvidia-driver-*' 'libnvidia-compute-*'";
    case SystemStep::Kind::kContainerGpus: return "docker run --gpus all ...";
    case SystemStep::Kind::kPodNvidiaRuntime: return "runtimeClassName: nvidia";
    case SystemStep::Kind::kInstallCompiler: return "sudo apt-get install g++-" + std::to_string(s.gcc);
  }
  return "";
}

std::string RebuildText(const Rebuild& r, Shell shell) {
  std::string pin = r.version ? "==" + r.version->ToString() : "";
  std::string env;
  if (!r.arch_list.empty()) env += "TORCH_CUDA_ARCH_LIST=\"" + r.arch_list + "\" ";
  if (!r.cuda_home.empty()) env += "CUDA_HOME=" + r.cuda_home + " ";
  for (const EnvAssign& a : r.build_env) env += a.name + "=" + a.value + " ";
  if (shell != Shell::kPosix && !env.empty()) {
    EnvChange e;
    if (!r.arch_list.empty()) e.set.push_back({"TORCH_CUDA_ARCH_LIST", r.arch_list});
    if (!r.cuda_home.empty()) e.set.push_back({"CUDA_HOME", r.cuda_home});
    e.set.insert(e.set.end(), r.build_env.begin(), r.build_env.end());
    env = EnvText(e, shell) + (shell == Shell::kPowerShell ? "; " : " && ");
  }
  std::string python = r.interpreter.empty() ? "python" : RunPath(r.interpreter, shell);
  if (!r.project.empty()) {
    std::string build = r.develop ? " setup.py develop" : " -m pip install -e . --no-build-isolation";
    return "cd " + Quoted(r.project, shell) + (shell == Shell::kPowerShell ? "; " : " && ") + env + python + build;
  }
  std::string replace = r.fresh ? "" : " --force-reinstall --no-deps";
  // Without an interpreter (a machine described by flags), the user's own pip, as installs say it.
  std::string pip = r.interpreter.empty() ? "pip install" : python + " -m pip install";
  return env + pip + replace + " --no-build-isolation --no-binary " + r.package + " \"" + r.package +
         pin + "\"";
}

std::string StepText(const RemedyStep& step, Shell shell) {
  if (const auto* p = std::get_if<PackageInstall>(&step)) return InstallText(*p, shell);
  if (const auto* e = std::get_if<EnvChange>(&step)) return EnvText(*e, shell);
  if (const auto* s = std::get_if<SystemStep>(&step)) return SystemText(*s);
  if (const auto* r = std::get_if<Rebuild>(&step)) return RebuildText(*r, shell);
  return std::get<Advice>(step).text;
}

}  // namespace

std::string VenvDir(Shell shell) {
  switch (shell) {
    case Shell::kPowerShell: return "$HOME\\.venvs\\torch";
    case Shell::kCmd: return "%USERPROFILE%\\.venvs\\torch";
    case Shell::kPosix: break;
  }
  return "~/.venvs/torch";
}

std::string VenvPython(Shell shell) {
  return shell == Shell::kPosix ? VenvDir(shell) + "/bin/python" : VenvDir(shell) + "\\Scripts\\python.exe";
}

std::string InstallText(const PackageInstall& p, Shell shell) {
  std::string out = VenvPrefix(p, shell) + Command(p, shell);
  if (p.force_reinstall) out += " --force-reinstall";
  if (p.no_deps) out += " --no-deps";
  for (const InstallPin& pin : p.pins) out += " " + PinText(pin, shell);
  if (p.index != IndexOption::kNone) out += " " + std::string(IndexFlag(p.index)) + " " + p.index_url;
  // Beside --index-url a second index is an extra one; beside -f (or alone) it is the index.
  if (!p.pypi_index.empty()) out += (p.index == IndexOption::kIndexUrl ? " --extra-index-url " : " -i ") + p.pypi_index;
  return out;
}

std::string RemedyText(const Remedy& r) {
  std::vector<std::string> parts;
  for (const RemedyStep& step : r.steps) {
    std::string text = StepText(step, r.shell);
    if (text.empty()) return "";  // a step with no command for this system: no command at all
    parts.push_back(std::move(text));
  }
  return Join(parts, r.shell == Shell::kPowerShell ? "; " : " && ");
}

std::string RemedyText(const std::optional<Remedy>& r) { return r ? RemedyText(*r) : ""; }

}  // namespace cudamatch
