// Toolchain and environment rules: nvcc's CUDA major against torch's, the host GCC against
// nvcc, LD_LIBRARY_PATH shadowing the libraries a wheel bundles, and pip mirrors that serve only
// PyPI's default variant.
#include <algorithm>

#include "core/fs.h"
#include "core/text.h"
#include "diagnose/rule_fns.h"

namespace cudamatch {

namespace {

// The cuDNN a torch build uses: its nvidia-cudnn-cuXX wheel, else the catalog's value.
std::optional<Pep440> TorchCudnn(const Catalog& c, const PythonEnv& env, const PackageInfo& torch, const Platform& p) {
  for (const auto& [name, pkg] : env.packages) {
    if (StartsWith(name, "nvidia-cudnn-") && pkg.version) return pkg.version;
  }
  if (const TorchVariant* v = InstalledVariant(c, torch, p); v && !v->cudnn.empty()) {
    return Pep440::Parse(v->cudnn).as_optional();
  }
  return std::nullopt;
}

// A torch build of the same release for the toolkit's CUDA major: the newest minor not above it,
// else the oldest minor above it. torch.utils.cpp_extension refuses only another major (a minor
// difference is a warning), and so does DeepSpeed's op builder: with nvcc 11.7 and torch 2.4.0
// (cu118, cu121, cu124), torch's cu118 build is the fix (deepspeedai/DeepSpeed-MII#277).
const TorchVariant* VariantForToolkit(const Catalog& c, const PackageInfo& torch, const Platform& p,
                                      const CudaVersion& nvcc) {
  const TorchVariant* best = nullptr;
  const TorchVariant* above = nullptr;
  for (const TorchVariant* v : VariantsOf(c, torch.version->WithoutLocal(), p.Name())) {
    const auto& cuda = v->variant.cuda;
    if (!cuda || cuda->major != nvcc.major) continue;
    if (*cuda > nvcc) {
      if (above == nullptr || *cuda < *above->variant.cuda) above = v;
    } else if (best == nullptr || *cuda > *best->variant.cuda) {
      best = v;
    }
  }
  return best != nullptr ? best : above;
}

// The toolkit that matches torch when one is installed, else torch's build for this toolkit.
RemedyNeed NvccFix(const Snapshot& s, const Catalog& c, const PackageInfo& torch, const CudaVersion& nvcc) {
  for (const ToolkitInfo& t : s.toolkits) {
    if (t.version && t.version->major == torch.cuda->major && t.has_nvcc) {
      // Windows: no one command sets variables in both PowerShell and cmd; the finding says where.
      if (s.platform.os == Os::kWindows) return {};
      RemedyNeed need = Need(RemedyNeed::Kind::kUseToolkit);
      need.path = t.path;
      return need;
    }
  }
  const TorchVariant* v = VariantForToolkit(c, torch, s.platform, nvcc);
  if (v == nullptr) return {};
  RemedyNeed need = Need(RemedyNeed::Kind::kTorchVariant);
  need.variant = v->variant.tag;
  return need;
}

}  // namespace

void CheckNvccMajor(const Snapshot& s, const Catalog& c, const PlanQuery&, std::vector<Finding>& out) {
  const ToolkitInfo* active = s.ActiveToolkit();
  if (active == nullptr || !active->version) return;
  for (const PythonEnv& env : s.pythons) {
    auto it = env.packages.find("torch");
    if (it == env.packages.end() || !it->second.cuda || it->second.hip) continue;
    const PackageInfo& torch = it->second;
    if (active->version->major == torch.cuda->major) continue;
    RemedyNeed need = NvccFix(s, c, torch, *active->version);
    out.push_back(EmitFor(s, env, "toolkit.nvcc_major",
                          {{"nvcc", active->version->ToString()}, {"path", active->path}, {"env", env.prefix},
                           {"torch", torch.version->ToString()}, {"cuda", torch.cuda->MajorMinor()}},
                          {Ev("evidence.active_toolkit", {{"path", active->path}, {"version", active->version->ToString()},
                                                           {"source", active->version_source}, {"reason", active->active_reason}}),
                           TorchEvidence(env, torch)},
                          "toolkit", need));
  }
}

// The newest GCC major nvcc accepts: the toolkit's own crt/host_config.h (what nvcc enforces),
// else the catalog's row for its CUDA release.
void CheckGccTooNew(const Snapshot& s, const Catalog& c, const PlanQuery&, std::vector<Finding>& out) {
  const ToolkitInfo* active = s.ActiveToolkit();
  if (active == nullptr || !active->version || !s.host.gcc_major) return;
  const HostCompiler* hc = HostCompilerFor(c, *active->version);
  std::optional<int> limit = active->max_gcc ? active->max_gcc : hc ? hc->max_gcc : std::nullopt;
  if (!limit || *s.host.gcc_major <= *limit) return;
  std::string max = std::to_string(*limit);
  EvidenceItem source = active->max_gcc
      ? Ev("evidence.gcc_limit_header", {{"nvcc", active->version->ToString()}, {"max", max}, {"source", active->max_gcc_source}})
      : Ev("evidence.gcc_limit_catalog", {{"nvcc", active->version->ToString()}, {"max", max},
                                          {"line", std::to_string(hc->prov.line)}});
  RemedyNeed need = Need(RemedyNeed::Kind::kHostCompiler);
  need.gcc = *limit;
  out.push_back(Emit("toolkit.gcc_too_new",
                        {{"gcc", std::to_string(*s.host.gcc_major)}, {"nvcc", active->version->MajorMinor()}, {"max", max}},
                        {Ev("evidence.host_gcc", {{"gcc", std::to_string(*s.host.gcc_major)}, {"source", s.host.gcc_source}}),
                         source},
                        "toolkit", need));
}

// runtime.shadowed already names the copy the loader takes from this directory and the one it
// passes over; the same cause is not told twice.
bool ShadowedFrom(const PackageInfo& torch, const std::string& dir) {
  return std::any_of(torch.runtime.begin(), torch.runtime.end(), [&](const RuntimeLib& r) {
    return r.shadowed() && r.origin == LibOrigin::kLdLibraryPath && NormalizePath(Dirname(r.path)) == NormalizePath(dir);
  });
}

void CheckLdLibraryPath(const Snapshot& s, const Catalog& c, const PlanQuery&, std::vector<Finding>& out) {
  for (const LibraryPathEntry& entry : s.host.ld_library_path) {
    for (const PythonEnv& env : s.pythons) {
      auto it = env.packages.find("torch");
      if (it == env.packages.end() || !it->second.cuda || it->second.hip) continue;
      const PackageInfo& torch = it->second;
      if (ShadowedFrom(torch, entry.dir)) continue;
      auto wheel_cudnn = TorchCudnn(c, env, torch, s.platform);
      bool older_cudnn = entry.cudnn_version && wheel_cudnn && *entry.cudnn_version < *wheel_cudnn;
      bool older_cuda = entry.cuda_major && *entry.cuda_major < torch.cuda->major;
      if (!older_cudnn && !older_cuda) continue;
      std::vector<EvidenceItem> evidence = {
          Ev("evidence.ld_library_path_entry", {{"dir", entry.dir}, {"libs", Join(entry.cuda_libs, " ")}}),
          TorchEvidence(env, torch)};
      if (wheel_cudnn) evidence.push_back(Ev("evidence.torch_cudnn", {{"version", wheel_cudnn->ToString()}}));
      RemedyNeed need = Need(RemedyNeed::Kind::kUnsetEnv);
      need.names = {"LD_LIBRARY_PATH"};
      out.push_back(Emit("env.ld_library_path",
                            {{"dir", entry.dir}, {"env", env.prefix},
                             {"what", older_cudnn ? "cuDNN " + entry.cudnn_version->ToString()
                                                  : "CUDA " + std::to_string(*entry.cuda_major) + " libraries"},
                             {"want", older_cudnn ? "cuDNN " + wheel_cudnn->ToString() : "CUDA " + torch.cuda->MajorMinor()}},
                            evidence, "cudnn", need));
      return;
    }
  }
}

void CheckPipMirror(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out) {
  const std::string& url = s.host.pip_index_url;
  if (url.empty()) return;
  const Mirror* mirror = FindMirror(c, url);
  bool pytorch_index = StartsWith(url, "https://download.pytorch.org/") || (mirror && mirror->kind == "pytorch");
  if (pytorch_index) return;
  std::optional<BestBuild> plan = plans.Best(s, c);
  if (!plan || plan->variant->pypi_default) return;
  const TorchVariant* pypi = PypiDefaultVariant(c, *plan->release, s.platform.Name());
  if (pypi == nullptr) return;  // which build the mirror serves is unknown
  out.push_back(Emit("pip.mirror_default_only",
                     {{"url", url}, {"mirror", mirror ? mirror->name : url},
                      {"default", pypi->variant.tag},
                      {"variant", plan->variant->variant.tag}, {"torch", plan->release->torch.Public()}},
                     {Ev("evidence.pip_index", {{"url", url}, {"source", s.host.pip_index_source}}),
                      Ev("evidence.best_plan", {{"torch", plan->release->torch.Public()}, {"variant", plan->variant->variant.tag}})},
                     "mirrors", Need(RemedyNeed::Kind::kBestPlan)));
}

}  // namespace cudamatch
