// Reads the truth from installed binaries: which GPU code torch's libraries and every CUDA
// extension carry, what they link, and which CUDA libraries torch's loader will pick.
// Sources, in order, per environment:
//   torch:      <site>/torch/lib/libtorch_cuda.so (and the split libraries of older releases:
//               libtorch_cuda_cpp.so, libtorch_cuda_cu.so, libtorch_cuda_linalg.so,
//               libcaffe2_nvrtc.so; libtorch.so of torch 1.4 and older, which have neither
//               libtorch_cuda.so nor libtorch_cpu.so): ELF headers, DT_NEEDED / RPATH / RUNPATH,
//               fatbin headers; libtorch_nvshmem.so for what it links alone
//   runtime:    each CUDA-family soname torch needs (libcudart, libcublas, libcudnn*, libcufft,
//               libnccl, libnvrtc, libcudss, ...; binaries_runtime.cc IsRuntimeSoname), searched as ld.so does:
//               DT_RPATH, LD_LIBRARY_PATH, DT_RUNPATH, /etc/ld.so.conf, default directories
//               (binaries_runtime.cc)
//   extensions: every *.dist-info but torch's, triton's and the nvidia-* wheels': the shared
//               objects its RECORD lists, kept when they carry GPU code or link the CUDA runtime,
//               cuDNN, cuBLAS or torch's CUDA libraries; METADATA for the Requires-Dist pins on
//               torch, torchvision and torchaudio; direct_url.json for the wheel's file name
//               (binaries_ext.cc). The .dynsym of those that link torch's libraries, for the C++
//               ABI of the torch symbols they need.
//               Editable and develop installs (no RECORD lists their objects): the project's
//               package directories that __editable__ .pth files, their finders' MAPPING and
//               direct_url.json, or *.egg-link files name, listed to a bounded depth
//               (binaries_editable.cc).
//               At most 64 shared objects a distribution and 512 an environment are read.
//   torch's ABI: <site>/torch/lib/libc10.so's .dynsym, the torch symbols it defines; read only
//               when an extension needs torch symbols of a known ABI.
//   symbols:    every torch symbol an extension's library needs, looked up in the GNU hash
//               tables of torch's libraries in torch/lib (libtorch_cpu.so, libc10.so,
//               libtorch_python.so, libtorch_cuda.so, ...), then of the package's other libraries.
#include "probe/binaries.h"

#include <algorithm>

#include "core/text.h"
#include "probe/env_cache.h"

