// cudamatch doctor (the default command): the machine's whole GPU stack and what is wrong with it.

#include "cli/common.h"
#include "cli/machine.h"
#include "diagnose/rules.h"
#include "plan/diagnose.h"
#include "report/doctor.h"

namespace cudamatch {

namespace {

Output RunDoctor(const MachineOptions& opt, Context& ctx) {
  auto probe = ProbeMachine(opt, ctx);
  if (!probe) return Failed(probe.error());
  auto snapshot = std::make_shared<const Snapshot>(std::move(probe->snapshot));
  auto findings = std::make_shared<const std::vector<Finding>>(Diagnose(*snapshot, ctx.catalog));
  return Views([=] { return DoctorJson(*snapshot, *findings); },
               [=](const TextOptions& o) { return RenderDoctor(*snapshot, *findings, o); },
               HasErrors(*findings) ? kExitFindings : kExitOk);
}

}  // namespace

void RegisterDoctor(CommandLine& cli) {
  auto opt = std::make_shared<MachineOptions>();
  Command& sub = cli.Add("doctor", "Inspect this machine (or an image with --root) and report problems",
                         [opt](Context& ctx) { return RunDoctor(*opt, ctx); });
  AddMachineOptions(sub, *opt);
}

}  // namespace cudamatch
