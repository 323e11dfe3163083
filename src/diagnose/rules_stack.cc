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

void CheckCompanionBuild(const PythonEnv& env, const PackageInfo& torch,
                         const char* name, const char* id, std::vector<Finding>& out) {
  auto it = env.packages.find(name);
  if (it == env.packages.end() || !it->second.version) return;
  const PackageInfo& pkg = it->second;
  std::string torch_build = BuildName(VariantTag(torch)), pkg_build = BuildName(VariantTag(pkg));
  if (torch_build.empty() || pkg_build.empty() || VariantTag(torch) == VariantTag(pkg)) return;
  // --force-reinstall: the installed 0.17.1+cu121 already satisfies "==0.17.1", so a plain
  // install would keep it.
  std::string fix = PythonOf(env) + " -m pip install --force-reinstall --no-deps " + name + "==" +
                    pkg.version->WithoutLocal().Public() + " --index-url https://download.pytorch.org/whl/" +
                    VariantTag(torch);
  out.push_back(Finding{id, Severity::kError,
                        {{"env", env.prefix}, {"package", name}, {"version", pkg.version->ToString()},
                         {"torch", torch.version->ToString()}, {"torch_build", torch_build},
                         {"torch_variant", VariantTag(torch)}, {"pkg_build", pkg_build}, {"pkg_variant", VariantTag(pkg)}},
                        {TorchEvidence(env, torch), PackageEvidence(pkg)},
                        fix,
                        "pairing"});
}

}  // namespace

std::string PythonOf(const PythonEnv& env) { return env.executable.empty() ? "python" : env.executable; }

void CheckCompanionBuilds(const Snapshot& s, const Catalog&, std::vector<Finding>& out) {
  for (const PythonEnv& env : s.pythons) {
    auto it = env.packages.find("torch");
    if (it == env.packages.end() || !it->second.version) continue;
    CheckCompanionBuild(env, it->second, "torchvision", "torch.vision_cuda_mismatch", out);
    CheckCompanionBuild(env, it->second, "torchaudio", "torch.audio_cuda_mismatch", out);
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

struct Requirement {
  std::string name;
  std::string spec;  // "==8.9.2.26", "" for any version
};

Requirement SplitRequirement(std::string_view req) {
  size_t op = req.find_first_of("=<>!~ (");
  std::string_view name = req.substr(0, op);
  std::string_view spec = op == std::string_view::npos ? "" : Trim(req.substr(op));
  if (!spec.empty() && spec.front() == '(') spec = Trim(spec.substr(1, spec.size() - (spec.back() == ')' ? 2 : 1)));
  return {NormalName(name), std::string(spec)};
}

}  // namespace

void CheckNvidiaWheels(const Snapshot& s, const Catalog&, std::vector<Finding>& out) {
  for (const PythonEnv& env : s.pythons) {
    auto it = env.packages.find("torch");
    if (it == env.packages.end() || !it->second.version || it->second.nvidia_requirements.empty()) continue;
    const PackageInfo& torch = it->second;
    std::vector<std::string> missing, wrong, install;
    std::vector<EvidenceItem> evidence = {TorchEvidence(env, torch)};
    for (const std::string& text : torch.nvidia_requirements) {
      Requirement req = SplitRequirement(text);
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
      install.push_back("'" + req.name + req.spec + "'");
    }
    if (missing.empty() && wrong.empty()) continue;
    bool none = wrong.empty();
    out.push_back(Finding{none ? "torch.nvidia_wheels_missing" : "torch.nvidia_wheels_mismatch",
                          none ? Severity::kError : Severity::kWarning,
                          {{"env", env.prefix}, {"torch", torch.version->ToString()},
                           {"missing", missing.empty() ? "-" : Join(missing, ", ")},
                           {"wrong", wrong.empty() ? "-" : Join(wrong, ", ")}},
                          std::move(evidence),
                          PythonOf(env) + " -m pip install " + Join(install, " "),
                          "nvidia-wheels"});
  }
}

}  // namespace cudamatch
