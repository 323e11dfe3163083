#include "catalog/index_parse.h"

#include <nlohmann/json.hpp>

#include "core/text.h"

namespace cudamatch {

namespace {

// PEP 503 names: runs of "-", "_", "." are one "-", lower case.
std::string NormalizeName(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c == '-' || c == '_' || c == '.') {
      if (out.empty() || out.back() != '-') out += '-';
    } else {
      out += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    }
  }
  return out;
}

std::string Unescape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out += s[i];
      continue;
    }
    size_t semi = s.find(';', i);
    std::string_view ent = semi == std::string_view::npos ? "" : s.substr(i + 1, semi - i - 1);
    if (ent == "amp") out += '&';
    else if (ent == "lt") out += '<';
    else if (ent == "gt") out += '>';
    else if (ent == "quot") out += '"';
    else if (ent == "#39" || ent == "apos") out += '\'';
    else if (ent == "#43" || ent == "#x2B" || ent == "#x2b") out += '+';
    else {
      out += '&';
      continue;
    }
    i = semi;
  }
  return out;
}

std::string PercentDecode(std::string_view s) {
  std::string out;
  auto hex = [](char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1; };
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
      out += static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// `href` made absolute against the page: "/whl/x.whl", "../../x.whl", "x.whl", or a full URL.
std::string Resolve(std::string_view page, std::string_view href) {
  href = href.substr(0, href.find('#'));
  if (href.find("://") != std::string_view::npos) return std::string(href);
  size_t scheme = page.find("://");
  size_t root = scheme == std::string_view::npos ? 0 : page.find('/', scheme + 3);
  std::string origin(page.substr(0, root));
  if (!href.empty() && href[0] == '/') return origin + std::string(href);
  std::string dir(page.substr(0, page.rfind('/') + 1));
  std::string rest(href);
  while (rest.rfind("../", 0) == 0) {
    rest.erase(0, 3);
    if (dir.size() > origin.size() + 1) {
      dir.pop_back();
      dir.erase(dir.rfind('/') + 1);
    }
  }
  while (rest.rfind("./", 0) == 0) rest.erase(0, 2);
  return dir + rest;
}

// The value of attribute `name` in a tag's text, unescaped; nullopt when absent.
std::optional<std::string> Attribute(std::string_view tag, std::string_view name) {
  size_t at = 0;
  while ((at = tag.find(name, at)) != std::string_view::npos) {
    bool starts = at > 0 && (tag[at - 1] == ' ' || tag[at - 1] == '\t' || tag[at - 1] == '\n');
    size_t eq = at + name.size();
    while (eq < tag.size() && tag[eq] == ' ') ++eq;
    if (!starts || eq >= tag.size() || tag[eq] != '=') {
      at += name.size();
      if (starts && (eq >= tag.size() || tag[eq] != '=')) return std::string();  // a bare attribute
      continue;
    }
    size_t v = eq + 1;
    while (v < tag.size() && tag[v] == ' ') ++v;
    if (v < tag.size() && (tag[v] == '"' || tag[v] == '\'')) {
      size_t end = tag.find(tag[v], v + 1);
      if (end == std::string_view::npos) return std::nullopt;
      return Unescape(tag.substr(v + 1, end - v - 1));
    }
    size_t end = tag.find_first_of(" \t\n>", v);
    return Unescape(tag.substr(v, end == std::string_view::npos ? std::string_view::npos : end - v));
  }
  return std::nullopt;
}

}  // namespace

