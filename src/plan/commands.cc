#include "plan/commands.h"

#include "core/text.h"
#include "plan/remedy_text.h"

namespace cudamatch {

namespace {

constexpr std::string_view kWheelBase = "https://download.pytorch.org/whl";

InstallPin Pin(const char* name, const Pep440& v, const std::string& label) {
  InstallPin p;
  p.name = name;
  p.version = v.WithoutLocal();
  p.label = label;
  return p;
}

// Labelled pins carry "+cu118" on torch and torchvision; torchaudio stays unlabelled, as the
// PyTorch pages wrote it in the find-links and extra-index eras.
std::vector<InstallPin> MakePins(const InstallRequest& r, bool labelled) {
  const std::string label = labelled ? r.variant->variant.tag : "";
  std::vector<InstallPin> p;
  if (r.with_torch) p.push_back(Pin("torch", r.release->torch, label));
  if (r.with_torchvision && r.release->torchvision) p.push_back(Pin("torchvision", *r.release->torchvision, label));
  if (r.with_torchaudio && r.release->torchaudio) p.push_back(Pin("torchaudio", *r.release->torchaudio, ""));
  return p;
}

std::string MirrorOfficial() { return std::string(kWheelBase); }

std::string MirrorBase(const Mirror& m) {
  std::string url = m.url;
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

void Index(PackageInstall& p, IndexOption option, std::string url) {
  p.index = option;
  p.index_url = std::move(url);
}

// The pip arguments after "pip install".
PackageInstall PipArgs(const InstallRequest& r, bool is_default, InstallCommands& cmds) {
  const std::string& tag = r.variant->variant.tag;
  const std::string wheel_base(kWheelBase);
  const Mirror* m = r.mirror != nullptr && r.mirror->url == MirrorOfficial() ? nullptr : r.mirror;
  PackageInstall p;
  p.variant = tag;
  if (is_default) {
    cmds.notes.push_back("note.pypi_default");
    p.variant.clear();
    p.pins = MakePins(r, false);
    if (m != nullptr && m->kind == "pypi") Index(p, IndexOption::kShortIndex, m->url);
    if (m != nullptr && m->kind == "pytorch") cmds.notes.push_back("note.mirror_not_needed");
    return p;
  }
  if (m != nullptr && m->kind == "pypi") m = r.pytorch_mirror;
  // A find-links mirror copies the main torch_stable.html, which does not list the 1.8 LTS wheels.
  if (m != nullptr && m->layout == "find-links" && r.release->era == InstallEra::kLts) m = nullptr;
  if (r.mirror != nullptr && r.mirror->kind == "pypi") {
    cmds.operator_mirror = m;
    if (m != nullptr) p.pypi_index = r.mirror->url;
    cmds.mirror_cannot_serve = m == nullptr;
    if (m == nullptr) cmds.notes.push_back("note.mirror_cannot_serve");
  }
  if (m != nullptr) {
    if (m->layout == "find-links") {
      p.pins = MakePins(r, true);
      Index(p, IndexOption::kFindLinks, m->url);
      return p;
    }
    p.pins = MakePins(r, r.release->era != InstallEra::kIndexUrl);
    Index(p, IndexOption::kIndexUrl, MirrorBase(*m) + "/" + tag);
    return p;
  }
  switch (r.release->era) {
    case InstallEra::kIndexUrl:
      p.pins = MakePins(r, false);
      Index(p, IndexOption::kIndexUrl, wheel_base + "/" + tag);
      return p;
    case InstallEra::kExtraIndex:
      p.pins = MakePins(r, true);
      Index(p, IndexOption::kExtraIndexUrl, wheel_base + "/" + tag);
      return p;
    case InstallEra::kFindLinks:
      cmds.notes.push_back("note.find_links");
      p.pins = MakePins(r, true);
      Index(p, IndexOption::kFindLinks, wheel_base + "/torch_stable.html");
      return p;
    case InstallEra::kLts:
      p.pins = MakePins(r, false);
      Index(p, IndexOption::kExtraIndexUrl, wheel_base + "/lts/1.8/" + tag);
      return p;
    case InstallEra::kDirect: {
      cmds.notes.push_back("note.direct_download");
      InstallRequest no_audio = r;
      no_audio.with_torchaudio = false;
      p.pins = MakePins(no_audio, false);
      Index(p, IndexOption::kFindLinks, wheel_base + "/" + tag + "/torch_stable.html");
      return p;
    }
    case InstallEra::kUnknown:
      break;
  }
  cmds.notes.push_back("note.era_unknown");
  p.pins = MakePins(r, false);
  Index(p, IndexOption::kIndexUrl, wheel_base + "/" + tag);
  return p;
}

std::optional<std::string> CondaCommand(const InstallRequest& r, InstallCommands& cmds) {
  const TorchRelease& t = *r.release;
  const Variant& v = r.variant->variant;
  bool cpu = v.kind == Variant::Kind::kCpu;
  if (t.conda == CondaForm::kNone || t.conda == CondaForm::kUnknown || v.kind == Variant::Kind::kRocm ||
      v.kind == Variant::Kind::kOther) {
    cmds.notes.push_back(t.conda == CondaForm::kNone        ? "note.conda_channel_ended"
                         : v.kind == Variant::Kind::kRocm ? "note.conda_rocm"
                                                          : "note.conda_unknown");
    return std::nullopt;
  }
  bool old_cpu_names = cpu && t.torch < Pep440::Parse("1.2").value();
  std::string pkgs = (old_cpu_names ? "pytorch-cpu==" : "pytorch==") + t.torch.Public();
  if (r.with_torchvision && t.torchvision) {
    pkgs += (old_cpu_names ? " torchvision-cpu==" : " torchvision==") + t.torchvision->Public();
  }
  if (r.with_torchaudio && t.torchaudio) pkgs += " torchaudio==" + t.torchaudio->Public();
  std::string channel = t.era == InstallEra::kLts ? "-c pytorch-lts" : "-c pytorch";
  if (cpu) return "conda install " + pkgs + " cpuonly " + channel;
  const std::string cuda = v.cuda->MajorMinor();
  switch (t.conda) {
    case CondaForm::kPytorchCuda:
      return "conda install " + pkgs + " pytorch-cuda=" + cuda + " " + channel + " -c nvidia";
    case CondaForm::kCudatoolkit:
      if (v.cuda->major >= 11) cmds.notes.push_back("note.conda_cudatoolkit_11");
      return "conda install " + pkgs + " cudatoolkit=" + cuda + " " + channel +
             (t.era == InstallEra::kLts ? " -c nvidia" : "");
    case CondaForm::kCudaMetapackage:
      return "conda install " + pkgs + " " + std::string("cuda") + std::to_string(v.cuda->major) +
             std::to_string(v.cuda->minor) + " " + channel;
    default:
      break;
  }
  return std::nullopt;
}

}  // namespace

InstallCommands BuildInstallCommands(const InstallRequest& req) {
  InstallCommands cmds;
  bool is_default = req.variant->pypi_default;
  cmds.pip_install = PipArgs(req, is_default, cmds);
  // A known interpreter runs its own pip ("<interpreter> -m pip"): `pip` on PATH may belong to
  // another Python. Without one, on Windows `python -m pip` installs into the Python that
  // `python` runs (pip.exe on PATH may belong to another install), in PowerShell and cmd alike.
  cmds.pip_install.interpreter = req.interpreter;
  if (req.interpreter.empty() && req.platform.os == Os::kWindows) cmds.pip_install.interpreter = "python";
  cmds.pip_install.into_venv = req.externally_managed && !req.interpreter.empty();
  Shell shell = req.platform.os == Os::kWindows ? Shell::kPowerShell : Shell::kPosix;
  cmds.pip = InstallText(cmds.pip_install, shell);
  PackageInstall uv = cmds.pip_install;
  uv.installer = Installer::kUv;
  uv.interpreter = req.interpreter;  // "uv pip install --python <interpreter>"
  cmds.uv = InstallText(uv, shell);
  cmds.conda = CondaCommand(req, cmds);
  return cmds;
}

}  // namespace cudamatch
