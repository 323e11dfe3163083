// CUDA toolkits and cuDNN of a Windows tree (doctor --root DIR --os windows). Sources, in order:
//   locations: nvcc.exe on PATH, CUDA_PATH, CUDA_PATH_V<major>_<minor>, then every
//              Program Files/NVIDIA GPU Computing Toolkit/CUDA/v* (paths found caselessly)
//   version:   version.json, then include/cuda.h (CUDA_VERSION)
//   active:    the first nvcc.exe on PATH, else CUDA_PATH
//   cuDNN:     include/cudnn_version.h in each toolkit, then the standalone installs
//              Program Files/NVIDIA/CUDNN/v*/include[/<cuda>]/cudnn_version.h
#include <algorithm>

#include "core/text.h"
#include "probe/context.h"
#include "probe/parsers.h"
#include "probe/win_paths.h"

namespace cudamatch {

namespace {

constexpr const char* kToolkitRoot = "/Program Files/NVIDIA GPU Computing Toolkit/CUDA";

void FillToolkitVersion(const Fs& fs, ToolkitInfo& t) {
  if (auto json = FindCaseless(fs, t.path + "/version.json")) {
    if (auto text = fs.Read(*json, kSmallFileCap)) {
      if ((t.version = ParseCudaVersionJson(*text))) t.version_source = *json;
    }
  }
  if (t.version) return;
  if (auto header = FindCaseless(fs, t.path + "/include/cuda.h")) {
    if (auto text = fs.Read(*header, kSmallFileCap)) {
      if ((t.version = ParseCudaHeader(*text))) t.version_source = *header;
    }
  }
}

// The index of the toolkit at `dir` in snap.toolkits, added when new.
std::optional<size_t> AddToolkit(const Fs& fs, Snapshot& snap, const std::string& dir, const std::string& found_by,
                                 Trail& trail) {
  auto real = FindCaseless(fs, dir);
  if (!real || !fs.IsDir(*real)) {
    trail.Missing(dir, "from " + found_by);
    return std::nullopt;
  }
  std::string path = fs.Resolve(*real).value_or(*real);
  for (size_t i = 0; i < snap.toolkits.size(); ++i) {
    ToolkitInfo& t = snap.toolkits[i];
    if (t.path != path) continue;
    if (std::find(t.found_by.begin(), t.found_by.end(), found_by) == t.found_by.end()) t.found_by.push_back(found_by);
    return i;
  }
  ToolkitInfo t;
  t.path = path;
  t.found_by.push_back(found_by);
  t.kind = ToolkitKind::kSystem;
  t.has_nvcc = FindCaseless(fs, path + "/bin/nvcc.exe").has_value();
  FillToolkitVersion(fs, t);
  trail.Found(path, t.version ? "CUDA " + t.version->ToString() : "version unknown");
  snap.toolkits.push_back(std::move(t));
  return snap.toolkits.size() - 1;
}

std::optional<std::string> InTree(const ProbeInput& in, const std::string& win_path) {
  return WindowsToRootPath(win_path, WinEnv(in, "SystemDrive"));
}

}  // namespace

void ProbeWindowsToolkits(const ProbeInput& in, Snapshot& snap) {
  Trail trail(snap, "toolkits");
  const Fs& fs = *in.fs;
  std::optional<size_t> on_path;
  for (const WinPathDir& d : WinPathDirs(in)) {
    if (d.path.empty() || !FindCaseless(fs, d.path + "/nvcc.exe")) continue;
    on_path = AddToolkit(fs, snap, std::string(Dirname(d.path)), "PATH", trail);
    break;
  }
  std::optional<size_t> cuda_path;
  if (auto p = InTree(in, WinEnv(in, "CUDA_PATH"))) cuda_path = AddToolkit(fs, snap, *p, "CUDA_PATH", trail);
  for (const auto& [name, value] : WinEnvPrefixed(in, "CUDA_PATH_V")) {
    if (auto p = InTree(in, value)) AddToolkit(fs, snap, *p, name, trail);
  }
  for (const std::string& dir : ListCaseless(fs, kToolkitRoot, "v")) AddToolkit(fs, snap, dir, kToolkitRoot, trail);
  std::optional<size_t> active = on_path ? on_path : cuda_path;
  if (!active) return;
  snap.toolkits[*active].active = true;
  snap.toolkits[*active].active_reason = on_path ? "PATH" : "CUDA_PATH";
}

void ProbeWindowsCudnn(const ProbeInput& in, Snapshot& snap) {
  Trail trail(snap, "cudnn");
  const Fs& fs = *in.fs;
  auto from_header = [&](const std::string& header, const std::string& dir, CudnnKind kind) {
    auto text = fs.Read(header, kSmallFileCap);
    if (!text) return;
    auto v = ParseCudnnHeader(*text);
    if (!v) return;
    trail.Found(header, v->ToString());
    snap.cudnn.push_back(CudnnInfo{dir, *v, header, kind});
  };
  for (const ToolkitInfo& t : snap.toolkits) {
    if (auto h = FindCaseless(fs, t.path + "/include/cudnn_version.h")) from_header(*h, t.path, CudnnKind::kToolkit);
  }
  for (const std::string& dir : ListCaseless(fs, "/Program Files/NVIDIA/CUDNN", "v")) {
    if (auto h = FindCaseless(fs, dir + "/include/cudnn_version.h")) {
      from_header(*h, dir, CudnnKind::kSystem);
      continue;
    }
    for (const std::string& sub : ListCaseless(fs, dir + "/include", "")) {
      if (auto h = FindCaseless(fs, sub + "/cudnn_version.h")) from_header(*h, dir, CudnnKind::kSystem);
    }
  }
}

}  // namespace cudamatch
