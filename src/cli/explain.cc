// cudamatch explain [topic]: the layers and rules, in plain words.
#include "core/text.h"
#include "cli/common.h"
#include "report/explain.h"

namespace cudamatch {

void RegisterExplain(CommandLine& cli) {
  auto topic = std::make_shared<std::string>();
  RunFn run = [topic](Context& ctx) {
    if (!topic->empty() && !IsExplainTopic(*topic)) {
      return Fail("unknown topic " + Quote(*topic) + ExplainDidYouMean(*topic) + "; run `cudamatch explain` for the list");
    }
    if (ctx.flags.json) Print(JsonText(ExplainJson(*topic)));
    else Print(RenderExplain(*topic, ctx.text()));
    return static_cast<int>(kExitOk);
  };
  Command& sub = cli.Add("explain", "Driver CUDA vs toolkit vs PyTorch's CUDA, and the other rules, explained",
                         std::move(run));
  sub.Positional("topic", topic.get(), "A topic; without one, the list");
}

}  // namespace cudamatch
