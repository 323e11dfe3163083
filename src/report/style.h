// Terminal styling and column layout for text output. Colour only when asked for (--color) or
// when stdout is a terminal and NO_COLOR is unset; widths count CJK characters as two columns.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cudamatch {

// The sequences these write are the only ones output keeps (core/safe_text.cc, SgrLength).
struct Style {
  bool color = false;

  std::string Bold(std::string_view s) const { return Wrap("1", s); }
  std::string Red(std::string_view s) const { return Wrap("31", s); }
  std::string Yellow(std::string_view s) const { return Wrap("33", s); }
  std::string Green(std::string_view s) const { return Wrap("32", s); }
  std::string Dim(std::string_view s) const { return Wrap("2", s); }
  std::string Cyan(std::string_view s) const { return Wrap("36", s); }

 private:
  std::string Wrap(const char* code, std::string_view s) const {
    if (!color) return std::string(s);
    return "\033[" + std::string(code) + "m" + std::string(s) + "\033[0m";
  }
};

// Terminal columns of UTF-8 text (escape sequences skipped, East Asian wide characters = 2).
size_t DisplayWidth(std::string_view s);

// Rows of cells rendered as aligned columns, two spaces apart, each line prefixed by `indent`.
// Cells are values: each goes through SafeText(Sink::kValue), so none can start a line.
std::string RenderColumns(const std::vector<std::vector<std::string>>& rows, std::string_view indent);

// The same within `width` columns: a row's last cell does not widen its column, and a row still
// too wide has its last cell (a path, a source) on the next line, under the row, unbroken.
std::string RenderColumnsFit(const std::vector<std::vector<std::string>>& rows, std::string_view indent, size_t width);

// One line (its leading spaces kept) folded to `width` columns: breaks at spaces and between
// East Asian wide characters (never before a closing mark such as "，" or "）", never after an
// opening one), continuation lines start with `cont_indent`. A word wider than the line (a path,
// a URL) stays whole. Each line of the result ends with "\n".
std::string WrapLine(std::string_view line, size_t width, std::string_view cont_indent);
// Every line of `text` folded so, each continued `extra` columns deeper than its own indent.
std::string WrapLines(std::string_view text, size_t width, size_t extra);

}  // namespace cudamatch
