#include "report/json.h"

#include <algorithm>

#include "catalog/coverage.h"
#include "core/safe_text.h"

namespace cudamatch {

namespace {

// Every string of `j`, keys included, through SafeText (redacted, bytes that are not UTF-8 shown).
void MakeSafe(Json& j) {
  if (j.is_string()) {
    std::string& s = j.get_ref<std::string&>();
    if (!IsPlainText(s)) s = SafeText(s, Sink::kJson);
  } else if (j.is_array()) {
    for (Json& e : j) MakeSafe(e);
  } else if (j.is_object()) {
    bool plain_keys = true;
    for (auto it = j.begin(); it != j.end(); ++it) {
      MakeSafe(it.value());
      plain_keys = plain_keys && IsPlainText(it.key());
    }
    if (plain_keys) return;
    Json safe = Json::object();
    for (auto it = j.begin(); it != j.end(); ++it) {
      safe[SafeText(it.key(), Sink::kJson)] = std::move(it.value());
    }
    j = std::move(safe);
  }
}

// No string or key that SafeText would change: the tree can be written as it is, uncopied.
bool AllPlain(const Json& j) {
  if (j.is_string()) return IsPlainText(j.get_ref<const std::string&>());
  if (j.is_array()) return std::all_of(j.begin(), j.end(), [](const Json& e) { return AllPlain(e); });
  if (!j.is_object()) return true;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!IsPlainText(it.key()) || !AllPlain(it.value())) return false;
  }
  return true;
}

}  // namespace

std::string JsonText(const Json& j) {
  if (AllPlain(j)) return EscapeJsonControls(j.dump(2, ' ', false, Json::error_handler_t::replace)) + "\n";
  Json safe = j;
  MakeSafe(safe);
  return EscapeJsonControls(safe.dump(2, ' ', false, Json::error_handler_t::replace)) + "\n";
}

Json JsonHeader(std::string_view kind) {
  Json j;
  j["schema_version"] = kSchemaVersion;
  j["kind"] = kind;
  return j;
}

Json MetaJson(const RunMeta& m) {
  Json j;
  j["cudamatch_version"] = m.tool_version;
  j["catalog_data_date"] = m.catalog_data_date;
  j["catalog_built_in"] = m.catalog_built_in;
  j["index_overlay_date"] = m.index_date ? Json(*m.index_date) : Json(nullptr);
  j["run_time"] = m.run_time;
  return j;
}

Json ErrorJson(std::string_view id, const std::string& message, int exit_code, std::string_view command) {
  Json j = JsonHeader("error");
  j["error"] = Json{{"id", std::string(id)}, {"message", message}, {"exit_code", exit_code}};
  j["command"] = OptText(command);
  return j;
}

Json OptText(std::string_view s) { return s.empty() ? Json(nullptr) : Json(std::string(s)); }

Json StringList(const std::vector<std::string>& items) {
  Json a = Json::array();
  for (const std::string& s : items) a.push_back(s);
  return a;
}

Json StringList(const std::vector<std::string_view>& items) {
  Json a = Json::array();
  for (std::string_view s : items) a.push_back(std::string(s));
  return a;
}

std::string_view DriverFitName(DriverFit fit) {
  switch (fit) {
    case DriverFit::kFull: return "full";
    case DriverFit::kMinorCompat: return "minor_compat";
    case DriverFit::kTooOld: return "too_old";
    case DriverFit::kUnknown: break;
  }
  return "unknown";
}

std::string_view KernelFitName(KernelFit fit) {
  switch (fit) {
    case KernelFit::kSass: return "sass";
    case KernelFit::kPtx: return "ptx";
    case KernelFit::kNone: break;
  }
  return "none";
}

