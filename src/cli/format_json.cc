// --format json (and --json): the JSON view as one object, language-neutral, with "meta" last.
#include "cli/common.h"
#include "cli/output.h"

namespace cudamatch {

RunMeta ContextMeta(const Context& ctx) {
  RunMeta m;
  m.tool_version = CUDAMATCH_VERSION;
  m.catalog_data_date = ctx.catalog.data_date;
  m.catalog_built_in = ctx.flags.catalog_dir.empty();
  if (!ctx.catalog.index_date.empty()) m.index_date = ctx.catalog.index_date;
  m.run_time = ctx.run_time;
  return m;
}

std::string RenderJsonFormat(const Output& out, const Context& ctx) {
  Json j = out.json();
  j["meta"] = MetaJson(ContextMeta(ctx));
  return JsonText(j);
}

}  // namespace cudamatch
