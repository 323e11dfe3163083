// cuDNN probe. Sources, in order:
//   each toolkit: include/cudnn_version.h (cuDNN 8+), include/cudnn.h (cuDNN 7), then the
//                 libcudnn.so.X.Y.Z names in lib64/ and lib/
//   system:       /usr/include/cudnn_version.h, /usr/include/<triplet>/cudnn_version_v*.h,
//                 /usr/include/cudnn.h, libcudnn.so.X.Y.Z in the library directories
//   pip:          nvidia-cudnn-cuXX wheels found by the Python probe
#include <algorithm>
#include <unordered_set>

#include "core/fs.h"
#include "core/text.h"
#include "probe/context.h"
#include "probe/parsers.h"

namespace cudamatch {

namespace {

std::optional<CudnnInfo> FromHeaders(const Fs& fs, const std::vector<std::string>& headers, Trail& trail) {
  for (const std::string& h : headers) {
    if (!fs.IsFile(h)) continue;
    auto text = fs.Read(h, kSmallFileCap);
    if (!text) {
      trail.Error(h, text.error());
      continue;
    }
    if (auto v = ParseCudnnHeader(*text)) {
      trail.Found(h, v->ToString());
      return CudnnInfo{std::string(Dirname(Dirname(h))), *v, h, CudnnKind::kSystem};
    }
  }
  return std::nullopt;
}

// The real file behind libcudnn's links (libcudnn.so -> libcudnn.so.9 -> libcudnn.so.9.1.0).
std::optional<CudnnInfo> FromLibraries(const Fs& fs, const std::vector<std::string>& dirs, Trail& trail) {
  for (const std::string& dir : dirs) {
    for (const char* name : {"libcudnn.so", "libcudnn.so.9", "libcudnn.so.8", "libcudnn.so.7"}) {
      std::string path = dir + "/" + name;
      if (!fs.LStat(path).exists()) continue;
      auto real = fs.Resolve(path);
      if (!real) continue;
      auto v = LibraryVersion(Basename(*real), "libcudnn.so.");
      if (!v || v->release.size() < 3) continue;
      std::string source = dir + "/libcudnn.so." + v->ToString();
      trail.Found(source, v->ToString());
      return CudnnInfo{dir, *v, source, CudnnKind::kSystem};
    }
  }
  return std::nullopt;
}

// Headers named cudnn_version_v9.h under /usr/include/<triplet> (Debian and Ubuntu packages).
std::vector<std::string> SystemHeaders(const Fs& fs) {
  std::vector<std::string> out = {"/usr/include/cudnn_version.h"};
  for (const char* dir : {"/usr/include/x86_64-linux-gnu", "/usr/include/aarch64-linux-gnu"}) {
    auto names = fs.List(dir);
    if (!names) continue;
    for (const std::string& n : *names) {
      if (StartsWith(n, "cudnn_version")) out.push_back(std::string(dir) + "/" + n);
    }
  }
  out.push_back("/usr/include/cudnn.h");
  return out;
}

// Each source once: a set of those added, so 100,000 pip wheels are not compared with each other.
void Add(Snapshot& snap, std::unordered_set<std::string>& sources, CudnnInfo info, CudnnKind kind) {
  if (!sources.insert(info.source).second) return;
  info.kind = kind;
  snap.cudnn.push_back(std::move(info));
}

}  // namespace

void ProbeCudnn(const ProbeInput& in, Snapshot& snap) {
  Trail trail(snap, "cudnn");
  std::unordered_set<std::string> sources;
  for (const CudnnInfo& c : snap.cudnn) sources.insert(c.source);
  for (const ToolkitInfo& t : snap.toolkits) {
    auto info = FromHeaders(*in.fs, {t.path + "/include/cudnn_version.h", t.path + "/include/cudnn.h"}, trail);
    if (!info) info = FromLibraries(*in.fs, {t.path + "/lib64", t.path + "/lib"}, trail);
    if (info) Add(snap, sources, std::move(*info), CudnnKind::kToolkit);
  }
  auto system = FromHeaders(*in.fs, SystemHeaders(*in.fs), trail);
  if (!system) {
    std::vector<std::string> dirs;
    for (const std::string& d : LibraryDirs(in)) {
      bool in_toolkit = std::any_of(snap.toolkits.begin(), snap.toolkits.end(),
                                    [&](const ToolkitInfo& t) { return StartsWith(d, t.path + "/"); });
      if (!in_toolkit) dirs.push_back(d);
    }
    system = FromLibraries(*in.fs, dirs, trail);
  }
  if (system) Add(snap, sources, std::move(*system), CudnnKind::kSystem);
  for (const PythonEnv& env : snap.pythons) {
    for (const auto& [name, pkg] : env.packages) {
      if (!StartsWith(name, "nvidia-cudnn-") || !pkg.version) continue;
      Add(snap, sources, CudnnInfo{env.prefix, pkg.version, pkg.location, CudnnKind::kPip}, CudnnKind::kPip);
    }
  }
}

}  // namespace cudamatch
