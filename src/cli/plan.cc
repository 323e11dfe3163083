// cudamatch plan: the best torch set for this machine (or one described by flags), with commands.
// `--print FIELD` prints one value of it on one line for install scripts (nothing, and exit 1,
// when the plan has no such value); with --json the whole plan is printed all the same.
#include "cli/common.h"
#include "cli/spec_options.h"
#include "report/plan_print.h"
#include "report/plan_report.h"

namespace cudamatch {

namespace {

struct PlanOptions {
  SpecOptions spec;
  std::string print;  // a PlanFields() name, or "" for the whole plan
};

std::vector<Choice> PrintChoices() {
  std::vector<Choice> choices;
  for (const PlanFieldInfo& f : PlanFields()) choices.push_back(Choice{f.name, f.help});
  return choices;
}

// The one line of `--print`, or the reason there is none (on stderr; stdout stays empty).
Output PrintField(const Plan& plan, const MachineSpec& spec, PlanField field, const Context& ctx) {
  FieldValue value = PlanFieldValue(ctx.catalog, plan, spec, field);
  if (!value.line) return Failed(TrArgs(ctx.lang, value.why_id, value.why_args), kExitFindings);
  std::string line = *value.line + "\n";
  return Views([] { return Json(); }, [line](const TextOptions&) { return line; });
}

Output RunPlan(const PlanOptions& opt, Context& ctx) {
  auto spec = BuildSpec(opt.spec, ctx);
  if (!spec) return Failed(spec.error(), SpecErrorExit(spec.err()));
  auto machine = std::make_shared<const MachineSpec>(std::move(*spec));
  auto plan = std::make_shared<const Plan>(MakePlan(ctx.catalog, *machine));
  std::optional<PlanField> field = FindPlanField(opt.print);
  if (field && ctx.format->name != "json") return PrintField(*plan, *machine, *field, ctx);
  return Views([=] { return PlanJson(*plan, *machine); },
               [=](const TextOptions& o) { return RenderPlan(*plan, *machine, o); },
               plan->release ? kExitOk : kExitFindings);
}

}  // namespace

void RegisterPlan(CommandLine& cli) {
  auto opt = std::make_shared<PlanOptions>();
  Command& sub = cli.Add("plan", "The torch, torchvision and torchaudio that fit a machine, and how to install them",
                         [opt](Context& ctx) { return RunPlan(*opt, ctx); });
  AddSpecOptions(sub, opt->spec);
  sub.Option("--print", &opt->print, "FIELD", "Print one value of the plan on one line (nothing, exit 1: none)")
      .OneOf(PrintChoices());
}

}  // namespace cudamatch
