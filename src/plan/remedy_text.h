// A Remedy as the text a user runs in their shell (POSIX sh, PowerShell or cmd).
#pragma once

#include <string>

#include "diagnose/remedy.h"

namespace cudamatch {

// "pip install torch==2.3.1+cu118 --index-url https://download.pytorch.org/whl/cu118",
// "/env/bin/python3.10 -m pip install 'nvidia-cudnn-cu12==9.1.0.70'", "uv pip install ...".
std::string InstallText(const PackageInstall& p, Shell shell);

// The venv an externally managed Python's installs go into, as `shell` writes it:
// ~/.venvs/torch, $HOME\.venvs\torch (PowerShell), %USERPROFILE%\.venvs\torch (cmd).
std::string VenvDir(Shell shell);
// That venv's interpreter: <VenvDir>/bin/python, <VenvDir>\Scripts\python.exe.
std::string VenvPython(Shell shell);

// Every step, joined by " && " (POSIX sh and cmd) or "; " (PowerShell).
std::string RemedyText(const Remedy& r);

// The text of an optional remedy, "" for none.
std::string RemedyText(const std::optional<Remedy>& r);

}  // namespace cudamatch
