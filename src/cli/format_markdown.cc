// --format markdown: doctor's report made to be pasted into an issue (report/doctor_markdown.h),
// in the language of --lang, without colour, redacted. Other commands have no such view: asking
// them for it is a usage error (exit 2), since their text is not a report about a machine.
#include "cli/common.h"
#include "cli/output.h"

namespace cudamatch {

bool HasView(const Output& out, const Context& ctx) { return ctx.format->name != "markdown" || out.markdown != nullptr; }

std::string RenderMarkdownFormat(const Output& out, const Context& ctx) {
  TextOptions o = ctx.text();
  o.style = Style{};  // no terminal colour in a pasted report
  o.width = 100;      // the details block wraps the same wherever it is made
  return out.markdown(o, ctx.env);
}

}  // namespace cudamatch
