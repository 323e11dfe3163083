// cudamatch catalog: the data date, row counts per table, and every source.
#include "cli/common.h"
#include "report/json.h"

namespace cudamatch {

void RegisterCatalog(CommandLine& cli) {
  cli.Add("catalog", "The embedded data: its date, tables and sources", [](Context& ctx) {
    if (ctx.flags.json) Print(JsonText(CatalogJson(ctx.catalog)));
    else Print(RenderCatalog(ctx.catalog, ctx.text()));
    return static_cast<int>(kExitOk);
  });
}

}  // namespace cudamatch
