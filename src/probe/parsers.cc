#include "probe/parsers.h"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "core/text.h"

namespace cudamatch {

namespace {

// The first whitespace-separated token that parses as a driver version.
std::optional<DriverVersion> FirstDriverToken(std::string_view text) {
  for (std::string_view token : Split(text, ' ')) {
    token = Trim(token);
    if (token.find('.') == std::string_view::npos) continue;
    if (auto v = DriverVersion::Parse(token); v && v->branch() >= 100) return *v;
  }
  return std::nullopt;
}

std::string_view Unquote(std::string_view v) {
  v = Trim(v);
  if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) {
    v = v.substr(1, v.size() - 2);
  }
  return v;
}

// "#define NAME 123" -> 123
std::optional<int64_t> DefineValue(std::string_view text, std::string_view name) {
  for (size_t start = 0; start < text.size();) {  // line by line, without a list of them
    size_t nl = text.find('\n', start);
    std::string_view line = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    start = nl == std::string_view::npos ? text.size() : nl + 1;
    if (line.find('#') == std::string_view::npos) continue;
    line = Trim(line);
    if (!StartsWith(line, "#")) continue;
    line = Trim(line.substr(1));
    if (!StartsWith(line, "define")) continue;
    line = Trim(line.substr(6));
    if (!StartsWith(line, name)) continue;
    std::string_view rest = line.substr(name.size());
    if (rest.empty() || (rest.front() != ' ' && rest.front() != '\t')) continue;
    rest = Trim(rest);
    size_t end = 0;
    while (end < rest.size() && std::isdigit(static_cast<unsigned char>(rest[end]))) ++end;
    if (auto n = ParseUint(rest.substr(0, end))) return n;
  }
  return std::nullopt;
}

}  // namespace

std::optional<KernelModuleVersion> ParseProcDriverVersion(std::string_view text) {
  for (std::string_view line : Lines(text)) {
    if (!StartsWith(line, "NVRM version:")) continue;
    auto v = FirstDriverToken(line.substr(13));
    if (!v) return std::nullopt;
    bool open = line.find("Open Kernel Module") != std::string_view::npos;
    return KernelModuleVersion{*v, open};
  }
  return std::nullopt;
}

std::optional<DriverVersion> ParseSysModuleVersion(std::string_view text) {
  auto v = DriverVersion::Parse(Trim(text));
  if (!v || v->branch() < 100) return std::nullopt;
  return *v;
}

ProcGpuInformation ParseProcGpuInformation(std::string_view text) {
  ProcGpuInformation info;
  for (std::string_view line : Lines(text)) {
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view key = Trim(line.substr(0, colon)), value = Trim(line.substr(colon + 1));
    if (key == "Model") info.model = std::string(value);
    else if (key == "GPU UUID") info.uuid = std::string(value);
    else if (key == "Bus Location") info.bus_location = std::string(value);
  }
  return info;
}

std::optional<uint32_t> ParseSysfsHex(std::string_view text) { return ParseHex(Trim(text)); }

std::optional<DriverVersion> LibraryDriverVersion(std::string_view file_name, std::string_view stem) {
  if (!StartsWith(file_name, stem)) return std::nullopt;
  std::string_view rest = file_name.substr(stem.size());
  auto v = DriverVersion::Parse(rest);
  if (!v || v->branch() < 100) return std::nullopt;
  return *v;
}

std::map<std::string, std::string> ParseOsRelease(std::string_view text) {
  std::map<std::string, std::string> out;
  for (std::string_view line : Lines(text)) {
    size_t eq = line.find('=');
    if (eq == std::string_view::npos || StartsWith(Trim(line), "#")) continue;
    out[std::string(Trim(line.substr(0, eq)))] = std::string(Unquote(line.substr(eq + 1)));
  }
  return out;
}

bool IsWslKernel(std::string_view proc_version) {
  std::string lower = ToLower(proc_version);
  return lower.find("microsoft") != std::string::npos || lower.find("wsl") != std::string::npos;
}

