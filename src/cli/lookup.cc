// cudamatch lookup torch==1.13.0 | torchvision==0.14.0 | cuda==12.4 | driver==470.82.01 | gpu NAME
#include "catalog/query.h"
#include "cli/common.h"
#include "plan/lookup.h"
#include "report/json.h"
#include "report/text.h"

namespace cudamatch {

namespace {

struct LookupOptions {
  std::vector<std::string> args;
  std::string mirror;
};

Output RunLookup(const LookupOptions& opt, Context& ctx) {
  auto query = ParseLookupQuery(opt.args);
  if (!query) return Failed(query.error());
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
  auto result = Lookup(ctx.catalog, *query, ctx.platform, mirror);
  if (!result) return Failed(result.error());
  auto found = std::make_shared<const LookupResult>(std::move(*result));
  const Catalog* c = &ctx.catalog;
  return Views([=] { return LookupJson(*c, *found); },
               [=](const TextOptions& o) { return RenderLookup(*c, *found, o); },
               found->not_found ? kExitFindings : kExitOk);
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
}

}  // namespace cudamatch
