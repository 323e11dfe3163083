// --format text: the text view, in the language and colours of the context.
#include "cli/common.h"
#include "cli/output.h"

namespace cudamatch {

namespace {

// Answers read from the catalog name both dates when the index overlay is in use.
bool ShowsDataDates(std::string_view command) { return command == "lookup" || command == "plan" || command == "check"; }

}  // namespace

std::string RenderTextFormat(const Output& out, const Context& ctx) {
  std::string text = out.text(ctx.text());
  if (ctx.catalog.index_date.empty() || !ShowsDataDates(ctx.command) || text.empty()) return text;
  return text + ctx.style.Dim(Tr(ctx.lang, "overlay.dates", {{"date", ctx.catalog.data_date}, {"index", ctx.catalog.index_date}})) + "\n";
}

}  // namespace cudamatch
