// The catalog: every table parses, rows are ordered and unique by key, every row has a source
// that resolves, and malformed files are errors naming file, line and column.
#include "catalog/catalog.h"

#include <gtest/gtest.h>

#include <set>

#include "catalog/checks.h"
#include "catalog/extensions.h"
#include "catalog/query.h"
#include "catalog/tsv.h"
#include "core/embedded.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TheCatalog;

TEST(Catalog, EveryTableParsesWithRows) {
  const Catalog& c = TheCatalog();
  EXPECT_EQ(c.tables.size(), CatalogFileNames().size());
  for (const TableInfo& t : c.tables) {
    EXPECT_GT(t.rows, 0u) << t.file;
    EXPECT_EQ(t.origin, "embedded");
  }
  EXPECT_FALSE(c.data_date.empty());
  EXPECT_GE(c.torch.size(), 50u);
  EXPECT_GE(c.gpus.size(), 500u);
}

TEST(Catalog, EmbeddedTablesAreParsedOnFirstUse) {
  auto c = ParseCatalog(EmbeddedCatalogFiles());
  ASSERT_TRUE(c.ok()) << c.error();
  EXPECT_FALSE(c->data_date.empty());  // meta.tsv at once
  EXPECT_FALSE(c->gpus.parsed());
  EXPECT_FALSE(c->torch.parsed());
  EXPECT_EQ(c->gpus.size(), TheCatalog().gpus.size());
  EXPECT_TRUE(c->gpus.parsed());
  EXPECT_FALSE(c->torch.parsed()) << "reading one table parses no other";
  Catalog moved = std::move(*c);
  EXPECT_EQ(moved.torch.size(), TheCatalog().torch.size());
  EXPECT_EQ(moved.tables.size(), CatalogFileNames().size());
}

TEST(Catalog, TorchReleasesCoverOneZeroToNewest) {
  const Catalog& c = TheCatalog();
  EXPECT_EQ(c.torch.front().torch.ToString(), "1.0.0");
  EXPECT_GE(c.torch.back().torch, Pep440::Parse("2.13.0").value());
}

// Independent of the loader's own check: walk each table and compare neighbours.
template <typename T, typename Key>
void ExpectStrictlyIncreasing(const Table<T>& rows, Key key, const char* table) {
  for (size_t i = 1; i < rows.size(); ++i) {
    EXPECT_TRUE(key(rows[i - 1]) < key(rows[i])) << table << " line " << rows[i].prov.line;
  }
}

TEST(Catalog, RowsAreSortedAndUnique) {
  const Catalog& c = TheCatalog();
  ExpectStrictlyIncreasing(c.torch, [](const auto& r) { return r.torch; }, "torch_releases");
  ExpectStrictlyIncreasing(c.torch_variants, [](const auto& r) {
    return std::tuple(r.torch, r.platform, VariantSortKey(r.variant));
  }, "torch_variants");
  ExpectStrictlyIncreasing(c.companions, [](const auto& r) { return std::tuple(r.package, r.version); }, "companions");
  ExpectStrictlyIncreasing(c.toolkits, [](const auto& r) { return r.cuda; }, "cuda_toolkits");
  ExpectStrictlyIncreasing(c.minor_compat, [](const auto& r) { return r.major; }, "cuda_minor_compat");
  ExpectStrictlyIncreasing(c.branches, [](const auto& r) { return r.branch; }, "driver_branches");
  ExpectStrictlyIncreasing(c.targets, [](const auto& r) { return r.cuda; }, "cuda_targets");
  ExpectStrictlyIncreasing(c.gpus, [](const auto& r) { return r.name; }, "gpus");
  ExpectStrictlyIncreasing(c.gpu_hosts, [](const auto& r) { return r.gpu; }, "gpu_hosts");
  ExpectStrictlyIncreasing(c.architectures, [](const auto& r) { return r.ccs.front(); }, "gpu_architectures");
  ExpectStrictlyIncreasing(c.cudnn, [](const auto& r) { return r.first; }, "cudnn");
  ExpectStrictlyIncreasing(c.host_compilers, [](const auto& r) { return r.cuda; }, "host_compilers");
  ExpectStrictlyIncreasing(c.mirrors, [](const auto& r) { return r.name; }, "mirrors");
  for (size_t i = 1; i < c.extensions.size(); ++i) {
    EXPECT_TRUE(ExtensionReleaseLess(c.extensions[i - 1], c.extensions[i])) << "extensions line " << c.extensions[i].prov.line;
  }
  for (size_t i = 1; i < c.extension_wheels.size(); ++i) {
    EXPECT_TRUE(ExtensionWheelLess(c.extension_wheels[i - 1], c.extension_wheels[i]))
        << "extension_wheels line " << c.extension_wheels[i].prov.line;
  }
}

