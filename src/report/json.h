// Language-neutral JSON for every command. One object per output with "schema_version";
// docs/json.md documents each shape. Built with nlohmann::ordered_json, never by hand.
#pragma once

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "plan/lookup.h"

namespace cudamatch {

using Json = nlohmann::ordered_json;

inline constexpr int kSchemaVersion = 2;

// The text printed for --json: indented, one object, a final newline. Bytes that are not valid
// UTF-8 (read from broken files) are replaced, never fatal.
std::string JsonText(const Json& j);

// {"schema_version": 2, "kind": kind}
Json JsonHeader(std::string_view kind);

// Small helpers: null for unknown values.
template <typename T>
Json OptString(const std::optional<T>& v) {
  return v ? Json(v->ToString()) : Json(nullptr);
}
Json OptText(std::string_view s);
Json StringList(const std::vector<std::string>& items);
Json StringList(const std::vector<std::string_view>& items);

std::string_view DriverFitName(DriverFit fit);  // "full", "minor_compat", "too_old", "unknown"
std::string_view KernelFitName(KernelFit fit);  // "sass", "ptx", "none"

Json LookupJson(const Catalog& c, const LookupResult& r);
// The "answer" objects of lookup gpu / lookup driver (report/lookup_json.cc).
Json GpuVerdictJson(const GpuVerdict& v);
Json DriverVerdictJson(const DriverVerdict& v);
Json CatalogJson(const Catalog& c);

}  // namespace cudamatch
