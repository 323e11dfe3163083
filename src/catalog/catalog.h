// Typed compatibility tables parsed from the catalog's TSV files (catalog/README.md describes
// every table). Parsed once; every row keeps its sources and the line it came from.
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/platform.h"
#include "core/result.h"
#include "core/version.h"

namespace cudamatch {

// Views into the catalog text, which outlives the Catalog (embedded, or Catalog::storage).
struct Provenance {
  std::string_view sources_cell;  // ';'-separated ids into Catalog::sources
  std::string_view notes;
  int line = 0;

  std::vector<std::string_view> sources() const;
};

struct ArchEntry {
  ComputeCapability cc;
  bool ptx = false;  // the wheel also carries PTX for this capability
};
using ArchList = std::vector<ArchEntry>;

// "3.7;5.0;6.0;7.0;7.5;8.0;8.6+PTX"
Result<ArchList> ParseArchList(std::string_view text);
// {"sm_37", ..., "sm_86", "compute_86"}: SASS entries, then PTX entries.
std::vector<std::string> ArchListNames(const ArchList& list);

enum class InstallEra { kUnknown, kDirect, kFindLinks, kExtraIndex, kIndexUrl, kLts };
enum class CondaForm { kUnknown, kCudaMetapackage, kCudatoolkit, kPytorchCuda, kNone };
std::string_view InstallEraName(InstallEra era);

struct SourceRef {
  std::string_view id;
  std::string_view title;
  std::string_view where;
};

struct TorchRelease {
  Pep440 torch;
  std::string_view released;  // "2024-06" or ""
  std::optional<Pep440> torchvision;
  std::optional<Pep440> torchaudio;
  std::optional<PyVersion> python_min;
  std::optional<PyVersion> python_max;
  std::vector<PyVersion> python_experimental;
  InstallEra era = InstallEra::kUnknown;
  CondaForm conda = CondaForm::kUnknown;
  Provenance prov;
};

struct TorchVariant {
  Pep440 torch;
  std::string_view platform;  // "linux-x86_64"
  Variant variant;
  std::string_view cudnn;            // "8.9.2.26" or ""
  std::optional<ArchList> arch_list;  // nullopt = unknown
  bool pypi_default = false;  // plain `pip install torch==X` on this platform gets this variant
  Provenance prov;
};

// A release whose torch_variants.tsv rows for `platform` are every variant PyTorch published of
// it there (torch_complete.tsv): a variant not listed was never built, not merely unknown.
struct TorchCompleteList {
  Pep440 torch;
  std::string_view platform;  // "linux-aarch64"
  Provenance prov;
};

// A torchvision or torchaudio release and the torch release it was published for.
struct Companion {
  std::string_view package;  // "torchvision" or "torchaudio"
  Pep440 version;
  Pep440 torch;
  std::string_view released;  // "2024-06" or ""
  std::optional<PyVersion> python_min, python_max;  // that package's own wheels; nullopt = unknown
  Provenance prov;
};

struct CudaToolkit {
  CudaVersion cuda;  // full release, 12.4.1
  std::string_view released;
  std::optional<DriverVersion> min_driver_linux;
  std::optional<DriverVersion> min_driver_windows;
  bool windows_driver_not_listed = false;  // NVIDIA's "N/A"
  Provenance prov;
};

struct MinorCompat {
  int major = 0;
  std::optional<DriverVersion> min_driver_linux;
  std::optional<DriverVersion> min_driver_windows;
  Provenance prov;
};

struct DriverBranch {
  int branch = 0;
  std::optional<CudaVersion> max_cuda;
  Provenance prov;
};

struct CudaTargets {
  CudaVersion cuda;  // major.minor
  std::optional<ComputeCapability> min_cc;
  std::optional<ComputeCapability> max_cc;
  std::vector<ComputeCapability> targets;  // empty = only the range is known
  std::vector<ComputeCapability> deprecated;
  Provenance prov;
};

struct GpuModel {
  std::string_view name;
  ComputeCapability cc;
  std::string_view architecture;
  std::vector<uint32_t> pci_ids;
  Provenance prov;
};

// A GPU that comes only in hosts of one CPU architecture (gpu_hosts.tsv): a Grace superchip or a
// Jetson module, whose host is the Arm CPU beside the GPU. `gpu` is a gpus.tsv name.
struct GpuHost {
  std::string_view gpu;
  Arch arch = Arch::kAarch64;
  Provenance prov;
};

struct GpuArchitecture {
  std::string name;
  std::vector<ComputeCapability> ccs;
  std::optional<CudaVersion> first_cuda;
  std::optional<CudaVersion> last_cuda;
  std::optional<int> min_driver_branch;
  std::optional<int> last_driver_branch;
  // Names earlier CUDA releases gave this compute capability (Thor's 11.0 was 10.1 in CUDA
  // 12.8/12.9); set only on a row with one compute capability.
  std::vector<ComputeCapability> renamed_from;
  Provenance prov;
};

struct CudnnRelease {
  Pep440 first;
  Pep440 last;
  std::vector<std::string> cuda;  // "12.1" or "12.x"
  Provenance prov;

