// Jetson queries over tegra_socs.tsv and jetpack.tsv: the integrated GPU of a Tegra SoC, and the
// JetPack line (its CUDA and where its PyTorch builds are published) of an L4T release.
#pragma once

#include <string_view>
#include <vector>

#include "catalog/catalog.h"

namespace cudamatch {

// Dotted release numbers compared part by part as numbers: "36.4" < "36.10"; a prefix sorts
// first ("36" < "36.4").
int CompareL4t(std::string_view a, std::string_view b);

// The row of `soc` ("tegra234"), nullptr when the catalog has none.
const TegraSoc* FindTegraSoc(const Catalog& c, std::string_view soc);

// The row whose l4t is the longest dotted prefix of `l4t` ("36.4.3" -> the "36.4" row, "35.3.1"
// -> the "35" row); nullptr when none is.
const JetPackRelease* JetPackFor(const Catalog& c, std::string_view l4t);

// The JetPack lines a Jetson module runs (`gpu`, a gpus.tsv name: "Jetson Nano"): of the rows
// naming it, the newest of each L4T major release, oldest first. Empty for a name no row lists.
std::vector<const JetPackRelease*> JetPacksOfModule(const Catalog& c, std::string_view gpu);

}  // namespace cudamatch
