#include <algorithm>
#include <unordered_set>

#include "core/text.h"
#include "probe/context.h"

namespace cudamatch {

std::optional<std::string> ReadRecorded(const Fs& fs, Trail& trail, const std::string& path, size_t cap) {
  FileInfo info = fs.Stat(path);
  if (!info.exists()) {
    trail.Missing(path);
    return std::nullopt;
  }
  auto text = fs.Read(path, cap);
  if (!text) {
    trail.Error(path, text.error());
    return std::nullopt;
  }
  return std::move(*text);
}

namespace {

constexpr std::pair<NvmlState, std::string_view> kNvmlStateNames[] = {
    {NvmlState::kOk, "ok"},
    {NvmlState::kSkippedRoot, "skipped.root"},
    {NvmlState::kSkippedPaste, "skipped.paste"},
    {NvmlState::kSkippedNoModule, "skipped.no_module"},
    {NvmlState::kSkippedNoLibrary, "skipped.no_library"},
};

}  // namespace

std::string_view NvmlStateName(NvmlState s) {
  for (const auto& [state, name] : kNvmlStateNames) {
    if (state == s) return name;
  }
  return "";
}

std::optional<NvmlState> ParseNvmlState(std::string_view name) {
  for (const auto& [state, n] : kNvmlStateNames) {
    if (n == name) return state;
  }
  return std::nullopt;
}

std::string_view KernelFlavorName(KernelFlavor f) {
  switch (f) {
    case KernelFlavor::kOpen: return "open";
    case KernelFlavor::kProprietary: return "proprietary";
    case KernelFlavor::kUnknown: break;
  }
  return "";
}

std::string_view FoundByName(FoundBy f) {
  switch (f) {
    case FoundBy::kGivenPython: return "--python";
    case FoundBy::kVirtualEnv: return "env:VIRTUAL_ENV";
    case FoundBy::kCondaPrefix: return "env:CONDA_PREFIX";
    case FoundBy::kDotVenv: return "./.venv";
    case FoundBy::kPath: return "PATH";
    case FoundBy::kOwnEnv: return "cudamatch's own environment";
  }
  return "";
}

std::string_view PythonKindName(PythonKind k) {
  switch (k) {
    case PythonKind::kSystem: return "system";
    case PythonKind::kVenv: return "venv";
    case PythonKind::kConda: return "conda";
    case PythonKind::kPyenv: return "pyenv";
    case PythonKind::kUv: return "uv";
    case PythonKind::kGiven: return "given";
    case PythonKind::kStore: return "store";
  }
  return "system";
}

std::string_view ToolkitKindName(ToolkitKind k) {
  switch (k) {
    case ToolkitKind::kSystem: return "system";
    case ToolkitKind::kDebian: return "debian";
    case ToolkitKind::kConda: return "conda";
    case ToolkitKind::kPip: return "pip";
  }
  return "system";
}

std::string_view CudnnKindName(CudnnKind k) {
  switch (k) {
    case CudnnKind::kSystem: return "system";
    case CudnnKind::kToolkit: return "toolkit";
    case CudnnKind::kPip: return "pip";
  }
  return "system";
}

bool LinksTorch(const std::vector<std::string>& needed) {
  return std::any_of(needed.begin(), needed.end(), [](const std::string& n) {
    return StartsWith(n, "libc10") || StartsWith(n, "libtorch");
  });
}

bool ExtensionInfo::LinksTorch() const {
  return std::any_of(libs.begin(), libs.end(), [](const BinaryInfo& b) { return cudamatch::LinksTorch(b.needed); });
}

std::string_view EditableModeName(EditableMode m) {
  switch (m) {
    case EditableMode::kPep660: return "pep660";
    case EditableMode::kDevelop: return "develop";
  }
  return "pep660";
}

std::string_view OriginName(Origin o) {
  switch (o) {
    case Origin::kNone: return "none";
    case Origin::kObserved: return "observed";
    case Origin::kDriverBranchTable: return "catalog:driver_branches.tsv";
    case Origin::kToolkitDriverMinimums: return "catalog:cuda_toolkits.tsv";
    case Origin::kGpuByName: return "catalog:gpus.tsv by name";
    case Origin::kGpuByPciId: return "catalog:gpus.tsv by PCI id";
    case Origin::kArchitectureTable: return "catalog:gpu_architectures.tsv";
    case Origin::kNvidiaRequirement: return "Requires-Dist nvidia-cuda-runtime";
    case Origin::kLocalLabel: return "version local label";
    case Origin::kHipVersion: return "version.py hip";
    case Origin::kBuildCuda: return "the build's CUDA";
    case Origin::kNoCuda: return "version.py cuda = None";
    case Origin::kTegraSoc: return "catalog:tegra_socs.tsv by SoC";
  }
  return "none";
}

namespace {

// A list of directories in first-seen order, each once.
class DirList {
 public:
  void Add(std::string dir) {
    if (dir.empty() || dir[0] != '/') return;
    dir = NormalizePath(dir);
    if (seen_.insert(dir).second) dirs_.push_back(std::move(dir));
  }
  std::vector<std::string> Take() { return std::move(dirs_); }

