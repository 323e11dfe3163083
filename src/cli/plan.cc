// cudamatch plan: the best torch set for this machine (or one described by flags), with commands.
#include "cli/common.h"
#include "cli/spec_options.h"
#include "report/plan_report.h"

namespace cudamatch {

void RegisterPlan(CommandLine& cli) {
  auto opt = std::make_shared<SpecOptions>();
  RunFn run = [opt](Context& ctx) {
    auto spec = BuildSpec(*opt, ctx);
    if (!spec) return Failed(spec.error(), SpecErrorExit(spec.err()));
    auto machine = std::make_shared<const MachineSpec>(std::move(*spec));
    auto plan = std::make_shared<const Plan>(MakePlan(ctx.catalog, *machine));
    return Views([=] { return PlanJson(*plan, *machine); },
                 [=](const TextOptions& o) { return RenderPlan(*plan, *machine, o); },
                 plan->release ? kExitOk : kExitFindings);
  };
  Command& sub = cli.Add("plan", "The torch, torchvision and torchaudio that fit a machine, and how to install them",
                         std::move(run));
  AddSpecOptions(sub, *opt);
}

}  // namespace cudamatch
