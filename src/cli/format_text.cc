// --format text: the text view, in the language and colours of the context.
#include "cli/common.h"
#include "cli/output.h"

namespace cudamatch {

std::string RenderTextFormat(const Output& out, const Context& ctx) { return out.text(ctx.text()); }

}  // namespace cudamatch
