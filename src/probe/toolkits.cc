// CUDA toolkit probe: every toolkit, and which one is active. Sources, in order:
//   locations: nvcc on PATH (links and wrapper scripts followed by reading them), CUDA_HOME, CUDA_PATH, CUDA_ROOT, /usr/local/cuda*, /opt/cuda*,
//              Debian's /usr/lib/cuda (+ /usr/bin/nvcc), conda environments with bin/nvcc,
//              pip's nvidia-cuda-nvcc wheels (site-packages/nvidia/cuda_nvcc, nvidia/cu13)
//   version:   version.json, version.txt, include/cuda.h (CUDA_VERSION), the
//              nvidia_cuda_nvcc dist-info name beside it, the conda-meta record of cuda-nvcc
//   host GCC:  include/crt/host_config.h (the "#if __GNUC__ > N" check nvcc makes)
//   active:    the first nvcc on PATH, else CUDA_HOME / CUDA_PATH, else the /usr/local/cuda link
#include <algorithm>

#include "core/text.h"
#include "probe/context.h"
#include "probe/parsers.h"

namespace cudamatch {

namespace {

struct Location {
  std::string path;
  std::string found_by;
  ToolkitKind kind = ToolkitKind::kSystem;
};

std::optional<CudaVersion> VersionFromDistInfo(const Fs& fs, const std::string& dir, std::string* source) {
  auto names = fs.List(dir);
  if (!names) return std::nullopt;
  for (const std::string& n : *names) {
    auto dist = ParseDistDirName(n);
    if (!dist || !StartsWith(dist->name, "nvidia-cuda-nvcc")) continue;
    if (auto v = CudaVersion::Parse(dist->version)) {
      *source = dir + "/" + n;
      return *v;
    }
  }
  return std::nullopt;
}

// conda-meta/cuda-nvcc-12.4.131-0.json
std::optional<CudaVersion> VersionFromCondaMeta(const Fs& fs, const std::string& prefix, std::string* source) {
  auto names = fs.List(prefix + "/conda-meta");
  if (!names) return std::nullopt;
  for (const std::string& n : *names) {
    if (!StartsWith(n, "cuda-nvcc-") || !EndsWith(n, ".json")) continue;
    std::string_view rest = std::string_view(n).substr(10);
    if (auto v = CudaVersion::Parse(rest.substr(0, rest.find('-')))) {
      *source = prefix + "/conda-meta/" + n;
      return *v;
    }
  }
  return std::nullopt;
}

void FillVersion(const Fs& fs, ToolkitInfo& t, Trail& trail) {
  const std::string& p = t.path;
  if (auto text = fs.Read(p + "/version.json", kSmallFileCap)) {
    if ((t.version = ParseCudaVersionJson(*text))) t.version_source = p + "/version.json";
  }
  if (!t.version) {
    if (auto text = fs.Read(p + "/version.txt", kSmallFileCap)) {
      if ((t.version = ParseCudaVersionTxt(*text))) t.version_source = p + "/version.txt";
    }
  }
  for (const char* header : {"/include/cuda.h", "/targets/x86_64-linux/include/cuda.h",
                             "/targets/sbsa-linux/include/cuda.h"}) {
    if (t.version) break;
    // CUDA_VERSION is defined in the first few KiB of cuda.h (byte 14,325 of CUDA 13.0's): the
    // head is read first, the rest only when the head does not define it.
    for (size_t cap : {kHeaderHeadCap, kSmallFileCap}) {
      auto text = fs.Read(p + header, cap);
      if (!text) break;
      if ((t.version = ParseCudaHeader(WholeLines(*text, cap)))) t.version_source = p + header;
      if (t.version || text->size() < cap) break;
    }
  }
  if (!t.version) t.version = VersionFromDistInfo(fs, p + "/dist-info", &t.version_source);
  if (!t.version) t.version = VersionFromDistInfo(fs, std::string(Dirname(Dirname(p))), &t.version_source);
  if (!t.version) t.version = VersionFromCondaMeta(fs, p, &t.version_source);
  if (t.version) trail.Found(t.version_source, t.version->ToString());
  else trail.Missing(p, "no version.json, version.txt or cuda.h");
}

void FillHostCompilerLimit(const Fs& fs, ToolkitInfo& t, Trail& trail) {
  for (const char* header : {"/include/crt/host_config.h", "/targets/x86_64-linux/include/crt/host_config.h",
                             "/targets/sbsa-linux/include/crt/host_config.h", "/include/host_config.h"}) {
    auto text = fs.Read(t.path + header, kMetadataCap);
    if (!text) continue;
    if ((t.max_gcc = ParseHostConfigMaxGcc(*text))) {
      t.max_gcc_source = t.path + header;
      trail.Found(t.max_gcc_source, "GCC up to " + std::to_string(*t.max_gcc));
      return;
    }
  }
}

void AddEnv(const ProbeInput& in, std::vector<Location>& out) {
  for (const char* var : {"CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"}) {
    if (!in.Env(var).empty()) out.push_back({in.Env(var), std::string("env:") + var, ToolkitKind::kSystem});
  }
}

// The real nvcc behind a PATH entry: links resolved, wrapper scripts read (never run) and
// followed to the nvcc they exec, at most four deep. nullopt when it leads to no nvcc binary.
std::optional<std::string> RealNvcc(const Fs& fs, const std::string& nvcc, Trail& trail) {
  std::string path = nvcc;
  for (int depth = 0; depth < 4; ++depth) {
    auto real = fs.Resolve(path);
    if (!real || !fs.IsFile(*real)) return std::nullopt;
    auto head = fs.Read(*real, 4096);
    if (!head || !StartsWith(*head, "#!")) return *real;
    auto target = ParseNvccWrapper(*head);
    if (!target) {
      trail.Missing(*real, "a script that names no nvcc");
      return std::nullopt;
    }
    trail.Found(*real, "a script that runs " + *target);
    path = *target;
  }
  return std::nullopt;
}

void AddPath(const ProbeInput& in, std::vector<Location>& out, Trail& trail) {
  for (const std::string& dir : PathDirs(in)) {
    std::string nvcc = dir + "/nvcc";
    if (!in.fs->IsFile(nvcc)) continue;
    auto real = RealNvcc(*in.fs, nvcc, trail);
    if (!real) continue;
    std::string root(Dirname(Dirname(*real)));
    if (root == "/usr" && in.fs->IsDir("/usr/lib/cuda")) root = "/usr/lib/cuda";  // Debian's layout
    out.push_back({root, "PATH " + nvcc, root == "/usr/lib/cuda" ? ToolkitKind::kDebian : ToolkitKind::kSystem});
  }
}

void AddGlob(const ProbeInput& in, const std::string& dir, std::vector<Location>& out) {
  auto names = in.fs->List(dir);
  if (!names) return;
  SortNatural(*names);  // cuda-9.2 before cuda-12.1, as versions
  for (const std::string& n : *names) {
    if (StartsWith(n, "cuda")) out.push_back({dir + "/" + n, dir + "/" + n, ToolkitKind::kSystem});
  }
}

// conda environments with conda's cuda-nvcc, and environments with pip's nvidia-cuda-nvcc wheel
// (found by the Python probe, so nothing is looked up for environments without one).
void AddPythonEnvs(const ProbeInput& in, const Snapshot& snap, std::vector<Location>& out) {
  for (const PythonEnv& env : snap.pythons) {
    if (env.kind == PythonKind::kConda && in.fs->IsFile(env.prefix + "/bin/nvcc")) {
      out.push_back({env.prefix, "conda env " + env.prefix, ToolkitKind::kConda});
    }
    bool pip_nvcc = std::any_of(env.packages.begin(), env.packages.end(),
                                [](const auto& kv) { return StartsWith(kv.first, "nvidia-cuda-nvcc"); });
    if (!pip_nvcc) continue;
    for (const std::string& site : env.site_packages) {
      for (const char* sub : {"/nvidia/cuda_nvcc", "/nvidia/cu13", "/nvidia/cu12"}) {
        out.push_back({site + sub, "pip " + site + sub, ToolkitKind::kPip});
      }
    }
  }
}

bool LooksLikeToolkit(const Fs& fs, const std::string& path, ToolkitKind kind) {
  if (fs.IsFile(path + "/bin/nvcc")) return true;
  if (kind == ToolkitKind::kConda || kind == ToolkitKind::kPip) return false;
  return fs.IsFile(path + "/version.json") || fs.IsFile(path + "/version.txt") ||
         fs.IsFile(path + "/include/cuda.h");
}

void MarkActive(const ProbeInput& in, Snapshot& snap, const std::vector<Location>& locations) {
  auto activate = [&](const std::string& path, const std::string& reason) {
    auto real = in.fs->Resolve(path);
    if (!real) return false;
    for (ToolkitInfo& t : snap.toolkits) {
      if (t.path == *real) {
        t.active = true;
        t.active_reason = reason;
        return true;
      }
    }
    return false;
  };
  for (const Location& l : locations) {
    if (StartsWith(l.found_by, "PATH ") && activate(l.path, "PATH")) return;
  }
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
    if (!in.Env(var).empty() && activate(in.Env(var), var)) return;
  }
  activate("/usr/local/cuda", "/usr/local/cuda");
}

}  // namespace

