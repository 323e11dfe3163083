// cudamatch explain [topic]: the layers and rules, in plain words.
#include "cli/common.h"
#include "report/explain.h"

namespace cudamatch {

namespace {

// The explain table's topics, then the aliases (described by the topic they stand for).
std::vector<Choice> TopicChoices() {
  std::vector<Choice> out;
  for (std::string_view t : ExplainTopics()) out.push_back(Choice{t, ""});
  for (const ExplainAlias& a : ExplainAliases()) out.push_back(Choice{a.name, a.help});
  return out;
}

}  // namespace

void RegisterExplain(CommandLine& cli) {
  auto topic = std::make_shared<std::string>();
  RunFn run = [topic](Context&) {
    std::string t = ExplainTopicOf(*topic);  // one of ExplainTopics(), or "" for the list: the table allows no other
    return Views([t] { return ExplainJson(t); }, [t](const TextOptions& o) { return RenderExplain(t, o); });
  };
  Command& sub = cli.Add("explain", "Driver CUDA vs toolkit vs PyTorch's CUDA, and the other rules, explained",
                         std::move(run));
  sub.Positional("topic", topic.get(), "A topic; without one, the list").OneOf(TopicChoices());
}

}  // namespace cudamatch