// A PEP 503 page as download.pytorch.org serves it (one anchor per file):
//   <!DOCTYPE html><html><body><h1>Links for torch</h1>
//   <a href="/whl/cu124/torch-2.5.1%2Bcu124-cp312-cp312-linux_x86_64.whl#sha256=ab12..."
//      data-dist-info-metadata="sha256=cd34..." data-core-metadata="sha256=cd34...">
//      torch-2.5.1+cu124-cp312-cp312-linux_x86_64.whl</a><br/>
//   </body></html>
Result<std::vector<IndexFile>> ParseSimpleHtml(std::string_view html, std::string_view page_url) {
  std::string lower = ToLower(html.substr(0, 4096));
  if (lower.find("<html") == std::string::npos && lower.find("<!doctype html") == std::string::npos &&
      lower.find("<a ") == std::string::npos) {
    return Err("not an HTML page (no <html> or anchors)");
  }
  std::vector<IndexFile> out;
  size_t at = 0;
  while ((at = html.find('<', at)) != std::string_view::npos) {
    size_t close = html.find('>', at);
    if (close == std::string_view::npos) return Err("an unterminated tag at byte " + std::to_string(at));
    std::string_view tag = html.substr(at, close - at);
    bool anchor = tag.size() > 2 && (tag[1] == 'a' || tag[1] == 'A') && (tag[2] == ' ' || tag[2] == '\t' || tag[2] == '\n');
    at = close + 1;
    if (!anchor) continue;
    size_t end = html.find("</a>", at);
    if (end == std::string_view::npos) end = html.find("</A>", at);
    if (end == std::string_view::npos) return Err("an anchor without </a> at byte " + std::to_string(at));
    std::optional<std::string> href = Attribute(tag, "href");
    if (!href || href->empty()) return Err("an anchor without href at byte " + std::to_string(at));
    IndexFile f;
    f.filename = std::string(Trim(Unescape(html.substr(at, end - at))));
    f.url = Resolve(page_url, *href);
    f.requires_python = Attribute(tag, "data-requires-python").value_or("");
    auto core = Attribute(tag, "data-core-metadata");
    if (!core) core = Attribute(tag, "data-dist-info-metadata");
    f.has_metadata = core && *core != "false";
    if (f.filename.empty()) f.filename = PercentDecode(f.url.substr(f.url.rfind('/') + 1));
    out.push_back(std::move(f));
    at = end + 4;
  }
  return out;
}

// A PEP 691 page (Accept: application/vnd.pypi.simple.v1+json), as pypi.org serves it:
//   {"meta": {"api-version": "1.1"}, "name": "torch", "versions": ["2.5.1"],
//    "files": [{"filename": "torch-2.5.1-cp312-cp312-manylinux1_x86_64.whl",
//               "url": "https://files.pythonhosted.org/packages/.../torch-2.5.1-...whl",
//               "hashes": {"sha256": "..."}, "requires-python": ">=3.8.0",
//               "core-metadata": {"sha256": "..."}, "data-dist-info-metadata": {"sha256": "..."},
//               "size": 906414639, "upload-time": "2024-10-29T17:30:42.462727Z", "yanked": false}]}
Result<std::vector<IndexFile>> ParseSimpleJson(std::string_view json, std::string_view page_url) {
  nlohmann::json j = nlohmann::json::parse(json, nullptr, false);
  if (j.is_discarded()) return Err("malformed JSON");
  if (!j.is_object() || !j.contains("files") || !j["files"].is_array()) return Err("JSON without a \"files\" list");
  if (!j.contains("meta") || !j["meta"].is_object() || !j["meta"].value("api-version", "").starts_with("1.")) {
    return Err("JSON without meta.api-version 1.x (PEP 691)");
  }
  std::vector<IndexFile> out;
  for (const nlohmann::json& f : j["files"]) {
    if (!f.is_object() || !f.contains("filename") || !f["filename"].is_string() || !f.contains("url") ||
        !f["url"].is_string()) {
      return Err("a file entry without filename and url");
    }
    IndexFile file;
    file.filename = f["filename"].get<std::string>();
    file.url = Resolve(page_url, f["url"].get<std::string>());
    if (f.contains("upload-time") && f["upload-time"].is_string()) file.upload_time = f["upload-time"].get<std::string>();
    if (f.contains("requires-python") && f["requires-python"].is_string()) {
      file.requires_python = f["requires-python"].get<std::string>();
    }
    for (const char* key : {"core-metadata", "data-dist-info-metadata", "dist-info-metadata"}) {
      if (f.contains(key) && (f[key].is_object() || (f[key].is_boolean() && f[key].get<bool>()))) file.has_metadata = true;
    }
    out.push_back(std::move(file));
  }
  return out;
}

