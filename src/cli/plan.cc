// cudamatch plan: the best torch set for this machine (or one described by flags), with commands.
#include "cli/common.h"
#include "cli/spec_options.h"
#include "report/plan_report.h"

namespace cudamatch {

void RegisterPlan(CommandLine& cli) {
  auto opt = std::make_shared<SpecOptions>();
  RunFn run = [opt](Context& ctx) {
    auto spec = BuildSpec(*opt, ctx);
    if (!spec) return Fail(spec.error(), SpecErrorExit(spec.err()));
    Plan plan = MakePlan(ctx.catalog, *spec);
    if (ctx.flags.json) Print(JsonText(PlanJson(plan, *spec)));
    else Print(RenderPlan(plan, *spec, ctx.text()));
    return plan.release ? static_cast<int>(kExitOk) : static_cast<int>(kExitFindings);
  };
  Command& sub = cli.Add("plan", "The torch, torchvision and torchaudio that fit a machine, and how to install them",
                         std::move(run));
  AddSpecOptions(sub, *opt);
}

}  // namespace cudamatch
