#include "report/explain.h"

#include <algorithm>

#include "core/text.h"

namespace cudamatch {

const std::vector<std::string_view>& ExplainTopics() {
  static const std::vector<std::string_view> kTopics = {
      "layers",  "driver", "toolkit",      "minor-compat", "cudnn",           "compute-capability",
      "forward-compat", "nvidia-smi", "pairing", "wsl", "containers", "visible-devices", "mirrors", "nvidia-wheels", "extensions"};
  return kTopics;
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
  return o.style.Bold(Tr(L, "explain." + topic + ".title")) + "\n\n" + Tr(L, "explain." + topic + ".body") + "\n";
}

Json ExplainJson(const std::string& topic) {
  Json j = JsonHeader("explain");
  Json topics = Json::array();
  for (std::string_view t : ExplainTopics()) {
    if (!topic.empty() && t != topic) continue;
    Json x{{"id", t}, {"title", Tr(Lang::kEn, "explain." + std::string(t) + ".title")}};
    if (!topic.empty()) x["body"] = Tr(Lang::kEn, "explain." + std::string(t) + ".body");
    topics.push_back(x);
  }
  j["topics"] = topics;
  return j;
}

}  // namespace cudamatch
