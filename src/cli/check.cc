#include "cli/common.h"

namespace cudamatch {

RunFn RegisterCheck(CLI::App& app) {
  app.add_subcommand("check", "check");
  return [](Context&) { return Fail("not yet"); };
}

}  // namespace cudamatch
