// What `cudamatch catalog update` reads from the network: simple-index pages (PEP 503 HTML,
// first byte even; PEP 691 JSON, odd), wheel file names and core metadata from each listed file,
// what is learned from them, and the overlay text that results, read back as every command does.
#include <cstdint>
#include <map>
#include <string>

#include "catalog/catalog.h"
#include "catalog/index_learn.h"
#include "catalog/index_parse.h"
#include "catalog/overlay.h"

using namespace cudamatch;  // NOLINT: fuzz entry point

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  std::string url = "https://download.pytorch.org/whl/torch/";
  auto files = data[0] % 2 == 0 ? ParseSimpleHtml(text, url) : ParseSimpleJson(text, url);
  WheelMetadata meta = ParseWheelMetadata(text);
  for (const std::string& req : meta.requires_dist) (void)PinnedVersion(req, "torch");
  static const Catalog catalog = *ParseCatalog(EmbeddedCatalogFiles());
  if (files) {
    std::vector<IndexPage> pages = {{"torch", url, data[0] % 4 < 2, *files}};
    std::map<std::string, WheelMetadata> metadata;
    for (const std::string& m : MetadataWanted(pages, catalog)) metadata[m] = meta;
    IndexFacts facts = LearnFromIndexes(pages, metadata, catalog);
    Catalog copy;
    if (!ApplyOverlay(copy, OverlayText(facts, "2026-12-02")).ok()) __builtin_trap();  // what is written reads back
  }
  Catalog other;
  (void)ApplyOverlay(other, text);
  return 0;
}
