// What the package indexes say that the catalog does not: releases, the variants built for each
// platform, the build PyPI serves, and the torch release a torchvision/torchaudio pins. Pure: the
// pages and metadata files come from the caller. Nothing is guessed: a variant comes from a wheel
// name's local label (+cu131), PyPI's default build from its nvidia-* Requires-Dist, a companion
// pin from Requires-Dist torch==X; architecture lists and cuDNN stay unknown.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/index_parse.h"

namespace cudamatch {

struct IndexPage {
  std::string package;  // "torch", "torchvision", "torchaudio"
  std::string url;      // the page fetched
  bool pypi = false;    // a PyPI-layout index (its torch is the PyPI default build)
  std::vector<IndexFile> files;
};

struct LearnedRelease {
  Pep440 torch;
  std::string released;  // "2026-11" from the earliest upload time, or ""
  std::optional<PyVersion> python_min, python_max;
  std::optional<Pep440> torchvision, torchaudio;
  std::set<std::string> sources;  // URLs
};

struct LearnedVariant {
  Pep440 torch;
  std::string platform;
  std::string variant;  // "cu131"
  bool pypi_default = false;
  std::set<std::string> sources;
};

struct LearnedCompanion {
  std::string package;
  Pep440 version;
  Pep440 torch;
  std::string released;
  std::optional<PyVersion> python_min, python_max;
  std::set<std::string> sources;
};

struct IndexFacts {
  std::vector<LearnedRelease> releases;    // sorted by version
  std::vector<LearnedVariant> variants;    // sorted as torch_variants.tsv
  std::vector<LearnedCompanion> companions;
};

// The metadata files worth reading: for each release the catalog lacks, one wheel per platform on
// the PyPI pages (its CUDA requirements), and one wheel of each companion release it lacks (its
// torch pin). URLs of the metadata files ("<wheel url>.metadata").
std::vector<std::string> MetadataWanted(const std::vector<IndexPage>& pages, const Catalog& catalog);

// The facts of the pages (and metadata read, by metadata URL) that `catalog` lacks.
IndexFacts LearnFromIndexes(const std::vector<IndexPage>& pages, const std::map<std::string, WheelMetadata>& metadata,
                            const Catalog& catalog);

}  // namespace cudamatch
