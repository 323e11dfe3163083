#include "cli/common.h"

namespace cudamatch {

RunFn RegisterPlan(CLI::App& app) {
  app.add_subcommand("plan", "plan");
  return [](Context&) { return Fail("not yet"); };
}

}  // namespace cudamatch