  bool Supports(const CudaVersion& cuda_version) const;
};

struct HostCompiler {
  CudaVersion cuda;
  std::string min_gcc;
  std::optional<int> max_gcc;
  std::string min_clang;
  std::optional<int> max_clang;
  Provenance prov;
};

struct Mirror {
  std::string name;
  std::string kind;    // "pypi" or "pytorch"
  std::string url;
  std::string layout;  // "simple" or "find-links"
  // Who runs it ("sjtug", "tuna"): a PyPI mirror and a PyTorch-wheel mirror of one operator
  // stand in for each other's missing half.
  std::string operator_name;
  Provenance prov;
};

// A release of a package built against torch (extensions.tsv).
struct ExtensionRelease {
  std::string_view package;  // "xformers"
  Pep440 version;
  std::string_view released;  // "2024-07" or ""
  // What its wheels require of torch: an exact pin (==2.3.1), a range, or none at all.
  enum class TorchNeed { kUnknown, kAny, kSpecifier } need = TorchNeed::kUnknown;
  std::optional<SpecifierSet> torch;  // with kSpecifier
  Provenance prov;
};

// Where a prebuilt wheel of an extension is published.
enum class WheelLocation { kPypi, kPytorchIndex, kGithubRelease, kVendorIndex };
// How a wheel's CUDA list meets torch's CUDA: the same minor (or a listed "12.x"), or the
// highest listed minor at or below it of the same major.
enum class CudaMatch { kExact, kFloor };
// The C++ ABI a wheel was built with (flash-attn's "cxx11abiTRUE" / "cxx11abiFALSE").
enum class CxxAbi { kUnknown, kCxx11, kPreCxx11 };

// One published wheel (or one wheel name pattern) of an extension release
// (extension_wheels.tsv).
struct ExtensionWheel {
  std::string_view package;
  Pep440 version;
  std::string_view platform;  // "linux-x86_64"
  WheelLocation location = WheelLocation::kPypi;
  std::vector<std::string> cuda;  // "12.1", or "12.x" for every minor of 12
  CudaMatch match = CudaMatch::kExact;
  // The torch builds it was made for: "2.3.1" (a release) or "2.6" (a line); empty = any.
  std::vector<std::string> torch;
  // The exact torch each `torch` item was built against, in the same order ("2.2.2" for the line
  // "2.2", a nightly "2.3.0.dev20240105"); empty = not known.
  std::vector<std::string> built_against;
  CxxAbi abi = CxxAbi::kUnknown;
  std::string_view url;  // index URL, or an asset pattern with {torch} / {python}
  Provenance prov;
};

// A Tegra SoC (the device tree's "nvidia,tegra234") and the catalog's GPU model for its
// integrated GPU (tegra_socs.tsv); the compute capability is that model's row in gpus.tsv.
struct TegraSoc {
  std::string_view soc;  // "tegra234"
  std::string_view gpu;  // "Jetson AGX Orin", a gpus.tsv name
  Provenance prov;
};

// A JetPack release line by the L4T release it ships (jetpack.tsv) and where PyTorch builds for
// it are published: a pip index, or a page of wheels.
struct JetPackRelease {
  std::string_view l4t;      // "36.4": matches L4T 36.4.x; "35" matches 35.x.y
  std::string_view jetpack;  // "6.1 / 6.2"
  std::optional<CudaVersion> cuda;  // the CUDA it ships; nullopt when no source says
  std::optional<PyVersion> python;  // the one Python NVIDIA's wheels for it are built for; nullopt: not one, or unknown
  std::string_view wheels;   // https:// URL
  bool index = false;        // `wheels` is a pip index (--index-url), else a page listing wheels
  bool sbsa = false;         // its CUDA user space is SBSA's: PyPI's linux-aarch64 CUDA builds run there
  std::vector<std::string_view> modules;  // the Jetson modules it supports, gpus.tsv names
  Provenance prov;
};

struct TableInfo {
  std::string file;
  size_t rows = 0;
  std::string origin;  // "embedded" or the file path it was read from
};

// One table of the catalog. The embedded tables are parsed on first use, so a command pays only
// for the tables it reads (`--version` and `--help` for none); tables read from --catalog DIR are
// parsed and checked up front. Reads like a const std::vector<T>, which rows() returns.
template <typename T>
class Table {
 public:
  using Loader = std::function<std::vector<T>()>;
  using const_iterator = typename std::vector<T>::const_iterator;