 private:
  std::vector<std::string> dirs_;
  std::unordered_set<std::string> seen_;
};

constexpr size_t kMaxLdSoConfFiles = 256;

// /etc/ld.so.conf: directory lines and "include /etc/ld.so.conf.d/*.conf". Each file is read
// once (files that include each other end there), at most kMaxLdSoConfFiles in all.
void ReadLdSoConf(const Fs& fs, const std::string& path, std::unordered_set<std::string>& visited, DirList& out) {
  std::string key = fs.Resolve(path).value_or(NormalizePath(path));
  if (visited.size() >= kMaxLdSoConfFiles || !visited.insert(key).second) return;
  auto text = fs.Read(path, kSmallFileCap);
  if (!text) return;
  for (std::string_view line : Lines(*text)) {
    line = Trim(line);
    if (line.empty() || line.front() == '#') continue;
    if (StartsWith(line, "include")) {
      std::string pattern(Trim(line.substr(7)));
      std::string dir(Dirname(pattern));
      std::string_view file_glob = Basename(pattern);
      std::string suffix = StartsWith(file_glob, "*") ? std::string(file_glob.substr(1)) : "";
      auto names = fs.List(dir);
      if (!names) continue;
      for (const std::string& name : *names) {
        if (suffix.empty() ? name == file_glob : EndsWith(name, suffix)) {
          ReadLdSoConf(fs, JoinPath(dir, name), visited, out);
        }
      }
      continue;
    }
    out.Add(std::string(line));
  }
}

}  // namespace

std::vector<std::string> LdSoConfDirs(const Fs& fs) {
  DirList dirs;
  std::unordered_set<std::string> visited;
  ReadLdSoConf(fs, "/etc/ld.so.conf", visited, dirs);
  return dirs.Take();
}

std::vector<std::string> LibraryDirs(const ProbeInput& in) {
  DirList dirs;
  for (const std::string& d : SplitNonEmpty(in.Env("LD_LIBRARY_PATH"), ':')) {
    if (d.front() == '/') dirs.Add(d);  // relative ones: IgnoredLibraryPathElements
  }
  std::unordered_set<std::string> visited;
  ReadLdSoConf(*in.fs, "/etc/ld.so.conf", visited, dirs);
  for (const char* d : {"/usr/local/nvidia/lib64", "/usr/local/nvidia/lib", "/usr/lib/x86_64-linux-gnu",
                        "/usr/lib/x86_64-linux-gnu/nvidia/current", "/usr/lib/aarch64-linux-gnu",
                        "/usr/lib64", "/usr/lib", "/lib/x86_64-linux-gnu", "/lib64", "/usr/lib/wsl/lib"}) {
    dirs.Add(d);
  }
  return dirs.Take();
}

std::vector<std::string> IgnoredLibraryPathElements(const ProbeInput& in) {
  std::vector<std::string> ignored;
  std::string value = in.Env("LD_LIBRARY_PATH");
  if (value.empty()) return ignored;  // unset or empty: the loader takes nothing from it
  for (std::string_view element : Split(value, ':')) {
    if (element.empty() || element.front() != '/') ignored.emplace_back(element);
  }
  return ignored;
}

std::vector<std::string> PathDirs(const ProbeInput& in) {
  DirList dirs;
  for (const std::string& d : SplitNonEmpty(in.Env("PATH"), ':')) dirs.Add(d);
  return dirs.Take();
}

namespace {

void TakeWindows(const ProbeInput& in, Snapshot& snap) {
  ProbeWindowsHost(in, snap);
  ProbeWindowsDriver(in, snap);
  ProbeWindowsGpus(in, snap);
  ProbeWindowsPythons(in, snap);
  ProbeWindowsPathTools(in, snap);
  ProbeWindowsToolkits(in, snap);
  ProbeWindowsCudnn(in, snap);
}

}  // namespace

Snapshot TakeSnapshot(const ProbeInput& in) {
  Snapshot snap;
  snap.root = in.fs->root();
  if (in.os == Os::kWindows) {
    TakeWindows(in, snap);
    std::vector<Unreadable> seen = in.fs->unreadable();
    snap.unreadable.insert(snap.unreadable.end(), seen.begin(), seen.end());
    std::sort(snap.unreadable.begin(), snap.unreadable.end(),
              [](const Unreadable& a, const Unreadable& b) { return a.path < b.path; });
    return snap;
  }
  ProbeHost(in, snap);
  ProbeDriver(in, snap);
  size_t driver_trail_end = snap.trail.size();
  ProbeGpus(in, snap);
  ProbePythons(in, snap);
  ProbeBinaries(in, snap);
  ProbeToolkits(in, snap);
  ProbeTriton(in, snap);
  ProbeCudnn(in, snap);
  FinishDriver(in, snap, driver_trail_end);
  snap.unreadable = in.fs->unreadable();
  for (const LibraryFault& f : snap.driver.library_faults) {
    if (f.kind == LibraryFault::Kind::kTimedOut) snap.unreadable.push_back(Unreadable{f.library, DescribeFault(f)});
  }
  return snap;
}

}  // namespace cudamatch
