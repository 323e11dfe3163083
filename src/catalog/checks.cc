#include "catalog/checks.h"

#include <algorithm>
#include <set>
#include <tuple>
#include <unordered_set>

#include "catalog/extensions.h"
#include "catalog/jetson.h"
#include "catalog/query.h"
#include "core/text.h"

namespace cudamatch {

namespace {

// Rows must be strictly increasing under `less`: sorted, and no two with the same key.
template <typename T, typename Less>
std::optional<Error> CheckSorted(std::string_view file, const Table<T>& table, Less less) {
  const std::vector<T>& rows = table.rows();
  for (size_t i = 1; i < rows.size(); ++i) {
    if (less(rows[i - 1], rows[i])) continue;
    bool duplicate = !less(rows[i], rows[i - 1]);
    return Err(std::string(file) + ":" + std::to_string(rows[i].prov.line) + ":1: " +
               (duplicate ? "duplicate row" : "row out of order") + " (after line " +
               std::to_string(rows[i - 1].prov.line) + ")");
  }
  return std::nullopt;
}

template <typename Key>
auto By(Key key) {
  return [key](const auto& a, const auto& b) { return key(a) < key(b); };
}

bool VariantRowLess(const TorchVariant& a, const TorchVariant& b) {
  if (auto c = a.torch <=> b.torch; c != 0) return c < 0;
  if (a.platform != b.platform) return a.platform < b.platform;
  return VariantSortKey(a.variant) < VariantSortKey(b.variant);
}

template <typename T>
std::optional<Error> CheckSources(std::string_view file, const Table<T>& rows,
                                  const std::unordered_set<std::string_view>& ids) {
  std::string_view last_checked;  // rows often repeat the same sources cell
  for (const T& row : rows) {
    if (row.prov.sources_cell == last_checked) continue;
    last_checked = row.prov.sources_cell;
    std::optional<Error> e;
    ForEachItem(row.prov.sources_cell, [&](std::string_view id) {
      if (!e && !ids.contains(id)) {
        e = Err(std::string(file) + ":" + std::to_string(row.prov.line) + ": unknown source id " + Quote(id) +
                " (not in sources.tsv)");
      }
    });
    if (e) return e;
  }
  return std::nullopt;
}

std::string At(std::string_view file, const Provenance& p, const std::string& message) {
  return std::string(file) + ":" + std::to_string(p.line) + ": " + message;
}

bool HasRelease(const Catalog& c, const Pep440& v) {
  return std::any_of(c.torch.begin(), c.torch.end(), [&](const TorchRelease& t) { return t.torch == v; });
}

bool HasCompanion(const Catalog& c, std::string_view package, const Pep440& v) {
  return std::any_of(c.companions.begin(), c.companions.end(),
                     [&](const Companion& m) { return m.package == package && m.version == v; });
}

void CheckVariants(const Catalog& c, std::vector<std::string>& out) {
  std::set<std::tuple<std::string, std::string_view>> defaults;
  for (const TorchVariant& v : c.torch_variants) {
    const char* f = "torch_variants.tsv";
    if (!HasRelease(c, v.torch)) out.push_back(At(f, v.prov, "torch " + v.torch.ToString() + " has no release row"));
    if (v.variant.cuda) {
      CudaVersion minor{v.variant.cuda->major, v.variant.cuda->minor};
      bool toolkit = std::any_of(c.toolkits.begin(), c.toolkits.end(), [&](const CudaToolkit& t) { return t.cuda.SameMinor(minor); });
      bool targets = std::any_of(c.targets.begin(), c.targets.end(), [&](const CudaTargets& t) { return t.cuda.SameMinor(minor); });
      if (!toolkit) out.push_back(At(f, v.prov, "CUDA " + minor.MajorMinor() + " is not in cuda_toolkits.tsv"));
      if (!targets) out.push_back(At(f, v.prov, "CUDA " + minor.MajorMinor() + " is not in cuda_targets.tsv"));
    }
    if (v.pypi_default && !defaults.insert({v.torch.ToString(), v.platform}).second) {
      out.push_back(At(f, v.prov, "second PyPI default for torch " + v.torch.ToString() + " on " + std::string(v.platform)));
    }
  }
}

// A complete list names a release of torch_releases.tsv; one with no variant row says the release
// has no wheel for the platform (macOS x86_64 from 2.3.0).
void CheckCompleteLists(const Catalog& c, std::vector<std::string>& out) {
  for (const TorchCompleteList& l : c.torch_complete) {
    const char* f = "torch_complete.tsv";
    if (!HasRelease(c, l.torch)) out.push_back(At(f, l.prov, "torch " + l.torch.ToString() + " has no release row"));
  }
}

void CheckPairings(const Catalog& c, std::vector<std::string>& out) {
  for (const TorchRelease& t : c.torch) {
    if (t.torchvision && !HasCompanion(c, "torchvision", *t.torchvision)) {
      out.push_back(At("torch_releases.tsv", t.prov, "torchvision " + t.torchvision->ToString() + " is not in companions.tsv"));
    }
    if (t.torchaudio && !HasCompanion(c, "torchaudio", *t.torchaudio)) {
      out.push_back(At("torch_releases.tsv", t.prov, "torchaudio " + t.torchaudio->ToString() + " is not in companions.tsv"));
    }
  }
  for (const Companion& m : c.companions) {
    if (!HasRelease(c, m.torch)) out.push_back(At("companions.tsv", m.prov, "torch " + m.torch.ToString() + " has no release row"));
  }
}

// Every host row names a GPU model of gpus.tsv.
void CheckGpuHosts(const Catalog& c, std::vector<std::string>& out) {
  for (const GpuHost& h : c.gpu_hosts) {
    bool known = std::any_of(c.gpus.begin(), c.gpus.end(), [&](const GpuModel& g) { return g.name == h.gpu; });
    if (!known) out.push_back(At("gpu_hosts.tsv", h.prov, "GPU " + Quote(h.gpu) + " is not in gpus.tsv"));
  }
}

// Every module a JetPack row names is a Jetson of gpus.tsv, and every Jetson of gpus.tsv is
// named by a JetPack row (a plan for it names that JetPack's builds).
void CheckJetPackModules(const Catalog& c, std::vector<std::string>& out) {
  for (const JetPackRelease& j : c.jetpacks) {
    for (std::string_view m : j.modules) {
      bool known = std::any_of(c.gpus.begin(), c.gpus.end(), [&](const GpuModel& g) { return g.name == m && IsJetson(g); });
      if (!known) out.push_back(At("jetpack.tsv", j.prov, "module " + Quote(m) + " is not a Jetson of gpus.tsv"));
    }
  }
  for (const GpuModel& g : c.gpus) {
    if (IsJetson(g) && JetPacksOfModule(c, g.name).empty()) {
      out.push_back(At("gpus.tsv", g.prov, "Jetson " + Quote(g.name) + " is in no row of jetpack.tsv"));
    }
  }
}

}  // namespace

std::vector<std::string> CheckConsistency(const Catalog& c) {
  std::vector<std::string> out;
  CheckVariants(c, out);
  CheckCompleteLists(c, out);
  CheckPairings(c, out);
  CheckGpuHosts(c, out);
  CheckJetPackModules(c, out);
  return out;
}

std::optional<Error> CheckOrder(const Catalog& c) {
  std::optional<Error> e;
  auto first = [&](std::optional<Error> next) {
    if (!e) e = std::move(next);
  };
  first(CheckSorted("torch_releases.tsv", c.torch, [](const TorchRelease& a, const TorchRelease& b) { return a.torch < b.torch; }));
  first(CheckSorted("torch_variants.tsv", c.torch_variants, VariantRowLess));
  first(CheckSorted("torch_complete.tsv", c.torch_complete, [](const TorchCompleteList& a, const TorchCompleteList& b) {
    return std::tie(a.torch, a.platform) < std::tie(b.torch, b.platform);
  }));
  first(CheckSorted("companions.tsv", c.companions, [](const Companion& a, const Companion& b) {
    return std::tie(a.package, a.version) < std::tie(b.package, b.version);
  }));
  first(CheckSorted("cuda_toolkits.tsv", c.toolkits, [](const CudaToolkit& a, const CudaToolkit& b) { return a.cuda < b.cuda; }));
  first(CheckSorted("cuda_minor_compat.tsv", c.minor_compat, By([](const MinorCompat& m) { return m.major; })));
  first(CheckSorted("driver_branches.tsv", c.branches, By([](const DriverBranch& b) { return b.branch; })));
  first(CheckSorted("cuda_targets.tsv", c.targets, [](const CudaTargets& a, const CudaTargets& b) { return a.cuda < b.cuda; }));
  first(CheckSorted("gpus.tsv", c.gpus, [](const GpuModel& a, const GpuModel& b) { return a.name < b.name; }));
  first(CheckSorted("gpu_hosts.tsv", c.gpu_hosts, [](const GpuHost& a, const GpuHost& b) { return a.gpu < b.gpu; }));
  first(CheckSorted("gpu_architectures.tsv", c.architectures,
                    [](const GpuArchitecture& a, const GpuArchitecture& b) { return a.ccs.front() < b.ccs.front(); }));
  first(CheckSorted("cudnn.tsv", c.cudnn, [](const CudnnRelease& a, const CudnnRelease& b) { return a.first < b.first; }));
  first(CheckSorted("host_compilers.tsv", c.host_compilers, [](const HostCompiler& a, const HostCompiler& b) { return a.cuda < b.cuda; }));
  first(CheckSorted("mirrors.tsv", c.mirrors, [](const Mirror& a, const Mirror& b) { return a.name < b.name; }));
  first(CheckSorted("extensions.tsv", c.extensions, ExtensionReleaseLess));
  first(CheckSorted("extension_wheels.tsv", c.extension_wheels, ExtensionWheelLess));
  first(CheckSorted("tegra_socs.tsv", c.tegra_socs, [](const TegraSoc& a, const TegraSoc& b) { return a.soc < b.soc; }));
  first(CheckSorted("jetpack.tsv", c.jetpacks, [](const JetPackRelease& a, const JetPackRelease& b) {
    return CompareL4t(a.l4t, b.l4t) < 0;
  }));
  return e;
}

std::optional<Error> CheckAllSources(const Catalog& c) {
  std::unordered_set<std::string_view> ids;
  ids.reserve(c.sources.size() * 2);
  std::string_view previous;
  for (const SourceRef& s : c.sources) {
    if (!previous.empty() && !(previous < s.id)) return Err("sources.tsv: ids not sorted and unique at " + Quote(s.id));
    previous = s.id;
    ids.insert(s.id);
  }
  for (auto e : {CheckSources("torch_releases.tsv", c.torch, ids),
                 CheckSources("torch_variants.tsv", c.torch_variants, ids),
                 CheckSources("torch_complete.tsv", c.torch_complete, ids),
                 CheckSources("companions.tsv", c.companions, ids),
                 CheckSources("cuda_toolkits.tsv", c.toolkits, ids),
                 CheckSources("cuda_minor_compat.tsv", c.minor_compat, ids),
                 CheckSources("driver_branches.tsv", c.branches, ids),
                 CheckSources("cuda_targets.tsv", c.targets, ids),
                 CheckSources("gpus.tsv", c.gpus, ids),
                 CheckSources("gpu_hosts.tsv", c.gpu_hosts, ids),
                 CheckSources("gpu_architectures.tsv", c.architectures, ids),
                 CheckSources("cudnn.tsv", c.cudnn, ids),
                 CheckSources("host_compilers.tsv", c.host_compilers, ids),
                 CheckSources("mirrors.tsv", c.mirrors, ids),
                 CheckSources("extensions.tsv", c.extensions, ids),
                 CheckSources("extension_wheels.tsv", c.extension_wheels, ids),
                 CheckSources("tegra_socs.tsv", c.tegra_socs, ids),
                 CheckSources("jetpack.tsv", c.jetpacks, ids)}) {
    if (e) return e;
  }
  return std::nullopt;
}

}  // namespace cudamatch
