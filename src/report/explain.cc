#include "report/explain.h"

#include <algorithm>

#include "core/text.h"

namespace cudamatch {

const std::vector<std::string_view>& ExplainTopics() {
  static const std::vector<std::string_view> kTopics = {
      "layers",  "driver", "toolkit",      "minor-compat", "cudnn",           "compute-capability",
      "forward-compat", "nvidia-smi", "pairing", "wsl", "containers", "wsl-containers", "visible-devices", "mirrors", "nvidia-wheels", "extensions"};
  return kTopics;
}

// CUDA's error 804, CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE: "forward compatibility was
// attempted on non supported HW" (explain.forward-compat.sources). Error 500,
// cudaErrorSymbolNotFound / CUDA_ERROR_NOT_FOUND: "named symbol not found", in containers under
// WSL 2 a driver library the container toolkit did not mount (explain.wsl-containers.sources).
const std::vector<ExplainAlias>& ExplainAliases() {
  static const std::vector<ExplainAlias> kAliases = {
      {"500", "wsl-containers", "CUDA error 500 (\"named symbol not found\"): the wsl-containers topic"},
      {"804", "forward-compat", "CUDA error 804 (\"forward compatibility was attempted on non supported HW\"): the forward-compat topic"}};
  return kAliases;
}

std::string ExplainTopicOf(const std::string& name) {
  for (const ExplainAlias& a : ExplainAliases()) {
    if (a.name == name) return std::string(a.topic);
  }
  return name;
}

std::string RenderExplain(const std::string& topic, const TextOptions& o) {
  Lang L = o.lang;
  if (topic.empty()) {
    std::vector<std::vector<std::string>> rows;
    for (std::string_view t : ExplainTopics()) {
      rows.push_back({std::string(t), Tr(L, "explain." + std::string(t) + ".title")});
    }
    return o.style.Bold(Tr(L, "explain.list")) + "\n" + RenderColumns(rows, "  ");
  }
  std::string out = o.style.Bold(Tr(L, "explain." + topic + ".title")) + "\n\n" + Tr(L, "explain." + topic + ".body") + "\n";
  std::string sources = "explain." + topic + ".sources";
  if (HasMessage(L, sources)) out += "\n" + o.style.Dim(Tr(L, "common.sources", {{"list", Tr(L, sources)}})) + "\n";
  return out;
}

std::string_view DriverCudaMeaningId(const std::optional<DriverVersion>& driver) {
  bool umd = driver && driver->branch() >= kUmdHeaderBranch;
  return umd ? "doctor.cuda.driver_meaning_umd" : "doctor.cuda.driver_meaning";
}

Json ExplainJson(const std::string& topic) {
  Json j = JsonHeader("explain");
  Json topics = Json::array();
  for (std::string_view t : ExplainTopics()) {
    if (!topic.empty() && t != topic) continue;
    Json x{{"id", t}, {"title", Tr(Lang::kEn, "explain." + std::string(t) + ".title")}};
    if (!topic.empty()) x["body"] = Tr(Lang::kEn, "explain." + std::string(t) + ".body");
    std::string sources = "explain." + std::string(t) + ".sources";
    if (!topic.empty() && HasMessage(Lang::kEn, sources)) x["sources"] = Tr(Lang::kEn, sources);
    topics.push_back(x);
  }
  j["topics"] = topics;
  return j;
}

}  // namespace cudamatch
