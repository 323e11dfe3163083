#include "report/table.h"

#include "catalog/query.h"
#include "core/text.h"

namespace cudamatch {

namespace {

bool TorchSelected(const Catalog& c, const TorchRelease& t, const TableQuery& q) {
  if (q.since && t.torch < Pep440::Parse(*q.since).value()) return false;
  if (!q.cuda) return true;
  for (const TorchVariant* v : VariantsOf(c, t.torch, q.platform)) {
    if (v->variant.cuda && v->variant.cuda->SameMinor(*q.cuda)) return true;
  }
  return false;
}

std::vector<std::string> VariantTags(const Catalog& c, const TorchRelease& t, const std::string& platform) {
  std::vector<std::string> tags;
  for (const TorchVariant* v : VariantsOf(c, t.torch, platform)) tags.push_back(v->variant.tag);
  return tags;
}

std::string PypiTag(const Catalog& c, const TorchRelease& t, const std::string& platform, Lang L) {
  const TorchVariant* v = PypiDefaultVariant(c, t, platform);
  return v ? v->variant.tag : Tr(L, "common.unknown");
}

std::string PythonRange(const TorchRelease& t, Lang L) {
  std::string out = !t.python_min && !t.python_max ? Tr(L, "common.unknown")
                                                   : OrUnknown(t.python_min, L) + "-" + OrUnknown(t.python_max, L);
  for (const PyVersion& p : t.python_experimental) out += " " + p.ToString() + "*";
  return out;
}

bool CudaSelected(const CudaToolkit& t, const TableQuery& q) {
  return !q.since || t.cuda >= CudaVersion::Parse(*q.since).value();
}

bool BranchSelected(const DriverBranch& b, const TableQuery& q) {
  return !q.since || b.branch >= static_cast<int>(ParseUint(Split(*q.since, '.')[0]).value_or(0));
}

bool GpuSelected(const GpuModel& g, const TableQuery& q) {
  return !q.cc || (g.cc.major == q.cc->major && g.cc.minor == q.cc->minor);
}

std::string PciList(const GpuModel& g) {
  std::vector<std::string> ids;
  for (uint32_t id : g.pci_ids) {
    char buf[8];
    std::snprintf(buf, sizeof(buf), "%04x", id);
    ids.emplace_back(buf);
  }
  return Join(ids, " ");
}

}  // namespace

const std::vector<TableKind>& TableKinds() {
  static const std::vector<TableKind> kKinds = {
      {"torch", "torch releases and their wheels"},
      {"cuda", "CUDA releases and the drivers they need"},
      {"driver", "driver branches and the newest CUDA each serves"},
      {"gpu", "GPUs and their compute capabilities"},
  };
  return kKinds;
}

Status ValidateTableQuery(const TableQuery& q) {
  bool known = std::any_of(TableKinds().begin(), TableKinds().end(), [&](const TableKind& k) { return k.name == q.which; });
  if (!known) return Err("unknown table " + Quote(q.which) + " (expected torch, cuda, driver or gpu)");
  if (q.since) {
    bool ok = q.which == "torch"  ? Pep440::Parse(*q.since).ok()
              : q.which == "cuda" ? CudaVersion::Parse(*q.since).ok()
                                  : ParseUint(Split(*q.since, '.')[0]).has_value();
    if (!ok) return Err("malformed --since " + Quote(*q.since));
  }
  return Status::Ok();
}

std::string RenderTable(const Catalog& c, const TableQuery& q, const TextOptions& o) {
  Lang L = o.lang;
  std::vector<std::vector<std::string>> rows;
  if (q.which == "torch") {
    rows.push_back({"torch", "torchvision", "torchaudio", "Python", Tr(L, "col.released"), "PyPI", Tr(L, "col.variants")});
    for (const TorchRelease& t : c.torch) {
      if (!TorchSelected(c, t, q)) continue;
      rows.push_back({t.torch.Public(), OrUnknown(t.torchvision, L), OrUnknown(t.torchaudio, L), PythonRange(t, L),
                      OrUnknownText(t.released, L), PypiTag(c, t, q.platform, L),
                      Join(VariantTags(c, t, q.platform), " ")});
    }
  } else if (q.which == "cuda") {
    rows.push_back({"CUDA", Tr(L, "col.released"), Tr(L, "col.min_driver_linux"), Tr(L, "col.min_driver_windows"),
                    Tr(L, "col.minor_compat_linux")});
    for (const CudaToolkit& t : c.toolkits) {
      if (!CudaSelected(t, q)) continue;
      const MinorCompat* mc = MinorCompatFor(c, t.cuda.major);
      rows.push_back({t.cuda.ToString(), OrUnknownText(t.released, L), OrUnknown(t.min_driver_linux, L),
                      t.windows_driver_not_listed ? "N/A" : OrUnknown(t.min_driver_windows, L),
                      mc ? OrUnknown(mc->min_driver_linux, L) : "-"});
    }
  } else if (q.which == "driver") {
    rows.push_back({Tr(L, "col.branch"), Tr(L, "col.max_cuda")});
    for (const DriverBranch& b : c.branches) {
      if (BranchSelected(b, q)) rows.push_back({"R" + std::to_string(b.branch), OrUnknown(b.max_cuda, L)});
    }
  } else {
    rows.push_back({"GPU", Tr(L, "col.cc"), Tr(L, "col.architecture"), "PCI"});
    for (const GpuModel& g : c.gpus) {
      if (GpuSelected(g, q)) rows.push_back({std::string(g.name), g.cc.ToString(), std::string(g.architecture), PciList(g)});
    }
  }
  std::string out = RenderColumns(rows, "");
  if (q.which == "torch") out += o.style.Dim(Tr(L, "table.torch.footnote")) + "\n";
  out += o.style.Dim(Tr(L, "table.data_date", {{"date", c.data_date}})) + "\n";
  if (!c.index_date.empty()) out += o.style.Dim(Tr(L, "overlay.index_date", {{"index", c.index_date}})) + "\n";
  return out;
}

Json TableJson(const Catalog& c, const TableQuery& q) {
  Json j = JsonHeader("table");
  j["table"] = q.which;
  j["data_date"] = c.data_date;
  Json rows = Json::array();
  if (q.which == "torch") {
    for (const TorchRelease& t : c.torch) {
      if (!TorchSelected(c, t, q)) continue;
      Json exp = Json::array();
      for (const PyVersion& p : t.python_experimental) exp.push_back(p.ToString());
      rows.push_back(Json{{"torch", t.torch.ToString()}, {"torchvision", OptString(t.torchvision)},
                          {"torchaudio", OptString(t.torchaudio)}, {"released", OptText(t.released)},
                          {"python", {{"min", OptString(t.python_min)}, {"max", OptString(t.python_max)}, {"experimental", exp}}},
                          {"pypi_default", PypiDefaultVariant(c, t, q.platform) ? Json(PypiDefaultVariant(c, t, q.platform)->variant.tag) : Json(nullptr)},
                          {"variants", StringList(VariantTags(c, t, q.platform))},
                          {"sources", StringList(t.prov.sources())}});
    }
  } else if (q.which == "cuda") {
    for (const CudaToolkit& t : c.toolkits) {
      if (!CudaSelected(t, q)) continue;
      const MinorCompat* mc = MinorCompatFor(c, t.cuda.major);
      rows.push_back(Json{{"cuda", t.cuda.ToString()}, {"released", OptText(t.released)},
                          {"min_driver_linux", OptString(t.min_driver_linux)},
                          {"min_driver_windows", t.windows_driver_not_listed ? Json("N/A") : OptString(t.min_driver_windows)},
                          {"minor_compat_min_driver_linux", mc ? OptString(mc->min_driver_linux) : Json(nullptr)},
                          {"minor_compat_min_driver_windows", mc ? OptString(mc->min_driver_windows) : Json(nullptr)},
                          {"sources", StringList(t.prov.sources())}});
    }
  } else if (q.which == "driver") {
    for (const DriverBranch& b : c.branches) {
      if (!BranchSelected(b, q)) continue;
      rows.push_back(Json{{"branch", b.branch}, {"max_cuda", OptString(b.max_cuda)}, {"sources", StringList(b.prov.sources())}});
    }
  } else {
    for (const GpuModel& g : c.gpus) {
      if (!GpuSelected(g, q)) continue;
      rows.push_back(Json{{"name", g.name}, {"compute_capability", g.cc.ToString()}, {"architecture", g.architecture},
                          {"pci_ids", PciList(g).empty() ? Json::array() : StringList(SplitNonEmpty(PciList(g), ' '))},
                          {"sources", StringList(g.prov.sources())}});
    }
  }
  j["rows"] = rows;
  return j;
}

}  // namespace cudamatch
