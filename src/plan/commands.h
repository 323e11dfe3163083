// Install commands for one torch release and wheel variant, in the form of that release's era
// (catalog/README.md, install_era): direct downloads, "+cuXXX -f torch_stable.html",
// "--extra-index-url", "--index-url", the 1.8 LTS index; conda's pytorch channel up to 2.5.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "core/platform.h"
#include "diagnose/remedy.h"

namespace cudamatch {

struct InstallCommands {
  PackageInstall pip_install;  // the pip command as data; `pip` and `uv` are its renderings
  std::string pip;
  std::string uv;
  std::optional<std::string> conda;  // nullopt: no package on the official conda channel
  std::vector<std::string> notes;    // message ids explaining the form ("note.*")
  bool mirror_cannot_serve = false;  // the chosen mirror lacks this variant (and its operator has no PyTorch mirror)
  const Mirror* operator_mirror = nullptr;  // the PyTorch-wheel mirror of the chosen PyPI mirror's operator, when used
  // Plain pip from PyPI (the release's PyPI default build): its wheels carry no "+cuXXX" label.
  bool FromPypi() const { return std::find(notes.begin(), notes.end(), "note.pypi_default") != notes.end(); }
};

struct InstallRequest {
  const TorchRelease* release = nullptr;
  const TorchVariant* variant = nullptr;
  Platform platform;
  bool with_torchvision = true;
  bool with_torchaudio = true;
  const Mirror* mirror = nullptr;  // --mirror; null for the official indexes
  bool with_torch = true;          // false: only the companions, from torch's index
  // The PyTorch-wheel mirror of `mirror`'s operator (PytorchMirrorOf), for the variants a PyPI
  // mirror lacks; null: those come from download.pytorch.org.
  const Mirror* pytorch_mirror = nullptr;
  // The interpreter the commands install into ("/usr/bin/python3.11", "C:\...\python.exe");
  // "": the user's `pip` (`python -m pip` on Windows).
  std::string interpreter;
  bool externally_managed = false;  // PEP 668: install into a venv made with `interpreter`
};

InstallCommands BuildInstallCommands(const InstallRequest& req);

}  // namespace cudamatch
