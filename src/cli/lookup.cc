// cudamatch lookup torch==1.13.0 | torchvision==0.14.0 | cuda==12.4 | driver==470.82.01 | gpu NAME
#include "catalog/query.h"
#include "cli/common.h"
#include "cli/machine.h"
#include "cli/process.h"
#include "plan/lookup.h"
#include "plan/spec.h"
#include "report/json.h"
#include "report/text.h"

namespace cudamatch {

namespace {

struct LookupOptions {
  std::vector<std::string> args;
  std::string mirror;
  std::string python;
  std::string driver;
  bool all = false;
  MachineOptions machine;  // --root: the machine whose driver `lookup gpu` answers for
};

// The platform asked (--os/--arch), else this machine's; the driver given (--driver), else for
// `lookup gpu` on this machine's platform the driver found on it (under --root, the image's).
// lookup gpu for a GPU that comes only with one host architecture (gpu_hosts.tsv), --arch not
// given: answered for that architecture, whatever this machine is.
void UseGpuHost(const LookupQuery& q, const Context& ctx, LookupTarget& t) {
  if (q.kind != LookupQuery::Kind::kGpu || !ctx.flags.arch.empty() || t.platform.os != Os::kLinux) return;
  GpuMatch m = MatchGpuName(ctx.catalog, q.text, false);
  const GpuHost* host = m.models.empty() ? nullptr : HostOfGpu(ctx.catalog, m.models.front()->name);
  if (host == nullptr || host->arch == t.platform.arch) return;
  t.platform.arch = host->arch;
  t.platform_from_gpu = std::string(m.models.front()->name);
}

Result<LookupTarget> TargetFor(const LookupOptions& opt, const LookupQuery& q, const Context& ctx) {
  LookupTarget t;
  t.platform = ctx.platform;
  t.platform_from_machine = ctx.flags.os.empty() && ctx.flags.arch.empty();
  if (t.platform_from_machine) t.platform.arch = ParseArch(ThisHost().arch).value_or(t.platform.arch);
  if (!opt.python.empty()) {
    auto py = PyVersion::Parse(opt.python);
    if (!py) return Err("--python wants a Python version such as 3.10: " + py.error());
    t.python = *py;
  }
  if (!opt.driver.empty()) {
    auto d = DriverVersion::Parse(opt.driver);
    if (!d) return Error{d.error()};
    t.driver = *d;
    t.driver_cuda = MaxCudaForDriver(ctx.catalog, *d, t.platform.os).cuda;
    t.driver_checked = true;
    UseGpuHost(q, ctx, t);
    return t;
  }
  bool probe = q.kind == LookupQuery::Kind::kGpu && (t.platform_from_machine || opt.machine.root_given);
  if (!probe) {
    UseGpuHost(q, ctx, t);
    return t;
  }
  auto m = ProbeMachine(opt.machine, ctx);
  if (!m) return Error{m.error()};
  MachineSpec seen = SpecFromSnapshot(m->snapshot, nullptr);
  if (t.platform_from_machine) t.platform = seen.platform;
  t.driver = seen.driver;
  t.driver_cuda = seen.driver_cuda;
  t.driver_from_machine = true;
  t.driver_checked = true;
  UseGpuHost(q, ctx, t);
  return t;
}

Output RunLookup(const LookupOptions& opt, Context& ctx) {
  auto query = ParseLookupQuery(opt.args);
  if (!query) return Failed(query.error());
  query->all = opt.all;
  const Mirror* mirror = nullptr;
  std::optional<Mirror> unlisted;
  if (!opt.mirror.empty()) {
    mirror = FindMirror(ctx.catalog, opt.mirror);
    if (mirror == nullptr) {
      auto m = UnlistedMirror(opt.mirror);
      if (!m) return Failed(m.error());
      unlisted = std::move(*m);
      mirror = &*unlisted;
    }
  }
  auto target = TargetFor(opt, *query, ctx);
  if (!target) return Failed(target.error());
  auto result = Lookup(ctx.catalog, *query, *target, mirror);
  if (!result) return Failed(result.error());
  auto found = std::make_shared<const LookupResult>(std::move(*result));
  const Catalog* c = &ctx.catalog;
  // A release or CUDA version the catalog lacks is a gap in its data, said, not an error; a GPU
  // name nothing matches is one the user must correct.
  return Views([=] { return LookupJson(*c, *found); },
               [=](const TextOptions& o) { return RenderLookup(*c, *found, o); },
               found->not_found && found->query.kind == LookupQuery::Kind::kGpu ? kExitFindings : kExitOk);
}

}  // namespace

void RegisterLookup(CommandLine& cli) {
  auto opt = std::make_shared<LookupOptions>();
  Command& sub = cli.Add("lookup", "Everything known about one torch/torchvision/torchaudio/CUDA/driver/GPU",
                         [opt](Context& ctx) { return RunLookup(*opt, ctx); });
  sub.Positionals("entity", &opt->args,
                  "torch==2.3.1, torchvision==0.18.1, cuda==12.4, driver==550.54.14, gpu \"RTX 3090\"")
      .required = true;
  sub.Option("--mirror", &opt->mirror, "MIRROR", "Name or URL of a mirror from mirrors.tsv for the install commands");
  sub.Flag("--all", &opt->all, "lookup gpu / driver: after the answer, the full matrix (every release or variant)");
  sub.Option("--python", &opt->python, "VERSION", "lookup gpu / driver: answer for this Python (3.10; default: any)");
  sub.Option("--driver", &opt->driver, "VERSION", "lookup gpu: answer for this driver (default: this machine's)");
  AddRootOption(sub, opt->machine, "lookup gpu: take the driver from the machine image under DIR");
}

}  // namespace cudamatch