namespace {

Json CommandsJson(const InstallCommands& c) {
  Json j;
  j["pip"] = c.pip;
  j["uv"] = c.uv;
  j["conda"] = c.conda ? Json(*c.conda) : Json(nullptr);
  j["notes"] = StringList(c.notes);
  j["mirror_cannot_serve"] = c.mirror_cannot_serve;
  return j;
}

Json VariantJson(const VariantAnswer& v) {
  const TorchVariant& row = *v.row;
  Json j;
  j["name"] = row.variant.tag;
  j["cuda"] = row.variant.cuda ? Json(row.variant.cuda->MajorMinor()) : Json(nullptr);
  j["rocm"] = row.variant.kind == Variant::Kind::kRocm ? Json(row.variant.tag.substr(4)) : Json(nullptr);
  j["pypi_default"] = v.pypi_default;
  j["cudnn"] = OptText(row.cudnn);
  j["arch_list"] = row.arch_list ? StringList(ArchListNames(*row.arch_list)) : Json(nullptr);
  j["min_driver_linux"] = OptString(v.linux_driver.toolkit_min);
  j["min_driver_linux_minor_compat"] = OptString(v.linux_driver.minor_compat);
  j["min_driver_windows"] = OptString(v.windows_driver.toolkit_min);
  j["min_driver_windows_minor_compat"] = OptString(v.windows_driver.minor_compat);
  j["install"] = CommandsJson(v.commands);
  j["sources"] = StringList(row.prov.sources());
  return j;
}

Json TorchJson(const TorchAnswer& a, const LookupQuery& q) {
  const TorchRelease& t = *a.release;
  Json j = JsonHeader(q.kind == LookupQuery::Kind::kTorch         ? "torch"
                      : q.kind == LookupQuery::Kind::kTorchvision ? "torchvision"
                                                                  : "torchaudio");
  j["found"] = true;
  j["torch"] = t.torch.ToString();
  j["torchvision"] = OptString(t.torchvision);
  j["torchaudio"] = OptString(t.torchaudio);
  j["released"] = OptText(t.released);
  Json py;
  py["min"] = OptString(t.python_min);
  py["max"] = OptString(t.python_max);
  Json exp = Json::array();
  for (const PyVersion& p : t.python_experimental) exp.push_back(p.ToString());
  py["experimental"] = exp;
  j["python"] = py;
  j["pypi_default"] = a.pypi_default ? Json(a.pypi_default->variant.tag) : Json(nullptr);
  j["install_era"] = OptText(std::string(InstallEraName(t.era)));
  Json paired = Json::array();
  for (const TorchRelease* p : a.paired) paired.push_back(p->torch.ToString());
  j["paired_torch"] = paired;
  Json variants = Json::array();
  for (const VariantAnswer& v : a.variants) variants.push_back(VariantJson(v));
  j["variants"] = variants;
  j["sources"] = StringList(t.prov.sources());
  return j;
}

Json CudaJson(const CudaAnswer& a) {
  Json j = JsonHeader("cuda");
  j["found"] = true;
  j["cuda"] = a.cuda.MajorMinor();
  Json releases = Json::array();
  for (const CudaToolkit* t : a.releases) {
    Json r;
    r["version"] = t->cuda.ToString();
    r["released"] = OptText(t->released);
    r["min_driver_linux"] = OptString(t->min_driver_linux);
    r["min_driver_windows"] = t->windows_driver_not_listed ? Json("N/A") : OptString(t->min_driver_windows);
    releases.push_back(r);
  }
  j["releases"] = releases;
  j["min_driver_linux"] = OptString(a.linux_driver.toolkit_min);
  j["min_driver_windows"] = OptString(a.windows_driver.toolkit_min);
  j["minor_compat_min_driver_linux"] = OptString(a.linux_driver.minor_compat);
  j["minor_compat_min_driver_windows"] = OptString(a.windows_driver.minor_compat);
  Json cc;
  if (a.targets) {
    cc["min"] = OptString(a.targets->min_cc);
    cc["max"] = OptString(a.targets->max_cc);
    Json targets = Json::array(), deprecated = Json::array();
    for (const auto& t : a.targets->targets) targets.push_back(t.ToString());
    for (const auto& t : a.targets->deprecated) deprecated.push_back(t.ToString());
    cc["targets"] = targets;
    cc["deprecated"] = deprecated;
  }
  j["compute_capability"] = a.targets ? cc : Json(nullptr);
  Json cudnn = Json::array();
  for (const CudnnRelease* d : a.cudnn) {
    cudnn.push_back(d->first == d->last ? d->first.ToString() : d->first.ToString() + "-" + d->last.ToString());
  }
  j["cudnn"] = cudnn;
  Json hc = nullptr;
  if (a.compilers) {
    hc = Json::object();
    hc["max_gcc"] = a.compilers->max_gcc ? Json(*a.compilers->max_gcc) : Json(nullptr);
    hc["max_clang"] = a.compilers->max_clang ? Json(*a.compilers->max_clang) : Json(nullptr);
  }
  j["host_compilers"] = hc;
  Json torch = Json::array();
  for (const TorchVariant* v : a.torch_wheels) {
    torch.push_back(Json{{"torch", v->torch.ToString()}, {"variant", v->variant.tag}});
  }
  j["torch"] = torch;
  return j;
}

Json TorchPair(const TorchRelease* t, const TorchVariant* v) {
  if (t == nullptr || v == nullptr) return nullptr;
  return Json{{"torch", t->torch.ToString()}, {"variant", v->variant.tag}};
}

Json DriverJson(const DriverAnswer& a) {
  Json j = JsonHeader("driver");
  j["found"] = true;
  j["driver"] = a.driver.text;
  j["os"] = OsName(a.os);
  j["max_cuda"] = a.served.cuda ? Json(a.served.cuda->MajorMinor()) : Json(nullptr);
  j["max_cuda_source"] = a.served.cuda ? Json(a.served.from_branch_table ? "driver_branches" : "cuda_toolkits")
                                       : Json(nullptr);
  j["max_cuda_lower_bound"] = a.served.lower_bound;
  Json variants = Json::array();
  for (const VariantFitAnswer& v : a.variants) {
    variants.push_back(Json{{"name", v.tag}, {"cuda", v.cuda.MajorMinor()}, {"runs", DriverFitName(v.fit)}});
  }
  j["variants"] = variants;
  j["newest_torch"] = TorchPair(a.newest_torch, a.newest_variant);
  j["newest_torch_minor_compat"] = TorchPair(a.newest_torch_compat, a.newest_variant_compat);
  j["answer"] = DriverVerdictJson(a.verdict);
  return j;
}

Json GpuJson(const GpuAnswer& a) {
  Json j = JsonHeader("gpu");
  j["found"] = true;
  j["name"] = a.models.empty() ? Json(nullptr) : Json(a.models.front()->name);
  Json names = Json::array(), pci = Json::array();
  for (const GpuModel* g : a.models) {
    names.push_back(g->name);
    for (uint32_t id : g->pci_ids) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "%04x", id);
      if (std::find(pci.begin(), pci.end(), buf) == pci.end()) pci.push_back(buf);
    }
  }
  j["names"] = names;
  j["compute_capability"] = a.cc.ToString();
  j["architecture"] = a.architecture ? Json(a.architecture->name)
                      : a.models.empty() ? Json(nullptr) : Json(a.models.front()->architecture);
  j["pci_ids"] = pci;
  j["first_cuda"] = a.first_cuda ? Json(a.first_cuda->MajorMinor()) : Json(nullptr);
  j["last_cuda"] = a.last_cuda && !a.still_supported ? Json(a.last_cuda->MajorMinor()) : Json(nullptr);
  j["min_driver_linux"] = OptString(a.min_driver.toolkit_min);
  Json wheels = Json::array();
  for (const WheelFit& w : a.wheels) {
    Json x{{"torch", w.variant->torch.ToString()}, {"platform", w.variant->platform}, {"variant", w.variant->variant.tag}};
    x["runs"] = w.fit ? Json(KernelFitName(w.fit->fit)) : Json("unknown");
    x["via"] = w.fit && w.fit->fit != KernelFit::kNone
                   ? Json(w.fit->fit == KernelFit::kSass ? w.fit->via.Sm() : w.fit->via.Compute())
                   : Json(nullptr);
    wheels.push_back(x);
  }
  j["wheels"] = wheels;
  j["jetson"] = a.jetson;
  j["answer"] = a.verdict ? GpuVerdictJson(*a.verdict) : Json(nullptr);
  return j;
}

}  // namespace

