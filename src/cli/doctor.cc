// cudamatch doctor (the default command): the machine's whole GPU stack and what is wrong with it.

#include "cli/common.h"
#include "cli/machine.h"
#include "diagnose/rules.h"
#include "report/doctor.h"

namespace cudamatch {

namespace {

int RunDoctor(const MachineOptions& opt, Context& ctx) {
  auto probe = ProbeMachine(opt, ctx);
  if (!probe) return Fail(probe.error());
  std::vector<Finding> findings = Diagnose(probe->snapshot, ctx.catalog);
  if (ctx.flags.json) Print(JsonText(DoctorJson(probe->snapshot, findings)));
  else Print(RenderDoctor(probe->snapshot, findings, ctx.text()));
  return HasErrors(findings) ? kExitFindings : kExitOk;
}

}  // namespace

RunFn RegisterDoctor(CLI::App& app) {
  auto opt = std::make_shared<MachineOptions>();
  CLI::App* sub = app.add_subcommand("doctor", "Inspect this machine (or an image with --root) and report problems");
  AddMachineOptions(*sub, *opt);
  return [opt](Context& ctx) { return RunDoctor(*opt, ctx); };
}

}  // namespace cudamatch
