// The Windows layout of the Python probe (python_layout.h), for Windows trees under --root.
// Paths are found caselessly (win_paths.h). Sources, in order:
//   discovery: --python PATH, VIRTUAL_ENV, CONDA_PREFIX, venvs (pyvenv.cfg) in the working
//              directory and its subdirectories, python.exe on PATH (Scripts\ means its parent),
//              python.org installs (Users/*/AppData/Local/Programs/Python/Python3*, Program
//              Files/Python3*), Anaconda / Miniconda / Miniforge (Users/*/{anaconda3,miniconda3,
//              miniforge3}, ProgramData/{...}, each with envs/*), Microsoft Store Python
//              (Users/*/AppData/Local/Packages/PythonSoftwareFoundation.Python.3.*)
//   not read:  the PEP 514 registry entries and the py launcher's list (both come from the
//              registry, which is not parsed); said so in the trail
//   version:   pyvenv.cfg, python3XY.dll in the prefix, conda-meta/python-3.X.Y-*.json, the
//              install directory's name (Python311) or the Store package's (Python.3.11_...)
//   packages:  Lib/site-packages; the Store's LocalCache/local-packages/Python3XY/site-packages;
//              the user site %APPDATA%\Python\Python3XY\site-packages outside venvs
//   active:    VIRTUAL_ENV, else CONDA_PREFIX, else the first python.exe on PATH
#include "core/text.h"
#include "probe/python_layout.h"
#include "probe/win_paths.h"

