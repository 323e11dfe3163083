#include "cli/common.h"

namespace cudamatch {

RunFn RegisterExplain(CLI::App& app) {
  app.add_subcommand("explain", "explain");
  return [](Context&) { return Fail("not yet"); };
}

}  // namespace cudamatch
