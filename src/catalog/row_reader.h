// Internal to src/catalog: reads one TSV row into typed values and describes a table
// (file, header, row parser). Used by catalog.cc and the per-table files.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/tsv.h"
#include "core/text.h"

namespace cudamatch::catalog_internal {

// What one table's parse has already read: the previous row's version, and each arch list text
// (rows of one variant repeat theirs release after release). Views into the table's text.
struct VersionCache {
  std::string_view text;
  Pep440 value;
  std::map<std::string_view, ArchList> arch_lists;
};

class RowReader {
 public:
  RowReader(const TsvTable& table, const TsvRow& row, VersionCache* cache = nullptr)
      : table_(table), row_(row), cache_(cache) {}

  std::string_view Str(int col) const { return row_.cells[col]; }

  template <typename T>
  std::optional<T> Opt(int col) {
    std::string_view cell = row_.cells[col];
    if (cell.empty()) return std::nullopt;
    auto parsed = T::Parse(cell);
    if (!parsed) {
      Fail(col, parsed.error());
      return std::nullopt;
    }
    return std::move(*parsed);
  }

  // Req<Pep440> for a column whose value repeats row after row (the previous row's value is
  // reused when the text is the same).
  Pep440 ReqVersionCached(int col) {
    if (cache_ != nullptr && !row_.cells[col].empty() && row_.cells[col] == cache_->text) return cache_->value;
    Pep440 v = Req<Pep440>(col);
    if (cache_ != nullptr && !error_) *cache_ = VersionCache{row_.cells[col], v};
    return v;
  }

  // ParseArchList of a column whose lists repeat: each distinct text is parsed once per table.
  Result<ArchList> ArchListCached(int col) {
    std::string_view cell = row_.cells[col];
    if (cache_ != nullptr) {
      if (auto it = cache_->arch_lists.find(cell); it != cache_->arch_lists.end()) return it->second;
    }
    Result<ArchList> list = ParseArchList(cell);
    if (list && cache_ != nullptr) cache_->arch_lists.emplace(cell, *list);
    return list;
  }

  template <typename T>
  T Req(int col) {
    if (row_.cells[col].empty()) {
      Fail(col, "required value is empty");
      return T{};
    }
    return Opt<T>(col).value_or(T{});
  }

  template <typename T>
  std::vector<T> List(int col) {
    std::vector<T> out;
    bool ok = true;
    ForEachItem(row_.cells[col], [&](std::string_view item) {
      if (!ok) return;
      auto parsed = T::Parse(item);
      if (!parsed) {
        Fail(col, parsed.error());
        ok = false;
        return;
      }
      out.push_back(std::move(*parsed));
    });
    return ok ? out : std::vector<T>{};
  }

  std::optional<int> Int(int col) {
    std::string_view cell = row_.cells[col];
    if (cell.empty()) return std::nullopt;
    auto n = ParseUint(cell);
    if (!n || *n > 100000) {
      Fail(col, "malformed number " + Quote(cell));
      return std::nullopt;
    }
    return static_cast<int>(*n);
  }

  std::string_view Month(int col) {
    std::string_view cell = row_.cells[col];
    if (cell.empty()) return cell;
    bool ok = cell.size() == 7 && cell[4] == '-' && ParseUint(cell.substr(0, 4)) &&
              ParseUint(cell.substr(5, 2)) && *ParseUint(cell.substr(5, 2)) >= 1 &&
              *ParseUint(cell.substr(5, 2)) <= 12;
    if (!ok) Fail(col, "malformed month " + Quote(cell) + " (expected YYYY-MM)");
    return cell;
  }

  Provenance Prov(int source_col, int notes_col) {
    Provenance p;
    p.sources_cell = row_.cells[source_col];
    if (Trim(p.sources_cell).empty()) Fail(source_col, "row has no source");
    if (notes_col >= 0) p.notes = row_.cells[notes_col];
    p.line = row_.line;
    return p;
  }

  void Fail(int col, std::string_view message) {
    if (!error_) error_ = CellError(table_, row_, col, message);
  }
  const std::optional<Error>& error() const { return error_; }

 private:
  const TsvTable& table_;
  const TsvRow& row_;
  VersionCache* cache_;
  std::optional<Error> error_;
};

struct TableSpec;
using DeferFn = std::function<void(const TableSpec&, const CatalogFile&, Catalog&)>;

struct TableSpec {
  std::string_view file;
  std::vector<std::string_view> header;
  // Parses one row into the catalog; the returned key orders and de-duplicates rows.
  std::function<std::optional<Error>(RowReader&, Catalog&)> parse_row;
  // Set for tables parsed on first use (DeferTable); meta.tsv is parsed at once.
  DeferFn defer = nullptr;
};

template <typename T>
std::optional<Error> Done(RowReader& r, Table<T>& rows, T row) {
  if (r.error()) return r.error();
  rows.push_back(std::move(row));
  return std::nullopt;
}

// The torch tables: torch_releases.tsv, torch_variants.tsv, companions.tsv.
void AddTorchSpecs(std::vector<TableSpec>& specs);
// The extension tables: extensions.tsv, extension_wheels.tsv.
void AddExtensionSpecs(std::vector<TableSpec>& specs);
// The Jetson tables: tegra_socs.tsv, jetpack.tsv.
void AddJetsonSpecs(std::vector<TableSpec>& specs);

}  // namespace cudamatch::catalog_internal