  // Reads only the rows whose first cell `keep` accepts and whose second cell is `second` (any,
  // when empty); it throws when they do not parse.
  using PartLoader = std::function<std::vector<T>(const std::function<bool(std::string_view)>& keep, std::string_view second)>;

  // The rows come from `load` when first read (it throws when they do not parse).
  void Defer(Loader load) { load_ = std::move(load); }
  // Lets Part() read a few rows of the table while it is unparsed.
  void DeferParts(PartLoader load) { part_load_ = std::move(load); }
  bool parsed() const { return !load_; }

  // While the table is unparsed: the rows whose first cell `keep` accepts (and whose second cell
  // is `second`, unless that is empty), in table order, read without parsing the others and kept
  // under `key` (one key, one `keep` and `second`). nullptr once the table is parsed, when it
  // cannot be read in parts, or after kMaxParts keys (a command that asks for many parts pays for
  // the whole table once): then the caller reads rows() and filters them the same way.
  const std::vector<T>* Part(const std::string& key, const std::function<bool(std::string_view)>& keep,
                             std::string_view second = {}) const {
    if (!load_ || !part_load_) return nullptr;
    for (const auto& [k, rows] : parts_) {
      if (k == key) return &rows;
    }
    if (parts_.size() >= kMaxParts) return nullptr;
    parts_.emplace_back(key, part_load_(keep, second));
    return &parts_.back().second;
  }
  // While the table is unparsed: the first cell of every row, in table order, read without
  // parsing any row (views into the table's text); nullptr once the table is parsed or when it
  // cannot be read in parts.
  using KeysLoader = std::function<std::vector<std::string_view>()>;
  void DeferKeys(KeysLoader load) { keys_load_ = std::move(load); }
  const std::vector<std::string_view>* Keys() const {
    if (!load_ || !keys_load_) return nullptr;
    if (!keys_) keys_ = keys_load_();
    return &*keys_;
  }
  // The row at `index` (in table order, as Keys() lists them), read alone while the table is
  // unparsed: the same object rows()[index] is once the table is read whole. nullptr past the end.
  using RowLoader = std::function<T(size_t index)>;
  void DeferRows(RowLoader load) { row_load_ = std::move(load); }
  const T* Row(size_t index) const {
    const auto* keys = row_load_ ? Keys() : nullptr;
    if (keys == nullptr) return index < rows().size() ? &rows()[index] : nullptr;
    if (index >= keys->size()) return nullptr;
    if (made_.empty()) {
      rows_.resize(keys->size());
      made_.assign(keys->size(), false);
    }
    if (!made_[index]) {
      rows_[index] = row_load_(index);
      made_[index] = true;
    }
    return &rows_[index];
  }
  const std::vector<T>& rows() const {
    if (load_) {
      Loader load = std::move(load_);
      load_ = nullptr;
      std::vector<T> all = load();
      if (made_.empty() || all.size() != rows_.size()) {
        rows_ = std::move(all);
      } else {  // rows read alone stay where they are
        for (size_t i = 0; i < all.size(); ++i) {
          if (!made_[i]) rows_[i] = std::move(all[i]);
        }
      }
      made_.clear();
    }
    return rows_;
  }
  operator const std::vector<T>&() const { return rows(); }  // NOLINT: reads as the rows

