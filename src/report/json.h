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

// What every JSON output carries last, under "meta": the tool, the data it answered from and when.
struct RunMeta {
  std::string tool_version;               // "0.1.0"
  std::string catalog_data_date;          // meta.tsv's data_date ("2026-11-30")
  bool catalog_built_in = true;           // false: read from --catalog DIR
  std::optional<std::string> index_date;  // the index overlay's date (`catalog update`); null: none used
  std::string run_time;                   // RFC 3339, UTC: "2026-12-02T00:35:10Z"
};
Json MetaJson(const RunMeta& m);
// A command that failed (a usage error: exit 2), under --json: the message on stdout as an object.
// `id` names the kind of error ("usage.unknown_option"); `command` is null when none was named.
Json ErrorJson(std::string_view id, const std::string& message, int exit_code, std::string_view command);

Json LookupJson(const Catalog& c, const LookupResult& r);
// The "answer" objects of lookup gpu / lookup driver (report/lookup_json.cc).
Json GpuVerdictJson(const GpuVerdict& v);
Json DriverVerdictJson(const DriverVerdict& v);
Json CatalogJson(const Catalog& c);

}  // namespace cudamatch
