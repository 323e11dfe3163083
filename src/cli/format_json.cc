// --format json (and --json): the JSON view as one object, language-neutral.
#include "cli/common.h"
#include "cli/output.h"

namespace cudamatch {

std::string RenderJsonFormat(const Output& out, const Context&) { return JsonText(out.json()); }

}  // namespace cudamatch
