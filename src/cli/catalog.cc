// cudamatch catalog: the data date, row counts per table, and every source.
// cudamatch catalog update: the index overlay (cli/catalog_update.cc).
#include "cli/catalog_update.h"
#include "cli/common.h"
#include "report/json.h"

namespace cudamatch {

namespace {

struct CatalogOptions {
  std::string action;
  UpdateOptions update;
};

}  // namespace

void RegisterCatalog(CommandLine& cli) {
  auto opt = std::make_shared<CatalogOptions>();
  Command& sub = cli.Add("catalog", "The embedded data: its date, tables and sources (catalog update: newer releases from the indexes)", [opt](Context& ctx) {
    if (opt->action == "update") return RunCatalogUpdate(opt->update, ctx);
    const Catalog* c = &ctx.catalog;
    return Views([c] { return CatalogJson(*c); }, [c](const TextOptions& o) { return RenderCatalog(*c, o); });
  });
  sub.Positional("action", &opt->action, "What to do (default: show the data)")
      .OneOf({{"update", "Learn new releases from the PyTorch and PyPI indexes (uses the network)"}});
  sub.Flag("--dry-run", &opt->update.dry_run, "update: show what would change, write nothing");
  sub.Repeated("--index", &opt->update.indexes, "URL", "update: read this index or mirror (repeatable; default: PyTorch and PyPI)");
  sub.Option("--timeout", &opt->update.timeout, "SECONDS", "update: the most time one request may take (default: 90)");
}

}  // namespace cudamatch
