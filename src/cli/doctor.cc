// cudamatch doctor (the default command): the machine's whole GPU stack and what is wrong with it.

#include "cli/common.h"
#include "cli/machine.h"
#include "diagnose/rules.h"
#include "plan/diagnose.h"
#include "report/doctor.h"
#include "report/doctor_markdown.h"
#include "report/shown_paths.h"

namespace cudamatch {

namespace {

struct DoctorOptions {
  MachineOptions machine;
  std::string fail_on;  // --fail-on: error (the default, ""), warning or never
  std::string from;     // --from FILE|-: a paste instead of this machine
  bool from_given = false;
};

// The snapshot to judge: the paste --from names, else this machine (or --root's image).
Result<Snapshot> DoctorSnapshot(const DoctorOptions& doctor, Context& ctx) {
  const MachineOptions& opt = doctor.machine;
  if (!doctor.from_given) {
    auto probe = ProbeMachine(opt, ctx);
    if (!probe) return Error{probe.error()};
    return std::move(probe->snapshot);
  }
  if (opt.root_given) return Err(Tr(ctx.lang, "usage.from_and_root"));
  if (!opt.pythons.empty()) return Err(Tr(ctx.lang, "usage.from_and_python"));
  return PasteMachine(doctor.from, ctx);
}

// The exit status for CI: 1 when a finding is at least as severe as --fail-on names.
int FailOnExit(const std::vector<Finding>& findings, const std::string& fail_on) {
  if (fail_on == "never") return kExitOk;
  Severity worst = fail_on == "warning" ? Severity::kWarning : Severity::kError;
  for (const Finding& f : findings) {
    if (f.severity <= worst) return kExitFindings;
  }
  return kExitOk;
}

Output RunDoctor(const DoctorOptions& doctor, Context& ctx) {
  auto taken = DoctorSnapshot(doctor, ctx);
  if (!taken) return Failed(taken.error());
  auto snapshot = std::make_shared<const Snapshot>(std::move(*taken));
  auto findings = std::make_shared<const std::vector<Finding>>(Diagnose(*snapshot, ctx.catalog));
  return Views([=] { return DoctorJson(*snapshot, *findings); },
               // The text speaks the machine's own path form (C:\Users\... in a Windows tree).
               [=](const TextOptions& o) { return RenderDoctor(ShownForUser(*snapshot), ShownForUser(*snapshot, *findings), o); },
               FailOnExit(*findings, doctor.fail_on),
               [=](const TextOptions& o, const auto& env) { return RenderDoctorMarkdown(ShownForUser(*snapshot), ShownForUser(*snapshot, *findings), o, env); });
}

}  // namespace

void RegisterDoctor(CommandLine& cli) {
  auto opt = std::make_shared<DoctorOptions>();
  Command& sub = cli.Add("doctor", "Inspect this machine (or an image with --root) and report problems",
                         [opt](Context& ctx) { return RunDoctor(*opt, ctx); });
  AddMachineOptions(sub, opt->machine);
  sub.kept_root = [opt](const std::map<std::string, std::string>& env) -> std::optional<std::string> {
    if (opt->from_given) return std::nullopt;
    return KeptRoot(opt->machine, env);
  };
  sub.Option("--from", &opt->from, "FILE",
             "Read pasted output (collect_env, nvidia-smi, pip list, ...) from FILE, or - for stdin, instead of this machine")
      .on_value = [opt](const std::string&) { opt->from_given = true; };
  sub.Option("--fail-on", &opt->fail_on, "LEVEL", "Exit 1 when a finding is this severe or more (default: error)")
      .OneOf({{"error", "an error"}, {"warning", "a warning or an error"}, {"never", "exit 0 whatever is found"}});
}

}  // namespace cudamatch
