// cudamatch catalog: the data date, row counts per table, and every source.
#include "cli/common.h"
#include "report/json.h"

namespace cudamatch {

void RegisterCatalog(CommandLine& cli) {
  cli.Add("catalog", "The embedded data: its date, tables and sources", [](Context& ctx) {
    const Catalog* c = &ctx.catalog;
    return Views([c] { return CatalogJson(*c); }, [c](const TextOptions& o) { return RenderCatalog(*c, o); });
  });
}

}  // namespace cudamatch
