#include "plan/requirements.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "core/fs.h"
#include "core/text.h"
#include "core/version.h"
#include "probe/parsers.h"

namespace cudamatch {

namespace {

bool IsTorchPackage(const std::string& name) { return name == "torch" || name == "torchvision" || name == "torchaudio"; }

bool IsTracked(const std::string& name, const ExtraPackages& extra) { return IsTorchPackage(name) || (extra && extra(name)); }

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
Result<Pin> ParsePin(std::string_view text, const ExtraPackages& extra) {
  std::string_view req_text = WithoutOptions(Trim(text));
  auto req = ParseRequirement(req_text);
  if (!req) return Err("not a requirement: " + Quote(text));
  Pin pin{req->name == "pytorch" ? "torch" : req->name, req->specifier, std::string(req_text), req->marker, "", 0};
  if (StartsWith(pin.specifier, "@")) {
    std::string version = WheelVersion(pin.specifier.substr(1));
    if (version.empty()) return Err("no version in the wheel name of " + Quote(text));
    pin.specifier = "==" + version;
  }
  // Parsed once by ParseRequirement; a wheel URL's version ("@ ...whl") only here.
  bool valid = StartsWith(req->specifier, "@") ? static_cast<bool>(SpecifierSet::Parse(pin.specifier)) : req->spec.has_value();
  if (IsTracked(pin.name, extra) && !pin.specifier.empty() && !valid) {
    return Err("malformed version in " + Quote(text));
  }
  return pin;
}

// pip follows includes without limit; a link loop (sub -> .) makes every path new, so the depth
// and the number of files read are bounded, and so are the bytes read in all and the pins kept
// (256 includes of one large file would otherwise multiply it).
constexpr size_t kMaxIncludeDepth = 16;
constexpr size_t kMaxIncludedFiles = 256;

struct Reader {
  const IncludeReader& read;
  const ExtraPackages& extra;
  PinSet set;
  std::vector<std::string> stack;  // files being read, for cycle detection
  size_t included = 0;             // files read through -r / -c
  size_t bytes = 0;                // bytes of every file read, the first one too
  bool pins_cut = false;           // kMaxRequirementPins reached: noted once
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
  if (r.bytes + content->size() > kMaxRequirementBytes) {
    r.set.issues.push_back({file, line, text, "req.bytes_limit"});
    return;
  }
  r.bytes += content->size();
  ParseFile(r, full, DecodeRequirementsText(*content));
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
  auto pin = ParsePin(l, r.extra);
  if (!pin) {
    r.set.issues.push_back({file, line, std::string(l), "req.unparsed"});
    return;
  }
  if (!IsTracked(pin->name, r.extra)) return;
  if (r.set.pins.size() >= kMaxRequirementPins) {
    if (!std::exchange(r.pins_cut, true)) r.set.issues.push_back({file, line, std::string(l), "req.pins_limit"});
    return;
  }
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

Result<PinSet> ParsePinArgs(const std::vector<std::string>& args, const ExtraPackages& extra) {
  PinSet set;
  for (const std::string& a : args) {
    auto pin = ParsePin(a, extra);
    if (!pin) return Error{pin.error()};
    if (!IsTracked(pin->name, extra)) {
      return Err(extra ? "only torch, torchvision, torchaudio and the extensions the catalog lists are checked, not " + Quote(a)
                       : "only torch, torchvision and torchaudio are checked, not " + Quote(a));
    }
    set.pins.push_back(std::move(*pin));
  }
  return set;
}

PinSet ParseRequirements(const std::string& file, std::string_view text, const IncludeReader& read,
                         const ExtraPackages& extra) {
  Reader r{read, extra, {}, {}};
  r.bytes = text.size();
  ParseFile(r, file, DecodeRequirementsText(text));
  return std::move(r.set);
}

namespace {


// UTF-16 after its byte order mark; an unpaired surrogate becomes U+FFFD, an odd last byte is dropped.
std::string Utf16ToUtf8(std::string_view bytes, bool big_endian) {
  std::string out;
  out.reserve(bytes.size() / 2);
  auto unit = [&](size_t i) {
    auto b0 = static_cast<unsigned char>(bytes[i]), b1 = static_cast<unsigned char>(bytes[i + 1]);
    return static_cast<uint32_t>(big_endian ? (b0 << 8) | b1 : (b1 << 8) | b0);
  };
  for (size_t i = 0; i + 1 < bytes.size(); i += 2) {
    uint32_t u = unit(i);
    if (u >= 0xD800 && u < 0xDC00 && i + 3 < bytes.size() && unit(i + 2) >= 0xDC00 && unit(i + 2) < 0xE000) {
      AppendUtf8(out, 0x10000 + ((u - 0xD800) << 10) + (unit(i + 2) - 0xDC00));
      i += 2;
    } else {
      AppendUtf8(out, u >= 0xD800 && u < 0xE000 ? 0xFFFD : u);
    }
  }
  return out;
}

}  // namespace

std::string DecodeRequirementsText(std::string_view bytes) {
  std::string text;
  if (StartsWith(bytes, "\xEF\xBB\xBF")) text = bytes.substr(3);
  else if (StartsWith(bytes, "\xFF\xFE")) text = Utf16ToUtf8(bytes.substr(2), false);
  else if (StartsWith(bytes, "\xFE\xFF")) text = Utf16ToUtf8(bytes.substr(2), true);
  else text = bytes;
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\r') out += text[i];
    else if (i + 1 >= text.size() || text[i + 1] != '\n') out += '\n';  // CR alone ends a line; CRLF is LF
  }
  return out;
}

}  // namespace cudamatch
