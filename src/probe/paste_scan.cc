#include "probe/paste_scan.h"

#include <cctype>

#include "core/text.h"

namespace cudamatch {

namespace {

bool IsHex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

bool AllHex(std::string_view s) {
  for (char c : s) {
    if (!IsHex(c)) return false;
  }
  return !s.empty();
}

std::string_view RightTrim(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::string_view PeelQuotes(std::string_view line) {
  std::string_view rest = line;
  for (;;) {
    size_t i = 0;
    while (i < rest.size() && (rest[i] == ' ' || rest[i] == '\t')) ++i;
    if (i >= rest.size() || rest[i] != '>') break;
    rest.remove_prefix(i + 1);
    if (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  }
  return RightTrim(rest);
}

std::string_view Bare(std::string_view line) { return Trim(PeelQuotes(line)); }

bool IsFence(std::string_view bare) { return StartsWith(bare, "```") || StartsWith(bare, "~~~"); }

std::vector<std::string_view> Words(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    size_t start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

std::string_view After(std::string_view line, std::string_view key) {
  size_t at = line.find(key);
  if (at == std::string_view::npos) return "";
  std::string_view rest = Trim(line.substr(at + key.size()));
  size_t end = rest.find("  ");
  if (end != std::string_view::npos) rest = rest.substr(0, end);
  if (EndsWith(rest, "|")) rest.remove_suffix(1);
  return Trim(rest);
}

size_t Indent(std::string_view line) {
  size_t cols = 0;
  for (char c : line) {
    if (c == ' ') {
      ++cols;
    } else if (c == '\t') {
      cols += 4;
    } else {
      break;
    }
  }
  return cols;
}

void FactList::Block(int line) { Add(PasteFactKind::kFormat, line, "", PasteFormatName(format_)); }

void FactList::Add(PasteFactKind kind, int line, std::string_view name, std::string_view value,
                   std::string_view extra) {
  PasteFact f;
  f.kind = kind;
  f.format = format_;
  f.line = line;
  f.name = std::string(name);
  f.value = std::string(value);
  f.extra = std::string(extra);
  facts_.push_back(std::move(f));
}

std::string MibValue(std::string_view text) {
  text = Trim(text);
  if (!EndsWith(text, "MiB")) return "";
  std::string_view number = Trim(text.substr(0, text.size() - 3));
  if (!ParseUint(number)) return "";
  return std::string(number);
}

bool IsBusId(std::string_view text) {
  // domain:bus:device.function
  std::vector<std::string_view> parts = Split(text, ':');
  if (parts.size() != 3 || parts[0].size() < 4 || parts[1].size() != 2) return false;
  size_t dot = parts[2].find('.');
  if (dot == std::string_view::npos) return false;
  return AllHex(parts[0]) && AllHex(parts[1]) && AllHex(parts[2].substr(0, dot)) &&
         AllHex(parts[2].substr(dot + 1));
}

}  // namespace cudamatch
