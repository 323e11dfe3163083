// Python environment probe. Nothing is executed: interpreters are found by name and every fact
// comes from files read as text with a size cap. Sources, in order:
//   discovery: --python PATH, VIRTUAL_ENV, $PWD/.venv, the environment cudamatch itself runs from
//              (a venv, pipx or uv tool env: <prefix>/bin/cudamatch beside <prefix>/pyvenv.cfg),
//              CONDA_PREFIX, interpreters on PATH (pyenv shims skipped), /usr/bin and
//              /usr/local/bin, pyenv versions ($PYENV_ROOT or ~/.pyenv), conda/mamba roots and their
//              envs/ (~/.conda/environments.txt too), uv-managed Pythons (~/.local/share/uv/python)
//   active:    VIRTUAL_ENV, else CONDA_PREFIX, else the first interpreter on PATH (for pyenv
//              shims: PYENV_VERSION, else <pyenv root>/version)
//   version:   pyvenv.cfg (version, version_info), the interpreter's name (python3.11), the
//              single lib/pythonX.Y directory
//   PEP 668:   <stdlib>/EXTERNALLY-MANAGED (externally_managed.h)
//   packages:  each site-packages / dist-packages directory under lib and lib64 (real
//              directories or links, each scanned once), the user site for non-venv
//              environments; all of them one environment; see packages.cc
#include <algorithm>
#include <map>
#include <set>

#include "core/text.h"
#include "probe/context.h"
#include "probe/externally_managed.h"
#include "probe/env_cache.h"
#include "probe/own_env.h"
#include "probe/packages.h"
#include "probe/parsers.h"
#include "probe/python_layout.h"

namespace cudamatch {

namespace {

using Candidate = PyCandidate;

std::optional<PyVersion> VersionFromName(std::string_view name) {
  if (!StartsWith(name, "python")) return std::nullopt;
  return PyVersion::Parse(name.substr(6)).as_optional();
}

// An interpreter file: resolves links, derives the prefix (<prefix>/bin/pythonX.Y).
std::optional<Candidate> FromExecutable(const Fs& fs, const std::string& path, std::string found_by) {
  if (!fs.IsFile(path)) return std::nullopt;
  auto real = fs.Resolve(path);
  if (!real) return std::nullopt;
  Candidate c;
  c.executable = *real;
  c.prefix = std::string(Dirname(Dirname(*real)));
  c.version = VersionFromName(Basename(*real));
  if (!c.version) c.version = VersionFromName(Basename(path));
  c.found_by = std::move(found_by);
  return c;
}

Candidate FromPrefix(std::string prefix, PythonKind kind, std::string found_by) {
  Candidate c;
  c.prefix = NormalizePath(prefix);
  c.kind = kind;
  c.found_by = std::move(found_by);
  return c;
}

const std::vector<std::string>& InterpreterNames() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names = {"python3", "python"};
    for (int minor = 6; minor <= 15; ++minor) names.push_back("python3." + std::to_string(minor));
    return names;
  }();
  return kNames;
}

void AddInterpretersIn(const ProbeInput& in, const std::string& dir, const std::string& found_by,
                       std::vector<Candidate>& out) {
  if (EndsWith(dir, "/shims")) return;  // pyenv shims are scripts; versions are listed below
  for (const std::string& name : InterpreterNames()) {
    if (auto c = FromExecutable(*in.fs, dir + "/" + name, found_by)) out.push_back(std::move(*c));
  }
}

void AddSubdirs(const ProbeInput& in, const std::string& dir, PythonKind kind,
                const std::string& found_by, std::vector<Candidate>& out) {
  auto names = in.fs->List(dir);
  if (!names) return;
  SortNatural(*names);  // pyenv's 3.6.15 before 3.10.4, as versions
  for (const std::string& n : *names) {
    std::string path = dir + "/" + n;
    if (!in.fs->IsDir(path)) continue;
    Candidate c = FromPrefix(path, kind, found_by);
    c.name = n;
    c.known_dir = true;
    out.push_back(std::move(c));
  }
}

