// A JSON Schema (draft 2020-12) validator for the subset docs/schema/cudamatch.schema.json uses:
// type (a name or a list), const, enum, properties, required, additionalProperties (false or a
// schema), items, oneOf, anyOf and "$ref" to "#/$defs/NAME". Anything else in a schema is an
// error, so the schema cannot say more than the test checks.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cudamatch::testing {

// The places where `value` breaks `schema` ("$.findings[0].severity: not one of the enum"), or
// none. `root` is the document "$ref"s are resolved in.
std::vector<std::string> Validate(const nlohmann::json& root, const nlohmann::json& schema, const nlohmann::json& value,
                                  const std::string& where = "$");

// Every field a schema declares, one "path type" line each ("doctor.driver.version string|null";
// "path?" when the field may be absent), sorted: what a schema_version promises (docs/schema/fields-v<N>.txt records it).
std::vector<std::string> DeclaredFields(const nlohmann::json& root);

}  // namespace cudamatch::testing
