// Rules on what installed binaries say about themselves: the GPU code torch's libraries carry
// against the catalog's list; CUDA extensions' GPU code, CUDA runtime and cuDNN majors and torch
// pins against this machine; CUDA libraries torch would load from outside its environment, and
// those it needs that the loader finds nowhere.
#include <algorithm>
#include <optional>
#include <utility>

#include "catalog/extensions.h"
#include "core/text.h"
#include "core/version.h"
#include "diagnose/rule_fns.h"
#include "diagnose/summary.h"
#include "probe/parsers.h"
#include "probe/wsl.h"

namespace cudamatch {

namespace {

ComputeCapability CcOf(int arch) { return ComputeCapability{arch / 10, arch % 10, 0}; }

std::string ExtLabel(const ExtensionInfo& e) { return e.name + (e.version ? " " + e.version->ToString() : ""); }

// Every GPU's capability, lowest first: "6.1;7.5".
std::string EveryGpuArch(const Snapshot& s) {
  std::vector<ComputeCapability> ccs;
  for (const GpuInfo& g : s.gpus) {
    if (g.cc && std::find(ccs.begin(), ccs.end(), *g.cc) == ccs.end()) ccs.push_back(*g.cc);
  }
  std::sort(ccs.begin(), ccs.end());
  std::vector<std::string> out;
  for (const ComputeCapability& c : ccs) out.push_back(c.ToString());
  return Join(out, ";");
}

// The version of a single "==X" clause (no wildcard), the build a pin names.
std::optional<Pep440> ExactPin(const SpecifierSet& spec) {
  if (spec.clauses.size() != 1 || spec.clauses[0].op != SpecOp::kEqual || spec.clauses[0].wildcard) return std::nullopt;
  return spec.clauses[0].version;
}

}  // namespace

// The rebuild of `e` against the installed torch; an editable install is rebuilt in its project
// directory, the way it was installed. Beside a CUDA torch it is built for every GPU present
// (TORCH_CUDA_ARCH_LIST: one build serves the machine, and a mixed one needs all), and CUDA_HOME
// is the nvcc of torch's CUDA major when the machine has one; without one, `evidence` (when given)
// says which toolkit to install first.
RemedyNeed RebuildNeed(const Snapshot& s, const PythonEnv& env, const ExtensionInfo& e, std::vector<EvidenceItem>* evidence) {
  RemedyNeed need = Need(RemedyNeed::Kind::kExtensionRebuild);
  need.package = e.name;
  need.version = e.version;
  if (e.editable) {
    need.project = e.editable->project;
    need.develop = e.editable->mode == EditableMode::kDevelop;
  }
  auto torch = env.packages.find("torch");
  if (torch == env.packages.end() || !torch->second.cuda) return need;
  need.arch_list = EveryGpuArch(s);
  int major = torch->second.cuda->major;
  if (const ToolkitInfo* t = NvccOfMajor(s, major)) {
    need.path = t->path;
  } else if (evidence != nullptr) {
    evidence->push_back(Ev("evidence.abi_no_nvcc", {{"major", std::to_string(major)}}));
  }
  return need;
}

// The major of a versioned soname: libcudart.so.11.0 -> 11, libcudnn.so.9 -> 9.
std::optional<int> SonameMajor(std::string_view soname, std::string_view stem) {
  std::string prefix = std::string(stem) + ".so.";
  if (!StartsWith(soname, prefix)) return std::nullopt;
  std::string_view rest = soname.substr(prefix.size());
  auto n = ParseUint(rest.substr(0, rest.find('.')));
  return n ? std::optional<int>(static_cast<int>(*n)) : std::nullopt;
}

std::optional<std::pair<std::string, int>> NeededMajor(const BinaryInfo& b, std::string_view stem) {
  for (const std::string& n : b.needed) {
    if (auto m = SonameMajor(n, stem)) return std::pair(n, *m);
  }
  return std::nullopt;
}


ArchFit FitCode(const FatbinCode& code, const ComputeCapability& gpu) {
  ArchFit best;
  ComputeCapability plain_gpu{gpu.major, gpu.minor, 0};
  // SASS runs on its own major from its minor on; "a" code only on its own capability.
  auto sass = [&](int a, char suffix) {
    ComputeCapability cc = CcOf(a);
    bool runs = suffix == 'a' ? cc == plain_gpu : cc.major == gpu.major && cc.minor <= gpu.minor;
    cc.suffix = suffix;
    if (runs && (best.fit != KernelFit::kSass || cc > best.via)) best = ArchFit{KernelFit::kSass, cc};
  };
  for (int a : code.sass) sass(a, 0);
  for (int a : code.sass_f) sass(a, 'f');
  for (int a : code.sass_a) sass(a, 'a');
  if (best.fit == KernelFit::kSass) return best;
  // PTX is compiled for any later GPU; "f" PTX only within its family, "a" PTX only for itself.
  auto ptx = [&](int a, char suffix) {
    ComputeCapability cc = CcOf(a);
    bool runs = suffix == 'a'   ? cc == plain_gpu
                : suffix == 'f' ? cc.major == gpu.major && cc.minor <= gpu.minor
                                : cc <= plain_gpu;
    cc.suffix = suffix;
    if (runs && (best.fit == KernelFit::kNone || cc > best.via)) best = ArchFit{KernelFit::kPtx, cc};
  };
  for (int a : code.ptx) ptx(a, 0);
  for (int a : code.ptx_f) ptx(a, 'f');
  for (int a : code.ptx_a) ptx(a, 'a');
  return best;
}

EvidenceItem CodeEvidence(const std::string& path, const FatbinCode& code) {
  MessageArgs args = {{"file", path}, {"list", FatbinCodeNames(code)}, {"containers", std::to_string(code.containers)},
                      {"entries", std::to_string(code.entries)}};
  if (code.sampled == 0) return Ev("evidence.gpu_code_file", std::move(args));
  args.emplace_back("sampled", std::to_string(code.sampled));
  return Ev("evidence.gpu_code_file_sampled", std::move(args));
}

std::optional<TorchCode> TorchFileCode(const PackageInfo& torch) {
  std::optional<TorchCode> out;
  for (const BinaryInfo& b : torch.binaries) {
    if (!b.code || FatbinCodeNames(*b.code).empty()) continue;
    if (!out) out = TorchCode{{}, CodeEvidence(b.path, *b.code)};
    FatbinCode& all = out->code;
    const FatbinCode& one = *b.code;
    for (auto [to, from] : {std::pair{&all.sass, &one.sass}, {&all.ptx, &one.ptx}, {&all.sass_a, &one.sass_a},
                            {&all.ptx_a, &one.ptx_a}, {&all.sass_f, &one.sass_f}, {&all.ptx_f, &one.ptx_f}}) {
      to->insert(to->end(), from->begin(), from->end());
    }
  }
  if (!out) return out;
  for (auto* v : {&out->code.sass, &out->code.ptx, &out->code.sass_a, &out->code.ptx_a, &out->code.sass_f, &out->code.ptx_f}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  return out;
}

void CheckTorchFileList(const Snapshot& s, const Catalog& c, const PlanQuery&, std::vector<Finding>& out) {
  ForEachTorch(s, [&](const PythonEnv& env, const PackageInfo& torch) {
    std::optional<TorchCode> file = TorchFileCode(torch);
    const TorchVariant* v = InstalledVariant(c, torch, s.platform);
    if (!file || v == nullptr || !v->arch_list) return;
    FatbinCode catalog;
    for (const ArchEntry& e : *v->arch_list) {
      catalog.sass.push_back(e.cc.Number());
      if (e.ptx) catalog.ptx.push_back(e.cc.Number());
    }
    if (catalog.sass == file->code.sass && catalog.ptx == file->code.ptx) return;
    out.push_back(EmitFor(s, env, "torch.kernels_differ",
                          {{"env", env.prefix}, {"torch", torch.version->ToString()},
                           {"file_list", FatbinCodeNames(file->code)}, {"list", FatbinCodeNames(catalog)}},
                          {TorchEvidence(env, torch), file->evidence,
                           Ev("evidence.arch_list_catalog", {{"torch", v->torch.Public()}, {"variant", v->variant.tag},
                                                             {"list", FatbinCodeNames(catalog)},
                                                             {"line", std::to_string(v->prov.line)}})},
                          "compute-capability"));
  });
}

namespace {

// Packages whose kernels are written for a GPU generation and newer: no build of a release in
// [from, to) runs below `min`, so a rebuild for an older GPU is no fix.
struct GpuFloor {
  std::string_view package, from, to, min;
};
constexpr GpuFloor kGpuFloors[] = {
    // Dao-AILab/flash-attention README, "FlashAttention-2 currently supports: Ampere, Ada, or
    // Hopper GPUs (e.g., A100, RTX 3090, RTX 4090, H100). Support for Turing GPUs (T4, RTX 2080)
    // is coming soon, please use FlashAttention 1.x for Turing GPUs for now."; setup.py compiles
    // for sm_80 and sm_90 only (cc_flag) whatever TORCH_CUDA_ARCH_LIST says.
    {"flash-attn", "2.0", "3.0", "8.0"},
};

const GpuFloor* FloorOf(const ExtensionInfo& ext) {
  if (!ext.version) return nullptr;
  for (const GpuFloor& f : kGpuFloors) {
    if (f.package == ext.name && *ext.version >= Pep440::Parse(f.from).value() && *ext.version < Pep440::Parse(f.to).value()) {
      return &f;
    }
  }
  return nullptr;
}

}  // namespace

void CheckExtensionKernels(const Snapshot& s, const Catalog&, const PlanQuery&, std::vector<Finding>& out) {
  for (const PythonEnv& env : s.pythons) {
    for (const ExtensionInfo& ext : env.extensions) {
      for (const GpuGroup& group : GroupGpus(s.gpus)) {  // identical GPUs: one finding
        const GpuInfo& gpu = s.gpus[group.members.front()];
        if (!gpu.cc) continue;
        for (const BinaryInfo& lib : ext.libs) {
          if (!lib.code || FitCode(*lib.code, *gpu.cc).fit != KernelFit::kNone) continue;
          const GpuFloor* floor = FloorOf(ext);
          std::optional<ComputeCapability> min;
          if (auto m = floor ? ComputeCapability::Parse(floor->min) : Result<ComputeCapability>(Err(""))) min = *m;
          if (min && *gpu.cc < *min) {
            out.push_back(EmitFor(s, env, "ext.gpu_unsupported",
                                  {{"env", env.prefix}, {"package", ExtLabel(ext)}, {"gpus", GroupLabel(s.gpus, group)},
                                   {"sm", gpu.cc->Sm()}, {"min", min->ToString()}, {"file", lib.path},
                                   {"list", FatbinCodeNames(*lib.code)}},
                                  {Ev("evidence.gpu_cc", {{"gpu", gpu.name}, {"cc", gpu.cc->ToString()}, {"source", gpu.cc_source}}),
                                   CodeEvidence(lib.path, *lib.code)},
                                  "extensions"));
            break;
          }
          // A CUDA package that neither links nor requires torch is built by its own build system:
          // no torch extension rebuild (TORCH_CUDA_ARCH_LIST) is its fix.
          bool of_torch = ext.LinksTorch() || !ext.torch_pins.empty();
          std::vector<EvidenceItem> evidence = {
              Ev("evidence.gpu_cc", {{"gpu", gpu.name}, {"cc", gpu.cc->ToString()}, {"source", gpu.cc_source}}),
              CodeEvidence(lib.path, *lib.code)};
          RemedyNeed need = of_torch ? RebuildNeed(s, env, ext, &evidence) : RemedyNeed{};
          out.push_back(EmitFor(s, env, of_torch ? "ext.no_kernels" : "cudapkg.no_kernels",
                                {{"env", env.prefix}, {"package", ExtLabel(ext)}, {"gpu", gpu.name},
                                 {"gpus", GroupLabel(s.gpus, group)}, {"count", std::to_string(group.members.size())},
                                 {"sm", gpu.cc->Sm()},
                                 {"file", lib.path}, {"list", FatbinCodeNames(*lib.code)}},
                                std::move(evidence), "extensions", need));
          break;  // one finding per package and GPU
        }
      }
    }
  }
}

// ext.cuda_major and ext.cudnn_major: the build of the extension for torch's variant on the PyTorch
// index first (what torch itself links), else its rebuild against this torch.
void CheckExtensionRuntime(const Snapshot& s, const Catalog& c, const PlanQuery&, std::vector<Finding>& out) {
  ForEachTorch(s, [&](const PythonEnv& env, const PackageInfo& torch) {
    std::optional<int> torch_cudnn;
    for (const RuntimeLib& r : torch.runtime) {
      if (auto m = SonameMajor(r.soname, "libcudnn")) torch_cudnn = *m;
    }
    for (const ExtensionInfo& ext : env.extensions) {
      // A CUDA package (cupy, bitsandbytes' ctypes libraries) loads its own CUDA runtime beside
      // torch's; only what is built against torch must share torch's CUDA and cuDNN majors.
      if (!ext.LinksTorch()) continue;
      for (const BinaryInfo& lib : ext.libs) {
        auto cudart = NeededMajor(lib, "libcudart");
        if (cudart && torch.cuda && cudart->second != torch.cuda->major) {
          std::vector<EvidenceItem> evidence = {Ev("evidence.needed", {{"file", lib.path}, {"soname", cudart->first}}),
                                                TorchEvidence(env, torch)};
          RemedyNeed need = BuiltTorchNeed(s, c, env, torch, ext, &evidence);
          need.fetch_ok = true;
          out.push_back(EmitFor(s, env, "ext.cuda_major",
                                {{"env", env.prefix}, {"package", ExtLabel(ext)}, {"file", lib.path},
                                 {"soname", cudart->first}, {"major", std::to_string(cudart->second)},
                                 {"torch", torch.version->ToString()}, {"cuda", torch.cuda->MajorMinor()}},
                                std::move(evidence), "extensions", need));
          break;
        }
        auto cudnn = NeededMajor(lib, "libcudnn");
        if (cudnn && torch_cudnn && cudnn->second != *torch_cudnn) {
          std::vector<EvidenceItem> evidence = {
              Ev("evidence.needed", {{"file", lib.path}, {"soname", cudnn->first}}), TorchEvidence(env, torch),
              Ev("evidence.torch_links", {{"soname", "libcudnn.so." + std::to_string(*torch_cudnn)}})};
          RemedyNeed need = BuiltTorchNeed(s, c, env, torch, ext, &evidence);
          need.fetch_ok = true;
          out.push_back(EmitFor(s, env, "ext.cudnn_major",
                                {{"env", env.prefix}, {"package", ExtLabel(ext)}, {"file", lib.path},
                                 {"soname", cudnn->first}, {"torch", torch.version->ToString()},
                                 {"torch_cudnn", std::to_string(*torch_cudnn)}},
                                std::move(evidence), "extensions", need));
          break;
        }
      }
    }
  });
}

void CheckCudaPackageDriver(const Snapshot& s, const Catalog& c, const PlanQuery&, std::vector<Finding>& out) {
  const DriverInfo& d = s.driver;
  if (!d.version() && !d.cuda) return;
  Os os = DriverOs(s);
  for (const PythonEnv& env : s.pythons) {
    for (const ExtensionInfo& ext : env.extensions) {
      if (ext.LinksTorch()) continue;  // torch's own CUDA is judged against the driver
      // One package may carry a library per CUDA major (bitsandbytes): the oldest is the one that
      // can still run here.
      std::optional<std::pair<std::string, int>> oldest;
      const BinaryInfo* file = nullptr;
      for (const BinaryInfo& lib : ext.libs) {
        auto cudart = NeededMajor(lib, "libcudart");
        if (cudart && (!oldest || cudart->second < oldest->second)) oldest = cudart, file = &lib;
      }
      if (!oldest) continue;  // no CUDA runtime named: linked statically, or loaded at run time
      CudaVersion cuda{oldest->second, 0, std::nullopt};
      DriverFit fit = d.version() ? FitDriver(c, *d.version(), cuda, os) : FitDriverCuda(c, *d.cuda, std::nullopt, cuda, os);
      if (fit != DriverFit::kTooOld) continue;
      DriverRequirement req = MinDriverFor(c, cuda, os);
      if (!req.minor_compat) req.minor_compat = req.toolkit_min;
      Finding f = EmitFor(s, env, "cudapkg.driver_too_old",
                          {{"env", env.prefix}, {"package", ExtLabel(ext)}, {"file", file->path},
                           {"soname", oldest->first}, {"major", std::to_string(oldest->second)},
                           {"driver", ArgOf(d.version(), [](const DriverVersion& v) { return v.text; })},
                           {"driver_cuda", ArgOf(d.cuda, [](const CudaVersion& v) { return v.MajorMinor(); })},
                           {"floor", ArgOf(req.minor_compat, [](const DriverVersion& v) { return v.text; })}},
                          DriverEvidence(d), "minor-compat", RemedyNeed{});
      f.evidence.push_back(Ev("evidence.needed", {{"file", file->path}, {"soname", oldest->first}}));
      out.push_back(std::move(f));
    }
  }
}

void CheckExtensionPins(const Snapshot& s, const Catalog&, const PlanQuery&, std::vector<Finding>& out) {
  for (const PythonEnv& env : s.pythons) {
    for (const ExtensionInfo& ext : env.extensions) {
      for (const std::string& pin : ext.torch_pins) {
        auto req = ParseRequirement(pin);
        if (!req || !req->spec || req->spec->clauses.empty()) continue;
        auto it = env.packages.find(req->name);
        if (it == env.packages.end() || !it->second.version) continue;
        const Pep440& have = *it->second.version;
        if (req->spec->Matches(have) || req->spec->Matches(have.WithoutLocal())) continue;
        std::optional<Pep440> want = ExactPin(*req->spec);
        RemedyNeed need;
        if (want && req->name == "torch") {
          need = Need(RemedyNeed::Kind::kTorchPin);
          need.version = *want;
        }
        out.push_back(EmitFor(s, env, "ext.torch_pin",
                              {{"env", env.prefix}, {"package", ExtLabel(ext)}, {"pin", pin},
                               {"name", req->name}, {"have", have.ToString()}},
                              {Ev("evidence.requires", {{"package", ext.name}, {"requirement", pin}, {"source", ext.metadata_path}}),
                               PackageEvidence(it->second)},
                              "extensions", need));
      }
    }
  }
}

bool TorchPinUnmet(const PythonEnv& env, const ExtensionInfo& ext) {
  auto torch = env.packages.find("torch");
  if (torch == env.packages.end() || !torch->second.version) return false;
  const Pep440& have = *torch->second.version;
  for (const std::string& pin : ext.torch_pins) {
    auto req = ParseRequirement(pin);
    if (!req || req->name != "torch" || !req->spec || req->spec->clauses.empty()) continue;
    if (!req->spec->Matches(have) && !req->spec->Matches(have.WithoutLocal())) return true;
  }
  return false;
}

// Whether one of the extension's Requires-Dist names an exact torch (ext.torch_pin judges those).
bool PinsExactTorch(const ExtensionInfo& ext) {
  for (const std::string& pin : ext.torch_pins) {
    auto req = ParseRequirement(pin);
    if (req && req->name == "torch" && req->spec && ExactPin(*req->spec)) return true;
  }
  return false;
}

// The torch a package recorded building against (xformers/cpp_lib.json) beside the installed one.
// Before xformers 0.0.34 its library loads only beside the torch release it was built with ("an
// XFormers binary built for a PyTorch version will not be compatible with the next one", its
// maintainer in facebookresearch/xformers#631); 0.0.34's release notes: "Pre-built binary wheels
// are available for PyTorch 2.10.0 (and later)" (torch's stable ABI, quoted in
// facebookresearch/xformers#1374); a CUDA build never loads beside a CPU-only torch
// (facebookresearch/xformers#982). xformers/_cpp_lib.py prints the "xFormers was built for"
// warning from this file when its library fails to load.
// The fix for an extension built against another torch: the newest release the catalog lists with
// a wheel on the PyTorch index of torch's own variant for this torch (installed in place, without
// touching torch); else its rebuild from source.
RemedyNeed BuiltTorchNeed(const Snapshot& s, const Catalog& c, const PythonEnv& env, const PackageInfo& torch,
                          const ExtensionInfo& ext, std::vector<EvidenceItem>* evidence) {
  std::string variant = torch.version->LocalLabel();
  if (torch.cuda && StartsWith(variant, "cu")) {
    TorchBuild build{*torch.version, torch.cuda, CxxAbi::kUnknown};
    for (const ExtensionRelease* e : ExtensionsFor(c, ext.name, s.platform.Name(), build)) {
      for (const ExtensionWheel* w : WheelsFor(c, *e, s.platform.Name(), build)) {
        if (w->location != WheelLocation::kPytorchIndex) continue;
        RemedyNeed need = Need(RemedyNeed::Kind::kCompanionRebuild);
        need.package = ext.name;
        need.version = e->version;
        need.variant = variant;
        return need;
      }
    }
  }
  return RebuildNeed(s, env, ext, evidence);
}

void CheckExtensionBuiltTorch(const Snapshot& s, const Catalog& c, const PlanQuery&, std::vector<Finding>& out) {
  static const Pep440 kStableAbi = Pep440::Parse("0.0.34").value();
  ForEachTorch(s, [&](const PythonEnv& env, const PackageInfo& torch) {
    for (const ExtensionInfo& ext : env.extensions) {
      if (ext.built_torch.empty()) continue;
      auto built = Pep440::Parse(ext.built_torch);
      if (!built) continue;
      const Pep440& have = *torch.version;
      auto release = [](const Pep440& v) { return std::make_tuple(v.Part(0), v.Part(1), v.Part(2)); };
      bool stable = ext.name == "xformers" && ext.version && *ext.version >= kStableAbi;
      // An exact Requires-Dist on torch is judged by ext.torch_pin; a CPU-only torch it cannot see.
      bool other = !PinsExactTorch(ext) && (stable ? release(have) < release(*built) : release(have) != release(*built));
      bool cpu = ext.built_cuda && !torch.cuda && !torch.hip && (torch.cuda_none || have.LocalLabel() == "cpu");
      if (!other && !cpu) continue;
      std::string cuda = ext.built_cuda ? ext.built_cuda->MajorMinor() : "";
      // Beside a CPU-only torch of its release: a CUDA build of that torch (the one this driver
      // runs, as torch.cpu_build's fix), xformers kept.
      std::vector<EvidenceItem> evidence = {
          Ev("evidence.built_torch", {{"package", ext.name}, {"torch", ext.built_torch},
                                      {"cuda", cuda.empty() ? "-" : cuda}, {"source", ext.built_source}}),
          TorchEvidence(env, torch)};
      RemedyNeed need = cpu && !other ? Need(RemedyNeed::Kind::kTorchBuild) : BuiltTorchNeed(s, c, env, torch, ext, &evidence);
      out.push_back(EmitFor(s, env, cpu && !other ? "ext.built_torch_cpu" : "ext.built_torch",
                            {{"env", env.prefix}, {"package", ExtLabel(ext)}, {"built", ext.built_torch},
                             {"cuda", cuda}, {"have", have.ToString()}, {"release", have.Public()},
                             {"source", ext.built_source}},
                            std::move(evidence), "extensions", need));
    }
  });
}

void CheckRuntimeShadowed(const Snapshot& s, const Catalog&, const PlanQuery&, std::vector<Finding>& out) {
  ForEachTorch(s, [&](const PythonEnv& env, const PackageInfo& torch) {
    for (const RuntimeLib& r : torch.runtime) {
      // Only LD_LIBRARY_PATH comes before the directories torch's libraries name (DT_RUNPATH).
      if (!r.shadowed() || r.origin != LibOrigin::kLdLibraryPath) continue;
      std::string origin(LibOriginName(*r.origin));
      RemedyNeed need = Need(RemedyNeed::Kind::kUnsetEnv);
      need.names = {"LD_LIBRARY_PATH"};
      out.push_back(EmitFor(s, env, "runtime.shadowed",
                            {{"env", env.prefix}, {"torch", torch.version->ToString()}, {"soname", r.soname},
                             {"path", r.path}, {"origin", origin},
                             {"version", ArgOf(r.version, [](const Pep440& v) { return v.ToString(); })},
                             {"wheel_path", r.wheel_path},
                             {"wheel_version", ArgOf(r.wheel_version, [](const Pep440& v) { return v.ToString(); })}},
                            {r.version ? Ev("evidence.runtime_found_version",
                                            {{"soname", r.soname}, {"path", r.path}, {"origin", origin},
                                             {"version", r.version->ToString()}, {"source", r.version_source}})
                                       : Ev("evidence.runtime_found", {{"soname", r.soname}, {"path", r.path}, {"origin", origin}}),
                             Ev("evidence.runtime_wheel", {{"path", r.wheel_path},
                                                           {"version", ArgOf(r.wheel_version, [](const Pep440& v) { return v.ToString(); })}})},
                            "cudnn", need));
    }
  });
}

// Longer stems first.
std::string_view NvidiaWheelOfSoname(std::string_view soname) {
  static constexpr std::pair<std::string_view, std::string_view> kWheels[] = {
      {"libcudart.", "nvidia-cuda-runtime"}, {"libcublasLt.", "nvidia-cublas"}, {"libcublas.", "nvidia-cublas"},
      {"libcudnn", "nvidia-cudnn"},          {"libcufft.", "nvidia-cufft"},    {"libcurand.", "nvidia-curand"},
      {"libcusolver.", "nvidia-cusolver"},   {"libcusparseLt.", "nvidia-cusparselt"},
      {"libcusparse.", "nvidia-cusparse"},   {"libnvrtc.", "nvidia-cuda-nvrtc"},
      {"libnvJitLink.", "nvidia-nvjitlink"}, {"libnvToolsExt.", "nvidia-nvtx"}, {"libcupti.", "nvidia-cuda-cupti"},
      {"libnccl.", "nvidia-nccl"},           {"libcudss.", "nvidia-cudss"},    {"libcufile.", "nvidia-cufile"},
      {"libnvshmem_host.", "nvidia-nvshmem"}};
  for (const auto& [stem, wheel] : kWheels) {
    if (StartsWith(soname, stem)) return wheel;
  }
  return "";
}

namespace {

// torch's metadata requirement on that wheel ("nvidia-cudss-cu12==0.7.1.2"), as name and spec.
std::optional<NeededRequirement> RequirementFor(const PackageInfo& torch, std::string_view wheel) {
  if (wheel.empty()) return std::nullopt;
  for (const std::string& text : torch.nvidia_requirements) {
    NeededRequirement req = SplitRequirement(text);
    if (req.name == wheel || StartsWith(req.name, std::string(wheel) + "-cu")) return req;
  }
  return std::nullopt;
}

// Where the loader looked, in short: the needing library's RPATH/RUNPATH as written, then the
// other places ld.so searches.
std::string Searched(const Snapshot& s, const std::vector<BinaryInfo>& libs, const RuntimeLib& r) {
  std::vector<std::string> parts;
  for (const BinaryInfo& b : libs) {
    if (b.path != r.needed_by) continue;
    if (b.runpath.empty() && !b.rpath.empty()) parts.push_back("DT_RPATH " + Join(b.rpath, ":"));
    if (!b.runpath.empty()) parts.push_back("DT_RUNPATH " + Join(b.runpath, ":"));
  }
  if (!s.host.ld_library_path.empty()) parts.push_back("LD_LIBRARY_PATH");
  parts.push_back("ld.so.conf");
  parts.push_back("/lib, /usr/lib and their multiarch directories");
  return Join(parts, ", ");
}

// One evidence line per library the loader finds nowhere, with where it looked from `libs` (the
// needing libraries); their sonames appended to `names`.
std::vector<EvidenceItem> NotFoundEvidence(const Snapshot& s, const std::vector<BinaryInfo>& libs,
                                           const std::vector<const RuntimeLib*>& missing, std::vector<std::string>& names) {
  std::vector<EvidenceItem> evidence;
  for (const RuntimeLib* r : missing) {
    names.push_back(r->soname);
    evidence.push_back(Ev("evidence.runtime_not_found",
                          {{"file", r->needed_by}, {"soname", r->soname}, {"searched", Searched(s, libs, *r)}}));
  }
  return evidence;
}

// The CUDA the machine provides: a Jetson's JetPack CUDA, else the active toolkit's.
std::optional<std::pair<CudaVersion, EvidenceItem>> MachineCuda(const Snapshot& s) {
  if (s.host.jetson && s.host.jetson->cuda) {
    const JetsonInfo& j = *s.host.jetson;
    return std::make_pair(*j.cuda, Ev("evidence.jetpack_cuda", {{"jetpack", j.jetpack}, {"l4t", j.l4t},
                                                                {"cuda", j.cuda->MajorMinor()}}));
  }
  for (const ToolkitInfo& t : s.toolkits) {
    if (t.active && t.version) {
      return std::make_pair(*t.version, Ev("evidence.toolkit", {{"version", t.version->ToString()}, {"path", t.path},
                                                               {"by", Join(t.found_by, ", ")}}));
    }
  }
  return std::nullopt;
}

}  // namespace

// A CUDA library torch's own CUDA libraries need that the loader finds nowhere and of which the
// environment has no copy: `import torch` fails with "<soname>: cannot open shared object file".
// Not told here: a wheel torch's metadata requires that pip did not install, or installed at
// another version (torch.nvidia_wheels_missing / _mismatch name it); a soname an nvidia-* wheel of
// the environment holds where the loader does not look (a lib64 site-packages apart from lib):
// torch's __init__ preloads such copies from sys.path, for the libraries its release lists.
void CheckRuntimeMissing(const Snapshot& s, const Catalog&, const PlanQuery&, std::vector<Finding>& out) {
  ForEachTorch(s, [&](const PythonEnv& env, const PackageInfo& torch) {
    if (!torch.cuda || torch.hip) return;
    std::vector<const RuntimeLib*> missing;
    std::vector<NeededRequirement> reinstall;  // installed wheels that lack their library
    std::vector<std::pair<std::string, std::string>> lacking;  // wheel, soname
    for (const RuntimeLib& r : torch.runtime) {
      if (!r.path.empty() || !r.wheel_path.empty()) continue;
      if (auto req = RequirementFor(torch, NvidiaWheelOfSoname(r.soname))) {
        auto pkg = env.packages.find(req->name);
        if (pkg == env.packages.end()) continue;  // torch.nvidia_wheels_missing
        auto spec = SpecifierSet::Parse(req->spec);
        if (spec && pkg->second.version && !spec->Matches(*pkg->second.version)) continue;  // _mismatch
        if (std::find(reinstall.begin(), reinstall.end(), *req) == reinstall.end()) reinstall.push_back(*req);
        lacking.emplace_back(req->name, r.soname);
      }
      missing.push_back(&r);
    }
    if (missing.empty()) return;
    const RuntimeLib& first = *missing.front();
    std::vector<std::string> names;
    std::vector<EvidenceItem> evidence = NotFoundEvidence(s, torch.binaries, missing, names);
    evidence.push_back(TorchEvidence(env, torch));
    RemedyNeed need;
    std::string topic = "nvidia-wheels";
    auto machine = MachineCuda(s);
    if (!reinstall.empty()) {
      for (const auto& [wheel, soname] : lacking) {
        auto pkg = env.packages.find(wheel);
        evidence.push_back(Ev("evidence.runtime_wheel_lacks", {{"package", wheel},
                                                               {"version", ArgOf(pkg->second.version, [](const Pep440& v) { return v.ToString(); })},
                                                               {"soname", soname}}));
      }
      need = Need(RemedyNeed::Kind::kNvidiaWheels);
      need.requirements = reinstall;
      need.reinstall = true;
    } else if (machine && machine->first.MajorMinor() != torch.cuda->MajorMinor()) {
      evidence.push_back(machine->second);
      if (s.host.jetson) {
        // A JetPack ships one CUDA: torch must be a build for this JetPack release.
        const JetsonInfo& j = *s.host.jetson;
        topic = "layers";
        if (!j.wheels.empty()) {
          evidence.push_back(Ev("evidence.jetpack_wheels", {{"jetpack", j.jetpack}, {"l4t", j.l4t}, {"wheels", j.wheels}}));
        }
        if (j.wheels_index) {
          need = Need(RemedyNeed::Kind::kJetsonIndex);
          need.path = j.wheels;
        }
      } else {
        need = Need(RemedyNeed::Kind::kTorchBuild);
      }
    } else {
      evidence.push_back(Ev("evidence.runtime_from_cuda", {{"soname", first.soname}, {"cuda", torch.cuda->MajorMinor()}}));
    }
    out.push_back(EmitFor(s, env, "torch.runtime_missing",
                          {{"env", env.prefix}, {"torch", torch.version->ToString()}, {"cuda", torch.cuda->MajorMinor()},
                           {"file", first.needed_by}, {"soname", first.soname}, {"list", Join(names, ", ")}},
                          std::move(evidence), topic, need));
  });
}

// A CUDA-family library a torch extension links that torch does not map and the loader finds
// nowhere: importing the extension fails with "<soname>: cannot open shared object file"
// (rusty1s/pytorch_sparse#271: torch-sparse's libcusparse.so.11 beside a CUDA 12 torch). No
// command: an nvidia-* wheel of another CUDA than torch's is not what the extension's loader
// searches; the why names the extension's build for this torch, or the directory on the loader's path.
void CheckExtensionRuntimeMissing(const Snapshot& s, const Catalog&, const PlanQuery&, std::vector<Finding>& out) {
  ForEachTorch(s, [&](const PythonEnv& env, const PackageInfo& torch) {
    if (!torch.cuda || torch.hip) return;
    for (const ExtensionInfo& ext : env.extensions) {
      std::vector<const RuntimeLib*> missing;
      for (const RuntimeLib& r : ext.runtime) {
        if (!r.path.empty() || !r.wheel_path.empty()) continue;
        // Another CUDA runtime or cuDNN major than torch's: ext.cuda_major and ext.cudnn_major.
        auto cudart = SonameMajor(r.soname, "libcudart");
        if (cudart && *cudart != torch.cuda->major) continue;
        auto cudnn = SonameMajor(r.soname, "libcudnn");
        if (cudnn && std::any_of(torch.runtime.begin(), torch.runtime.end(), [&](const RuntimeLib& t) {
              auto m = SonameMajor(t.soname, "libcudnn");
              return m && *m != *cudnn;
            })) {
          continue;
        }
        missing.push_back(&r);
      }
      if (missing.empty()) continue;
      std::vector<std::string> names;
      std::vector<EvidenceItem> evidence = NotFoundEvidence(s, ext.libs, missing, names);
      evidence.push_back(TorchEvidence(env, torch));
      out.push_back(EmitFor(s, env, "ext.runtime_missing",
                            {{"env", env.prefix}, {"package", ExtLabel(ext)}, {"file", missing.front()->needed_by},
                             {"soname", missing.front()->soname}, {"list", Join(names, ", ")},
                             {"torch", torch.version->ToString()}, {"cuda", torch.cuda->MajorMinor()}},
                            std::move(evidence), "extensions"));
    }
  });
}

}  // namespace cudamatch