// "torch-2.5.1+cu124-cp312-cp312-manylinux_2_28_x86_64.manylinux2014_x86_64.whl"
std::optional<WheelName> ParseWheelName(std::string_view filename) {
  if (!filename.ends_with(".whl")) return std::nullopt;
  std::vector<std::string_view> parts = Split(filename.substr(0, filename.size() - 4), '-');
  if (parts.size() != 5 && parts.size() != 6) return std::nullopt;  // an optional build tag
  auto version = Pep440::Parse(parts[1]);
  if (!version) return std::nullopt;
  WheelName w;
  w.package = NormalizeName(parts[0]);
  w.version = *version;
  size_t n = parts.size();
  for (std::string_view t : Split(parts[n - 3], '.')) w.python_tags.emplace_back(t);
  w.abi = std::string(parts[n - 2]);
  for (std::string_view t : Split(parts[n - 1], '.')) w.platform_tags.emplace_back(t);
  return w;
}

std::string_view CatalogPlatformOfTag(std::string_view tag) {
  bool linux_tag = tag.starts_with("linux_") || tag.starts_with("manylinux");
  if (linux_tag && tag.ends_with("_x86_64")) return "linux-x86_64";
  if (linux_tag && tag.ends_with("_aarch64")) return "linux-aarch64";
  if (tag == "win_amd64") return "windows-x86_64";
  if (tag.starts_with("macosx_") && tag.ends_with("_arm64")) return "macos-arm64";
  if (tag.starts_with("macosx_") && tag.ends_with("_x86_64")) return "macos-x86_64";
  return "";
}

std::optional<PyVersion> PythonOfTags(std::string_view python_tag, std::string_view abi) {
  if (!python_tag.starts_with("cp") || python_tag.size() < 4) return std::nullopt;
  std::string digits(python_tag.substr(2));
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  std::string text = digits.substr(0, 1) + "." + digits.substr(1);
  if (abi.ends_with("t") && abi.starts_with("cp")) text += "t";
  return PyVersion::Parse(text).as_optional();
}

// A METADATA file (core metadata 2.1, RFC 822 headers, body after the first empty line):
//   Metadata-Version: 2.1
//   Name: torch
//   Version: 2.5.1
//   Requires-Python: >=3.8.0
//   Requires-Dist: nvidia-cuda-runtime-cu12==12.4.127; platform_system == "Linux" and platform_machine == "x86_64"
WheelMetadata ParseWheelMetadata(std::string_view text) {
  WheelMetadata m;
  for (std::string_view line : Split(text, '\n')) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) break;
    if (line.starts_with("Requires-Dist:")) m.requires_dist.emplace_back(Trim(line.substr(14)));
    else if (line.starts_with("Requires-Python:")) m.requires_python = std::string(Trim(line.substr(16)));
  }
  return m;
}

std::optional<Pep440> PinnedVersion(std::string_view requirement, std::string_view name) {
  std::string_view req = requirement.substr(0, requirement.find(';'));
  size_t op = req.find("==");
  if (op == std::string_view::npos) return std::nullopt;
  std::string_view lhs = Trim(req.substr(0, op));
  if (size_t bracket = lhs.find('['); bracket != std::string_view::npos) lhs = Trim(lhs.substr(0, bracket));
  if (NormalizeName(lhs) != NormalizeName(name)) return std::nullopt;
  std::string_view rhs = Trim(req.substr(op + 2));
  rhs = rhs.substr(0, rhs.find_first_of(" ,)"));
  if (rhs.find('*') != std::string_view::npos) return std::nullopt;
  return Pep440::Parse(rhs).as_optional();
}

}  // namespace cudamatch
