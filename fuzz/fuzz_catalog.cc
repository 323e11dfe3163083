// Catalog TSV given with --catalog: the first byte picks which table the rest is parsed as.
// Also the message catalogs and architecture lists, which share the cell syntax.
#include <cstdint>
#include <string>

#include "catalog/catalog.h"
#include "report/i18n.h"

using namespace cudamatch;  // NOLINT: fuzz entry point

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const auto& names = CatalogFileNames();
  std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  (void)ParseCatalogTable(names[data[0] % names.size()], text);
  (void)ParseMessages("fuzz.tsv", text);
  (void)ParseArchList(text);
  return 0;
}
