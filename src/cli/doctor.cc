// cudamatch doctor (the default command): the machine's whole GPU stack and what is wrong with it.

#include "cli/common.h"
#include "cli/machine.h"
#include "diagnose/rules.h"
#include "plan/diagnose.h"
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

void RegisterDoctor(CommandLine& cli) {
  auto opt = std::make_shared<MachineOptions>();
  Command& sub = cli.Add("doctor", "Inspect this machine (or an image with --root) and report problems",
                         [opt](Context& ctx) { return RunDoctor(*opt, ctx); });
  AddMachineOptions(sub, *opt);
}

}  // namespace cudamatch