std::string ContainerFromCgroup(std::string_view text) {
  for (std::string_view word : {"kubepods", "docker", "containerd", "libpod", "lxc"}) {
    if (text.find(word) != std::string_view::npos) return std::string(word);
  }
  return "";
}

std::optional<CudaVersion> ParseCudaVersionJson(std::string_view text) {
  auto json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) return std::nullopt;
  auto cuda = json.find("cuda");
  if (cuda == json.end() || !cuda->is_object()) return std::nullopt;
  auto version = cuda->find("version");
  if (version == cuda->end() || !version->is_string()) return std::nullopt;
  return CudaVersion::Parse(version->get<std::string>()).as_optional();
}

std::optional<DirectUrl> ParseDirectUrl(std::string_view text) {
  auto json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) return std::nullopt;
  auto url = json.find("url");
  if (url == json.end() || !url->is_string()) return std::nullopt;
  DirectUrl out{url->get<std::string>(), false};
  auto info = json.find("dir_info");
  if (info != json.end() && info->is_object()) {
    auto editable = info->find("editable");
    out.editable = editable != info->end() && editable->is_boolean() && editable->get<bool>();
  }
  return out;
}

std::optional<XformersBuild> ParseXformersCppLib(std::string_view text) {
  auto json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object()) return std::nullopt;
  auto version = json.find("version");
  if (version == json.end() || !version->is_object()) return std::nullopt;
  auto torch = version->find("torch");
  if (torch == version->end() || !torch->is_string()) return std::nullopt;
  XformersBuild out;
  out.torch = torch->get<std::string>();
  auto cuda = version->find("cuda");
  if (cuda != version->end() && cuda->is_number_integer()) {
    int64_t v = cuda->get<int64_t>();
    if (v >= 100 && v < 10000) out.cuda = CudaVersion{static_cast<int>(v / 100), static_cast<int>(v % 100), std::nullopt};
  }
  auto env = json.find("env");
  if (env != json.end() && env->is_object()) {
    auto arch = env->find("TORCH_CUDA_ARCH_LIST");
    if (arch != env->end() && arch->is_string()) out.arch_list = arch->get<std::string>();
  }
  return out;
}

std::string WheelFileOfDirectUrl(std::string_view text) {
  auto d = ParseDirectUrl(text);
  if (!d) return "";
  std::string u = d->url.substr(0, d->url.find_first_of("?#"));
  std::string file = u.substr(u.rfind('/') + 1);
  return EndsWith(file, ".whl") ? file : "";
}

namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A Python string literal starting at text[i] ('...' or "..."), simple backslash escapes; i is
// left after its closing quote. nullopt when it does not close.
std::optional<std::string> PyStringAt(std::string_view text, size_t& i) {
  char quote = text[i];
  std::string out;
  for (++i; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) {
      out += text[++i];
    } else if (text[i] == quote) {
      ++i;
      return out;
    } else {
      out += text[i];
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> FileUrlPath(std::string_view url) {
  if (!StartsWith(url, "file:///")) return std::nullopt;
  std::string_view rest = url.substr(7);
  rest = rest.substr(0, rest.find_first_of("?#"));
  std::string out;
  for (size_t i = 0; i < rest.size(); ++i) {
    int hi = i + 2 < rest.size() ? HexDigit(rest[i + 1]) : -1;
    int lo = i + 2 < rest.size() ? HexDigit(rest[i + 2]) : -1;
    if (rest[i] == '%' && hi >= 0 && lo >= 0) {
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      out += rest[i];
    }
  }
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

std::vector<std::string> ParseEditableFinderMapping(std::string_view text) {
  std::vector<std::string> out;
  size_t at = text.find("\nMAPPING");
  if (at == std::string_view::npos) return out;
  size_t open = text.find('{', at);
  size_t line_end = text.find('\n', at + 1);
  if (open == std::string_view::npos || open > line_end) return out;
  bool value = false;
  for (size_t i = open + 1; i < text.size();) {
    char c = text[i];
    if (c == '}') break;
    if (c == '\'' || c == '"') {
      auto s = PyStringAt(text, i);
      if (!s) break;
      if (value && StartsWith(*s, "/")) out.push_back(std::move(*s));
      continue;
    }
    if (c == ':') value = true;
    if (c == ',') value = false;
    ++i;
  }
  return out;
}

std::vector<std::string> ParsePthPaths(std::string_view text) {
  std::vector<std::string> out;
  for (std::string_view line : Lines(text)) {
    line = Trim(line);
    if (StartsWith(line, "/")) out.emplace_back(line);
  }
  return out;
}

std::string EggLinkProject(std::string_view text) {
  auto lines = Lines(text);
  if (lines.empty()) return "";
  std::string dir(Trim(lines[0]));
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return StartsWith(dir, "/") ? dir : "";
}

std::optional<bool> WheelCxx11Abi(std::string_view wheel_file) {
  if (wheel_file.find("cxx11abiTRUE") != std::string_view::npos) return true;
  if (wheel_file.find("cxx11abiFALSE") != std::string_view::npos) return false;
  return std::nullopt;
}

std::string WheelTorchLine(std::string_view wheel_file) {
  size_t plus = wheel_file.find('+');
  if (plus == std::string_view::npos) return "";
  std::string_view local = wheel_file.substr(plus + 1, wheel_file.find('-', plus) - plus - 1);
  size_t at = local.find("torch");
  if (at == std::string_view::npos) return "";
  std::string_view rest = local.substr(at + 5);
  size_t i = 0, dots = 0;
  while (i < rest.size() && (std::isdigit(static_cast<unsigned char>(rest[i])) || (rest[i] == '.' && dots++ == 0))) ++i;
  std::string line(rest.substr(0, i));
  if (line.empty() || line.back() == '.' || dots != 1) return "";
  return line;
}

std::optional<CondaRecord> ParseCondaRecord(std::string_view text) {
  auto json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) return std::nullopt;
  auto name = json.find("name");
  if (name == json.end() || !name->is_string()) return std::nullopt;
  CondaRecord out{name->get<std::string>(), {}};
  auto files = json.find("files");
  if (files != json.end() && files->is_array()) {
    for (const auto& f : *files) {
      if (f.is_string()) out.files.push_back(f.get<std::string>());
    }
  }
  return out;
}

std::optional<CudaVersion> ParseCudaVersionTxt(std::string_view text) {
  for (std::string_view line : Lines(text)) {
    line = Trim(line);
    if (StartsWith(line, "CUDA Version ")) return CudaVersion::Parse(line.substr(13)).as_optional();
  }
  return std::nullopt;
}

std::optional<ToolRelease> ParseToolRelease(std::string_view bytes) {
  constexpr std::string_view kHead = "Cuda compilation tools, release ";
  for (size_t at = bytes.find(kHead); at != std::string_view::npos; at = bytes.find(kHead, at + 1)) {
    std::string_view rest = bytes.substr(at + kHead.size(), 40);
    size_t comma = rest.find(", V");
    if (comma == std::string_view::npos) continue;
    size_t end = comma + 3;
    while (end < rest.size() && (std::isdigit(static_cast<unsigned char>(rest[end])) || rest[end] == '.')) ++end;
    auto full = CudaVersion::Parse(rest.substr(comma + 3, end - comma - 3));
    auto release = CudaVersion::Parse(rest.substr(0, comma));
    if (!full.ok() || !release.ok() || !full->SameMinor(*release)) continue;
    return ToolRelease{*full, std::string(bytes.substr(at, kHead.size() + end))};
  }
  return std::nullopt;
}

std::optional<CudaVersion> ParseCudaHeader(std::string_view text) {
  auto v = DefineValue(text, "CUDA_VERSION");
  if (!v || *v < 1000 || *v > 99999) return std::nullopt;
  return CudaVersion::FromApiInt(static_cast<int>(*v));
}

std::optional<Pep440> ParseCudnnHeader(std::string_view text) {
  auto major = DefineValue(text, "CUDNN_MAJOR");
  auto minor = DefineValue(text, "CUDNN_MINOR");
  auto patch = DefineValue(text, "CUDNN_PATCHLEVEL");
  if (!major || !minor || !patch || *major > 99) return std::nullopt;
  Pep440 v;
  v.release = {*major, *minor, *patch};
  return v;
}

std::optional<Pep440> LibraryVersion(std::string_view file_name, std::string_view stem) {
  if (!StartsWith(file_name, stem)) return std::nullopt;
  std::string_view rest = file_name.substr(stem.size());
  if (rest.empty()) return std::nullopt;
  Pep440 v;
  for (std::string_view p : Split(rest, '.')) {
    auto n = ParseUint(p);
    if (!n) return std::nullopt;
    v.release.push_back(*n);
  }
  return v;
}

VersionPy ParseVersionPy(std::string_view text) {
  VersionPy out;
  for (std::string_view line : Lines(text)) {
    size_t eq = line.find('=');
    if (eq == std::string_view::npos || line.find("==") != std::string_view::npos) continue;
    std::string_view lhs = Trim(line.substr(0, eq));
    if (size_t colon = lhs.find(':'); colon != std::string_view::npos) lhs = Trim(lhs.substr(0, colon));
    std::string_view rhs = Trim(line.substr(eq + 1));
    if (size_t hash = rhs.find('#'); hash != std::string_view::npos && rhs.front() != '\'' &&
                                     rhs.front() != '"') {
      rhs = Trim(rhs.substr(0, hash));
    }
    bool quoted = rhs.size() >= 2 && (rhs.front() == '\'' || rhs.front() == '"') && rhs.back() == rhs.front();
    std::optional<std::string> value;
    if (quoted) value = std::string(rhs.substr(1, rhs.size() - 2));
    else if (rhs == "None") value = "";
    else continue;  // computed values are never evaluated
    if (lhs == "__version__") out.version = value;
    else if (lhs == "cuda") out.cuda = value;
    else if (lhs == "hip") out.hip = value;
    else if (lhs == "git_version") out.git_version = value;
  }
  return out;
}

CoreMetadata ParseCoreMetadata(std::string_view text) {
  CoreMetadata out;
  for (std::string_view line : Lines(text)) {
    if (line.empty()) break;  // the header block ends at the first blank line
    size_t colon = line.find(':');
    if (colon == std::string_view::npos || line.front() == ' ' || line.front() == '\t') continue;
    std::string key = ToLower(line.substr(0, colon));
    std::string_view value = Trim(line.substr(colon + 1));
    if (key == "name") out.name = std::string(value);
    else if (key == "version") out.version = std::string(value);
    else if (key == "requires-dist") out.requires_dist.emplace_back(value);
  }
  return out;
}

std::string NormalizeProjectName(std::string_view name) {
  std::string out;
  bool sep = false;
  for (char c : name) {
    if (c == '-' || c == '_' || c == '.') {
      sep = true;
      continue;
    }
    if (sep && !out.empty()) out += '-';
    sep = false;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::optional<Requirement> ParseRequirement(std::string_view line) {
  Requirement r;
  if (size_t semi = line.find(';'); semi != std::string_view::npos) {
    r.marker = std::string(Trim(line.substr(semi + 1)));
    line = line.substr(0, semi);
  }
  line = Trim(line);
  size_t end = 0;
  while (end < line.size() && (std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '-' ||
                               line[end] == '_' || line[end] == '.')) {
    ++end;
  }
  if (end == 0) return std::nullopt;
  r.name = NormalizeProjectName(line.substr(0, end));
  std::string_view rest = Trim(line.substr(end));
  if (StartsWith(rest, "[")) {  // extras
    size_t close = rest.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    rest = Trim(rest.substr(close + 1));
  }
  if (StartsWith(rest, "(") && EndsWith(rest, ")")) rest = Trim(rest.substr(1, rest.size() - 2));
  std::string spec;
  for (char c : rest) {
    if (c != ' ') spec += c;
  }
  r.specifier = spec;
  if (auto set = SpecifierSet::Parse(r.specifier)) r.spec = std::move(*set);
  return r;
}

std::optional<DistDir> ParseDistDirName(std::string_view dir_name) {
  for (std::string_view suffix : {".dist-info", ".egg-info"}) {
    if (!EndsWith(dir_name, suffix)) continue;
    std::string_view stem = dir_name.substr(0, dir_name.size() - suffix.size());
    size_t dash = stem.find('-');
    if (dash == std::string_view::npos || dash == 0) return std::nullopt;
    std::string_view version = stem.substr(dash + 1);
    // egg-info names may carry "-py3.11" after the version.
    if (size_t py = version.find("-py"); py != std::string_view::npos) version = version.substr(0, py);
    return DistDir{NormalizeProjectName(stem.substr(0, dash)), std::string(version)};
  }
  return std::nullopt;
}

std::map<std::string, std::string> ParsePyvenvCfg(std::string_view text) {
  std::map<std::string, std::string> out;
  for (std::string_view line : Lines(text)) {
    size_t eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    out[ToLower(Trim(line.substr(0, eq)))] = std::string(Trim(line.substr(eq + 1)));
  }
  return out;
}

std::vector<std::string> ParseEnvironmentsTxt(std::string_view text) {
  std::vector<std::string> out;
  for (std::string_view line : Lines(text)) {
    line = Trim(line);
    if (StartsWith(line, "/") && std::find(out.begin(), out.end(), line) == out.end()) out.emplace_back(line);
  }
  return out;
}

PipConfig ParsePipConf(std::string_view text) {
  PipConfig out;
  std::string section;
  bool in_extra = false;
  for (std::string_view raw : Lines(text)) {
    std::string_view line = Trim(raw);
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    if (line.front() == '[') {
      size_t close = line.find(']');
      section = close == std::string_view::npos ? "" : ToLower(Trim(line.substr(1, close - 1)));
      in_extra = false;
      continue;
    }
    if (section != "global" && section != "install") continue;
    bool continuation = !raw.empty() && (raw.front() == ' ' || raw.front() == '\t');
    if (continuation && in_extra) {
      out.extra_index_urls.emplace_back(line);
      continue;
    }
    size_t eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    std::string key = NormalizeProjectName(Trim(line.substr(0, eq)));
    std::string_view value = Trim(line.substr(eq + 1));
    in_extra = key == "extra-index-url";
    if (key == "index-url") out.index_url = std::string(value);
    else if (in_extra) {
      for (const std::string& url : SplitNonEmpty(value, ' ')) out.extra_index_urls.push_back(url);
    }
  }
  return out;
}

}  // namespace cudamatch

namespace cudamatch {

std::optional<int> ParseHostConfigMaxGcc(std::string_view text) {
  for (std::string_view line : Lines(text)) {
    line = Trim(line);
    if (!StartsWith(line, "#if")) continue;
    size_t at = line.find("__GNUC__ > ");
    if (at == std::string_view::npos) continue;
    std::string_view rest = line.substr(at + 11);
    auto n = ParseUint(rest.substr(0, rest.find_first_not_of("0123456789")));
    if (n && *n > 0 && *n < 100) return static_cast<int>(*n);
  }
  return std::nullopt;
}

std::optional<std::string> ParseNvccWrapper(std::string_view text) {
  if (!StartsWith(text, "#!")) return std::nullopt;
  for (std::string_view line : Lines(text)) {
    line = Trim(line);
    if (line.empty() || line.front() == '#') continue;
    size_t end = line.find("/bin/nvcc");
    if (end == std::string_view::npos) continue;
    size_t start = line.rfind(' ', end);
    start = start == std::string_view::npos ? 0 : start + 1;
    std::string_view path = line.substr(start, end + 9 - start);
    if (!path.empty() && (path.front() == '"' || path.front() == '\'')) path.remove_prefix(1);
    if (StartsWith(path, "/") && path.find('$') == std::string_view::npos) return std::string(path);
  }
  return std::nullopt;
}

}  // namespace cudamatch