  const_iterator begin() const { return rows().begin(); }
  const_iterator end() const { return rows().end(); }
  auto rbegin() const { return rows().rbegin(); }
  auto rend() const { return rows().rend(); }
  size_t size() const { return rows().size(); }
  bool empty() const { return rows().empty(); }
  const T& operator[](size_t i) const { return rows()[i]; }
  const T& front() const { return rows().front(); }
  const T& back() const { return rows().back(); }
  void push_back(T row) {
    rows();
    rows_.push_back(std::move(row));
  }
  void reserve(size_t n) {
    rows();
    rows_.reserve(n);
  }
  std::vector<T> Take() && {
    rows();
    return std::move(rows_);
  }

 private:
  static constexpr size_t kMaxParts = 4;

  mutable Loader load_;
  mutable std::vector<T> rows_;
  PartLoader part_load_;
  KeysLoader keys_load_;
  RowLoader row_load_;
  mutable std::vector<bool> made_;  // rows_[i] read alone (Row) while the table is unparsed
  mutable std::optional<std::vector<std::string_view>> keys_;
  // Rows read in parts; a list, so the rows stay where they are while parts are added.
  mutable std::list<std::pair<std::string, std::vector<T>>> parts_;
};

struct Catalog {
  // Texts read from --catalog DIR that rows point into; embedded texts are static.
  std::shared_ptr<const std::vector<std::string>> storage;
  std::string data_date;
  // The index overlay laid over the tables (`cudamatch catalog update`, catalog/overlay.h): its
  // date ("" when none is used) and its text, which its rows point into.
  std::string index_date;
  std::shared_ptr<const std::string> overlay_text;
  Table<TableInfo> tables;
  Table<SourceRef> sources;
  Table<TorchRelease> torch;
  Table<TorchVariant> torch_variants;
  Table<TorchCompleteList> torch_complete;
  Table<Companion> companions;
  Table<CudaToolkit> toolkits;
  Table<MinorCompat> minor_compat;
  Table<DriverBranch> branches;
  Table<CudaTargets> targets;
  Table<GpuModel> gpus;
  // Name keys of `gpus` for forgiving matches, one per model, built on first use (MatchGpuName).
  struct GpuNameKey {
    std::string short_key;  // letters and digits, lower case, without "nvidia"/"geforce" in front
    std::string full_key;   // letters and digits, lower case
  };
  mutable std::vector<GpuNameKey> gpu_name_keys;
  Table<GpuHost> gpu_hosts;
  Table<GpuArchitecture> architectures;
  Table<CudnnRelease> cudnn;
  Table<HostCompiler> host_compilers;
  Table<Mirror> mirrors;
  Table<ExtensionRelease> extensions;
  Table<ExtensionWheel> extension_wheels;
  Table<TegraSoc> tegra_socs;
  Table<JetPackRelease> jetpacks;
};

struct CatalogFile {
  std::string name;    // "torch_releases.tsv"
  std::string origin;  // "embedded" or a path
  std::string_view text;
};

// The `platform` vocabulary of torch_variants.tsv: "linux-x86_64", "linux-aarch64", ...
const std::vector<std::string_view>& CatalogPlatforms();

// The file names every catalog has, in load order.
const std::vector<std::string_view>& CatalogFileNames();

// Parses every table. Files not embedded (--catalog DIR) are also checked: rows sorted and
// unique by key, every source id resolves (the embedded ones are checked by the tests). Errors
// name file, line and column. The texts must outlive the Catalog.
Result<Catalog> ParseCatalog(const std::vector<CatalogFile>& files);

// One table alone (rows, order), without the cross-table source check.
Result<Catalog> ParseCatalogTable(std::string_view file, std::string_view text);

// The tables compiled into the binary.
const std::vector<CatalogFile>& EmbeddedCatalogFiles();

}  // namespace cudamatch
