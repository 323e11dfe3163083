#include "catalog/tsv.h"

#include <algorithm>
#include <cstring>

#include "core/text.h"

namespace cudamatch {

Error CellError(const TsvTable& table, const TsvRow& row, int column, std::string_view message) {
  return Err(table.file + ":" + std::to_string(row.line) + ":" + std::to_string(column + 1) +
             ": " + std::string(message));
}

namespace {

// std::isspace in the "C" locale, without a call per character.
bool Space(char ch) { return ch == ' ' || (ch >= '\t' && ch <= '\r'); }

bool EdgeSpace(std::string_view c) { return !c.empty() && (Space(c.front()) || Space(c.back())); }

Error At(const std::string& file, int line, size_t column, const std::string& message) {
  return Err(file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message);
}

}  // namespace

std::vector<TsvLine> TsvLines(std::string_view text) {
  std::vector<TsvLine> out;
  out.reserve(64);  // grown as the lines come: counting them first is a second pass over the text
  int line_no = 0;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++line_no;
    if (Trim(line).empty() || line.front() == '#') continue;
    out.push_back(TsvLine{line_no, line});
  }
  return out;
}

Result<TsvTable> ParseTsv(std::string_view file, std::string_view text,
                          const std::vector<std::string_view>& expected_header, const TsvKeep& keep) {
  return ParseTsvLines(file, TsvLines(text), expected_header, keep);
}

Result<TsvTable> ParseTsvLines(std::string_view file, const std::vector<TsvLine>& lines,
                               const std::vector<std::string_view>& expected_header, const TsvKeep& keep) {
  TsvTable table;
  table.file = std::string(file);
  const size_t columns = expected_header.size();
  bool have_header = false;
  std::vector<std::string_view> cells;
  cells.reserve(columns);
  std::vector<std::pair<int, size_t>> row_starts;  // line, offset into table.cells
  // Sized once: the vectors never grow (and copy) while the rows are read.
  if (!keep) {  // a few kept rows need no room made for all
    table.cells.reserve(lines.size() * columns);
    row_starts.reserve(lines.size());
  }
  for (const auto& [line_no, line] : lines) {
    if (have_header && keep && !keep(line.substr(0, line.find('\t')))) continue;
    cells.clear();
    for (size_t start = 0;;) {
      size_t tab = line.find('\t', start);
      cells.push_back(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
      if (tab == std::string_view::npos) break;
      start = tab + 1;
    }
    if (!have_header) {
      for (std::string_view cell : cells) table.header.emplace_back(cell);
      if (cells.size() != columns) {
        return At(table.file, line_no, 1, "header has " + std::to_string(cells.size()) + " columns, expected " +
                                              std::to_string(columns));
      }
      for (size_t i = 0; i < columns; ++i) {
        if (cells[i] != expected_header[i]) {
          return At(table.file, line_no, i + 1, "header " + Quote(cells[i]) + ", expected " + Quote(expected_header[i]));
        }
      }
      have_header = true;
      continue;
    }
    if (cells.size() != columns) {
      return At(table.file, line_no, 1, "row has " + std::to_string(cells.size()) + " cells, expected " +
                                            std::to_string(columns));
    }
    for (size_t i = 0; i < columns; ++i) {
      if (EdgeSpace(cells[i])) return At(table.file, line_no, i + 1, "stray whitespace in " + Quote(cells[i]));
    }
    row_starts.emplace_back(line_no, table.cells.size());
    table.cells.insert(table.cells.end(), cells.begin(), cells.end());
  }
  if (!have_header) return Err(table.file + ":1:1: no header line");
  table.rows.reserve(row_starts.size());
  for (const auto& [line, offset] : row_starts) table.rows.push_back(TsvRow{line, table.cells.data() + offset});
  return table;
}

}  // namespace cudamatch
