// Readers for what package indexes serve: the simple index as PEP 503 HTML or PEP 691 JSON,
// wheel file names (PEP 427 and the platform tags of PEP 600 / the packaging spec), and the core
// metadata files of PEP 658/714 (Requires-Dist, Requires-Python). Pure: the text comes from the
// caller (`catalog update` fetches it).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "core/version.h"

namespace cudamatch {

struct IndexFile {
  std::string filename;         // "torch-2.5.1+cu124-cp312-cp312-linux_x86_64.whl"
  std::string url;              // absolute, fragment dropped
  std::string upload_time;      // "2024-10-29T17:03:12.345Z" (PEP 691 v1.1), or ""
  std::string requires_python;  // ">=3.9", or ""
  bool has_metadata = false;    // a `<url>.metadata` file is served (PEP 658/714)
};

// The files a project page lists. Errors say what is malformed ("an unterminated tag at byte 120").
Result<std::vector<IndexFile>> ParseSimpleHtml(std::string_view html, std::string_view page_url);
Result<std::vector<IndexFile>> ParseSimpleJson(std::string_view json, std::string_view page_url);

struct WheelName {
  std::string package;  // normalized: "torch"
  Pep440 version;       // local label included: 2.5.1+cu124
  std::vector<std::string> python_tags;    // {"cp312"}
  std::string abi;                         // "cp312", "cp313t", "none"
  std::vector<std::string> platform_tags;  // {"manylinux_2_28_x86_64"}
};
// nullopt when `filename` is not a wheel name.
std::optional<WheelName> ParseWheelName(std::string_view filename);

// The catalog platform ("linux-x86_64", see CatalogPlatforms()) of a wheel platform tag, or ""
// for one the catalog does not track ("any", "win32", "linux_armv7l").
std::string_view CatalogPlatformOfTag(std::string_view tag);
// The Python version a CPython tag names: "cp312" -> 3.12, abi "cp313t" makes it 3.13t.
std::optional<PyVersion> PythonOfTags(std::string_view python_tag, std::string_view abi);

struct WheelMetadata {
  std::vector<std::string> requires_dist;  // "nvidia-cuda-runtime-cu12==12.4.127; platform_system == \"Linux\""
  std::string requires_python;             // ">=3.9.0"
};
WheelMetadata ParseWheelMetadata(std::string_view text);

// The version a Requires-Dist entry pins `name` to with "==" ("torch==2.5.1" -> 2.5.1), or nullopt.
std::optional<Pep440> PinnedVersion(std::string_view requirement, std::string_view name);

}  // namespace cudamatch
