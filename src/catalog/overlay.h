// The index overlay: what `cudamatch catalog update` learned from the package indexes, kept in
// the user's cache directory and laid over the embedded tables by every command.
//
// The file is text: a header with its date, then sections in the catalog's own table formats
// (catalog/README.md), whose source ids name the URLs read:
//   # cudamatch index overlay
//   date	2026-12-02
//   [sources.tsv]
//   id	title	where
//   index-01	package index page	https://download.pytorch.org/whl/torch/
//   [torch_releases.tsv]
//   torch	released	torchvision	...
//   2.16.0	2026-11	0.31.0	...	index-01;index-02	Learned from the package indexes
// Rows of the embedded tables win: an overlay row is added only where the tables have none with
// its key.
#pragma once

#include <string>
#include <string_view>

#include "catalog/catalog.h"
#include "catalog/index_learn.h"
#include "core/result.h"

namespace cudamatch {

inline constexpr std::string_view kOverlayFile = "index-overlay.tsv";
inline constexpr size_t kOverlayCap = 8u << 20;

// The overlay text of `facts`, dated `date` ("2026-12-02").
std::string OverlayText(const IndexFacts& facts, const std::string& date);

// Lays the overlay `text` over `catalog`; an error (the catalog unchanged) when it is malformed.
// The tables list gains a row for it: the rows it added, read from `origin` (its path).
Status ApplyOverlay(Catalog& catalog, std::string text, const std::string& origin = "index overlay");

}  // namespace cudamatch
