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

}  // namespace cudamatch
