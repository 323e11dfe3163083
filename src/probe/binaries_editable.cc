// Editable and develop installs of a site directory, whose shared objects stay in the project
// directory (so no RECORD lists them). Found as Python finds them, from files only (nothing is
// run or imported). Sources, per site directory:
//   PEP 660 (pip install -e with setuptools >= 64): __editable__.<name>-<version>.pth, then
//     <name>-<version>.dist-info/direct_url.json {"dir_info": {"editable": true}, "url": "file:///..."}
//     for the project directory; the .pth's path lines, or the MAPPING literal of the
//     __editable___<name>_<version>_finder.py module the .pth imports, for the package directories
//     (https://packaging.python.org/en/latest/specifications/direct-url-data-structure/,
//     setuptools' editable_wheel command).
//   develop (setup.py develop, pip install -e with older setuptools): <name>.egg-link, its first
//     line the directory holding <name>.egg-info (the package directories' root), its second the
//     project directory relative to it; PKG-INFO of that egg-info for the version.
// Their shared objects: the package directories listed to kEditableDepth levels, at most
// kEditableNames names a project (hidden directories, __pycache__, build/ and dist/ left out:
// build/ holds copies of what an in-place build writes).
#include <algorithm>
#include <cctype>

#include "core/text.h"
#include "probe/binaries.h"
#include "probe/parsers.h"