void ProbeToolkits(const ProbeInput& in, Snapshot& snap) {
  Trail trail(snap, "toolkits");
  std::vector<Location> locations;
  AddPath(in, locations, trail);
  AddEnv(in, locations);
  AddGlob(in, "/usr/local", locations);
  AddGlob(in, "/opt", locations);
  locations.push_back({"/usr/lib/cuda", "/usr/lib/cuda", ToolkitKind::kDebian});
  AddPythonEnvs(in, snap, locations);
  for (const Location& l : locations) {
    if (!in.fs->Exists(l.path)) {
      if (in.fs->LStat(l.path).type == FileType::kSymlink) trail.Error(l.path, "dangling symbolic link");
      continue;
    }
    auto real = in.fs->Resolve(l.path);
    if (!real || !LooksLikeToolkit(*in.fs, *real, l.kind)) continue;
    auto existing = std::find_if(snap.toolkits.begin(), snap.toolkits.end(),
                                 [&](const ToolkitInfo& t) { return t.path == *real; });
    if (existing != snap.toolkits.end()) {
      if (std::find(existing->found_by.begin(), existing->found_by.end(), l.found_by) == existing->found_by.end()) {
        existing->found_by.push_back(l.found_by);
      }
      continue;
    }
    ToolkitInfo t;
    t.path = *real;
    t.found_by.push_back(l.found_by);
    t.kind = l.kind;
    t.has_nvcc = in.fs->IsFile(t.path + "/bin/nvcc");
    FillVersion(*in.fs, t, trail);
    FillHostCompilerLimit(*in.fs, t, trail);
    snap.toolkits.push_back(std::move(t));
  }
  MarkActive(in, snap, locations);
}

}  // namespace cudamatch