template <typename T>
void ExpectSourced(const Table<T>& rows, const std::set<std::string>& ids, const char* table) {
  for (const T& r : rows) {
    EXPECT_FALSE(r.prov.sources().empty()) << table << " line " << r.prov.line;
    for (std::string_view id : r.prov.sources()) EXPECT_TRUE(ids.count(std::string(id))) << table << " line " << r.prov.line << ": " << id;
  }
}

TEST(Catalog, EmbeddedTablesPassTheRunTimeChecksToo) {
  std::vector<CatalogFile> files = EmbeddedCatalogFiles();
  for (CatalogFile& f : files) f.origin = "as-if-from-disk";
  auto c = ParseCatalog(files);
  EXPECT_TRUE(c.ok()) << c.error();
}

TEST(Catalog, EveryRowCarriesAResolvableSource) {
  const Catalog& c = TheCatalog();
  std::set<std::string> ids;
  for (const SourceRef& s : c.sources) {
    EXPECT_TRUE(ids.insert(std::string(s.id)).second) << "duplicate source " << s.id;
    EXPECT_FALSE(s.where.empty()) << s.id;
  }
  ExpectSourced(c.torch, ids, "torch_releases");
  ExpectSourced(c.torch_variants, ids, "torch_variants");
  ExpectSourced(c.companions, ids, "companions");
  ExpectSourced(c.toolkits, ids, "cuda_toolkits");
  ExpectSourced(c.minor_compat, ids, "cuda_minor_compat");
  ExpectSourced(c.branches, ids, "driver_branches");
  ExpectSourced(c.targets, ids, "cuda_targets");
  ExpectSourced(c.gpus, ids, "gpus");
  ExpectSourced(c.gpu_hosts, ids, "gpu_hosts");
  ExpectSourced(c.architectures, ids, "gpu_architectures");
  ExpectSourced(c.cudnn, ids, "cudnn");
  ExpectSourced(c.host_compilers, ids, "host_compilers");
  ExpectSourced(c.mirrors, ids, "mirrors");
  ExpectSourced(c.extensions, ids, "extensions");
  ExpectSourced(c.extension_wheels, ids, "extension_wheels");
}

TEST(Catalog, EveryVariantBelongsToAKnownRelease) {
  const Catalog& c = TheCatalog();
  for (const TorchVariant& v : c.torch_variants) {
    bool found = false;
    for (const TorchRelease& t : c.torch) found = found || t.torch == v.torch;
    EXPECT_TRUE(found) << v.torch.ToString() << " line " << v.prov.line;
  }
}

// What plain `pip install torch==X` gets is known for every Linux x86_64 release from 1.10 on
// and for every macOS arm64 release: a new release row without a variant marked as its PyPI
// default fails here. The older Linux gaps are the ones NOTES.md explains (no source says which
// build PyPI carried for 1.0.x, 1.1.0, 1.3.1, 1.8.1, 1.8.2 and 1.9.1).
TEST(Catalog, ReleasesHaveAVariantForTheirPypiDefault) {
  const Catalog& c = TheCatalog();
  size_t checked = 0;
  std::vector<std::string> linux_gaps;
  for (const TorchRelease& t : c.torch) {
    for (std::string_view platform : {"linux-x86_64", "macos-arm64"}) {
      if (VariantsOf(c, t.torch, platform).empty()) continue;  // no wheels listed (2.15.0 today)
      bool known = PypiDefaultVariant(c, t, platform) != nullptr;
      if (platform == "linux-x86_64" && t.torch < Pep440::Parse("1.10.0").value()) {
        if (!known) linux_gaps.push_back(t.torch.Public());
        continue;
      }
      EXPECT_TRUE(known) << t.torch.Public() << " on " << platform << " has no variant marked pypi_default";
      ++checked;
    }
  }
  EXPECT_GE(checked, 58u);  // 34 Linux releases from 1.10.0, 24 macOS arm64
  EXPECT_EQ(linux_gaps, (std::vector<std::string>{"1.0.0", "1.0.1", "1.1.0", "1.3.1", "1.8.1", "1.8.2", "1.9.1"}));
}

