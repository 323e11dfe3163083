#include "report/style.h"

#include <algorithm>

#include "core/safe_text.h"

namespace cudamatch {

namespace {

bool IsWide(uint32_t cp) {
  return (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xac00 && cp <= 0xd7a3) ||
         (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
         (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x20000 && cp <= 0x3fffd);
}

// One UTF-8 character at `i`: its length in bytes and its code point.
size_t CharAt(std::string_view s, size_t i, uint32_t& cp) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
  cp = len == 1 ? c : c & (0x7f >> len);
  for (size_t k = 1; k < len && i + k < s.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3f);
  return std::min(len, s.size() - i);
}

// Marks a line never starts with (closing) or never ends with (opening).
bool IsClosing(uint32_t cp) {
  static constexpr uint32_t kMarks[] = {0xff0c, 0x3002, 0x3001, 0xff1b, 0xff1a, 0xff1f, 0xff01, 0xff09, 0x300d, 0x300f, 0x300b, 0x3011};
  return std::find(std::begin(kMarks), std::end(kMarks), cp) != std::end(kMarks);
}
bool IsOpening(uint32_t cp) { return cp == 0xff08 || cp == 0x300c || cp == 0x300e || cp == 0x300a || cp == 0x3010; }

// A piece of a line between two places it may break, and the spaces before it.
struct Piece {
  std::string_view text;  // a view into the line
  size_t spaces = 0;
};

std::vector<Piece> Pieces(std::string_view s) {
  std::vector<Piece> out;
  size_t space = 0;
  bool glue = false, last_wide = false;
  for (size_t i = 0; i < s.size();) {
    if (s[i] == ' ') {
      ++space;
      glue = false;
      ++i;
      continue;
    }
    size_t len = 1;
    uint32_t cp = 0;
    bool escape = s[i] == 0x1b;
    if (escape) {
      size_t end = s.find('m', i);
      len = end == std::string_view::npos ? s.size() - i : end + 1 - i;
    } else {
      len = CharAt(s, i, cp);
    }
    bool wide = !escape && IsWide(cp);
    bool joins = !out.empty() && !space && (escape || glue || (wide ? IsClosing(cp) : !last_wide));
    // A piece grows by the bytes that follow it (no space between).
    if (joins) out.back().text = std::string_view(out.back().text.data(), out.back().text.size() + len);
    else out.push_back(Piece{s.substr(i, len), space});
    if (!escape) {
      last_wide = wide;
      glue = wide && IsOpening(cp);
    }
    space = 0;
    i += len;
  }
  return out;
}

}  // namespace

std::string WrapLine(std::string_view line, size_t width, std::string_view cont_indent) {
  size_t lead = line.find_first_not_of(' ');
  if (lead == std::string_view::npos) return std::string(line) + "\n";
  // A line that fits is itself (the pieces and their spaces, laid out, are the line again).
  if (line.back() != ' ' && DisplayWidth(line) <= width) return std::string(line) + "\n";
  std::string out(line.substr(0, lead));
  size_t used = lead;
  bool empty = true;  // nothing but the indent on the current line
  for (const Piece& p : Pieces(line.substr(lead))) {
    size_t w = DisplayWidth(p.text), gap = p.spaces;
    if (!empty && used + gap + w > width) {
      out += "\n" + std::string(cont_indent);
      used = DisplayWidth(cont_indent);
      gap = 0;
    }
    out += std::string(gap, ' ');
    out += p.text;
    used += gap + w;
    empty = false;
  }
  return out + "\n";
}

std::string WrapLines(std::string_view text, size_t width, size_t extra) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    size_t lead = std::min(line.find_first_not_of(' '), line.size());
    out += WrapLine(line, width, std::string(lead + extra, ' '));
    start = end + 1;
  }
  return out;
}

std::string RenderColumnsFit(const std::vector<std::vector<std::string>>& raw_rows, std::string_view indent, size_t width) {
  std::vector<std::vector<std::string>> rows = raw_rows;
  std::vector<size_t> last(rows.size(), 0);  // each row's last non-empty cell
  for (size_t r = 0; r < rows.size(); ++r) {
    for (size_t i = 0; i < rows[r].size(); ++i) {
      rows[r][i] = SafeText(rows[r][i], Sink::kValue);
      if (!rows[r][i].empty()) last[r] = i;
    }
  }
  std::vector<size_t> widths;
  for (size_t r = 0; r < rows.size(); ++r) {
    if (widths.size() < rows[r].size()) widths.resize(rows[r].size(), 0);
    for (size_t i = 0; i < last[r]; ++i) widths[i] = std::max(widths[i], DisplayWidth(rows[r][i]));
  }
  std::string out;
  for (size_t r = 0; r < rows.size(); ++r) {
    std::string line(indent);
    for (size_t i = 0; i < last[r]; ++i) line += rows[r][i] + std::string(widths[i] - DisplayWidth(rows[r][i]) + 2, ' ');
    std::string tail = rows[r].empty() ? "" : rows[r][last[r]];
    if (last[r] > 0 && DisplayWidth(line) + DisplayWidth(tail) > width) {
      while (!line.empty() && line.back() == ' ') line.pop_back();
      line += "\n" + std::string(indent) + "    ";
    }
    line += tail;
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

size_t DisplayWidth(std::string_view s) {
  size_t width = 0;
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80 && c != 0x1b) {  // one column, as CharAt and IsWide would say
      ++width;
      ++i;
      continue;
    }
    if (c == 0x1b) {  // skip "\033[...m"
      size_t end = s.find('m', i);
      i = end == std::string_view::npos ? s.size() : end + 1;
      continue;
    }
    uint32_t cp = 0;
    size_t len = CharAt(s, i, cp);
    width += IsWide(cp) ? 2 : 1;
    i += len;
  }
  return width;
}

std::string RenderColumns(const std::vector<std::vector<std::string>>& raw_rows, std::string_view indent) {
  std::vector<std::vector<std::string>> rows = raw_rows;
  for (auto& row : rows) {
    for (std::string& cell : row) cell = SafeText(cell, Sink::kValue);  // a cell never starts a line
  }
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    if (widths.size() < row.size()) widths.resize(row.size(), 0);
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], DisplayWidth(row[i]));
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line(indent);
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - DisplayWidth(row[i]) + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace cudamatch