namespace cudamatch {

namespace {

constexpr const char* kCondaRoots[] = {"anaconda3", "miniconda3", "miniforge3", "mambaforge"};
constexpr const char* kStorePrefix = "PythonSoftwareFoundation.Python.";

PyCandidate At(std::string prefix, std::optional<PythonKind> kind, std::string found_by) {
  PyCandidate c;
  c.prefix = std::move(prefix);
  c.kind = kind;
  c.found_by = std::move(found_by);
  return c;
}

// "Python311" -> 3.11, "Python.3.11_qbz5n2kfra8p0" -> 3.11, "python311.dll" -> 3.11.
std::optional<PyVersion> VersionFromWindowsName(std::string_view name) {
  std::string lower = ToLower(name);
  if (StartsWith(lower, ToLower(kStorePrefix))) {
    std::string_view rest = std::string_view(lower).substr(std::string_view(kStorePrefix).size());
    return PyVersion::Parse(rest.substr(0, rest.find('_'))).as_optional();
  }
  if (!StartsWith(lower, "python3")) return std::nullopt;
  std::string_view digits = std::string_view(lower).substr(6);
  if (EndsWith(digits, ".dll")) digits.remove_suffix(4);
  size_t end = 0;
  while (end < digits.size() && digits[end] >= '0' && digits[end] <= '9') ++end;
  if (end < 2 || end > 3) return std::nullopt;
  return PyVersion::Parse(std::string(digits.substr(0, 1)) + "." + std::string(digits.substr(1, end - 1))).as_optional();
}

std::optional<std::string> InTree(const ProbeInput& in, std::string_view win_path) {
  if (StartsWith(win_path, "/")) return FindCaseless(*in.fs, win_path);
  auto p = WindowsToRootPath(win_path, WinEnv(in, "SystemDrive"));
  if (!p) return std::nullopt;
  return FindCaseless(*in.fs, *p);
}

void AddCondaRoot(const Fs& fs, const std::string& root, std::vector<PyCandidate>& out) {
  if (FindCaseless(fs, root + "/conda-meta")) out.push_back(At(root, PythonKind::kConda, root));
  for (const std::string& env : ListCaseless(fs, root + "/envs", "")) {
    if (!fs.IsDir(env)) continue;
    PyCandidate c = At(env, PythonKind::kConda, root + "/envs");
    c.name = std::string(Basename(env));
    c.known_dir = true;
    out.push_back(std::move(c));
  }
}

void AddUserInstalls(const Fs& fs, const std::string& user, std::vector<PyCandidate>& out) {
  for (const std::string& p : ListCaseless(fs, user + "/AppData/Local/Programs/Python", "Python3")) {
    out.push_back(At(p, PythonKind::kSystem, "python.org (per user)"));
  }
  for (const char* root : kCondaRoots) {
    if (auto r = FindCaseless(fs, user + "/" + root)) AddCondaRoot(fs, *r, out);
  }
  for (const std::string& p : ListCaseless(fs, user + "/AppData/Local/Packages", kStorePrefix)) {
    out.push_back(At(p, PythonKind::kStore, "Microsoft Store"));
  }
}

void AddWorkingDirVenvs(const ProbeInput& in, std::vector<PyCandidate>& out) {
  auto cwd = InTree(in, in.cwd);
  if (!cwd) return;
  if (in.fs->IsFile(*cwd + "/pyvenv.cfg")) out.push_back(At(*cwd, PythonKind::kVenv, "working directory"));
  for (const std::string& sub : ListCaseless(*in.fs, *cwd, "")) {
    if (in.fs->IsFile(sub + "/pyvenv.cfg")) out.push_back(At(sub, PythonKind::kVenv, "working directory"));
  }
}

// The prefix of a directory holding python.exe or pip.exe (Scripts\ belongs to its parent).
std::string PrefixOfBinDir(const std::string& dir) {
  return ToLower(Basename(dir)) == "scripts" ? std::string(Dirname(dir)) : dir;
}

std::vector<PyCandidate> DiscoverWindows(const ProbeInput& in) {
  const Fs& fs = *in.fs;
  std::vector<PyCandidate> out;
  for (const std::string& p : in.extra_pythons) {
    auto real = InTree(in, p);
    if (!real) continue;
    out.push_back(At(fs.IsDir(*real) ? *real : PrefixOfBinDir(std::string(Dirname(*real))), PythonKind::kGiven, std::string(FoundByName(FoundBy::kGivenPython))));
  }
  if (auto v = InTree(in, WinEnv(in, "VIRTUAL_ENV"))) out.push_back(At(*v, PythonKind::kVenv, std::string(FoundByName(FoundBy::kVirtualEnv))));
  if (auto v = InTree(in, WinEnv(in, "CONDA_PREFIX"))) out.push_back(At(*v, PythonKind::kConda, std::string(FoundByName(FoundBy::kCondaPrefix))));
  AddWorkingDirVenvs(in, out);
  for (const WinPathDir& d : WinPathDirs(in)) {
    if (!d.path.empty() && FindCaseless(fs, d.path + "/python.exe") && ToLower(Basename(d.path)) != "windowsapps") {
      out.push_back(At(PrefixOfBinDir(d.path), std::nullopt, std::string(FoundByName(FoundBy::kPath))));
    }
  }
  for (const std::string& user : ListCaseless(fs, "/Users", "")) AddUserInstalls(fs, user, out);
  for (const std::string& p : ListCaseless(fs, "/Program Files", "Python3")) out.push_back(At(p, PythonKind::kSystem, "python.org (all users)"));
  for (const char* root : kCondaRoots) {
    if (auto r = FindCaseless(fs, std::string("/ProgramData/") + root)) AddCondaRoot(fs, *r, out);
  }
  return out;
}

std::optional<PyVersionHit> WindowsPrefixVersion(const Fs& fs, const std::string& prefix) {
  for (const std::string& dll : ListCaseless(fs, prefix, "python3")) {
    if (!EndsWith(ToLower(dll), ".dll")) continue;
    if (auto v = VersionFromWindowsName(Basename(dll))) return PyVersionHit{*v, dll};
  }
  for (const std::string& rec : ListCaseless(fs, prefix + "/conda-meta", "python-3")) {
    std::string_view name = Basename(rec);
    std::vector<std::string_view> parts = Split(name.substr(7), '-');
    if (auto v = PyVersion::Parse(parts.front())) return PyVersionHit{*v, rec};
  }
  if (auto v = VersionFromWindowsName(Basename(prefix))) return PyVersionHit{*v, prefix};
  return std::nullopt;
}

std::string WindowsExecutable(const Fs& fs, const PythonEnv& env) {
  for (const char* rel : {"/python.exe", "/Scripts/python.exe"}) {
    if (auto p = FindCaseless(fs, env.prefix + rel)) return *p;
  }
  return "";
}

std::vector<std::string> WindowsSiteDirs(const ProbeInput& in, const PythonEnv& env) {
  std::vector<std::string> dirs;
  auto add = [&](const std::string& path) {
    if (auto p = FindCaseless(*in.fs, path)) dirs.push_back(*p);
  };
  std::string tag = env.version ? "Python" + std::to_string(env.version->major) + std::to_string(env.version->minor) : "";
  if (env.kind != PythonKind::kVenv && !tag.empty()) {
    if (auto appdata = InTree(in, WinEnv(in, "APPDATA"))) add(*appdata + "/Python/" + tag + "/site-packages");
  }
  if (env.kind == PythonKind::kStore && !tag.empty()) add(env.prefix + "/LocalCache/local-packages/" + tag + "/site-packages");
  add(env.prefix + "/Lib/site-packages");
  return dirs;
}

std::pair<std::string, std::string> WindowsActive(const ProbeInput& in) {
  for (const char* var : {"VIRTUAL_ENV", "CONDA_PREFIX"}) {
    if (auto p = InTree(in, WinEnv(in, var))) return {*p, var};
  }
  for (const WinPathDir& d : WinPathDirs(in)) {
    if (!d.path.empty() && FindCaseless(*in.fs, d.path + "/python.exe")) return {PrefixOfBinDir(d.path), "PATH"};
  }
  return {"", ""};
}

}  // namespace

const PythonLayout& WindowsPythonLayout() {
  static const PythonLayout kLayout{DiscoverWindows, WindowsPrefixVersion, WindowsExecutable, WindowsSiteDirs,
                                    WindowsActive};
  return kLayout;
}

// The first python.exe and pip.exe on PATH, and the installs they belong to.
void ProbeWindowsPathTools(const ProbeInput& in, Snapshot& snap) {
  Trail trail(snap, "python");
  trail.Skipped("registry:PEP 514", "Python installs registered under HKCU/HKLM\\Software\\Python: the registry is not parsed");
  trail.Skipped("py launcher", "`py --list` needs the registry and the launcher: not available under --root");
  for (const WinPathDir& d : WinPathDirs(in)) {
    if (d.path.empty()) continue;
    for (auto [exe, slot] : {std::pair{"python.exe", &snap.host.path_python}, std::pair{"pip.exe", &snap.host.path_pip}}) {
      if (!slot->empty()) continue;
      if (auto p = FindCaseless(*in.fs, d.path + "/" + exe)) {
        *slot = PathTool{*p, PrefixOfBinDir(d.path), d.written};
        trail.Found("PATH:" + std::string(exe), d.written);
      }
    }
  }
}

void ProbeWindowsPythons(const ProbeInput& in, Snapshot& snap) { ProbePythonsWith(in, WindowsPythonLayout(), snap); }

}  // namespace cudamatch