TEST(Catalog, TablesAgreeWithEachOther) {
  for (const std::string& problem : CheckConsistency(TheCatalog())) ADD_FAILURE() << problem;
}

TEST(Catalog, ConsistencyCheckFindsDisagreements) {
  std::string variants =
      "torch\tplatform\tvariant\tcudnn\tarch_list\tpypi_default\tsource\tnotes\n"
      "2.3.1\tlinux-x86_64\tcpu\t\t\tyes\tpt-release-md\t\n"
      "2.3.1\tlinux-x86_64\tcu77\t\t\t\tpt-release-md\t\n"
      "2.3.1\tlinux-x86_64\tcu121\t\t\tyes\tpt-release-md\t\n"
      "9.9.9\tlinux-x86_64\tcpu\t\t\t\tpt-release-md\t\n";
  std::string companions =
      "package\tversion\ttorch\treleased\tpython_min\tpython_max\tsource\tnotes\n"
      "torchvision\t0.18.1\t8.8.8\t\t\t\tpt-release-md\t\n";
  std::vector<CatalogFile> files = EmbeddedCatalogFiles();
  for (CatalogFile& f : files) {
    if (f.name == "torch_variants.tsv") f.text = variants;
    if (f.name == "companions.tsv") f.text = companions;
  }
  auto c = ParseCatalog(files);
  ASSERT_TRUE(c.ok()) << c.error();
  std::string all;
  for (const std::string& p : CheckConsistency(*c)) all += p + "\n";
  EXPECT_NE(all.find("torch_variants.tsv:4: second PyPI default for torch 2.3.1 on linux-x86_64"), std::string::npos) << all;
  EXPECT_NE(all.find("torch_variants.tsv:3: CUDA 7.7 is not in cuda_toolkits.tsv"), std::string::npos) << all;
  EXPECT_NE(all.find("torch_variants.tsv:5: torch 9.9.9 has no release row"), std::string::npos) << all;
  EXPECT_NE(all.find("companions.tsv:2: torch 8.8.8 has no release row"), std::string::npos) << all;
  EXPECT_NE(all.find("torchaudio 2.3.1 is not in companions.tsv"), std::string::npos) << all;
}

// A row of torch_complete.tsv says the platform's variant rows are every build of the release:
// it needs the release; without a variant row there it says the release has no wheel for the
// platform (macOS x86_64 from 2.3.0).
TEST(Catalog, ACompleteListNeedsItsReleaseAndMayBeEmpty) {
  std::string complete =
      "torch\tplatform\tsource\tnotes\n"
      "2.3.1\tmacos-x86_64\tpt-release-md\t\n"
      "9.9.9\tlinux-aarch64\tpt-release-md\t\n";
  std::vector<CatalogFile> files = EmbeddedCatalogFiles();
  for (CatalogFile& f : files) {
    if (f.name == "torch_complete.tsv") f.text = complete;
  }
  auto c = ParseCatalog(files);
  ASSERT_TRUE(c.ok()) << c.error();
  std::string all;
  for (const std::string& p : CheckConsistency(*c)) all += p + "\n";
  EXPECT_EQ(all.find("torch_complete.tsv:2"), std::string::npos) << all;
  EXPECT_TRUE(VariantsOf(*c, Pep440::Parse("2.3.1").value(), "macos-x86_64").empty());
  EXPECT_NE(all.find("torch_complete.tsv:3: torch 9.9.9 has no release row"), std::string::npos) << all;
}

TEST(Catalog, GapsStayUnknown) {
  // Still unknown: the aarch64 arch lists of 2.5-2.8 (no release-branch script read), and
  // torch 2.15.0's torchvision, Python range and variants (only its month and torchaudio known).
  const Catalog& c = TheCatalog();
  int rows = 0;
  for (const TorchVariant& v : c.torch_variants) {
    if (v.torch.ToString() == "2.5.0" && v.platform == "linux-aarch64" && v.variant.tag == "cu124") {
      ++rows;
      EXPECT_FALSE(v.arch_list.has_value());
    }
    EXPECT_NE(v.torch.ToString(), "2.15.0");
  }
  EXPECT_EQ(rows, 1);
  const TorchRelease& newest = c.torch.back();
  EXPECT_EQ(newest.torch.ToString(), "2.15.0");
  EXPECT_EQ(newest.released, "2026-10");
  EXPECT_FALSE(newest.torchvision.has_value());
  EXPECT_FALSE(newest.python_min.has_value());
  EXPECT_EQ(newest.torchaudio->ToString(), "2.11.0");
}

