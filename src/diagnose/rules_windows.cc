// Rules about a Windows shell's PATH: `python` and `pip` from different installs, and the CUDA
// toolkit whose nvcc.exe comes first on PATH differing from the one CUDA_PATH names.
#include "diagnose/rule_fns.h"

namespace cudamatch {

void CheckPipOtherPython(const Snapshot& s, const Catalog&, const PlanQuery&, std::vector<Finding>& out) {
  const PathTool& py = s.host.path_python;
  const PathTool& pip = s.host.path_pip;
  if (py.empty() || pip.empty() || py.prefix == pip.prefix) return;
  out.push_back(Emit("env.pip_other_python", {{"env", py.prefix}, {"python", py.path}, {"pip", pip.prefix}},
                     {Ev("evidence.path_tool", {{"tool", "python"}, {"path", py.path}, {"entry", py.written}}),
                      Ev("evidence.path_tool", {{"tool", "pip"}, {"path", pip.path}, {"entry", pip.written}})},
                     "layers", Need(RemedyNeed::Kind::kPythonMinusMPip)));
}

void CheckToolkitPathVsCudaPath(const Snapshot& s, const Catalog&, const PlanQuery&, std::vector<Finding>& out) {
  const ToolkitInfo* on_path = nullptr;
  const ToolkitInfo* cuda_path = nullptr;
  for (const ToolkitInfo& t : s.toolkits) {
    for (const std::string& by : t.found_by) {
      if (by == "PATH") on_path = &t;
      if (by == "CUDA_PATH") cuda_path = &t;
    }
  }
  if (on_path == nullptr || cuda_path == nullptr || on_path == cuda_path) return;
  auto version = [](const ToolkitInfo& t) { return ArgOf(t.version, [](const CudaVersion& v) { return v.ToString(); }); };
  out.push_back(Emit("toolkit.path_vs_cuda_path",
                        {{"path_toolkit", on_path->path}, {"path_version", version(*on_path)},
                         {"cuda_path", cuda_path->path}, {"cuda_path_version", version(*cuda_path)}},
                        {Ev("evidence.toolkit", {{"version", version(*on_path)}, {"path", on_path->path}, {"by", "PATH"}}),
                         Ev("evidence.toolkit", {{"version", version(*cuda_path)}, {"path", cuda_path->path}, {"by", "CUDA_PATH"}})},
                        "toolkit"));
}

}  // namespace cudamatch
