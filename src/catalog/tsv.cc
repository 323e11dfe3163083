#include "catalog/tsv.h"

#include "core/text.h"

namespace cudamatch {

int TsvTable::Column(std::string_view name) const {
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return static_cast<int>(i);
  }
  return -1;
}

Error CellError(const TsvTable& table, const TsvRow& row, int column, std::string_view message) {
  return Err(table.file + ":" + std::to_string(row.line) + ":" + std::to_string(column + 1) +
             ": " + std::string(message));
}

Result<TsvTable> ParseTsv(std::string_view file, std::string_view text,
                          const std::vector<std::string_view>& expected_header) {
  TsvTable table;
  table.file = std::string(file);
  int line_no = 0;
  bool have_header = false;
  for (std::string_view line : Lines(text)) {
    ++line_no;
    if (Trim(line).empty() || line.front() == '#') continue;
    std::vector<std::string_view> cells = Split(line, '\t');
    if (!have_header) {
      for (std::string_view cell : cells) table.header.emplace_back(cell);
      if (cells.size() != expected_header.size()) {
        return Err(table.file + ":" + std::to_string(line_no) + ":1: header has " +
                   std::to_string(cells.size()) + " columns, expected " +
                   std::to_string(expected_header.size()));
      }
      for (size_t i = 0; i < cells.size(); ++i) {
        if (cells[i] != expected_header[i]) {
          return Err(table.file + ":" + std::to_string(line_no) + ":" + std::to_string(i + 1) +
                     ": header " + Quote(cells[i]) + ", expected " + Quote(expected_header[i]));
        }
      }
      have_header = true;
      continue;
    }
    if (cells.size() != expected_header.size()) {
      return Err(table.file + ":" + std::to_string(line_no) + ":1: row has " +
                 std::to_string(cells.size()) + " cells, expected " +
                 std::to_string(expected_header.size()));
    }
    for (size_t i = 0; i < cells.size(); ++i) {
      if (cells[i] != Trim(cells[i])) {
        return Err(table.file + ":" + std::to_string(line_no) + ":" + std::to_string(i + 1) +
                   ": stray whitespace in " + Quote(cells[i]));
      }
    }
    table.rows.push_back(TsvRow{line_no, std::move(cells)});
  }
  if (!have_header) return Err(table.file + ":1:1: no header line");
  return table;
}

}  // namespace cudamatch