std::vector<CatalogFile> WithReplaced(const std::string& name, const std::string& text) {
  std::vector<CatalogFile> files = EmbeddedCatalogFiles();
  for (CatalogFile& f : files) {
    if (f.name == name) {
      f.text = text;
      f.origin = "test";
    }
  }
  return files;
}

TEST(Catalog, MalformedCellNamesFileLineAndColumn) {
  std::string text = "branch\tmax_cuda\tsource\tnotes\n535\t12.2\tnv-cuda-rn-13.2.2-table3\tx\n550\t12.x\tnv-cuda-rn-13.2.2-table3\tx\n";
  auto c = ParseCatalog(WithReplaced("driver_branches.tsv", text));
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().find("driver_branches.tsv:3:2:"), std::string::npos) << c.error();
  EXPECT_NE(c.error().find("'12.x'"), std::string::npos) << c.error();
}

TEST(Catalog, WrongHeaderIsAnError) {
  auto c = ParseCatalog(WithReplaced("driver_branches.tsv", "branch\tcuda\tsource\tnotes\n"));
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().find("driver_branches.tsv:1:2: header 'cuda', expected 'max_cuda'"), std::string::npos) << c.error();
}

TEST(Catalog, UnsortedAndDuplicateRowsAreErrors) {
  std::string dup = "branch\tmax_cuda\tsource\tnotes\n535\t12.2\tnv-cuda-rn-13.2.2-table3\tx\n535\t12.2\tnv-cuda-rn-13.2.2-table3\tx\n";
  auto c = ParseCatalog(WithReplaced("driver_branches.tsv", dup));
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().find("driver_branches.tsv:3:1: duplicate row"), std::string::npos) << c.error();
  std::string unsorted = "branch\tmax_cuda\tsource\tnotes\n550\t12.4\tnv-cuda-rn-13.2.2-table3\tx\n535\t12.2\tnv-cuda-rn-13.2.2-table3\tx\n";
  auto u = ParseCatalog(WithReplaced("driver_branches.tsv", unsorted));
  ASSERT_FALSE(u.ok());
  EXPECT_NE(u.error().find("out of order"), std::string::npos) << u.error();
}

TEST(Catalog, RowWithoutSourceOrWithUnknownSourceIsAnError) {
  auto c = ParseCatalog(WithReplaced("driver_branches.tsv", "branch\tmax_cuda\tsource\tnotes\n535\t12.2\t\tx\n"));
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().find("driver_branches.tsv:2:3: row has no source"), std::string::npos) << c.error();
  auto d = ParseCatalog(WithReplaced("driver_branches.tsv", "branch\tmax_cuda\tsource\tnotes\n535\t12.2\tno-such-source\tx\n"));
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().find("unknown source id 'no-such-source'"), std::string::npos) << d.error();
}

TEST(Catalog, WrongCellCountIsAnError) {
  auto c = ParseCatalog(WithReplaced("driver_branches.tsv", "branch\tmax_cuda\tsource\tnotes\n535\t12.2\n"));
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().find("driver_branches.tsv:2:1: row has 2 cells, expected 4"), std::string::npos) << c.error();
}

TEST(Catalog, ArchListParsesPtxMarker) {
  auto list = ParseArchList("3.7;5.0;8.6+PTX");
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(ArchListNames(*list), (std::vector<std::string>{"sm_37", "sm_50", "sm_86", "compute_86"}));
  EXPECT_FALSE(ParseArchList("3.7;x").ok());
  auto bad = ParseArchList("3.7;x;y;z");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("'x'"), std::string::npos) << bad.error();  // the first bad entry
}

TEST(Catalog, EmbeddedFilesMatchTheRepository) {
  for (const CatalogFile& f : EmbeddedCatalogFiles()) {
    EXPECT_EQ(std::string(f.text), testing::ReadSource("catalog/" + f.name)) << f.name;
  }
}

}  // namespace
}  // namespace cudamatch
