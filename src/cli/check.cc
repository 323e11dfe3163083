// cudamatch check torch==1.13.0 torchvision==0.14.0 | -r requirements.txt
#include "cli/common.h"
#include "cli/spec_options.h"
#include "catalog/extensions.h"
#include "core/fs.h"
#include "plan/check_require.h"
#include "report/plan_report.h"

namespace cudamatch {

namespace {

constexpr size_t kRequirementsCap = 1 << 20;

struct CheckOptions {
  SpecOptions spec;
  std::vector<std::string> pins;
  std::string requirements;
  std::string require;  // --require gpu: a CPU-only build is a problem, GPU or not
};

// Requirements files (and the files they include) through the one file layer: regular files
// of at most kRequirementsCap bytes.
Result<std::string> ReadText(const std::string& path) { return ReadInputFile(path, kRequirementsCap); }

// Pins of torch, its companions and the extensions the catalog lists; other packages are not checked.
Result<PinSet> ReadPins(const CheckOptions& opt, const Catalog& c) {
  ExtraPackages extensions = [&c](std::string_view name) { return IsCatalogExtension(c, name); };
  if (opt.requirements.empty()) return ParsePinArgs(opt.pins, extensions);
  auto text = ReadText(opt.requirements);
  if (!text) return Error{text.error()};
  PinSet set = ParseRequirements(opt.requirements, *text, ReadText, extensions);
  auto extra = ParsePinArgs(opt.pins, extensions);
  if (!extra) return extra;
  set.pins.insert(set.pins.end(), extra->pins.begin(), extra->pins.end());
  return set;
}

Output RunCheck(const CheckOptions& opt, Context& ctx) {
  if (opt.pins.empty() && opt.requirements.empty()) return Failed(Tr(ctx.lang, "usage.check_needs_pins"));
  auto pins = ReadPins(opt, ctx.catalog);
  if (!pins) return Failed(pins.error());
  // Nothing to check is no plan for torch: a file without pins (or one misread) is said so.
  if (pins->pins.empty() && !opt.requirements.empty()) {
    return Failed(Tr(ctx.lang, "usage.no_pins_in", {{"file", opt.requirements}}), kExitFindings);
  }
  if (pins->pins.empty()) return Failed(Tr(ctx.lang, "usage.no_pins"));
  auto spec = BuildSpec(opt.spec, ctx);
  if (!spec) return Failed(spec.error(), SpecErrorExit(spec.err()));
  CheckResult checked = CheckPins(ctx.catalog, *spec, *pins);
  if (opt.require == "gpu") RequireGpuBuild(checked);
  auto result = std::make_shared<const CheckResult>(std::move(checked));
  return Views([=] { return CheckJson(*result); }, [=](const TextOptions& o) { return RenderCheck(*result, o); },
               result->ok() ? kExitOk : kExitFindings);
}

}  // namespace

void RegisterCheck(CommandLine& cli) {
  auto opt = std::make_shared<CheckOptions>();
  Command& sub = cli.Add("check", "Check version pins against each other and against a machine",
                         [opt](Context& ctx) { return RunCheck(*opt, ctx); });
  sub.Positionals("pins", &opt->pins, "torch==1.13.0 torchvision==0.14.0 ...");
  sub.Option("-r,--requirement", &opt->requirements, "FILE", "A requirements file");
  sub.Option("--require", &opt->require, "WHAT", "Fail unless the pins install such a build")
      .OneOf({{"gpu", "a GPU build (CUDA, ROCm, XPU): a CPU-only build fails, GPU seen or not"}});
  AddSpecOptions(sub, opt->spec);
}

}  // namespace cudamatch
