// Rules about how the pieces of one environment fit together: torchvision/torchaudio built for
// another CUDA (or CPU) than torch, and the nvidia-* wheels torch's own metadata requires.
#include "core/text.h"
#include "diagnose/rule_fns.h"

namespace cudamatch {

namespace {

// "cu121" -> "CUDA 12.1", "cpu" -> "CPU", "rocm6.2" -> "ROCm 6.2"; "" for tags of other kinds.
std::string BuildName(std::string_view tag) {
  auto v = Variant::Parse(tag);
  if (!v) return "";
  if (v->kind == Variant::Kind::kCpu) return "CPU";
  if (v->kind == Variant::Kind::kCuda && v->cuda) return "CUDA " + v->cuda->MajorMinor();
  if (v->kind == Variant::Kind::kRocm) return "ROCm " + std::string(tag.substr(4));
  return "";
}

// A companion whose version and build facts name no variant (PyPI's torchvision 0.23.0: no local
// label, version.py computes its CUDA at import) is a CUDA build when its compiled library links
// the CUDA runtime: its build name ("CUDA 12") and what says so.
struct LinkedBuild {
  std::string build, evidence_file, soname;
};
std::optional<LinkedBuild> CudaBuildByLinks(const PythonEnv& env, std::string_view name) {
  for (const ExtensionInfo& ext : env.extensions) {
    if (ext.name != name) continue;
    for (const BinaryInfo& lib : ext.libs) {
      if (auto cudart = NeededMajor(lib, "libcudart")) {
        return LinkedBuild{"CUDA " + std::to_string(cudart->second), lib.path, cudart->first};
      }
    }
  }
  return std::nullopt;
}

void CheckCompanionBuild(const Snapshot& s, const PythonEnv& env, const PackageInfo& torch,
                         const char* name, const char* id, std::vector<Finding>& out) {
  auto it = env.packages.find(name);
  if (it == env.packages.end() || !it->second.version) return;
  const PackageInfo& pkg = it->second;
  std::string torch_variant = VariantTag(torch), pkg_variant = VariantTag(pkg);
  std::string torch_build = BuildName(torch_variant), pkg_build = BuildName(pkg_variant);
  std::vector<EvidenceItem> evidence = {TorchEvidence(env, torch), PackageEvidence(pkg)};
  // Without a variant of its own, a CPU torch beside a companion linking the CUDA runtime (another
  // CUDA major beside a CUDA torch is ext.cuda_major's).
  if (pkg_variant.empty() && IsCpuBuild(torch)) {
    if (auto linked = CudaBuildByLinks(env, name)) {
      pkg_build = linked->build;
      pkg_variant = "links " + linked->soname;
      evidence.push_back(Ev("evidence.needed", {{"file", linked->evidence_file}, {"soname", linked->soname}}));
    }
  }
  if (torch_build.empty() || pkg_build.empty() || torch_variant == pkg_variant) return;
  RemedyNeed need = Need(RemedyNeed::Kind::kCompanionRebuild);
  need.package = name;
  need.version = pkg.version->WithoutLocal();
  need.variant = torch_variant;
  out.push_back(EmitFor(s, env, id,
                        {{"env", env.prefix}, {"package", name}, {"version", pkg.version->ToString()},
                         {"torch", torch.version->ToString()}, {"torch_build", torch_build},
                         {"torch_variant", torch_variant}, {"pkg_build", pkg_build}, {"pkg_variant", pkg_variant}},
                        std::move(evidence), "pairing", need));
}

}  // namespace

void CheckCompanionBuilds(const Snapshot& s, const Catalog&, const PlanQuery&, std::vector<Finding>& out) {
  for (const PythonEnv& env : s.pythons) {
    auto it = env.packages.find("torch");
    if (it == env.packages.end() || !it->second.version) continue;
    CheckCompanionBuild(s, env, it->second, "torchvision", "torch.vision_cuda_mismatch", out);
    CheckCompanionBuild(s, env, it->second, "torchaudio", "torch.audio_cuda_mismatch", out);
  }
}

namespace {

std::string NormalName(std::string_view name) {
  std::string out = ToLower(name);
  for (char& ch : out) {
    if (ch == '_' || ch == '.') ch = '-';
  }
  return out;
}

}  // namespace

NeededRequirement SplitRequirement(std::string_view req) {
  size_t op = req.find_first_of("=<>!~ (");
  std::string_view name = req.substr(0, op);
  std::string_view spec = op == std::string_view::npos ? "" : Trim(req.substr(op));
  if (!spec.empty() && spec.front() == '(') spec = Trim(spec.substr(1, spec.size() - (spec.back() == ')' ? 2 : 1)));
  return {NormalName(name), std::string(spec)};
}

void CheckNvidiaWheels(const Snapshot& s, const Catalog&, const PlanQuery&, std::vector<Finding>& out) {
  for (const PythonEnv& env : s.pythons) {
    auto it = env.packages.find("torch");
    if (it == env.packages.end() || !it->second.version || it->second.nvidia_requirements.empty()) continue;
    const PackageInfo& torch = it->second;
    std::vector<std::string> missing, wrong;
    RemedyNeed need = Need(RemedyNeed::Kind::kNvidiaWheels);
    std::vector<EvidenceItem> evidence = {TorchEvidence(env, torch)};
    for (const std::string& text : torch.nvidia_requirements) {
      NeededRequirement req = SplitRequirement(text);
      auto spec = SpecifierSet::Parse(req.spec);
      auto pkg = env.packages.find(req.name);
      if (pkg == env.packages.end()) {
        missing.push_back(req.name + req.spec);
      } else if (spec && pkg->second.version && !spec->Matches(*pkg->second.version)) {
        wrong.push_back(req.name + " " + pkg->second.version->ToString());
        evidence.push_back(PackageEvidence(pkg->second));
      } else {
        continue;
      }
      evidence.push_back(Ev("evidence.requires", {{"package", "torch"}, {"requirement", req.name + req.spec},
                                                  {"source", torch.location}}));
      need.requirements.push_back({req.name, req.spec});
    }
    if (missing.empty() && wrong.empty()) continue;
    bool none = wrong.empty();
    out.push_back(EmitFor(s, env, none ? "torch.nvidia_wheels_missing" : "torch.nvidia_wheels_mismatch",
                          {{"env", env.prefix}, {"torch", torch.version->ToString()},
                           {"missing", missing.empty() ? "-" : Join(missing, ", ")},
                           {"wrong", wrong.empty() ? "-" : Join(wrong, ", ")}},
                          std::move(evidence), "nvidia-wheels", need));
  }
}

}  // namespace cudamatch
