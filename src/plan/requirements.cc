#include "plan/requirements.h"

#include <algorithm>

#include "core/fs.h"
#include "core/text.h"
#include "core/version.h"
#include "probe/parsers.h"

namespace cudamatch {

namespace {

bool IsTracked(const std::string& name) { return name == "torch" || name == "torchvision" || name == "torchaudio"; }

std::string UrlDecode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// "torch==2.0.1 --hash=sha256:..." -> "torch==2.0.1": options after a requirement are dropped.
std::string_view WithoutOptions(std::string_view line) {
  size_t pos = line.find(" --");
  return pos == std::string_view::npos ? line : Trim(line.substr(0, pos));
}

// Error text, or the pin.
Result<Pin> ParsePin(std::string_view text) {
  std::string_view req_text = WithoutOptions(Trim(text));
  auto req = ParseRequirement(req_text);
  if (!req) return Err("not a requirement: " + Quote(text));
  Pin pin{req->name == "pytorch" ? "torch" : req->name, req->specifier, std::string(req_text), req->marker, "", 0};
  if (StartsWith(pin.specifier, "@")) {
    std::string version = WheelVersion(pin.specifier.substr(1));
    if (version.empty()) return Err("no version in the wheel name of " + Quote(text));
    pin.specifier = "==" + version;
  }
  if (IsTracked(pin.name) && !pin.specifier.empty() && !SpecifierSet::Parse(pin.specifier)) {
    return Err("malformed version in " + Quote(text));
  }
  return pin;
}

// pip follows includes without limit; a link loop (sub -> .) makes every path new, so the depth
// and the number of files read are bounded.
constexpr size_t kMaxIncludeDepth = 16;
constexpr size_t kMaxIncludedFiles = 256;

struct Reader {
  const IncludeReader& read;
  PinSet set;
  std::vector<std::string> stack;  // files being read, for cycle detection
  size_t included = 0;             // files read through -r / -c
};

std::string Dirname(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

void ParseFile(Reader& r, const std::string& file, std::string_view text);

void Include(Reader& r, const std::string& file, int line, const std::string& text, const std::string& path) {
  std::string full = StartsWith(path, "/") ? path : Dirname(file) + path;
  if (std::find(r.stack.begin(), r.stack.end(), full) != r.stack.end()) {
    r.set.issues.push_back({file, line, text, "req.include_cycle"});
    return;
  }
  if (r.stack.size() >= kMaxIncludeDepth || r.included >= kMaxIncludedFiles) {
    r.set.issues.push_back({file, line, text, "req.include_limit"});
    return;
  }
  ++r.included;
  if (!r.read) {
    r.set.issues.push_back({file, line, text, "req.include_unreadable"});
    return;
  }
  auto content = r.read(full);
  if (!content) {
    r.set.issues.push_back({file, line, text, "req.include_unreadable"});
    return;
  }
  ParseFile(r, full, *content);
}

void Option(Reader& r, const std::string& file, int line, std::string_view l) {
  std::vector<std::string> words = SplitNonEmpty(std::string(l), ' ');
  std::string opt = words[0], value = words.size() > 1 ? words[1] : "";
  if (size_t eq = opt.find('='); eq != std::string::npos) {
    value = opt.substr(eq + 1);
    opt = opt.substr(0, eq);
  }
  if (opt == "-i" || opt == "--index-url") r.set.index_url = value;
  else if (opt == "--extra-index-url" || opt == "-f" || opt == "--find-links") r.set.extra_urls.push_back(value);
  else if (opt == "-r" || opt == "--requirement" || opt == "-c" || opt == "--constraint") {
    Include(r, file, line, std::string(l), value);
  }
}

void ParseLine(Reader& r, const std::string& file, int line, std::string_view l) {
  if (StartsWith(l, "-")) {
    Option(r, file, line, l);
    return;
  }
  auto pin = ParsePin(l);
  if (!pin) {
    r.set.issues.push_back({file, line, std::string(l), "req.unparsed"});
    return;
  }
  if (!IsTracked(pin->name)) return;
  pin->file = file;
  pin->line = line;
  r.set.pins.push_back(std::move(*pin));
}

void ParseFile(Reader& r, const std::string& file, std::string_view text) {
  r.stack.push_back(file);
  std::string pending;
  int line_no = 0, start_line = 0;
  for (std::string_view raw : Lines(text)) {
    ++line_no;
    if (pending.empty()) start_line = line_no;
    std::string_view line = raw;
    if (StartsWith(Trim(line), "#")) line = "";
    if (size_t hash = line.find(" #"); hash != std::string_view::npos) line = line.substr(0, hash);
    std::string_view t = Trim(line);
    if (EndsWith(t, "\\")) {
      pending += std::string(t.substr(0, t.size() - 1)) + " ";
      continue;
    }
    std::string full = pending + std::string(t);
    pending.clear();
    std::string_view l = Trim(full);
    if (!l.empty()) ParseLine(r, file, start_line, l);
  }
  if (!Trim(pending).empty()) ParseLine(r, file, start_line, Trim(pending));
  r.stack.pop_back();
}

}  // namespace

std::string WheelVersion(std::string_view url_or_name) {
  std::string name = UrlDecode(Basename(url_or_name));
  if (!EndsWith(name, ".whl")) return "";
  std::vector<std::string> parts = SplitNonEmpty(name, '-');
  if (parts.size() < 5) return "";
  return Pep440::Parse(parts[1]) ? parts[1] : "";
}

Result<PinSet> ParsePinArgs(const std::vector<std::string>& args) {
  PinSet set;
  for (const std::string& a : args) {
    auto pin = ParsePin(a);
    if (!pin) return Error{pin.error()};
    if (!IsTracked(pin->name)) return Err("only torch, torchvision and torchaudio are checked, not " + Quote(a));
    set.pins.push_back(std::move(*pin));
  }
  return set;
}

PinSet ParseRequirements(const std::string& file, std::string_view text, const IncludeReader& read) {
  Reader r{read, {}, {}};
  ParseFile(r, file, text);
  return std::move(r.set);
}

}  // namespace cudamatch
