// Jetson rules: on a Tegra module the torch build must be a CUDA build made for its JetPack, with
// code for the integrated GPU. PyPI's aarch64 CPU wheels, PyPI's SBSA builds on a JetPack whose
// user space is not SBSA's, and builds without the GPU's architecture do not use it; the fix
// names where the JetPack release's builds are published (jetpack.tsv).
#include "diagnose/rule_fns.h"

namespace cudamatch {

namespace {

// The JetPack line the machine runs and where its torch builds are, as evidence.
EvidenceItem JetPackEvidence(const JetsonInfo& j) {
  if (j.wheels.empty()) return Ev("evidence.jetpack_unknown", {{"l4t", ArgOf(j.l4t)}});
  return Ev("evidence.jetpack_wheels", {{"jetpack", j.jetpack}, {"l4t", j.l4t}, {"wheels", j.wheels}});
}

EvidenceItem BoardEvidence(const JetsonInfo& j, const GpuInfo& gpu) {
  return Ev("evidence.jetson_gpu", {{"gpu", gpu.name}, {"cc", gpu.cc->ToString()},
                                     {"model", j.model.empty() ? std::string("Jetson") : j.model},
                                     {"source", gpu.source.empty() ? gpu.cc_source : gpu.source}});
}

RemedyNeed IndexNeed(const JetsonInfo& j) {
  if (!j.wheels_index) return {};
  RemedyNeed need = Need(RemedyNeed::Kind::kJetsonIndex);
  need.path = j.wheels;
  return need;
}

MessageArgs JetsonArgs(const PythonEnv& env, const PackageInfo& torch, const JetsonInfo& j, const GpuInfo& gpu) {
  return {{"env", env.prefix},
          {"torch", torch.version->ToString()},
          {"variant", ArgOf(VariantTag(torch))},
          {"gpu", gpu.name},
          {"cc", gpu.cc->ToString()},
          {"sm", gpu.cc->Sm()},
          {"l4t", ArgOf(j.l4t)},
          {"jetpack", ArgOf(j.jetpack)},
          {"wheels", ArgOf(j.wheels)}};
}

// A PyPI (or download.pytorch.org) CUDA build: its CUDA is named by the nvidia-cuda-runtime wheel
// it requires, or by a +cuXXX local label. NVIDIA's Jetson builds use JetPack's own CUDA.
bool PypiCudaBuild(const PackageInfo& torch) {
  if (torch.cuda_origin == Origin::kNvidiaRequirement) return true;
  return torch.variant_origin == Origin::kLocalLabel && torch.variant && torch.variant->kind == Variant::Kind::kCuda;
}

}  // namespace

void CheckJetsonBuild(const Snapshot& s, const Catalog& c, const PlanQuery&, std::vector<Finding>& out) {
  if (!s.host.jetson || s.gpus.empty() || !s.gpus.front().cc) return;
  const JetsonInfo& j = *s.host.jetson;
  const GpuInfo& gpu = s.gpus.front();
  ForEachTorch(s, [&](const PythonEnv& env, const PackageInfo& torch) {
    MessageArgs args = JetsonArgs(env, torch, j, gpu);
    if (IsCpuBuild(torch)) {
      out.push_back(EmitFor(s, env, "jetson.cpu_build", args,
                            {TorchEvidence(env, torch), BoardEvidence(j, gpu), JetPackEvidence(j)}, "layers", IndexNeed(j)));
      return;
    }
    if (!torch.cuda || torch.hip) return;
    if (j.sbsa == false && PypiCudaBuild(torch)) {
      out.push_back(EmitFor(s, env, "jetson.sbsa_build", args,
                            {TorchEvidence(env, torch), BoardEvidence(j, gpu), JetPackEvidence(j)}, "layers", IndexNeed(j)));
      return;
    }
    std::optional<KernelSource> k = KernelsOf(c, torch, s.platform);
    if (!k || FitTorch(c, k->code, *torch.cuda, *gpu.cc).fit != KernelFit::kNone) return;
    args.emplace_back("list", FatbinCodeNames(k->code));
    out.push_back(EmitFor(s, env, "jetson.no_kernels", args,
                          {TorchEvidence(env, torch), BoardEvidence(j, gpu), k->evidence, JetPackEvidence(j)}, "compute-capability",
                          IndexNeed(j)));
  });
}

}  // namespace cudamatch
