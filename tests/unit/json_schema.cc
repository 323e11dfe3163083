#include "tests/unit/json_schema.h"

#include <algorithm>
#include <set>

namespace cudamatch::testing {

namespace {

using nlohmann::json;

const std::set<std::string>& KnownKeywords() {
  static const std::set<std::string> kKeys = {"$schema", "$id", "$defs", "$ref", "title", "description", "type",
                                              "const", "enum", "properties", "required", "additionalProperties",
                                              "items", "oneOf", "anyOf"};
  return kKeys;
}

bool HasType(const json& value, const std::string& type) {
  if (type == "null") return value.is_null();
  if (type == "boolean") return value.is_boolean();
  if (type == "integer") return value.is_number_integer();
  if (type == "number") return value.is_number();
  if (type == "string") return value.is_string();
  if (type == "array") return value.is_array();
  if (type == "object") return value.is_object();
  return false;
}

std::vector<std::string> TypeNames(const json& schema) {
  if (!schema.contains("type")) return {};
  if (schema["type"].is_string()) return {schema["type"].get<std::string>()};
  return schema["type"].get<std::vector<std::string>>();
}

const json& Resolve(const json& root, const json& schema) {
  if (!schema.contains("$ref")) return schema;
  std::string ref = schema["$ref"].get<std::string>();
  const std::string prefix = "#/$defs/";
  if (ref.rfind(prefix, 0) != 0 || !root["$defs"].contains(ref.substr(prefix.size()))) {
    static const json kUnresolved = json{{"$unresolved", ref}};
    return kUnresolved;
  }
  return root["$defs"][ref.substr(prefix.size())];
}

void Add(std::vector<std::string>& out, const std::string& where, const std::string& what) { out.push_back(where + ": " + what); }

void CheckObject(const json& root, const json& s, const json& value, const std::string& where, std::vector<std::string>& out) {
  const json props = s.value("properties", json::object());
  for (const auto& name : s.value("required", json::array())) {
    if (!value.contains(name.get<std::string>())) Add(out, where, "lacks required field " + name.get<std::string>());
  }
  for (auto it = value.begin(); it != value.end(); ++it) {
    std::string path = where + "." + it.key();
    if (props.contains(it.key())) {
      for (std::string& e : Validate(root, props[it.key()], it.value(), path)) out.push_back(std::move(e));
    } else if (s.contains("additionalProperties")) {
      const json& extra = s["additionalProperties"];
      if (extra.is_boolean() && !extra.get<bool>()) Add(out, path, "field not in the schema");
      if (extra.is_object()) {
        for (std::string& e : Validate(root, extra, it.value(), path)) out.push_back(std::move(e));
      }
    }
  }
}

size_t Matches(const json& root, const json& list, const json& value, const std::string& where) {
  size_t n = 0;
  for (const json& alt : list) n += Validate(root, alt, value, where).empty() ? 1 : 0;
  return n;
}

}  // namespace

std::vector<std::string> Validate(const json& root, const json& schema_in, const json& value, const std::string& where) {
  std::vector<std::string> out;
  const json& s = Resolve(root, schema_in);
  if (s.contains("$unresolved")) return {where + ": unresolved $ref " + s["$unresolved"].get<std::string>()};
  for (auto it = s.begin(); it != s.end(); ++it) {
    if (!KnownKeywords().count(it.key())) Add(out, where, "schema keyword " + it.key() + " is not supported");
  }
  std::vector<std::string> types = TypeNames(s);
  if (!types.empty() && std::none_of(types.begin(), types.end(), [&](const std::string& t) { return HasType(value, t); })) {
    Add(out, where, "is " + std::string(value.type_name()) + ", not " + s["type"].dump());
    return out;
  }
  if (s.contains("const") && s["const"] != value) Add(out, where, value.dump() + " is not " + s["const"].dump());
  if (s.contains("enum") && std::find(s["enum"].begin(), s["enum"].end(), value) == s["enum"].end()) {
    Add(out, where, value.dump() + " is not one of " + s["enum"].dump());
  }
  if (value.is_object()) CheckObject(root, s, value, where, out);
  if (value.is_array() && s.contains("items")) {
    for (size_t i = 0; i < value.size(); ++i) {
      for (std::string& e : Validate(root, s["items"], value[i], where + "[" + std::to_string(i) + "]")) out.push_back(std::move(e));
    }
  }
  if (s.contains("oneOf") && Matches(root, s["oneOf"], value, where) != 1) Add(out, where, "matches not exactly one of oneOf");
  if (s.contains("anyOf") && Matches(root, s["anyOf"], value, where) == 0) Add(out, where, "matches none of anyOf");
  return out;
}

namespace {

std::string TypeText(const json& s) {
  std::vector<std::string> types = TypeNames(s);
  std::string text;
  for (const std::string& t : types) text += (text.empty() ? "" : "|") + t;
  if (s.contains("const")) text += (text.empty() ? "" : " ") + std::string("=") + s["const"].dump();
  if (s.contains("$ref")) text += (text.empty() ? "" : " ") + s["$ref"].get<std::string>();
  return text.empty() ? "any" : text;
}

void Collect(const json& root, const json& s, const std::string& path, std::set<std::string>& seen,
             std::vector<std::string>& out) {
  if (s.contains("properties")) {
    const json required = s.value("required", json::array());
    for (auto it = s["properties"].begin(); it != s["properties"].end(); ++it) {
      std::string field = path + "." + it.key();
      bool needed = std::find(required.begin(), required.end(), it.key()) != required.end();
      out.push_back(field + (needed ? "" : "?") + " " + TypeText(it.value()));
      Collect(root, it.value(), field, seen, out);
    }
  }
  if (s.contains("items")) Collect(root, s["items"], path + "[]", seen, out);
  if (s.contains("additionalProperties") && s["additionalProperties"].is_object()) {
    Collect(root, s["additionalProperties"], path + ".*", seen, out);
  }
  if (s.contains("$ref")) {
    std::string ref = s["$ref"].get<std::string>();
    if (seen.insert(ref).second) Collect(root, Resolve(root, s), ref.substr(ref.rfind('/') + 1), seen, out);
  }
  for (const char* list : {"oneOf", "anyOf"}) {
    if (s.contains(list)) {
      for (const json& alt : s[list]) Collect(root, alt, path, seen, out);
    }
  }
}

}  // namespace

std::vector<std::string> DeclaredFields(const json& root) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (auto it = root["$defs"].begin(); it != root["$defs"].end(); ++it) {
    std::string ref = "#/$defs/" + it.key();
    if (seen.insert(ref).second) Collect(root, it.value(), it.key(), seen, out);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace cudamatch::testing
