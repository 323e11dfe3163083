// Reads the catalog's TSV text: header first, tab-separated cells, '#' comments and blank lines
// skipped. Errors name the file, line and column and quote the offending text.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace cudamatch {

struct TsvRow {
  int line = 0;
  const std::string_view* cells = nullptr;  // header.size() cells in TsvTable::cells
};

struct TsvTable {
  std::string file;
  std::vector<std::string> header;
  std::vector<TsvRow> rows;
  std::vector<std::string_view> cells;  // every row's cells, one after another
};

// Sample (torch_releases.tsv):
//   torch\treleased\ttorchvision\t...\n2.3.1\t2024-06\t0.18.1\t...
// `text` must outlive the table (cells point into it). With `keep`, only the rows whose first
// cell it accepts are read (the others are neither split nor checked).
using TsvKeep = std::function<bool(std::string_view first_cell)>;
Result<TsvTable> ParseTsv(std::string_view file, std::string_view text,
                          const std::vector<std::string_view>& expected_header, const TsvKeep& keep = nullptr);

// The lines of a TSV text that hold its header or a row (neither blank nor a comment), numbered
// from 1 as in the text; views into it.
struct TsvLine {
  int line = 0;
  std::string_view text;
};
std::vector<TsvLine> TsvLines(std::string_view text);
// ParseTsv over the lines TsvLines gave (read once, parsed in parts).
Result<TsvTable> ParseTsvLines(std::string_view file, const std::vector<TsvLine>& lines,
                               const std::vector<std::string_view>& expected_header, const TsvKeep& keep = nullptr);

// "torch_releases.tsv:12:3: <message>" for a cell error.
Error CellError(const TsvTable& table, const TsvRow& row, int column, std::string_view message);

}  // namespace cudamatch
