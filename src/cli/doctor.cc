#include "cli/common.h"

namespace cudamatch {

RunFn RegisterDoctor(CLI::App& app) {
  app.add_subcommand("doctor", "doctor");
  return [](Context&) { return Fail("not yet"); };
}

}  // namespace cudamatch
