// Which copy of each CUDA library (runtime, cuBLAS, cuDNN, cuFFT, NCCL, ...) torch's libraries will load. The search
// follows ld.so(8): the needing object's DT_RPATH (only when it has no DT_RUNPATH), then
// LD_LIBRARY_PATH, then its DT_RUNPATH, then the directories of /etc/ld.so.conf (what
// ld.so.cache is built from), then the default directories. $ORIGIN is the needing library's
// directory. Versions come from the real file name (libcudnn.so.9.1.0) or, for a copy inside an
// nvidia-* wheel, from that wheel's metadata.
#include <algorithm>
#include <unordered_set>

#include "core/text.h"
#include "probe/binaries.h"
#include "probe/parsers.h"

namespace cudamatch {

namespace {

struct SearchDir {
  std::string dir;
  LibOrigin origin;
};

// The CUDA-family libraries torch's CUDA libraries link: the runtime, the math libraries, cuDNN
// (libcudnn.so and its split libcudnn_*.so), NVRTC, nvJitLink, NVTX, CUPTI, NCCL, cuDSS, cuFile,
// NVSHMEM.
bool IsRuntimeSoname(std::string_view name) {
  static constexpr std::string_view kStems[] = {
      "libcudart.so", "libcublas.so", "libcublasLt.so", "libcudnn", "libcufft.so", "libcurand.so",
      "libcusolver.so", "libcusparse.so", "libcusparseLt.so", "libnvrtc.so", "libnvJitLink.so",
      "libnvToolsExt.so", "libcupti.so", "libnccl.so", "libcudss.so", "libcufile.so", "libnvshmem_host.so"};
  return std::any_of(std::begin(kStems), std::end(kStems), [&](std::string_view s) { return StartsWith(name, s); });
}

// $ORIGIN and ${ORIGIN} replaced in one pass from left to right: an origin that itself holds
// "$ORIGIN" (a directory so named) is not expanded again.
std::string Expand(std::string_view entry, std::string_view origin) {
  std::string out;
  while (!entry.empty()) {
    size_t len = StartsWith(entry, "${ORIGIN}") ? 9 : StartsWith(entry, "$ORIGIN") ? 7 : 0;
    if (len > 0) {
      out += origin;
      entry.remove_prefix(len);
    } else {
      out += entry.front();
      entry.remove_prefix(1);
    }
  }
  return NormalizePath(out);
}

// Directories searched, each once, at most kMaxSearchDirs (a library's RPATH and RUNPATH are
// capped by ReadElf already; LD_LIBRARY_PATH and ld.so.conf add to them).
constexpr size_t kMaxSearchDirs = 1024;

class SearchList {
 public:
  void Add(std::string dir, LibOrigin origin) {
    if (dirs_.size() >= kMaxSearchDirs || !seen_.insert(dir).second) return;
    dirs_.push_back({std::move(dir), origin});
  }
  std::vector<SearchDir> Take() { return std::move(dirs_); }

