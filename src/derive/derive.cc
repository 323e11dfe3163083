#include "derive/derive.h"

#include <algorithm>
#include <string>
#include <vector>

#include "catalog/jetson.h"
#include "catalog/query.h"
#include "core/text.h"
#include "probe/wsl.h"

namespace cudamatch {

namespace {

// Derived evidence joins the trail right after the entries of the probe whose value it derives
// from, where -v shows it.
void AddEvidence(Snapshot& snap, std::string probe, std::string source, std::string detail) {
  auto last = std::find_if(snap.trail.rbegin(), snap.trail.rend(),
                           [&](const Evidence& e) { return e.probe == probe; });
  Evidence e{probe, std::move(source), Evidence::Outcome::kFound, std::move(detail)};
  snap.trail.insert(last.base(), std::move(e));
}

void AddImplausible(Snapshot& snap, std::string probe, std::string source, std::string value, std::string expected) {
  auto last = std::find_if(snap.trail.rbegin(), snap.trail.rend(),
                           [&](const Evidence& e) { return e.probe == probe; });
  Evidence e{probe, source, Evidence::Outcome::kError, "implausible value " + value + " (expected a known architecture)"};
  snap.trail.insert(last.base(), std::move(e));
  snap.implausible.push_back(ImplausibleValue{std::move(source), std::move(value), std::move(expected)});
}

// A name match identifies a GPU only when every best match agrees on the compute capability.
bool AgreeOnCc(const GpuMatch& m) {
  return std::all_of(m.models.begin(), m.models.end(),
                     [&](const GpuModel* g) { return g->cc == m.models.front()->cc; });
}

// The catalog's model for a GPU: by name, then by PCI device id. `by_pci` says which.
const GpuModel* ModelOf(const Catalog& c, GpuInfo& gpu, bool& by_pci) {
  by_pci = false;
  if (!gpu.name.empty()) {
    GpuMatch m = MatchGpuName(c, gpu.name, /*suggest=*/false);
    if (!m.models.empty() && AgreeOnCc(m)) return m.models.front();
  }
  if (!gpu.pci_device_id) return nullptr;
  auto models = GpusByPciId(c, *gpu.pci_device_id);
  if (gpu.name.empty() && !models.empty()) {
    std::vector<std::string> names;
    for (const GpuModel* g : models) names.emplace_back(g->name);
    gpu.name = Join(names, " / ");
    gpu.name_origin = Origin::kGpuByPciId;
  }
  by_pci = !models.empty();
  return models.empty() ? nullptr : models.front();
}

// NVML's compute capability is used only when it names a known architecture.
void CheckObservedCc(const Catalog& c, Snapshot& snap, GpuInfo& gpu) {
  if (!gpu.cc || gpu.cc_origin != Origin::kObserved || ArchitectureFor(c, *gpu.cc) != nullptr) return;
  std::string value = std::to_string(gpu.cc->major) + "." + std::to_string(gpu.cc->minor);
  AddImplausible(snap, "gpus", "NVML nvmlDeviceGetCudaComputeCapability", value,
                 "the compute capability of a known GPU architecture");
  gpu.cc.reset();
  gpu.cc_source.clear();
  gpu.cc_origin = Origin::kNone;
}

void DeriveGpu(const Catalog& c, GpuInfo& gpu) {
  bool by_pci = false;
  const GpuModel* model = ModelOf(c, gpu, by_pci);
  if (!gpu.cc && model != nullptr) {
    gpu.cc = model->cc;
    gpu.cc_source = "catalog: " + std::string(model->name);
    gpu.cc_origin = by_pci ? Origin::kGpuByPciId : Origin::kGpuByName;
  }
  if (!gpu.cc) return;
  if (const GpuArchitecture* arch = ArchitectureFor(c, *gpu.cc)) {
    gpu.architecture = arch->name;
    gpu.architecture_origin = Origin::kArchitectureTable;
  } else if (model != nullptr) {
    gpu.architecture = model->architecture;
    gpu.architecture_origin = by_pci ? Origin::kGpuByPciId : Origin::kGpuByName;
  }
}

void SetDriverCuda(Snapshot& snap, const CudaVersion& cuda, std::string source, Origin origin) {
  snap.driver.cuda = cuda;
  snap.driver.cuda_source = std::move(source);
  snap.driver.cuda_origin = origin;
}

// "6.2.41133-..." -> rocm6.2; a hip version without major.minor is a ROCm build all the same.
Variant RocmVariant(const std::string& hip) {
  std::vector<std::string_view> parts = Split(hip, '.');
  if (parts.size() >= 2 && ParseUint(parts[0]) && ParseUint(parts[1])) {
    if (auto v = Variant::Parse("rocm" + std::string(parts[0]) + "." + std::string(parts[1]))) return *v;
  }
  return Variant{Variant::Kind::kRocm, std::nullopt, "rocm"};
}

}  // namespace

void DeriveDriverCuda(const Catalog& c, Snapshot& snap) {
  DriverInfo& d = snap.driver;
  std::optional<DriverVersion> version = d.version();
  if (d.cuda || !version) return;
  bool windows = DriverOs(snap) == Os::kWindows;  // under WSL 2 too: the driver is Windows'
  DriverCuda served = MaxCudaForDriver(c, *version, windows ? Os::kWindows : Os::kLinux);
  if (!served.cuda || (!windows && !served.from_branch_table)) return;
  if (served.from_branch_table) {
    int branch = windows ? served.branch : version->branch();
    SetDriverCuda(snap, *served.cuda, "catalog: driver branch " + std::to_string(branch), Origin::kDriverBranchTable);
    AddEvidence(snap, "driver", "catalog:driver_branches.tsv",
                windows ? served.cuda->MajorMinor() : served.cuda->ToString());
    return;
  }
  SetDriverCuda(snap, *served.cuda,
                std::string("catalog: Windows driver minimums of the CUDA toolkits") + (served.lower_bound ? " (at least)" : ""),
                Origin::kToolkitDriverMinimums);
  AddEvidence(snap, "driver", "catalog:cuda_toolkits.tsv", served.cuda->MajorMinor());
}

namespace {

// The board's own model names the GPU when the catalog knows it and it agrees with the SoC's.
// "NVIDIA Orin NX Developer Kit" -> "Jetson Orin NX", the catalog's form of the module's name.
std::string JetsonQuery(std::string_view model) {
  if (StartsWith(model, "NVIDIA ")) model.remove_prefix(7);
  if (EndsWith(model, " Developer Kit")) model.remove_suffix(14);
  return StartsWith(model, "Jetson") ? std::string(model) : "Jetson " + std::string(model);
}

const GpuModel* JetsonModelGpu(const Catalog& c, const JetsonInfo& j) {
  if (j.model.empty()) return nullptr;
  GpuMatch m = MatchGpuName(c, JetsonQuery(j.model), /*suggest=*/false);
  if (m.models.empty() || !AgreeOnCc(m) || !IsJetson(*m.models.front())) return nullptr;
  return m.models.front();
}

void DeriveJetsonGpu(const Catalog& c, Snapshot& snap, const JetsonInfo& j) {
  if (!snap.gpus.empty()) return;  // NVML or the driver files listed it
  const TegraSoc* soc = j.soc.empty() ? nullptr : FindTegraSoc(c, j.soc);
  const GpuModel* by_model = JetsonModelGpu(c, j);
  GpuInfo gpu;
  if (soc != nullptr) {
    GpuMatch m = MatchGpuName(c, soc->gpu, /*suggest=*/false);
    bool agree = by_model != nullptr && !m.models.empty() && m.models.front()->cc == by_model->cc;
    gpu.name = agree ? std::string(by_model->name) : std::string(soc->gpu);
    gpu.name_origin = Origin::kTegraSoc;
    gpu.source = j.soc_source + " (nvidia," + j.soc + ")";
  } else if (by_model != nullptr) {
    gpu.name = std::string(by_model->name);
    gpu.name_origin = Origin::kGpuByName;
    gpu.source = "/proc/device-tree/model";
  } else {
    return;
  }
  AddEvidence(snap, "jetson", soc != nullptr ? "catalog:tegra_socs.tsv" : "catalog:gpus.tsv",
              "integrated GPU " + gpu.name);
  snap.gpus.push_back(std::move(gpu));
}

}  // namespace

void DeriveJetson(const Catalog& c, Snapshot& snap) {
  if (!snap.host.jetson) return;
  JetsonInfo& j = *snap.host.jetson;
  if (const JetPackRelease* jp = JetPackFor(c, j.l4t)) {
    j.jetpack = std::string(jp->jetpack);
    j.cuda = jp->cuda;
    j.wheels = std::string(jp->wheels);
    j.wheels_index = jp->index;
    j.sbsa = jp->sbsa;
    AddEvidence(snap, "jetson", "catalog:jetpack.tsv", "JetPack " + j.jetpack + " (L4T " + j.l4t + ")");
  }
  DeriveJetsonGpu(c, snap, j);
}

void DeriveGpus(const Catalog& c, Snapshot& snap) {
  for (GpuInfo& gpu : snap.gpus) {
    CheckObservedCc(c, snap, gpu);
    DeriveGpu(c, gpu);
  }
}

DerivedVariant VariantOf(const PackageInfo& pkg) {
  if (pkg.version) {
    if (auto v = Variant::Parse(pkg.version->LocalLabel())) return {*v, Origin::kLocalLabel};
  }
  if (pkg.hip) return {RocmVariant(*pkg.hip), Origin::kHipVersion};
  if (pkg.cuda) return {Variant::ForCuda(*pkg.cuda), Origin::kBuildCuda};
  if (pkg.cuda_none) return {Variant::Cpu(), Origin::kNoCuda};
  return {};
}

void DerivePackages(Snapshot& snap) {
  for (PythonEnv& env : snap.pythons) {
    for (auto& [name, pkg] : env.packages) {
      DerivedVariant v = VariantOf(pkg);
      pkg.variant = std::move(v.variant);
      pkg.variant_origin = v.origin;
    }
  }
}

void Derive(const Catalog& catalog, Snapshot& snap) {
  DeriveDriverCuda(catalog, snap);
  DeriveJetson(catalog, snap);
  DeriveGpus(catalog, snap);
  DerivePackages(snap);
}

}  // namespace cudamatch