namespace cudamatch {

std::string_view LibOriginName(LibOrigin o) {
  switch (o) {
    case LibOrigin::kRpath: return "DT_RPATH";
    case LibOrigin::kLdLibraryPath: return "LD_LIBRARY_PATH";
    case LibOrigin::kRunpath: return "DT_RUNPATH";
    case LibOrigin::kLdSoConf: return "ld.so.conf";
    case LibOrigin::kDefault: break;
  }
  return "default";
}

namespace {

void ReadSymbols(const RandomAccessFile& file, const ElfInfo& elf, BinaryInfo& b, Trail& trail) {
  auto symbols = ReadTorchSymbols(file, elf);
  if (!symbols) {
    trail.Error(b.path, ".dynsym: " + symbols.error());
    return;
  }
  for (const std::string& cut : symbols->cut) trail.Skipped(b.path, "cap: " + cut);
  b.symbols = std::move(*symbols);
}

}  // namespace

BinaryInfo ReadBinary(const Fs& fs, const std::string& path, Trail& trail, bool symbols) {
  BinaryInfo b;
  b.path = path;
  auto file = fs.Open(path);
  if (!file) {
    b.error = file.error();
    trail.Error(path, b.error);
    return b;
  }
  if ((*file)->size() == 0) {
    b.error = "empty file";
    trail.Skipped(path, b.error);
    return b;
  }
  auto elf = ReadElf(**file);
  if (!elf) {
    b.error = elf.error();
    trail.Error(path, b.error);
    return b;
  }
  for (const std::string& cut : elf->cut) trail.Skipped(path, "cap: " + cut);
  b.needed = elf->needed;
  b.rpath = elf->rpath;
  b.runpath = elf->runpath;
  if (symbols || LinksTorch(b.needed)) ReadSymbols(**file, *elf, b, trail);
  if (const ElfSection* s = FatbinSection(*elf)) {
    auto code = ReadFatbin(**file, s->offset, s->size);
    if (!code) {
      b.error = s->name + ": " + code.error();
      trail.Error(path, b.error);
      return b;
    }
    b.code = std::move(*code);
  }
  trail.Found(path, b.code ? "GPU code: " + FatbinCodeNames(*b.code) + " (" + FatbinCoverage(*b.code) + ")"
                          : "no GPU code");
  return b;
}

bool LinksCuda(const BinaryInfo& b) {
  if (b.code) return true;
  return std::any_of(b.needed.begin(), b.needed.end(), [](const std::string& n) {
    return StartsWith(n, "libcudart.") || StartsWith(n, "libcudnn") || StartsWith(n, "libc10_cuda.") ||
           StartsWith(n, "libtorch_cuda") || StartsWith(n, "libcublas");
  });
}

const std::vector<std::string_view>& TorchCudaLibraries() {
  static const std::vector<std::string_view> kNames = {"libtorch_cuda.so", "libtorch_cuda_cpp.so", "libtorch_cuda_cu.so",
                                                       "libtorch_cuda_linalg.so", "libcaffe2_nvrtc.so"};
  return kNames;
}

std::string TorchSite(const Fs& fs, const PythonEnv& env) {
  for (const std::string& site : env.site_packages) {
    if (fs.IsDir(site + "/torch/lib")) return site;
  }
  return "";
}

void ReadTorchLibs(const Fs& fs, PythonEnv& env, Trail& trail) {
  auto it = env.packages.find("torch");
  if (it == env.packages.end()) return;
  std::string site = TorchSite(fs, env);
  if (site.empty()) return;
  bool cuda_lib = false;
  for (std::string_view name : TorchCudaLibraries()) {
    std::string path = site + "/torch/lib/" + std::string(name);
    if (!fs.IsFile(path)) continue;
    cuda_lib = cuda_lib || StartsWith(name, "libtorch_cuda");
    it->second.binaries.push_back(ReadBinary(fs, path, trail));
  }
  // A CUDA build of torch 1.4 and older: no libtorch_cuda.so nor libtorch_cpu.so, the CUDA code
  // is libtorch.so's. (A CPU build is not asked: it costs an environment's entry two more stats of
  // links on every run, as Debian's python3-torch.)
  std::string monolith = site + "/torch/lib/libtorch.so";
  if (!cuda_lib && it->second.cuda && !fs.IsFile(site + "/torch/lib/libtorch_cpu.so") && fs.IsFile(monolith)) {
    it->second.binaries.push_back(ReadBinary(fs, monolith, trail));
  }
  // libtorch_nvshmem.so links NVSHMEM (libnvshmem_host.so.3): read for what it links; the device
  // code it carries is NVSHMEM's, not the list torch's kernels are judged by.
  std::string nvshmem = site + "/torch/lib/libtorch_nvshmem.so";
  if (fs.IsFile(nvshmem)) {
    BinaryInfo b = ReadBinary(fs, nvshmem, trail);
    b.code.reset();
    it->second.binaries.push_back(std::move(b));
  }
}

void ReadTorchAbi(const Fs& fs, PythonEnv& env, Trail& trail) {
  auto it = env.packages.find("torch");
  if (it == env.packages.end()) return;
  bool needed = std::any_of(env.extensions.begin(), env.extensions.end(), [](const ExtensionInfo& e) {
    return std::any_of(e.libs.begin(), e.libs.end(), [](const BinaryInfo& b) {
      return !b.symbols.needs_cxx11.empty() || !b.symbols.needs_old.empty();
    });
  });
  if (!needed) return;
  std::string site = TorchSite(fs, env);
  if (site.empty()) return;
  std::string c10 = site + "/torch/lib/libc10.so";
  if (fs.IsFile(c10)) it->second.abi_libs.push_back(ReadBinary(fs, c10, trail, true));
}

namespace {

// torch's libraries an extension's torch symbols come from, the one defining most of them first.
constexpr std::string_view kTorchExporters[] = {
    "libtorch_cpu.so",      "libc10.so",           "libtorch_python.so", "libtorch_cuda.so",
    "libc10_cuda.so",       "libtorch.so",         "libtorch_cuda_cpp.so", "libtorch_cuda_cu.so",
    "libtorch_cuda_linalg.so", "libtorch_hip.so",  "libc10_hip.so",      "libshm.so"};

struct SymbolSource {
  std::string path;
  std::unique_ptr<RandomAccessFile> file;
  ElfSymbolIndex index;
};

// A library opened for lookups; an error when it has no GNU hash table or cannot be read.
Result<SymbolSource> OpenSymbolSource(const Fs& fs, const std::string& path) {
  auto file = fs.Open(path);
  if (!file) return Error{file.error()};
  auto elf = ReadElf(**file);
  if (!elf) return Error{elf.error()};
  auto index = ElfSymbolIndex::Open(**file, *elf);
  if (!index) return Error{index.error()};
  return SymbolSource{path, std::move(*file), std::move(*index)};
}

// Whether one of `sources` defines `name`; an error when a lookup could not be made.
Result<bool> AnyDefines(const std::vector<SymbolSource>& sources, const std::string& name) {
  for (const SymbolSource& src : sources) {
    auto found = src.index.Defines(name);
    if (!found) return Error{src.path + ": " + found.error()};
    if (*found) return true;
  }
  return false;
}

bool NeedsTorchSymbols(const ExtensionInfo& ext) {
  return std::any_of(ext.libs.begin(), ext.libs.end(), [](const BinaryInfo& b) { return !b.symbols.needs.empty(); });
}

void DropNeeds(PythonEnv& env) {
  for (ExtensionInfo& ext : env.extensions) {
    for (BinaryInfo& b : ext.libs) std::vector<std::string>().swap(b.symbols.needs);
  }
}

// One library's needs; nullopt when a lookup failed (then nothing is claimed).
std::optional<SymbolLookup> LookUp(const Fs& fs, const ExtensionInfo& ext, const BinaryInfo& lib,
                                   const std::vector<SymbolSource>& torch, std::vector<SymbolSource>& own, bool& own_open,
                                   const std::string& dir, Trail& trail) {
  SymbolLookup r;
  r.torch_lib = dir;
  for (const std::string& name : lib.symbols.needs) {
    ++r.looked_up;
    auto found = AnyDefines(torch, name);
    if (found && !*found) {
      // Another library of the same package may define it (a package split into several).
      if (!own_open) {
        own_open = true;
        for (const BinaryInfo& other : ext.libs) {
          if (other.path == lib.path || !other.error.empty()) continue;
          if (auto src = OpenSymbolSource(fs, other.path)) own.push_back(std::move(*src));
        }
      }
      found = AnyDefines(own, name);
    }
    if (!found) {
      trail.Skipped(lib.path, "torch symbols not looked up: " + found.error());
      return std::nullopt;
    }
    if (*found) continue;
    if (r.missing++ == 0) r.first_missing = name;
  }
  return r;
}

}  // namespace

void LookUpTorchSymbols(const Fs& fs, PythonEnv& env, Trail& trail) {
  if (env.packages.find("torch") == env.packages.end() ||
      !std::any_of(env.extensions.begin(), env.extensions.end(), NeedsTorchSymbols)) {
    return DropNeeds(env);
  }
  std::string site = TorchSite(fs, env);
  if (site.empty()) return DropNeeds(env);
  std::string dir = site + "/torch/lib";
  auto names = fs.List(dir);  // listed before, for the bundled libraries
  if (!names) return DropNeeds(env);
  std::vector<SymbolSource> torch;
  for (std::string_view name : kTorchExporters) {
    if (std::find(names->begin(), names->end(), name) == names->end()) continue;
    std::string path = dir + "/" + std::string(name);
    auto src = OpenSymbolSource(fs, path);
    if (!src) {
      // A library whose symbols cannot be looked up: no symbol can be said to be missing.
      trail.Skipped(path, "its symbols not looked up: " + src.error());
      return DropNeeds(env);
    }
    torch.push_back(std::move(*src));
  }
  // libc10.so is in every torch since 1.0: without it the directory is not a whole torch.
  if (torch.empty() || std::find(names->begin(), names->end(), "libc10.so") == names->end()) return DropNeeds(env);
  for (ExtensionInfo& ext : env.extensions) {
    std::vector<SymbolSource> own;
    bool own_open = false;
    for (BinaryInfo& lib : ext.libs) {
      if (lib.symbols.needs.empty()) continue;
      lib.torch_lookup = LookUp(fs, ext, lib, torch, own, own_open, dir, trail);
      if (!lib.torch_lookup) continue;
      const SymbolLookup& r = *lib.torch_lookup;
      trail.Found(lib.path, std::to_string(r.looked_up) + " torch symbols looked up in " + dir + ": " +
                                (r.missing == 0 ? "all defined"
                                                : std::to_string(r.missing) + " defined nowhere, first " + r.first_missing));
    }
  }
  DropNeeds(env);
}

namespace {

void ResolveRuntime(const ProbeInput& in, PythonEnv& env, Trail& trail) {
  auto it = env.packages.find("torch");
  if (it == env.packages.end()) return;
  std::string site = TorchSite(*in.fs, env);
  if (site.empty()) return;
  it->second.runtime = ResolveTorchRuntime(in, env, site, it->second.binaries);
  for (const RuntimeLib& r : it->second.runtime) {
    if (r.path.empty()) trail.Missing(r.soname, "not found in the loader's search path");
    else trail.Found(r.path, r.soname + " via " + std::string(LibOriginName(*r.origin)));
  }
}

// What each torch extension needs beyond torch's runtime, after the extensions are known.
void ResolveExtensionsRuntime(const ProbeInput& in, PythonEnv& env, Trail& trail) {
  auto it = env.packages.find("torch");
  if (it == env.packages.end() || env.extensions.empty()) return;
  std::string site;
  for (ExtensionInfo& ext : env.extensions) {
    if (!ext.LinksTorch()) continue;
    if (site.empty()) site = TorchSite(*in.fs, env);
    if (site.empty()) return;
    ext.runtime = ResolveExtensionRuntime(in, env, site, ext, it->second.runtime);
    for (const RuntimeLib& r : ext.runtime) {
      if (r.path.empty()) trail.Missing(r.soname, "needed by " + r.needed_by + ", not found in the loader's search path");
      else trail.Found(r.path, r.soname + " via " + std::string(LibOriginName(*r.origin)));
    }
  }
}

}  // namespace

// With the environment cache, the python probe has read the environment's files already
// (env_cache.h): its trail entries are put here, in the order this probe writes them.
void ProbeBinaries(const ProbeInput& in, Snapshot& snap) {
  Trail trail(snap, "binaries");
  for (PythonEnv& env : snap.pythons) {
    if (const EnvScan* scan = in.env_cache ? in.env_cache->Scanned(env) : nullptr) {
      snap.trail.insert(snap.trail.end(), scan->torch_trail.begin(), scan->torch_trail.end());
      ResolveRuntime(in, env, trail);
      snap.trail.insert(snap.trail.end(), scan->extension_trail.begin(), scan->extension_trail.end());
      ResolveExtensionsRuntime(in, env, trail);
      continue;
    }
    ReadTorchLibs(*in.fs, env, trail);
    ResolveRuntime(in, env, trail);
    env.extensions = ScanExtensions(*in.fs, env, trail);
    ReadTorchAbi(*in.fs, env, trail);
    LookUpTorchSymbols(*in.fs, env, trail);
    ResolveExtensionsRuntime(in, env, trail);  // after the ABI, as on a cached run (the cache's extension trail holds both)
  }
}

}  // namespace cudamatch
