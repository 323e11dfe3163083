#include "catalog/catalog.h"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <tuple>

#include "catalog/checks.h"
#include "catalog/row_reader.h"
#include "core/embedded.h"
#include "core/text.h"

namespace cudamatch {

namespace {

using namespace catalog_internal;

// `sized` is told the number of rows before they are parsed.
std::optional<Error> ParseInto(const TableSpec& spec, const CatalogFile& file, Catalog& c,
                               const std::function<void(size_t)>& sized = nullptr, const TsvKeep& keep = nullptr,
                               const std::vector<TsvLine>* lines = nullptr);

// Makes `member` parse `file` when first read: into a scratch catalog, whose table it takes.
template <typename T>
DeferFn DeferTable(Table<T> Catalog::*member) {
  return [member](const TableSpec& spec, const CatalogFile& file, Catalog& c) {
    (c.*member).Defer([&spec, file, member] {
      Catalog scratch;
      auto sized = [&scratch, member](size_t rows) { (scratch.*member).reserve(rows); };
      if (auto e = ParseInto(spec, file, scratch, sized)) throw std::runtime_error("catalog: " + e->message);
      return std::move(scratch.*member).Take();
    });
    // The text is split into lines, and the rows' first cells taken, once for every part read.
    auto lines = std::make_shared<std::optional<std::vector<TsvLine>>>();
    auto keys = std::make_shared<std::optional<std::vector<std::string_view>>>();
    auto read_keys = [file, lines, keys]() -> const std::vector<std::string_view>& {
      if (!*lines) *lines = TsvLines(file.text);
      if (!*keys) {
        std::vector<std::string_view> k;
        k.reserve((*lines)->size());
        for (size_t i = 1; i < (*lines)->size(); ++i) {  // the first line is the header
          std::string_view line = (**lines)[i].text;
          k.push_back(line.substr(0, line.find('\t')));
        }
        *keys = std::move(k);
      }
      return **keys;
    };
    (c.*member).DeferParts([&spec, file, member, lines, read_keys](const TsvKeep& keep, std::string_view second) {
      const std::vector<std::string_view>& k = read_keys();
      if ((*lines)->empty()) return std::vector<T>{};
      std::vector<TsvLine> kept = {(**lines)[0]};  // the header, then the rows `keep` accepts
      std::string_view last;
      bool take = false;
      for (size_t i = 0; i < k.size(); ++i) {
        if (i == 0 || k[i] != last) take = keep(k[i]);  // asked once for a run of rows with one first cell
        last = k[i];
        if (!take) continue;
        const TsvLine& line = (**lines)[i + 1];
        if (!second.empty()) {
          std::string_view rest = line.text.substr(k[i].size() + 1 > line.text.size() ? line.text.size() : k[i].size() + 1);
          if (rest.substr(0, rest.find('\t')) != second) continue;
        }
        kept.push_back(line);
      }
      Catalog scratch;
      if (auto e = ParseInto(spec, file, scratch, nullptr, nullptr, &kept)) throw std::runtime_error("catalog: " + e->message);
      return std::move(scratch.*member).Take();
    });
    (c.*member).DeferRows([&spec, file, member, lines](size_t index) {
      if (!*lines) *lines = TsvLines(file.text);
      if (index + 1 >= (*lines)->size()) throw std::runtime_error("catalog: " + std::string(spec.file) + ": no row " + std::to_string(index + 1));
      std::vector<TsvLine> one = {(**lines)[0], (**lines)[index + 1]};  // the header, the row
      Catalog scratch;
      if (auto e = ParseInto(spec, file, scratch, nullptr, nullptr, &one)) throw std::runtime_error("catalog: " + e->message);
      auto rows = std::move(scratch.*member).Take();
      if (rows.size() != 1) throw std::runtime_error("catalog: " + std::string(spec.file) + ": row " + std::to_string(index + 1) + " is not one row");
      return std::move(rows.front());
    });
    (c.*member).DeferKeys([read_keys] { return read_keys(); });
  };
}

std::vector<uint32_t> ParsePciIds(RowReader& r, int col) {
  std::vector<uint32_t> ids;
  ForEachItem(r.Str(col), [&](std::string_view item) {
    auto id = ParseHex(item);
    if (!id || item.size() != 4 || *id > 0xffff) r.Fail(col, "malformed PCI device id " + Quote(item));
    else ids.push_back(*id);
  });
  return ids;
}

std::vector<TableSpec> Specs() {
  std::vector<TableSpec> specs;
  specs.push_back({"meta.tsv", {"key", "value"}, [](RowReader& r, Catalog& c) -> std::optional<Error> {
                     if (r.Str(0) == "data_date") c.data_date = std::string(r.Str(1));
                     return r.error();
                   }});
  specs.push_back({"sources.tsv", {"id", "title", "where"},
                   [](RowReader& r, Catalog& c) {
                     SourceRef s{r.Str(0), r.Str(1), r.Str(2)};
                     if (s.id.empty()) r.Fail(0, "empty source id");
                     if (s.where.empty()) r.Fail(2, "source has no location");
                     return Done(r, c.sources, std::move(s));
                   }});
  AddTorchSpecs(specs);
  specs.push_back({"cuda_toolkits.tsv",
                   {"cuda", "released", "min_driver_linux", "min_driver_windows", "source", "notes"},
                   [](RowReader& r, Catalog& c) {
                     CudaToolkit t;
                     t.cuda = r.Req<CudaVersion>(0);
                     t.released = r.Month(1);
                     t.min_driver_linux = r.Opt<DriverVersion>(2);
                     if (r.Str(3) == "N/A") t.windows_driver_not_listed = true;
                     else t.min_driver_windows = r.Opt<DriverVersion>(3);
                     t.prov = r.Prov(4, 5);
                     return Done(r, c.toolkits, std::move(t));
                   }});
  specs.push_back({"cuda_minor_compat.tsv",
                   {"major", "min_driver_linux", "min_driver_windows", "source", "notes"},
                   [](RowReader& r, Catalog& c) {
                     MinorCompat m;
                     m.major = r.Int(0).value_or(0);
                     if (m.major == 0) r.Fail(0, "missing CUDA major");
                     m.min_driver_linux = r.Opt<DriverVersion>(1);
                     m.min_driver_windows = r.Opt<DriverVersion>(2);
                     m.prov = r.Prov(3, 4);
                     return Done(r, c.minor_compat, std::move(m));
                   }});
  specs.push_back({"driver_branches.tsv", {"branch", "max_cuda", "source", "notes"},
                   [](RowReader& r, Catalog& c) {
                     DriverBranch b;
                     b.branch = r.Int(0).value_or(0);
                     if (b.branch == 0) r.Fail(0, "missing driver branch");
                     b.max_cuda = r.Opt<CudaVersion>(1);
                     b.prov = r.Prov(2, 3);
                     return Done(r, c.branches, std::move(b));
                   }});
  specs.push_back({"cuda_targets.tsv",
                   {"cuda", "min_cc", "max_cc", "targets", "deprecated", "source", "notes"},
                   [](RowReader& r, Catalog& c) {
                     CudaTargets t;
                     t.cuda = r.Req<CudaVersion>(0);
                     t.min_cc = r.Opt<ComputeCapability>(1);
                     t.max_cc = r.Opt<ComputeCapability>(2);
                     t.targets = r.List<ComputeCapability>(3);
                     t.deprecated = r.List<ComputeCapability>(4);
                     t.prov = r.Prov(5, 6);
                     return Done(r, c.targets, std::move(t));
                   }});
  specs.push_back({"gpus.tsv",
                   {"name", "compute_capability", "architecture", "pci_ids", "source", "notes"},
                   [](RowReader& r, Catalog& c) {
                     GpuModel g;
                     g.name = r.Str(0);
                     if (g.name.empty()) r.Fail(0, "empty GPU name");
                     g.cc = r.Req<ComputeCapability>(1);
                     g.architecture = r.Str(2);
                     g.pci_ids = ParsePciIds(r, 3);
                     g.prov = r.Prov(4, 5);
                     return Done(r, c.gpus, std::move(g));
                   }});
  specs.push_back({"gpu_hosts.tsv", {"gpu", "host_arch", "source", "notes"},
                   [](RowReader& r, Catalog& c) {
                     GpuHost h;
                     h.gpu = r.Str(0);
                     if (h.gpu.empty()) r.Fail(0, "empty GPU name");
                     auto arch = ParseArch(r.Str(1));
                     if (!arch || ArchName(*arch) != r.Str(1)) r.Fail(1, "unknown host architecture " + Quote(r.Str(1)));
                     else h.arch = *arch;
                     h.prov = r.Prov(2, 3);
                     return Done(r, c.gpu_hosts, std::move(h));
                   }});
  specs.push_back({"gpu_architectures.tsv",
                   {"architecture", "compute_capabilities", "first_cuda", "last_cuda",
                    "min_driver_branch", "last_driver_branch", "renamed_from", "source", "notes"},
                   [](RowReader& r, Catalog& c) {
                     GpuArchitecture a;
                     a.name = std::string(r.Str(0));
                     a.ccs = r.List<ComputeCapability>(1);
                     if (a.ccs.empty()) r.Fail(1, "architecture lists no compute capability");
                     a.first_cuda = r.Opt<CudaVersion>(2);
                     a.last_cuda = r.Opt<CudaVersion>(3);
                     a.min_driver_branch = r.Int(4);
                     a.last_driver_branch = r.Int(5);
                     a.renamed_from = r.List<ComputeCapability>(6);
                     if (!a.renamed_from.empty() && a.ccs.size() != 1) r.Fail(6, "a renamed architecture lists one compute capability");
                     a.prov = r.Prov(7, 8);
                     return Done(r, c.architectures, std::move(a));
                   }});
  specs.push_back({"cudnn.tsv", {"cudnn_first", "cudnn_last", "cuda", "source", "notes"},
                   [](RowReader& r, Catalog& c) {
                     CudnnRelease d;
                     d.first = r.Req<Pep440>(0);
                     d.last = r.Req<Pep440>(1);
                     d.cuda = SplitNonEmpty(r.Str(2), ';');
                     for (const std::string& item : d.cuda) {
                       bool ok = EndsWith(item, ".x") ? ParseUint(item.substr(0, item.size() - 2)).has_value()
                                                      : CudaVersion::Parse(item).ok();
                       if (!ok) r.Fail(2, "malformed CUDA version " + Quote(item));
                     }
                     d.prov = r.Prov(3, 4);
                     return Done(r, c.cudnn, std::move(d));
                   }});
  specs.push_back({"host_compilers.tsv",
                   {"cuda", "min_gcc", "max_gcc", "min_clang", "max_clang", "source", "notes"},
                   [](RowReader& r, Catalog& c) {
                     HostCompiler h;
                     h.cuda = r.Req<CudaVersion>(0);
                     h.min_gcc = std::string(r.Str(1));
                     h.max_gcc = r.Int(2);
                     h.min_clang = std::string(r.Str(3));
                     h.max_clang = r.Int(4);
                     h.prov = r.Prov(5, 6);
                     return Done(r, c.host_compilers, std::move(h));
                   }});
  specs.push_back({"mirrors.tsv", {"name", "kind", "url", "layout", "operator", "source", "notes"},
                   [](RowReader& r, Catalog& c) {
                     Mirror m{std::string(r.Str(0)), std::string(r.Str(1)), std::string(r.Str(2)),
                              std::string(r.Str(3)), std::string(r.Str(4)), {}};
                     if (m.kind != "pypi" && m.kind != "pytorch") r.Fail(1, "unknown mirror kind " + Quote(m.kind));
                     if (m.layout != "simple" && m.layout != "find-links") {
                       r.Fail(3, "unknown mirror layout " + Quote(m.layout));
                     }
                     if (!StartsWith(m.url, "https://") && !StartsWith(m.url, "http://")) {
                       r.Fail(2, "mirror URL must start with http(s):// " + Quote(m.url));
                     }
                     if (m.operator_name.empty()) r.Fail(4, "a mirror names its operator");
                     m.prov = r.Prov(5, 6);
                     return Done(r, c.mirrors, std::move(m));
                   }});
  AddExtensionSpecs(specs);
  AddJetsonSpecs(specs);
  return specs;
}

// Every table but meta.tsv (a few rows that say what the catalog is) is parsed on first use.
void DeferTables(std::vector<TableSpec>& specs) {
  const std::map<std::string_view, DeferFn> deferred = {
      {"sources.tsv", DeferTable(&Catalog::sources)},
      {"torch_releases.tsv", DeferTable(&Catalog::torch)},
      {"torch_variants.tsv", DeferTable(&Catalog::torch_variants)},
      {"torch_complete.tsv", DeferTable(&Catalog::torch_complete)},
      {"companions.tsv", DeferTable(&Catalog::companions)},
      {"cuda_toolkits.tsv", DeferTable(&Catalog::toolkits)},
      {"cuda_minor_compat.tsv", DeferTable(&Catalog::minor_compat)},
      {"driver_branches.tsv", DeferTable(&Catalog::branches)},
      {"cuda_targets.tsv", DeferTable(&Catalog::targets)},
      {"gpus.tsv", DeferTable(&Catalog::gpus)},
      {"gpu_hosts.tsv", DeferTable(&Catalog::gpu_hosts)},
      {"gpu_architectures.tsv", DeferTable(&Catalog::architectures)},
      {"cudnn.tsv", DeferTable(&Catalog::cudnn)},
      {"host_compilers.tsv", DeferTable(&Catalog::host_compilers)},
      {"mirrors.tsv", DeferTable(&Catalog::mirrors)},
      {"extensions.tsv", DeferTable(&Catalog::extensions)},
      {"extension_wheels.tsv", DeferTable(&Catalog::extension_wheels)},
      {"tegra_socs.tsv", DeferTable(&Catalog::tegra_socs)},
      {"jetpack.tsv", DeferTable(&Catalog::jetpacks)}};
  for (TableSpec& spec : specs) {
    if (auto it = deferred.find(spec.file); it != deferred.end()) spec.defer = it->second;
  }
}

const std::vector<TableSpec>& AllSpecs() {
  static const std::vector<TableSpec> kSpecs = [] {
    std::vector<TableSpec> specs = Specs();
    DeferTables(specs);
    return specs;
  }();
  return kSpecs;
}

const CatalogFile* FindFile(const std::vector<CatalogFile>& files, std::string_view name) {
  auto it = std::find_if(files.begin(), files.end(), [&](const CatalogFile& f) { return f.name == name; });
  return it == files.end() ? nullptr : &*it;
}

// The `catalog` command's row counts, without parsing the cells.
std::vector<TableInfo> CountRows(const std::vector<CatalogFile>& files) {
  std::vector<TableInfo> out;
  for (const TableSpec& spec : AllSpecs()) {
    const CatalogFile* file = FindFile(files, spec.file);
    auto table = ParseTsv(spec.file, file->text, spec.header);
    if (!table) throw std::runtime_error("catalog: " + table.error());
    out.push_back(TableInfo{std::string(spec.file), table->rows.size(), file->origin});
  }
  return out;
}

std::optional<Error> ParseInto(const TableSpec& spec, const CatalogFile& file, Catalog& c,
                               const std::function<void(size_t)>& sized, const TsvKeep& keep,
                               const std::vector<TsvLine>* lines) {
  auto table = lines != nullptr ? ParseTsvLines(spec.file, *lines, spec.header, keep) : ParseTsv(spec.file, file.text, spec.header, keep);
  if (!table) return Error{table.error()};
  if (sized) sized(table->rows.size());
  VersionCache cache;
  for (const TsvRow& row : table->rows) {
    RowReader reader(*table, row, &cache);
    if (auto e = spec.parse_row(reader, c)) return e;
  }
  c.tables.push_back(TableInfo{std::string(spec.file), table->rows.size(), file.origin});
  return std::nullopt;
}

}  // namespace

Result<Catalog> ParseCatalogTable(std::string_view file, std::string_view text) {
  Catalog c;
  for (const TableSpec& spec : AllSpecs()) {
    if (spec.file != file) continue;
    if (auto e = ParseInto(spec, CatalogFile{std::string(file), "test", text}, c)) return *e;
    if (auto e = CheckOrder(c)) return *e;
    return c;
  }
  return Err("no catalog table named " + Quote(file));
}

Result<Catalog> ParseCatalog(const std::vector<CatalogFile>& files) {
  // The embedded tables are checked by the tests at build time and parsed on first use; files
  // given at run time are parsed and checked here.
  bool all_embedded = std::all_of(files.begin(), files.end(), [](const CatalogFile& f) { return f.origin == "embedded"; });
  Catalog c;
  for (const TableSpec& spec : AllSpecs()) {
    const CatalogFile* file = FindFile(files, spec.file);
    if (file == nullptr) return Err("catalog has no " + std::string(spec.file));
    if (all_embedded && spec.defer) spec.defer(spec, *file, c);
    else if (auto e = ParseInto(spec, *file, c)) return *e;
  }
  if (c.data_date.empty()) return Err("meta.tsv: no data_date row");
  if (all_embedded) {
    c.tables.Defer([files] { return CountRows(files); });
    return c;
  }
  if (auto e = CheckOrder(c)) return *e;
  if (auto e = CheckAllSources(c)) return *e;
  return c;
}

namespace {

// "8.6", the form of every entry the catalog writes, read without the general parser (which also
// takes "sm_86", "8.6a" and spaces); nullopt for anything else, which that parser then reads.
std::optional<ComputeCapability> PlainCapability(std::string_view s) {
  size_t dot = s.find('.');
  if (dot == 0 || dot > 2 || s.size() != dot + 2) return std::nullopt;
  int major = 0;
  for (char ch : s.substr(0, dot)) {
    if (ch < '0' || ch > '9') return std::nullopt;
    major = major * 10 + (ch - '0');
  }
  char minor = s[dot + 1];
  if (major == 0 || minor < '0' || minor > '9') return std::nullopt;
  ComputeCapability cc;
  cc.major = major;
  cc.minor = minor - '0';
  return cc;
}

}  // namespace

Result<ArchList> ParseArchList(std::string_view text) {
  ArchList out;
  out.reserve(static_cast<size_t>(std::count(text.begin(), text.end(), ';')) + 1);
  std::optional<Error> error;
  ForEachItem(text, [&](std::string_view item) {
    if (error) return;  // the first bad entry is the answer; the rest is not parsed
    std::string_view s = item;
    ArchEntry e;
    if (EndsWith(s, "+PTX")) {
      e.ptx = true;
      s.remove_suffix(4);
    }
    if (auto plain = PlainCapability(s)) {
      e.cc = *plain;
      out.push_back(e);
      return;
    }
    auto cc = ComputeCapability::Parse(s);
    if (!cc) {
      if (!error) error = Err("malformed architecture list entry " + Quote(item));
      return;
    }
    e.cc = *cc;
    out.push_back(e);
  });
  if (error) return *error;
  if (out.empty()) return Err("empty architecture list " + Quote(text));
  return out;
}

std::vector<std::string> ArchListNames(const ArchList& list) {
  std::vector<std::string> out;
  for (const ArchEntry& e : list) out.push_back(e.cc.Sm());
  for (const ArchEntry& e : list) {
    if (e.ptx) out.push_back(e.cc.Compute());
  }
  return out;
}

std::string_view InstallEraName(InstallEra era) {
  switch (era) {
    case InstallEra::kDirect: return "direct";
    case InstallEra::kFindLinks: return "find-links";
    case InstallEra::kExtraIndex: return "extra-index";
    case InstallEra::kIndexUrl: return "index-url";
    case InstallEra::kLts: return "lts";
    case InstallEra::kUnknown: break;
  }
  return "";
}

std::vector<std::string_view> Provenance::sources() const {
  std::vector<std::string_view> out;
  ForEachItem(sources_cell, [&](std::string_view id) { out.push_back(id); });
  return out;
}

bool CudnnRelease::Supports(const CudaVersion& v) const {
  for (const std::string& item : cuda) {
    if (EndsWith(item, ".x")) {
      if (ParseUint(item.substr(0, item.size() - 2)) == v.major) return true;
    } else if (auto c = CudaVersion::Parse(item); c && c->SameMinor(v)) {
      return true;
    }
  }
  return false;
}

const std::vector<std::string_view>& CatalogFileNames() {
  static const std::vector<std::string_view> kNames = [] {
    std::vector<std::string_view> names;
    for (const TableSpec& spec : AllSpecs()) names.push_back(spec.file);
    return names;
  }();
  return kNames;
}

const std::vector<CatalogFile>& EmbeddedCatalogFiles() {
  static const std::vector<CatalogFile> kFiles = [] {
    std::vector<CatalogFile> files;
    for (size_t i = 0; i < kEmbeddedCatalogCount; ++i) {
      files.push_back(CatalogFile{kEmbeddedCatalog[i].name, "embedded", kEmbeddedCatalog[i].text});
    }
    return files;
  }();
  return kFiles;
}

}  // namespace cudamatch