void AddConda(const ProbeInput& in, std::vector<Candidate>& out) {
  std::string home = in.Home();
  std::vector<std::string> roots;
  for (const char* name : {"miniconda3", "anaconda3", "miniforge3", "mambaforge", "micromamba", ".conda",
                           "miniconda", "anaconda"}) {
    if (!home.empty()) roots.push_back(home + "/" + name);
  }
  for (const char* root : {"/opt/conda", "/opt/miniconda3", "/opt/anaconda3", "/opt/miniforge3"}) {
    roots.push_back(root);
  }
  for (const char* var : {"MAMBA_ROOT_PREFIX", "CONDA_ROOT"}) {
    if (!in.Env(var).empty()) roots.push_back(in.Env(var));
  }
  std::string conda_prefix = in.Env("CONDA_PREFIX");
  if (!conda_prefix.empty()) {
    Candidate c = FromPrefix(conda_prefix, PythonKind::kConda, std::string(FoundByName(FoundBy::kCondaPrefix)));
    std::string parent(Dirname(c.prefix));
    if (Basename(parent) == "envs") {
      c.name = std::string(Basename(c.prefix));
      roots.push_back(std::string(Dirname(parent)));
    }
    out.push_back(std::move(c));
  }
  for (const std::string& root : roots) {
    if (!in.fs->IsDir(root + "/conda-meta") && !in.fs->IsDir(root + "/envs")) continue;
    if (in.fs->IsDir(root + "/conda-meta")) out.push_back(FromPrefix(root, PythonKind::kConda, root));
    AddSubdirs(in, root + "/envs", PythonKind::kConda, root + "/envs", out);
  }
  if (!home.empty()) {
    if (auto text = in.fs->Read(home + "/.conda/environments.txt", kSmallFileCap)) {
      for (const std::string& prefix : ParseEnvironmentsTxt(*text)) {
        out.push_back(FromPrefix(prefix, PythonKind::kConda, "~/.conda/environments.txt"));
      }
    }
  }
}

std::vector<Candidate> Discover(const ProbeInput& in) {
  std::vector<Candidate> out;
  for (const std::string& p : in.extra_pythons) {
    if (in.fs->IsDir(p)) out.push_back(FromPrefix(p, PythonKind::kGiven, std::string(FoundByName(FoundBy::kGivenPython))));
    else if (auto c = FromExecutable(*in.fs, p, std::string(FoundByName(FoundBy::kGivenPython)))) out.push_back(std::move(*c));
  }
  if (!in.Env("VIRTUAL_ENV").empty()) out.push_back(FromPrefix(in.Env("VIRTUAL_ENV"), PythonKind::kVenv, std::string(FoundByName(FoundBy::kVirtualEnv))));
  if (in.fs->IsFile(in.cwd + "/.venv/pyvenv.cfg")) out.push_back(FromPrefix(in.cwd + "/.venv", PythonKind::kVenv, std::string(FoundByName(FoundBy::kDotVenv))));
  if (auto own = OwnEnvironmentPrefix(*in.fs, in.self_exe)) out.push_back(FromPrefix(*own, PythonKind::kVenv, std::string(FoundByName(FoundBy::kOwnEnv))));
  AddConda(in, out);
  for (const std::string& dir : PathDirs(in)) AddInterpretersIn(in, dir, std::string(FoundByName(FoundBy::kPath)), out);
  for (const char* dir : {"/usr/local/bin", "/usr/bin"}) AddInterpretersIn(in, dir, dir, out);
  std::string home = in.Home();
  std::string pyenv = in.Env("PYENV_ROOT").empty() ? home + "/.pyenv" : in.Env("PYENV_ROOT");
  if (!pyenv.empty() && pyenv != "/.pyenv") AddSubdirs(in, pyenv + "/versions", PythonKind::kPyenv, "pyenv", out);
  std::string uv_dir = in.Env("UV_PYTHON_INSTALL_DIR");
  if (uv_dir.empty() && !in.Env("XDG_DATA_HOME").empty()) uv_dir = in.Env("XDG_DATA_HOME") + "/uv/python";
  if (uv_dir.empty() && !home.empty()) uv_dir = home + "/.local/share/uv/python";
  if (!uv_dir.empty()) AddSubdirs(in, uv_dir, PythonKind::kUv, "uv", out);
  return out;
}

