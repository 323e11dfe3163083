#include "probe/packages.h"

#include <algorithm>

#include "core/text.h"
#include "probe/parsers.h"

namespace cudamatch {

namespace {

bool Interesting(std::string_view name) {
  return name == "torch" || name == "torchvision" || name == "torchaudio" || name == "triton" ||
         name == "pytorch-triton" || name == "pytorch-triton-rocm" || StartsWith(name, "nvidia-");
}

bool HasVersionPy(std::string_view name) {
  return name == "torch" || name == "torchvision" || name == "torchaudio";
}

std::string MetadataPath(const Fs& fs, const std::string& site, const std::string& dir_name) {
  std::string path = site + "/" + dir_name;
  if (EndsWith(dir_name, ".egg-info") && fs.IsFile(path)) return path;  // a single-file egg-info
  return path + (EndsWith(dir_name, ".dist-info") ? "/METADATA" : "/PKG-INFO");
}

void ReadMetadata(const Fs& fs, const std::string& path, PackageInfo& pkg, Trail& trail) {
  auto text = fs.Read(path, kMetadataCap);
  if (!text) {
    trail.Error(path, text.error());
    return;
  }
  CoreMetadata meta = ParseCoreMetadata(*text);
  pkg.metadata_version = meta.version;
  for (const std::string& req : meta.requires_dist) {
    auto r = ParseRequirement(req);
    if (r && StartsWith(r->name, "nvidia-")) pkg.nvidia_requirements.push_back(r->name + r->specifier);
  }
}

// Whether version.py could be read (its absence is not an error).
bool ReadVersionPy(const Fs& fs, const std::string& path, PackageInfo& pkg, Trail& trail) {
  auto text = fs.Read(path, kSmallFileCap);
  if (!text) {
    if (fs.LStat(path).exists()) trail.Error(path, text.error());
    return false;
  }
  VersionPy v = ParseVersionPy(*text);
  if (v.version) {
    if (auto parsed = Pep440::Parse(*v.version)) {
      pkg.version = *parsed;
      pkg.version_source = path;
    } else {
      trail.Error(path, parsed.error());
    }
  }
  if (v.cuda && !v.cuda->empty()) {
    if (auto c = CudaVersion::Parse(*v.cuda)) {
      pkg.cuda = *c;
      pkg.cuda_source = path;
      pkg.cuda_origin = Origin::kObserved;
    }
  }
  if (v.hip && !v.hip->empty()) pkg.hip = v.hip;
  if (v.cuda && v.cuda->empty() && !pkg.cuda_source.size()) {
    pkg.cuda_source = path + " (cuda = None)";
    pkg.cuda_none = true;
  }
  return true;
}

// CUDA from the runtime wheel a PyPI build requires: nvidia-cuda-runtime-cu12==12.1.105 -> 12.1.
void CudaFromRequirements(PackageInfo& pkg) {
  if (pkg.cuda || !pkg.cuda_source.empty()) return;
  for (const std::string& req : pkg.nvidia_requirements) {
    if (!StartsWith(req, "nvidia-cuda-runtime")) continue;
    size_t eq = req.find("==");
    if (eq == std::string::npos) continue;
    if (auto c = CudaVersion::Parse(req.substr(eq + 2))) {
      pkg.cuda = c->Truncated();
      pkg.cuda_source = "Requires-Dist " + req;
      pkg.cuda_origin = Origin::kNvidiaRequirement;
      return;
    }
  }
}

void ListBundledLibs(const Fs& fs, const std::string& site, PackageInfo& pkg) {
  auto names = fs.List(site + "/torch/lib");
  if (!names) return;
  for (const std::string& n : *names) {
    for (std::string_view stem : {"libcudart", "libcudnn", "libnvrtc", "libcublas", "libnccl"}) {
      if (StartsWith(n, stem)) pkg.bundled_libs.push_back(n);
    }
  }
}

// `has_dir`: site-packages lists a directory named after the package (torch/).
PackageInfo ReadPackage(const Fs& fs, const std::string& site, const std::string& name, const std::string& dist_dir,
                        const std::string& dist_version, bool has_dir, Trail& trail) {
  PackageInfo pkg;
  pkg.name = name;
  pkg.location = dist_dir.empty() ? site + "/" + name : site + "/" + dist_dir;
  bool version_py = false;
  if (HasVersionPy(name) && has_dir) version_py = ReadVersionPy(fs, site + "/" + name + "/version.py", pkg, trail);
  // torch's metadata names the nvidia-* wheels it runs with; the others' only matter when
  // version.py did not answer.
  if (!dist_dir.empty() && (name == "torch" || (HasVersionPy(name) && !version_py))) {
    ReadMetadata(fs, MetadataPath(fs, site, dist_dir), pkg, trail);
  }
  if (!pkg.version) {
    std::string text = !pkg.metadata_version.empty() ? pkg.metadata_version : dist_version;
    if (auto v = Pep440::Parse(text)) {
      pkg.version = *v;
      pkg.version_source = site + "/" + dist_dir;
    }
  }
  CudaFromRequirements(pkg);
  if (name == "torch") ListBundledLibs(fs, site, pkg);
  trail.Found(pkg.location, pkg.version ? pkg.version->ToString() : "version unknown");
  return pkg;
}

}  // namespace

void ScanPackages(const Fs& fs, PythonEnv& env, Trail& trail) {
  for (const std::string& site : env.site_packages) {
    auto names = fs.List(site);
    if (!names) {
      trail.Error(site, names.error());
      continue;
    }
    auto listed = [&](const std::string& n) { return std::binary_search(names->begin(), names->end(), n); };
    for (const std::string& entry : *names) {
      auto dist = ParseDistDirName(entry);
      if (!dist || !Interesting(dist->name) || env.packages.count(dist->name)) continue;
      env.packages[dist->name] = ReadPackage(fs, site, dist->name, entry, dist->version, listed(dist->name), trail);
    }
    for (const char* name : {"torch", "torchvision", "torchaudio"}) {
      if (env.packages.count(name) || !listed(name)) continue;
      PackageInfo pkg = ReadPackage(fs, site, name, "", "", true, trail);
      if (pkg.version) env.packages[name] = std::move(pkg);
    }
  }
}

}  // namespace cudamatch
