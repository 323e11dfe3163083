// Human-readable renderings, in the chosen language. Every sentence comes from the message
// catalogs; values (versions, paths, commands) are inserted as they are.
#pragma once

#include <string>

#include "catalog/catalog.h"
#include "plan/lookup.h"
#include "report/i18n.h"
#include "report/style.h"

namespace cudamatch {

struct TextOptions {
  Lang lang = Lang::kEn;
  Style style;
  bool verbose = false;
  size_t width = 100;  // the columns text wraps to (doctor)
};

std::string RenderLookup(const Catalog& c, const LookupResult& r, const TextOptions& o);
std::string RenderCatalog(const Catalog& c, const TextOptions& o);

// "unknown" in the chosen language for an absent value.
template <typename T>
std::string OrUnknown(const std::optional<T>& v, Lang lang) {
  return v ? v->ToString() : Tr(lang, "common.unknown");
}
std::string OrUnknownText(std::string_view s, Lang lang);
std::string DriverFitText(DriverFit fit, Lang lang);

}  // namespace cudamatch