// lib/python3.X directory names under a prefix.
std::vector<PyVersion> LibVersions(const Fs& fs, const std::string& prefix) {
  std::vector<PyVersion> out;
  auto names = fs.List(prefix + "/lib");
  if (!names) return out;
  for (const std::string& n : *names) {
    if (auto v = VersionFromName(n)) out.push_back(*v);
  }
  return out;
}

std::optional<PyVersionHit> PosixPrefixVersion(const Fs& fs, const std::string& prefix) {
  std::vector<PyVersion> libs = LibVersions(fs, prefix);
  if (libs.size() != 1) return std::nullopt;
  return PyVersionHit{libs.front(), prefix + "/lib/python" + libs.front().ToString()};
}

void FillVersion(const ProbeInput& in, const PythonLayout& layout, const Candidate& c,
                 const std::optional<std::string>& pyvenv_cfg, PythonEnv& env, Trail& trail) {
  if (pyvenv_cfg) {
    auto cfg = ParsePyvenvCfg(*pyvenv_cfg);
    for (const char* key : {"version", "version_info"}) {
      if (auto v = PyVersion::Parse(cfg[key])) {
        env.version = *v;
        env.version_source = env.prefix + "/pyvenv.cfg";
        return;
      }
    }
  }
  if (c.version) {
    env.version = c.version;
    env.version_source = c.executable.empty() ? c.found_by : c.executable;
    return;
  }
  if (auto hit = layout.prefix_version(*in.fs, env.prefix)) {
    env.version = hit->version;
    env.version_source = hit->source;
    return;
  }
  trail.Missing(env.prefix, "Python version not found");
}

std::string FindExecutable(const Fs& fs, const PythonEnv& env) {
  std::vector<std::string> names;
  if (env.version) names.push_back("python" + env.version->ToString());
  names.insert(names.end(), {"python3", "python"});
  for (const std::string& n : names) {
    std::string path = env.prefix + "/bin/" + n;
    if (fs.Exists(path)) return path;
  }
  return "";
}

std::vector<std::string> PosixSiteDirs(const ProbeInput& in, const PythonEnv& env) {
  if (!env.version) return {};
  std::string py = "python" + env.version->ToString();
  std::vector<std::string> dirs = {env.prefix + "/lib/" + py + "/site-packages",
                                   env.prefix + "/lib64/" + py + "/site-packages"};
  if (env.prefix == "/usr" || env.prefix == "/usr/local") {
    dirs = {"/usr/local/lib/" + py + "/dist-packages", "/usr/lib/python3/dist-packages",
            "/usr/lib/" + py + "/dist-packages", "/usr/local/lib/" + py + "/site-packages",
            "/usr/local/lib64/" + py + "/site-packages", "/usr/lib/" + py + "/site-packages",
            "/usr/lib64/" + py + "/site-packages"};
  }
  if (env.kind != PythonKind::kVenv && !in.Home().empty()) {
    dirs.insert(dirs.begin(), in.Home() + "/.local/lib/" + py + "/site-packages");
  }
  return dirs;
}

void FillSitePackages(const ProbeInput& in, const PythonLayout& layout, PythonEnv& env) {
  std::vector<std::string> present;
  for (const std::string& d : layout.site_dirs(in, env)) {
    if (in.fs->IsDir(d)) present.push_back(d);  // most candidates are absent: one stat, no resolution
  }
  if (present.size() == 1) {  // nothing to be the same directory as
    env.site_packages = std::move(present);
    return;
  }
  std::set<std::string> seen;  // lib64 is often a link to lib: scan each real directory once
  for (const std::string& d : present) {
    auto real = in.fs->Resolve(d);
    if (real && seen.insert(*real).second) env.site_packages.push_back(d);
  }
}

// The prefix a bare `python` runs in this shell, and why; "" when none is known.
std::pair<std::string, std::string> PosixActivePrefix(const ProbeInput& in) {
  for (const char* var : {"VIRTUAL_ENV", "CONDA_PREFIX"}) {
    if (!in.Env(var).empty()) return {NormalizePath(in.Env(var)), var};
  }
  for (const std::string& dir : PathDirs(in)) {
    if (EndsWith(dir, "/shims")) {
      std::string root(Dirname(dir));
      if (!in.Env("PYENV_VERSION").empty()) return {root + "/versions/" + in.Env("PYENV_VERSION"), "PYENV_VERSION"};
      auto text = in.fs->Read(root + "/version", kSmallFileCap);
      std::string version = text ? std::string(Trim(Lines(*text).empty() ? "" : Lines(*text).front())) : "";
      if (!version.empty() && version != "system") return {root + "/versions/" + version, "pyenv version"};
      continue;
    }
    for (std::string_view name : {"python", "python3"}) {
      if (auto c = FromExecutable(*in.fs, dir + "/" + std::string(name), "PATH")) return {c->prefix, "PATH"};
    }
  }
  return {"", ""};
}

