// Rules about each environment's PyTorch build: the driver runs its CUDA; every GPU has kernels
// in it; torchvision/torchaudio pair with it; CPU or ROCm builds on NVIDIA machines; the Python
// version; releases the catalog does not know.
#include "core/text.h"
#include "diagnose/rule_fns.h"
#include "diagnose/summary.h"
#include "probe/wsl.h"

namespace cudamatch {

namespace {

const PackageInfo* Package(const PythonEnv& env, const char* name) {
  auto it = env.packages.find(name);
  return it == env.packages.end() || !it->second.version ? nullptr : &it->second;
}

EvidenceItem NvidiaGpus(const Snapshot& s) {
  return Ev("evidence.nvidia_gpus", {{"count", std::to_string(s.gpus.size())}, {"gpu", s.gpus.front().name}});
}

}  // namespace

void CheckTorchDriver(const Snapshot& s, const Catalog& c, const PlanQuery&, std::vector<Finding>& out) {
  const DriverInfo& d = s.driver;
  if (!d.version() && !d.cuda) return;
  ForEachTorch(s, [&](const PythonEnv& env, const PackageInfo& torch) {
    if (!torch.cuda || torch.hip) return;
    Os os = DriverOs(s);  // under WSL 2 the Windows driver's minimums
    DriverFit fit = d.version() ? FitDriver(c, *d.version(), *torch.cuda, os)
                                : FitDriverCuda(c, *d.cuda, std::nullopt, *torch.cuda, os);
    if (fit != DriverFit::kTooOld && fit != DriverFit::kMinorCompat) return;
    DriverRequirement req = MinDriverFor(c, *torch.cuda, os);
    // CUDA before 11 has no minor-version compatibility: its floor is the full minimum.
    if (!req.minor_compat) req.minor_compat = req.toolkit_min;
    RemedyNeed need = Need(RemedyNeed::Kind::kTorchBuild);
    need.full_driver = fit == DriverFit::kMinorCompat;
    Finding f = EmitFor(s, env, fit == DriverFit::kTooOld ? "torch.driver_too_old" : "torch.driver_minor_compat",
              {{"env", env.prefix},
               {"torch", torch.version->ToString()},
               {"cuda", torch.cuda->MajorMinor()},
               {"driver", ArgOf(d.version(), [](const DriverVersion& v) { return v.text; })},
               {"driver_cuda", ArgOf(d.cuda, [](const CudaVersion& v) { return v.MajorMinor(); })},
               {"need", ArgOf(req.toolkit_min, [](const DriverVersion& v) { return v.text; })},
               {"floor", ArgOf(req.minor_compat, [](const DriverVersion& v) { return v.text; })}},
              DriverEvidence(d), "minor-compat", need);
    f.evidence.push_back(TorchEvidence(env, torch));
    if (os == Os::kWindows) f.evidence.push_back(Ev("evidence.windows_driver_download"));
    out.push_back(std::move(f));
  });
}

std::optional<KernelSource> KernelsOf(const Catalog& c, const PackageInfo& torch, const Platform& p) {
  if (std::optional<TorchCode> file = TorchFileCode(torch)) return KernelSource{file->code, file->evidence};
  const TorchVariant* v = InstalledVariant(c, torch, p);
  if (v == nullptr || !v->arch_list) return std::nullopt;
  KernelSource k;
  for (const ArchEntry& e : *v->arch_list) {
    k.code.sass.push_back(e.cc.Number());
    if (e.ptx) k.code.ptx.push_back(e.cc.Number());
  }
  k.evidence = Ev("evidence.arch_list_catalog", {{"torch", v->torch.Public()}, {"variant", v->variant.tag},
                                                   {"list", FatbinCodeNames(k.code)}, {"line", std::to_string(v->prov.line)}});
  return k;
}

ArchFit FitTorch(const Catalog& c, const FatbinCode& code, const CudaVersion& cuda, const ComputeCapability& gpu) {
  ArchFit fit = FitCode(code, gpu);
  if (fit.fit != KernelFit::kPtx) return fit;
  std::optional<CudaVersion> first = FirstCudaFor(c, gpu);
  if (first && cuda.Truncated() < *first) return ArchFit{};
  return fit;
}

void CheckTorchKernels(const Snapshot& s, const Catalog& c, const PlanQuery&, std::vector<Finding>& out) {
  if (s.host.jetson) return;  // said by jetson.no_kernels, with the JetPack's wheels
  ForEachTorch(s, [&](const PythonEnv& env, const PackageInfo& torch) {
    if (!torch.cuda || torch.hip) return;
    std::optional<KernelSource> k = KernelsOf(c, torch, s.platform);
    if (!k) return;
    std::string list = FatbinCodeNames(k->code);
    for (const GpuGroup& group : GroupGpus(s.gpus)) {  // identical GPUs: one finding
      const GpuInfo& gpu = s.gpus[group.members.front()];
      if (!gpu.cc) continue;
      ArchFit fit = FitTorch(c, k->code, *torch.cuda, *gpu.cc);
      if (fit.fit == KernelFit::kSass) continue;
      bool none = fit.fit == KernelFit::kNone;
      out.push_back(EmitFor(s, env, none ? "torch.no_kernels" : "torch.ptx_jit",
                            {{"env", env.prefix},
                             {"gpu", gpu.name},
                             {"gpus", GroupLabel(s.gpus, group)},
                             {"count", std::to_string(group.members.size())},
                             {"sm", gpu.cc->Sm()},
                             {"torch", torch.version->ToString()},
                             {"list", list},
                             {"via", none ? "" : fit.via.Compute()}},
                            {Ev("evidence.gpu_cc", {{"gpu", gpu.name}, {"cc", gpu.cc->ToString()}, {"source", gpu.cc_source}}),
                             TorchEvidence(env, torch), k->evidence},
                            "compute-capability", none ? Need(RemedyNeed::Kind::kTorchBuild) : RemedyNeed{}));
    }
  });
}

namespace {

void CheckOnePairing(const Snapshot& s, const Catalog& c, const PythonEnv& env, const PackageInfo& torch,
                     const char* name, std::vector<Finding>& out) {
  const PackageInfo* pkg = Package(env, name);
  const TorchRelease* release = FindTorch(c, *torch.version);
  if (pkg == nullptr || release == nullptr) return;
  bool vision = std::string_view(name) == "torchvision";
  const auto& expected = vision ? release->torchvision : release->torchaudio;
  if (expected && !CompanionPairs(c, name, *pkg->version, *release)) {
    RemedyNeed need = Need(RemedyNeed::Kind::kCompanion);
    need.package = name;
    out.push_back(EmitFor(s, env, vision ? "torch.vision_unpaired" : "torch.audio_unpaired",
                          {{"env", env.prefix}, {"torch", release->torch.Public()},
                           {"have", pkg->version->ToString()}, {"want", expected->Public()}},
                          {TorchEvidence(env, torch), PackageEvidence(*pkg)},
                          "pairing", need));
    return;
  }
}

}  // namespace

void CheckPairing(const Snapshot& s, const Catalog& c, const PlanQuery&, std::vector<Finding>& out) {
  ForEachTorch(s, [&](const PythonEnv& env, const PackageInfo& torch) {
    CheckOnePairing(s, c, env, torch, "torchvision", out);
    CheckOnePairing(s, c, env, torch, "torchaudio", out);
  });
}

namespace {

// A Windows tree shows its NVIDIA driver but not its GPUs (they are in the registry): there
// the driver stands for the GPU.
void CheckCpuBuildWindowsDriver(const Snapshot& s, std::vector<Finding>& out) {
  const DriverInfo& d = s.driver;
  if (s.platform.os != Os::kWindows || !d.userspace_version) return;
  ForEachTorch(s, [&](const PythonEnv& env, const PackageInfo& torch) {
    if (!IsCpuBuild(torch)) return;
    std::vector<EvidenceItem> evidence = {TorchEvidence(env, torch)};
    for (EvidenceItem& e : DriverEvidence(d)) evidence.push_back(std::move(e));
    out.push_back(EmitFor(s, env, "torch.cpu_build_driver",
                          {{"env", env.prefix}, {"torch", torch.version->ToString()}, {"driver", d.userspace_version->text}},
                          std::move(evidence), "layers", Need(RemedyNeed::Kind::kTorchBuild)));
  });
}

// The first release whose plain `pip install torch` gets a CUDA build on this platform.
const TorchRelease* FirstCudaPypiDefault(const Catalog& c, std::string_view platform) {
  for (const TorchRelease& t : c.torch) {
    const TorchVariant* v = PypiDefaultVariant(c, t, platform);
    if (v != nullptr && v->variant.is_cuda()) return &t;
  }
  return nullptr;
}

// A CPU build without a local label on Linux aarch64 (download.pytorch.org's builds carry one):
// PyPI's own wheel, what plain `pip install torch` gives a GH200, GB200 or DGX Spark while the
// release's PyPI default there is not a CUDA build (the catalog's pypi_default, CPU or unknown).
bool PypiCpuDefaultOnArm(const Snapshot& s, const Catalog& c, const PackageInfo& torch) {
  if (s.platform.os != Os::kLinux || s.platform.arch != Arch::kAarch64 || !torch.version->LocalLabel().empty()) return false;
  const TorchRelease* release = FindTorch(c, *torch.version);
  const TorchVariant* v = release == nullptr ? nullptr : PypiDefaultVariant(c, *release, s.platform.Name());
  return release != nullptr && (v == nullptr || v->variant.kind == Variant::Kind::kCpu);
}

}  // namespace

void CheckCpuBuild(const Snapshot& s, const Catalog& c, const PlanQuery&, std::vector<Finding>& out) {
  if (s.gpus.empty()) return CheckCpuBuildWindowsDriver(s, out);
  if (s.host.jetson) return;  // said by jetson.cpu_build, with the JetPack's wheels
  ForEachTorch(s, [&](const PythonEnv& env, const PackageInfo& torch) {
    if (!IsCpuBuild(torch)) return;
    MessageArgs args = {{"env", env.prefix}, {"torch", torch.version->ToString()}, {"gpu", s.gpus.front().name}};
    bool arm_default = PypiCpuDefaultOnArm(s, c, torch);
    if (arm_default) {
      const TorchRelease* first = FirstCudaPypiDefault(c, s.platform.Name());
      args.push_back({"platform", s.platform.Name()});
      args.push_back({"first", first != nullptr ? ArgValue(first->torch.Public()) : std::nullopt});
    }
    out.push_back(EmitFor(s, env, arm_default ? "torch.cpu_build_pypi_aarch64" : "torch.cpu_build", std::move(args),
                          {TorchEvidence(env, torch), NvidiaGpus(s)},
                          "layers", Need(RemedyNeed::Kind::kTorchBuild)));
  });
}

void CheckRocmBuild(const Snapshot& s, const Catalog&, const PlanQuery&, std::vector<Finding>& out) {
  if (s.gpus.empty()) return;
  ForEachTorch(s, [&](const PythonEnv& env, const PackageInfo& torch) {
    if (!torch.hip && !IsRocmBuild(torch)) return;
    out.push_back(EmitFor(s, env, "torch.rocm_on_nvidia",
                          {{"env", env.prefix}, {"torch", torch.version->ToString()}},
                          {TorchEvidence(env, torch), NvidiaGpus(s)},
                          "layers", Need(RemedyNeed::Kind::kTorchBuild)));
  });
}

void CheckTorchPython(const Snapshot& s, const Catalog& c, const PlanQuery&, std::vector<Finding>& out) {
  ForEachTorch(s, [&](const PythonEnv& env, const PackageInfo& torch) {
    const TorchRelease* release = FindTorch(c, *torch.version);
    if (release == nullptr || !env.version || FitPython(*release, *env.version) != PythonFit::kUnsupported) return;
    out.push_back(EmitFor(s, env, "torch.python_unsupported",
                          {{"env", env.prefix}, {"torch", release->torch.Public()}, {"python", env.version->ToString()},
                           {"min", ArgOf(release->python_min, [](const PyVersion& v) { return v.ToString(); })},
                           {"max", ArgOf(release->python_max, [](const PyVersion& v) { return v.ToString(); })}},
                          {TorchEvidence(env, torch),
                           Ev("evidence.python", {{"version", env.version->ToString()}, {"source", env.version_source}})},
                          "pairing"));
  });
}

void CheckTorchUnknown(const Snapshot& s, const Catalog& c, const PlanQuery&, std::vector<Finding>& out) {
  ForEachTorch(s, [&](const PythonEnv& env, const PackageInfo& torch) {
    if (FindTorch(c, *torch.version) != nullptr && !torch.version->IsPrerelease()) return;
    if (BeyondCatalog(c, torch, s.platform)) return;  // said by torch.beyond_catalog
    out.push_back(EmitFor(s, env, "torch.not_in_catalog",
                          {{"env", env.prefix}, {"torch", torch.version->ToString()},
                           {"metadata", ArgOf(torch.metadata_version)}},
                          {TorchEvidence(env, torch)},
                          "layers"));
  });
}

}  // namespace cudamatch