 private:
  std::vector<SearchDir> dirs_;
  std::unordered_set<std::string> seen_;
};

std::vector<SearchDir> SearchOrder(const ProbeInput& in, const BinaryInfo& lib, const std::vector<std::string>& conf) {
  std::string origin(Dirname(lib.path));
  SearchList dirs;
  if (lib.runpath.empty()) {
    for (const std::string& d : lib.rpath) dirs.Add(Expand(d, origin), LibOrigin::kRpath);
  }
  for (const std::string& d : SplitNonEmpty(in.Env("LD_LIBRARY_PATH"), ':')) {
    if (StartsWith(d, "/")) dirs.Add(NormalizePath(d), LibOrigin::kLdLibraryPath);
  }
  for (const std::string& d : lib.runpath) dirs.Add(Expand(d, origin), LibOrigin::kRunpath);
  for (const std::string& d : conf) dirs.Add(d, LibOrigin::kLdSoConf);
  for (const char* d : {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
                        "/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib"}) {
    dirs.Add(d, LibOrigin::kDefault);
  }
  return dirs.Take();
}

// "libcudnn.so.9.1.0" -> "libcudnn.so." (what LibraryVersion strips).
std::string Stem(std::string_view name) { return std::string(name.substr(0, name.find(".so"))) + ".so."; }

// The nvidia-* wheel owning <site>/nvidia/<part>/lib/... (torch's site or another of the
// environment's): nvidia/cudnn -> nvidia-cudnn-cu12.
const PackageInfo* OwningWheel(const PythonEnv& env, const std::string& site, const std::string& path) {
  std::string prefix = site + "/nvidia/";
  for (size_t i = 0; i < env.site_packages.size() && !StartsWith(path, prefix); ++i) {
    prefix = env.site_packages[i] + "/nvidia/";
  }
  if (!StartsWith(path, prefix)) return nullptr;
  std::string part = path.substr(prefix.size());
  part = "nvidia-" + part.substr(0, part.find('/'));
  std::replace(part.begin(), part.end(), '_', '-');
  for (const auto& [name, pkg] : env.packages) {
    if ((name == part || StartsWith(name, part + "-cu")) && pkg.version) return &pkg;
  }
  return nullptr;
}

void Version(const Fs& fs, const PythonEnv& env, const std::string& site, const std::string& path,
             std::string& target, std::optional<Pep440>& version, std::string* source) {
  auto real = fs.Resolve(path);
  target = std::string(Basename(real ? *real : path));
  if (const PackageInfo* wheel = OwningWheel(env, site, path)) {
    version = wheel->version;
    if (source) *source = wheel->location;
    return;
  }
  version = LibraryVersion(target, Stem(target));
  if (version && version->release.size() < 2) version.reset();  // libcudnn.so.9: the major alone says too little
  if (source && version) *source = real ? *real : path;
}

// The environment's own copy: an nvidia-* wheel's lib directory (torch's site-packages first,
// then the environment's others: pip puts torch in lib64/ and the pure nvidia-* wheels in lib/
// where the two differ), or torch/lib.
std::string WheelCopy(const Fs& fs, const PythonEnv& env, const std::string& site, const std::string& soname) {
  std::vector<std::string> sites = {site};
  for (const std::string& other : env.site_packages) {
    if (other != site) sites.push_back(other);
  }
  for (const std::string& dir : sites) {
    if (auto parts = fs.List(dir + "/nvidia")) {
      for (const std::string& p : *parts) {
        std::string path = dir + "/nvidia/" + p + "/lib/" + soname;
        if (fs.Exists(path)) return path;
      }
    }
  }
  std::string bundled = site + "/torch/lib/" + soname;
  return fs.Exists(bundled) ? bundled : "";
}

RuntimeLib Resolve(const ProbeInput& in, const PythonEnv& env, const std::string& site, const BinaryInfo& lib,
                   const std::string& soname, const std::vector<std::string>& conf) {
  RuntimeLib r;
  r.soname = soname;
  r.needed_by = lib.path;
  for (const SearchDir& d : SearchOrder(in, lib, conf)) {
    std::string path = d.dir + "/" + soname;
    if (!in.fs->IsFile(path)) continue;
    r.path = path;
    r.origin = d.origin;
    break;
  }
  if (!r.path.empty()) Version(*in.fs, env, site, r.path, r.target, r.version, &r.version_source);
  r.wheel_path = WheelCopy(*in.fs, env, site, soname);
  if (!r.wheel_path.empty()) {
    std::string ignored;
    Version(*in.fs, env, site, r.wheel_path, ignored, r.wheel_version, nullptr);
    auto a = in.fs->Resolve(r.path), b = in.fs->Resolve(r.wheel_path);
    if (!r.path.empty() && a && b && *a == *b) r.path = r.wheel_path;
  }
  return r;
}

}  // namespace

std::vector<RuntimeLib> ResolveTorchRuntime(const ProbeInput& in, const PythonEnv& env, const std::string& site,
                                            const std::vector<BinaryInfo>& torch_libs) {
  std::vector<RuntimeLib> out;
  const std::vector<std::string> conf = LdSoConfDirs(*in.fs);  // read once, not per library
  for (const BinaryInfo& lib : torch_libs) {
    for (const std::string& soname : lib.needed) {
      if (!IsRuntimeSoname(soname)) continue;
      // ld.so maps a soname once; which of the libraries needing it asks first follows the load
      // order. One that finds it is taken over one that does not.
      auto seen = std::find_if(out.begin(), out.end(), [&](const RuntimeLib& r) { return r.soname == soname; });
      if (seen == out.end()) {
        out.push_back(Resolve(in, env, site, lib, soname, conf));
      } else if (seen->path.empty()) {
        RuntimeLib again = Resolve(in, env, site, lib, soname, conf);
        if (!again.path.empty()) *seen = std::move(again);
      }
    }
  }
  return out;
}

std::vector<RuntimeLib> ResolveExtensionRuntime(const ProbeInput& in, const PythonEnv& env, const std::string& site,
                                                const ExtensionInfo& ext, const std::vector<RuntimeLib>& torch_runtime) {
  std::vector<RuntimeLib> out;
  std::optional<std::vector<std::string>> conf;
  for (const BinaryInfo& lib : ext.libs) {
    for (const std::string& soname : lib.needed) {
      if (!IsRuntimeSoname(soname)) continue;
      // Mapped by torch first (the same soname); another major of the CUDA runtime or cuDNN than
      // torch's is ext.cuda_major's and ext.cudnn_major's to say.
      bool torchs = std::any_of(torch_runtime.begin(), torch_runtime.end(), [&](const RuntimeLib& r) {
        return r.soname == soname || (Stem(r.soname) == Stem(soname) &&
                                      (StartsWith(soname, "libcudart.so") || StartsWith(soname, "libcudnn.so")));
      });
      if (torchs) continue;
      auto seen = std::find_if(out.begin(), out.end(), [&](const RuntimeLib& r) { return r.soname == soname; });
      if (seen != out.end() && !seen->path.empty()) continue;
      if (!conf) conf = LdSoConfDirs(*in.fs);
      RuntimeLib r = Resolve(in, env, site, lib, soname, *conf);
      if (seen == out.end()) out.push_back(std::move(r));
      else if (!r.path.empty()) *seen = std::move(r);
    }
  }
  return out;
}

}  // namespace cudamatch