void MarkActive(const ProbeInput& in, const PythonLayout& layout, Snapshot& snap) {
  auto [prefix, reason] = layout.active(in);
  if (prefix.empty()) return;
  auto resolved = in.fs->Resolve(prefix);
  for (PythonEnv& env : snap.pythons) {
    if (env.prefix != prefix && (!resolved || env.prefix != *resolved)) continue;
    env.active = true;
    env.active_reason = reason;
    return;
  }
}

PythonKind KindOf(const Fs& fs, const Candidate& c, const std::string& prefix, bool has_pyvenv_cfg) {
  if (c.kind == PythonKind::kConda || fs.IsDir(prefix + "/conda-meta")) return PythonKind::kConda;
  if (has_pyvenv_cfg) return PythonKind::kVenv;
  if (c.kind && c.kind != PythonKind::kGiven) return *c.kind;
  if (prefix.find("/.pyenv/versions/") != std::string::npos) return PythonKind::kPyenv;
  return c.kind.value_or(PythonKind::kSystem);
}

const PythonLayout& PosixPythonLayout() {
  static const PythonLayout kLayout{Discover, PosixPrefixVersion, FindExecutable, PosixSiteDirs, PosixActivePrefix};
  return kLayout;
}

}  // namespace

void ProbePythons(const ProbeInput& in, Snapshot& snap) { ProbePythonsWith(in, PosixPythonLayout(), snap); }

void ProbePythonsWith(const ProbeInput& in, const PythonLayout& layout, Snapshot& snap) {
  Trail trail(snap, "python");
  // (prefix, version) -> its index in snap.pythons: a candidate found again is merged there
  // without a search through every environment (5,000 conda environments listed twice).
  std::map<std::pair<std::string, std::string>, size_t> seen;
  for (const Candidate& c : layout.discover(in)) {
    auto resolved = in.fs->Resolve(c.prefix);
    if (!resolved || (!c.known_dir && !in.fs->IsDir(*resolved))) {
      trail.Missing(c.prefix, "from " + c.found_by);
      continue;
    }
    PythonEnv env;
    env.prefix = *resolved;
    env.name = c.name;
    std::optional<std::string> pyvenv_cfg = in.fs->Read(env.prefix + "/pyvenv.cfg", kSmallFileCap).as_optional();
    env.kind = KindOf(*in.fs, c, env.prefix, pyvenv_cfg.has_value());
    FillVersion(in, layout, c, pyvenv_cfg, env, trail);
    auto key = std::pair(env.prefix, env.version ? env.version->ToString() : "");
    if (auto [it, added] = seen.emplace(key, snap.pythons.size()); !added) {
      PythonEnv& e = snap.pythons[it->second];
      if (std::find(e.found_by.begin(), e.found_by.end(), c.found_by) == e.found_by.end()) {
        e.found_by.push_back(c.found_by);
        e.cudamatch_own = e.cudamatch_own || c.found_by == FoundByName(FoundBy::kOwnEnv);
      }
      continue;
    }
    env.found_by.push_back(c.found_by);
    env.cudamatch_own = c.found_by == FoundByName(FoundBy::kOwnEnv);
    env.executable = c.executable.empty() ? layout.executable(*in.fs, env) : c.executable;
    FillSitePackages(in, layout, env);
    env.externally_managed = FindExternallyManaged(*in.fs, env);
    if (!env.externally_managed.empty()) trail.Found(env.externally_managed, "externally managed (PEP 668)");
    if (in.env_cache) in.env_cache->Scan(in, env, snap);
    else ScanPackages(*in.fs, env, trail);
    trail.Found(env.prefix, env.version ? "Python " + env.version->ToString() : "Python version unknown");
    snap.pythons.push_back(std::move(env));
  }
  MarkActive(in, layout, snap);
}

}  // namespace cudamatch