Json LookupJson(const Catalog&, const LookupResult& r) {
  if (r.not_found) {
    Json j = JsonHeader(r.query.kind == LookupQuery::Kind::kGpu ? "gpu" : "lookup");
    j["found"] = false;
    j["query"] = r.not_found->what;
    j["suggestions"] = StringList(r.not_found->suggestions);
    return j;
  }
  if (r.torch) return TorchJson(*r.torch, r.query);
  if (r.cuda) return CudaJson(*r.cuda);
  if (r.driver) return DriverJson(*r.driver);
  return GpuJson(*r.gpu);
}

Json CatalogJson(const Catalog& c) {
  Json j = JsonHeader("catalog");
  j["data_date"] = c.data_date;
  Json tables = Json::array();
  for (const TableInfo& t : c.tables) {
    tables.push_back(Json{{"file", t.file}, {"rows", t.rows}, {"origin", t.origin}});
  }
  j["tables"] = tables;
  Json platforms = Json::array();
  for (const PlatformCoverage& p : CoverageByPlatform(c)) {
    platforms.push_back(Json{{"platform", p.platform}, {"releases", p.releases}, {"variants", p.variants},
                             {"cuda_variants", p.cuda_variants}, {"cuda_variants_with_arch_list", p.with_arch_list},
                             {"releases_with_pypi_default", p.pypi_default_known}, {"newest", OptString(p.newest)}});
  }
  j["platforms"] = platforms;
  Json sources = Json::array();
  for (const SourceRef& s : c.sources) {
    sources.push_back(Json{{"id", s.id}, {"title", s.title}, {"where", s.where}});
  }
  j["sources"] = sources;
  return j;
}

}  // namespace cudamatch