namespace cudamatch {

namespace {

constexpr int kEditableDepth = 4;
constexpr size_t kEditableNames = 2048;

// "__editable__.mmcv-1.7.1.pth" -> "mmcv"; "" for another name.
std::string EditablePthProject(std::string_view entry) {
  constexpr std::string_view kPrefix = "__editable__.";
  if (!StartsWith(entry, kPrefix) || !EndsWith(entry, ".pth")) return "";
  std::string_view stem = entry.substr(kPrefix.size(), entry.size() - kPrefix.size() - 4);
  return NormalizeProjectName(stem.substr(0, stem.find('-')));
}

// The module an "import __editable___mmcv_1_7_1_finder; __editable___mmcv_1_7_1_finder.install()"
// line names, "" when none.
std::string ImportedModule(std::string_view pth) {
  for (std::string_view line : Lines(pth)) {
    line = Trim(line);
    if (!StartsWith(line, "import ")) continue;
    std::string_view rest = Trim(line.substr(7));
    size_t end = 0;
    while (end < rest.size() && (std::isalnum(static_cast<unsigned char>(rest[end])) || rest[end] == '_')) ++end;
    if (end > 0) return std::string(rest.substr(0, end));
  }
  return "";
}

// The package directories a PEP 660 .pth names: its path lines, else its finder's MAPPING.
std::vector<std::string> PthDirs(const Fs& fs, const std::string& site, const std::string& pth, Trail& trail) {
  auto text = ReadRecorded(fs, trail, pth);
  if (!text) return {};
  std::vector<std::string> dirs = ParsePthPaths(*text);
  if (!dirs.empty()) return dirs;
  std::string module = ImportedModule(*text);
  if (module.empty()) return {};
  auto finder = ReadRecorded(fs, trail, site + "/" + module + ".py");
  return finder ? ParseEditableFinderMapping(*finder) : std::vector<std::string>{};
}

void FindPep660(const Fs& fs, const std::string& site, const std::vector<std::string>& entries,
                std::vector<EditableDist>& out, Trail& trail) {
  for (const std::string& pth : entries) {
    std::string project = EditablePthProject(pth);
    if (project.empty()) continue;
    for (const std::string& entry : entries) {
      if (!EndsWith(entry, ".dist-info")) continue;
      auto dist = ParseDistDirName(entry);
      if (!dist || dist->name != project) continue;
      std::string url_path = site + "/" + entry + "/direct_url.json";
      auto text = fs.Read(url_path, kSmallFileCap);
      auto url = text ? ParseDirectUrl(*text) : std::nullopt;
      auto dir = url && url->editable ? FileUrlPath(url->url) : std::nullopt;
      if (!dir) continue;
      EditableDist e{site + "/" + entry, dist->name, dist->version, {EditableMode::kPep660, *dir, url_path}, {}};
      e.dirs = PthDirs(fs, site, site + "/" + pth, trail);
      if (e.dirs.empty()) e.dirs.push_back(*dir);
      trail.Found(url_path, "editable install of " + dist->name + " from " + *dir);
      out.push_back(std::move(e));
      break;
    }
  }
}

// The <name>.egg-info among the names in the directory an .egg-link names: setup.py develop
// writes "detectron2.egg-info", without a version (PKG-INFO has it).
std::optional<DistDir> EggInfoIn(const std::vector<std::string>& names, const std::string& dir, std::string& found) {
  for (const std::string& n : names) {
    if (!EndsWith(n, ".egg-info") || n.size() == 9) continue;
    auto d = ParseDistDirName(n);
    found = dir + "/" + n;
    return d ? *d : DistDir{NormalizeProjectName(n.substr(0, n.size() - 9)), ""};
  }
  return std::nullopt;
}

void FindDevelop(const Fs& fs, const std::string& site, const std::vector<std::string>& entries,
                 std::vector<EditableDist>& out, Trail& trail) {
  for (const std::string& entry : entries) {
    if (!EndsWith(entry, ".egg-link")) continue;
    std::string link = site + "/" + entry;
    auto text = ReadRecorded(fs, trail, link);
    std::string egg_path = text ? EggLinkProject(*text) : "";
    if (egg_path.empty()) continue;
    auto lines = Lines(*text);
    std::string setup = lines.size() > 1 ? std::string(Trim(lines[1])) : "";
    std::string project = setup.empty() || setup == "." ? egg_path : NormalizePath(egg_path + "/" + setup);
    auto names = fs.List(egg_path);
    if (!names) {
      trail.Missing(egg_path, "named by " + link);
      continue;
    }
    std::string egg_info;
    auto dist = EggInfoIn(*names, egg_path, egg_info);
    std::string name = dist ? dist->name : NormalizeProjectName(entry.substr(0, entry.size() - 9));
    EditableDist e{egg_info, name, dist ? dist->version : "", {EditableMode::kDevelop, project, link}, {egg_path}};
    trail.Found(link, "develop install of " + name + " from " + project);
    out.push_back(std::move(e));
  }
}

bool SkippedDir(std::string_view name) {
  return StartsWith(name, ".") || name == "__pycache__" || name == "build" || name == "dist" ||
         name == "node_modules" || EndsWith(name, ".egg-info");
}

}  // namespace

std::vector<EditableDist> FindEditableInstalls(const Fs& fs, const std::string& site,
                                               const std::vector<std::string>& entries, Trail& trail) {
  std::vector<EditableDist> out;
  FindPep660(fs, site, entries, out, trail);
  FindDevelop(fs, site, entries, out, trail);
  return out;
}

std::vector<std::string> SharedObjectsUnder(const Fs& fs, const std::vector<std::string>& dirs, Trail& trail) {
  std::vector<std::string> out;
  size_t listed = 0;
  std::vector<std::pair<std::string, int>> todo;
  for (const std::string& d : dirs) {
    bool under = std::any_of(dirs.begin(), dirs.end(), [&](const std::string& o) { return o != d && StartsWith(d, o + "/"); });
    if (!under) todo.emplace_back(d, 0);  // a directory inside another one named is listed once
  }
  for (size_t next = 0; next < todo.size(); ++next) {  // breadth first: shallow objects first
    auto [dir, depth] = todo[next];
    auto names = fs.List(dir);
    if (!names) {
      trail.Missing(dir, names.error());
      continue;
    }
    for (const std::string& n : *names) {
      if (++listed > kEditableNames) {
        trail.Skipped(dirs.front(), "more files than the scan lists");
        return out;
      }
      std::string path = dir + "/" + n;
      if (IsSharedObject(n)) {
        if (std::find(out.begin(), out.end(), path) == out.end()) out.push_back(std::move(path));
      } else if (depth + 1 < kEditableDepth && !SkippedDir(n) && n.find('.') == std::string::npos &&
                 fs.Stat(path).type == FileType::kDirectory) {
        todo.emplace_back(std::move(path), depth + 1);
      }
    }
  }
  return out;
}

}  // namespace cudamatch
