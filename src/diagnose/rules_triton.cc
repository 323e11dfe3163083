// triton.ptxas_too_old: torch.compile (Inductor) and triton kernels are assembled by the ptxas
// triton's wheel bundles; one from a CUDA release older than the GPU stops at "ptxas fatal :
// Value 'sm_121a' is not defined for option 'gpu-name'". Which bundled ptxas triton takes for a
// GPU follows its nvidia backend's get_ptxas(): ptxas-thor for 11.0 (triton 3.7.x),
// ptxas-blackwell for 10.0 and newer (3.6+), else ptxas; each one yields to its
// TRITON_PTXAS*_PATH variable. What a release can target comes from cuda_targets.tsv.
#include "diagnose/rule_fns.h"

namespace cudamatch {

namespace {

const PtxasInfo* Tool(const std::vector<PtxasInfo>& list, std::string_view tool) {
  for (const PtxasInfo& p : list) {
    if (p.tool == tool) return &p;
  }
  return nullptr;
}

// The bundled ptxas triton runs for `cc`, and the tool name it goes by.
const PtxasInfo* BundledFor(const std::vector<PtxasInfo>& list, const ComputeCapability& cc) {
  int arch = cc.major * 10 + cc.minor;
  if (arch == 110) {
    if (const PtxasInfo* p = Tool(list, "ptxas-thor")) return p;
  }
  if (arch >= 100) {
    if (const PtxasInfo* p = Tool(list, "ptxas-blackwell")) return p;
  }
  return Tool(list, "ptxas");
}

bool Targets(const Catalog& c, const CudaVersion& v, const ComputeCapability& cc) {
  std::optional<CudaVersion> first = FirstCudaFor(c, cc);
  std::optional<CudaVersion> last = LastCudaFor(c, cc);
  CudaVersion mm = v.Truncated();
  return first && mm >= *first && (!last || mm <= *last);
}

// The newest toolkit on the machine whose bin/ptxas can target `cc`.
const ToolkitInfo* ToolkitFor(const Snapshot& s, const Catalog& c, const ComputeCapability& cc) {
  const ToolkitInfo* best = nullptr;
  for (const ToolkitInfo& t : s.toolkits) {
    if (t.ptxas.empty() || !t.version || !Targets(c, *t.version, cc)) continue;
    if (best == nullptr || *best->version < *t.version) best = &t;
  }
  return best;
}

std::string EnvVarOf(std::string_view tool) {
  if (tool == "ptxas-thor") return "TRITON_PTXAS_THOR_PATH";
  if (tool == "ptxas-blackwell") return "TRITON_PTXAS_BLACKWELL_PATH";
  return "TRITON_PTXAS_PATH";
}

// The ptxas triton will run for `cc` in `env`: an override when its variable is set, else the
// bundled one; null when neither was found.
const PtxasInfo* UsedFor(const Snapshot& s, const PythonEnv& env, const ComputeCapability& cc) {
  const PtxasInfo* bundled = BundledFor(env.triton_ptxas, cc);
  if (bundled == nullptr) return nullptr;
  for (const PtxasInfo& o : s.host.triton_ptxas_env) {
    if (o.env_var == EnvVarOf(bundled->tool)) return &o;
  }
  return bundled;
}

void CheckEnv(const Snapshot& s, const Catalog& c, const PythonEnv& env, std::vector<Finding>& out) {
  for (const GpuInfo& g : s.gpus) {
    if (!g.cc) continue;
    const PtxasInfo* used = UsedFor(s, env, *g.cc);
    std::optional<CudaVersion> first = FirstCudaFor(c, *g.cc);
    // An override whose file could not be read is the user's choice: it is not second-guessed.
    if (used == nullptr || !used->version || !first || Targets(c, *used->version, *g.cc)) continue;
    std::string var = used->env_var.empty() ? EnvVarOf(used->tool) : used->env_var;
    std::vector<EvidenceItem> ev = {
        used->env_var.empty() ? Ev("evidence.triton_ptxas", {{"path", used->path}, {"line", used->version_line}})
                              : Ev("evidence.triton_ptxas_env", {{"var", used->env_var}, {"path", used->path}, {"line", used->version_line}}),
        GpuEvidence(g)};
    RemedyNeed need;
    if (const ToolkitInfo* t = ToolkitFor(s, c, *g.cc)) {
      ev.push_back(Ev("evidence.toolkit_ptxas", {{"path", t->ptxas}, {"version", t->version->ToString()}}));
      need = Need(RemedyNeed::Kind::kSetEnv);
      need.names = {var};
      need.path = t->ptxas;
    }
    out.push_back(EmitFor(s, env, "triton.ptxas_too_old",
                          {{"env", env.prefix}, {"ptxas", used->version->ToString()}, {"cc", g.cc->ToString()},
                           {"gpu", g.name}, {"first", first->MajorMinor()}, {"var", var}},
                          std::move(ev), "toolkit", need));
    return;  // one finding per environment: the first GPU it fails
  }
}

}  // namespace

void CheckTritonPtxas(const Snapshot& s, const Catalog& c, const PlanQuery&, std::vector<Finding>& out) {
  for (const PythonEnv& env : s.pythons) {
    if (!env.triton_ptxas.empty()) CheckEnv(s, c, env, out);
  }
}

}  // namespace cudamatch
