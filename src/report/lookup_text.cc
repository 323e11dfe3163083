#include <algorithm>
#include <map>

#include "catalog/coverage.h"
#include "core/text.h"
#include "report/text.h"

namespace cudamatch {

std::string OrUnknownText(std::string_view s, Lang lang) { return s.empty() ? Tr(lang, "common.unknown") : std::string(s); }

std::string DriverFitText(DriverFit fit, Lang lang) {
  switch (fit) {
    case DriverFit::kFull: return Tr(lang, "fit.full");
    case DriverFit::kMinorCompat: return Tr(lang, "fit.minor_compat");
    case DriverFit::kTooOld: return Tr(lang, "fit.too_old");
    case DriverFit::kUnknown: break;
  }
  return Tr(lang, "fit.unknown");
}

namespace {

std::string DriverCell(const DriverRequirement& r, Lang lang) {
  if (!r.toolkit_min && !r.minor_compat) return r.windows_not_listed ? "N/A" : "-";
  std::string out = r.toolkit_min ? r.toolkit_min->text : Tr(lang, "common.unknown");
  if (r.minor_compat) out += " (>=" + r.minor_compat->text + "*)";
  return out;
}

std::string ArchCell(const TorchVariant& v, Lang lang) {
  if (v.variant.kind != Variant::Kind::kCuda) return "-";
  if (!v.arch_list) return Tr(lang, "common.unknown");
  return Join(ArchListNames(*v.arch_list), " ");
}

std::string RenderNotFound(const NotFound& nf, const TextOptions& o) {
  std::string out = Tr(o.lang, "lookup.not_found", {{"what", nf.what}}) + "\n";
  if (!nf.suggestions.empty()) {
    out += Tr(o.lang, "lookup.nearest", {{"list", Join(nf.suggestions, ", ")}}) + "\n";
  }
  return out;
}

std::string RenderTorch(const TorchAnswer& a, const LookupQuery& q, const std::string& platform, const TextOptions& o) {
  const TorchRelease& t = *a.release;
  Lang L = o.lang;
  std::string out;
  if (q.kind != LookupQuery::Kind::kTorch && a.paired.size() > 1) {
    std::vector<std::string> names;
    for (const TorchRelease* p : a.paired) names.push_back(p->torch.Public());
    out += Tr(L, "lookup.torch.paired_many", {{"what", q.text}, {"list", Join(names, ", ")}}) + "\n";
  }
  out += o.style.Bold("torch " + t.torch.Public()) + "  " +
         Tr(L, "lookup.torch.released", {{"month", OrUnknownText(t.released, L)}}) + "\n";
  out += "  torchvision " + OrUnknown(t.torchvision, L) + " · torchaudio " + OrUnknown(t.torchaudio, L) + "\n";
  std::vector<std::string> exp;
  for (const PyVersion& p : t.python_experimental) exp.push_back(p.ToString());
  out += "  " + Tr(L, "lookup.torch.python", {{"min", OrUnknown(t.python_min, L)}, {"max", OrUnknown(t.python_max, L)}});
  if (!exp.empty()) out += " " + Tr(L, "lookup.torch.python_experimental", {{"list", Join(exp, ", ")}});
  out += "\n  " + Tr(L, "lookup.torch.pypi_default", {{"variant", a.pypi_default ? a.pypi_default->variant.tag : Tr(L, "common.unknown")}, {"platform", platform}}) + "\n\n";
  if (a.variants.empty()) {
    return out + "  " + Tr(L, "lookup.torch.no_variants", {{"torch", t.torch.Public()}, {"platform", platform}}) + "\n";
  }
  std::vector<std::vector<std::string>> rows = {{Tr(L, "col.variant"), "CUDA", "cuDNN", Tr(L, "col.min_driver_linux"),
                                                 Tr(L, "col.min_driver_windows"), Tr(L, "col.architectures")}};
  for (const VariantAnswer& v : a.variants) {
    const TorchVariant& row = *v.row;
    rows.push_back({row.variant.tag + (v.pypi_default ? " (PyPI)" : ""),
                    row.variant.cuda ? row.variant.cuda->MajorMinor() : "-", row.cudnn.empty() ? "-" : std::string(row.cudnn),
                    row.variant.cuda ? DriverCell(v.linux_driver, L) : "-",
                    row.variant.cuda ? DriverCell(v.windows_driver, L) : "-", ArchCell(row, L)});
  }
  out += RenderColumns(rows, "  ");
  out += "  " + o.style.Dim(Tr(L, "lookup.minor_compat_footnote")) + "\n\n";
  out += o.style.Bold(Tr(L, "lookup.install")) + "\n";
  std::vector<std::vector<std::string>> cmds;
  for (const VariantAnswer& v : a.variants) cmds.push_back({v.row->variant.tag, v.commands.pip});
  out += RenderColumns(cmds, "  ");
  bool any_conda = std::any_of(a.variants.begin(), a.variants.end(),
                               [](const VariantAnswer& v) { return v.commands.conda.has_value(); });
  if (any_conda) {
    out += o.style.Bold("conda") + "\n";
    std::vector<std::vector<std::string>> conda;
    for (const VariantAnswer& v : a.variants) {
      if (v.commands.conda) conda.push_back({v.row->variant.tag, *v.commands.conda});
    }
    out += RenderColumns(conda, "  ");
  } else if (t.conda == CondaForm::kNone) {
    out += "  " + Tr(L, "note.conda_channel_ended") + "\n";
  }
  std::vector<std::string> notes;
  for (const VariantAnswer& v : a.variants) {
    for (const std::string& n : v.commands.notes) {
      if (n != "note.pypi_default" && n != "note.conda_channel_ended" &&
          std::find(notes.begin(), notes.end(), n) == notes.end()) {
        notes.push_back(n);
      }
    }
  }
  for (const std::string& n : notes) out += "  " + o.style.Dim(Tr(L, n)) + "\n";
  std::vector<std::string_view> ids = t.prov.sources();
  out += o.style.Dim(Tr(L, "common.sources", {{"list", Join(std::vector<std::string>(ids.begin(), ids.end()), ", ")}})) + "\n";
  return out;
}

std::string RenderCuda(const CudaAnswer& a, const TextOptions& o) {
  Lang L = o.lang;
  std::string out = o.style.Bold("CUDA " + a.cuda.MajorMinor()) + "\n";
  std::vector<std::vector<std::string>> rows = {{Tr(L, "col.release"), Tr(L, "col.released"),
                                                 Tr(L, "col.min_driver_linux"), Tr(L, "col.min_driver_windows")}};
  for (const CudaToolkit* t : a.releases) {
    rows.push_back({t->cuda.ToString(), OrUnknownText(t->released, L), OrUnknown(t->min_driver_linux, L),
                    t->windows_driver_not_listed ? "N/A" : OrUnknown(t->min_driver_windows, L)});
  }
  out += RenderColumns(rows, "  ");
  out += "  " + Tr(L, "lookup.cuda.min_driver", {{"linux", OrUnknown(a.linux_driver.toolkit_min, L)},
                                                 {"windows", OrUnknown(a.windows_driver.toolkit_min, L)}}) + "\n";
  if (a.linux_driver.minor_compat) {
    out += "  " + Tr(L, "lookup.cuda.minor_compat", {{"major", std::to_string(a.cuda.major)},
                                                     {"linux", a.linux_driver.minor_compat->text},
                                                     {"windows", OrUnknown(a.windows_driver.minor_compat, L)}}) + "\n";
  }
  if (a.targets) {
    std::vector<std::string> targets;
    for (const auto& cc : a.targets->targets) targets.push_back(cc.Sm());
    out += "  " + Tr(L, "lookup.cuda.cc_range", {{"min", OrUnknown(a.targets->min_cc, L)}, {"max", OrUnknown(a.targets->max_cc, L)}});
    if (!targets.empty()) out += " (" + Join(targets, " ") + ")";
    out += "\n";
  }
  std::vector<std::string> cudnn;
  for (const CudnnRelease* d : a.cudnn) {
    cudnn.push_back(d->first == d->last ? d->first.ToString() : d->first.ToString() + "-" + d->last.ToString());
  }
  out += "  cuDNN: " + (cudnn.empty() ? Tr(L, "common.unknown") : Join(cudnn, ", ")) + "\n";
  if (a.compilers && (a.compilers->max_gcc || a.compilers->max_clang)) {
    out += "  " + Tr(L, "lookup.cuda.compilers", {{"gcc", a.compilers->max_gcc ? std::to_string(*a.compilers->max_gcc) : Tr(L, "common.unknown")},
                                                  {"clang", a.compilers->max_clang ? std::to_string(*a.compilers->max_clang) : Tr(L, "common.unknown")}}) + "\n";
  }
  std::vector<std::string> torch;
  for (const TorchVariant* v : a.torch_wheels) torch.push_back(v->torch.Public());
  out += "  " + Tr(L, "lookup.cuda.torch", {{"variant", Variant::ForCuda(a.cuda).tag},
                                            {"list", torch.empty() ? Tr(L, "common.none") : Join(torch, ", ")}}) + "\n";
  return out;
}

std::string TorchName(const TorchRelease* t, const TorchVariant* v) {
  return t && v ? "torch " + t->torch.Public() + " (" + v->variant.tag + ")" : "-";
}

std::string RenderDriver(const DriverAnswer& a, const TextOptions& o) {
  Lang L = o.lang;
  std::string out = o.style.Bold(Tr(L, "lookup.driver.title", {{"driver", a.driver.text}, {"os", std::string(OsName(a.os))}})) + "\n";
  std::string cuda = a.served.cuda ? a.served.cuda->MajorMinor() : Tr(L, "common.unknown");
  out += "  " + Tr(L, a.served.lower_bound ? "lookup.driver.max_cuda_at_least" : "lookup.driver.max_cuda", {{"cuda", cuda}}) + "\n";
  out += "  " + o.style.Dim(Tr(L, "lookup.driver.meaning")) + "\n\n";
  std::vector<std::vector<std::string>> rows = {{Tr(L, "col.variant"), "CUDA", Tr(L, "col.runs")}};
  for (const VariantFitAnswer& v : a.variants) rows.push_back({v.tag, v.cuda.MajorMinor(), DriverFitText(v.fit, L)});
  out += RenderColumns(rows, "  ");
  out += "\n  " + Tr(L, "lookup.driver.newest", {{"torch", TorchName(a.newest_torch, a.newest_variant)}}) + "\n";
  if (a.newest_torch_compat && a.newest_variant_compat != a.newest_variant) {
    out += "  " + Tr(L, "lookup.driver.newest_compat", {{"torch", TorchName(a.newest_torch_compat, a.newest_variant_compat)}}) + "\n";
  }
  out += "  " + o.style.Dim(Tr(L, "lookup.driver.explain")) + "\n";
  return out;
}

std::string RenderGpu(const GpuAnswer& a, const TextOptions& o) {
  Lang L = o.lang;
  std::string title = a.models.empty() ? "sm_" + std::to_string(a.cc.Number()) : std::string(a.models.front()->name);
  std::string out = o.style.Bold(title) + "\n";
  if (a.models.size() > 1) {
    std::vector<std::string> names;
    for (size_t i = 1; i < a.models.size() && i < 6; ++i) names.emplace_back(a.models[i]->name);
    out += "  " + Tr(L, "lookup.gpu.also", {{"list", Join(names, "; ")}}) + "\n";
  }
  std::string arch = a.architecture    ? a.architecture->name
                     : a.models.empty() ? Tr(L, "common.unknown")
                                        : std::string(a.models.front()->architecture);
  out += "  " + Tr(L, "lookup.gpu.cc", {{"cc", a.cc.ToString()}, {"sm", a.cc.Sm()}, {"arch", arch}}) + "\n";
  out += "  " + Tr(L, "lookup.gpu.first_cuda", {{"cuda", a.first_cuda ? a.first_cuda->MajorMinor() : Tr(L, "common.unknown")},
                                                {"driver", OrUnknown(a.min_driver.toolkit_min, L)}}) + "\n";
  if (a.last_cuda && !a.still_supported) {
    out += "  " + Tr(L, "lookup.gpu.last_cuda", {{"cuda", a.last_cuda->MajorMinor()}}) + "\n";
  }
  // Group wheels by release, newest first: which variants run, and how.
  if (a.jetson) return out + "\n  " + Tr(L, "lookup.gpu.jetson") + "\n";
  std::vector<std::vector<std::string>> rows = {{"torch", Tr(L, "col.platform"), Tr(L, "col.runs_sass"), Tr(L, "col.runs_ptx"),
                                                 Tr(L, "col.no_code"), Tr(L, "col.arch_unknown")}};
  std::map<std::string, size_t> row_of;
  for (const WheelFit& w : a.wheels) {
    std::string key = w.variant->torch.Public() + " " + std::string(w.variant->platform);
    if (!row_of.count(key)) {
      row_of[key] = rows.size();
      rows.push_back({w.variant->torch.Public(), std::string(w.variant->platform), "", "", "", ""});
    }
    auto& row = rows[row_of[key]];
    size_t col = !w.fit ? 5 : w.fit->fit == KernelFit::kSass ? 2 : w.fit->fit == KernelFit::kPtx ? 3 : 4;
    row[col] += (row[col].empty() ? "" : " ") + w.variant->variant.tag;
  }
  out += "\n" + Tr(L, "lookup.gpu.wheels") + "\n" + RenderColumns(rows, "  ");
  out += "  " + o.style.Dim(Tr(L, "lookup.gpu.rules")) + "\n";
  return out;
}

}  // namespace

std::string RenderLookup(const Catalog&, const LookupResult& r, const TextOptions& o) {
  if (r.not_found) return RenderNotFound(*r.not_found, o);
  if (r.torch) return RenderTorch(*r.torch, r.query, r.platform, o);
  if (r.cuda) return RenderCuda(*r.cuda, o);
  if (r.driver) return RenderDriver(*r.driver, o);
  return RenderGpu(*r.gpu, o);
}

std::string RenderCatalog(const Catalog& c, const TextOptions& o) {
  Lang L = o.lang;
  std::string out = o.style.Bold(Tr(L, "catalog.title", {{"date", c.data_date}})) + "\n";
  std::vector<std::vector<std::string>> rows = {{Tr(L, "col.table"), Tr(L, "col.rows"), Tr(L, "col.origin")}};
  for (const TableInfo& t : c.tables) rows.push_back({t.file, std::to_string(t.rows), t.origin});
  out += RenderColumns(rows, "  ");
  out += "\n" + o.style.Bold(Tr(L, "catalog.platforms")) + "\n";
  std::vector<std::vector<std::string>> platforms = {{Tr(L, "col.platform"), Tr(L, "col.releases"), Tr(L, "col.variant_rows"),
                                                      Tr(L, "col.arch_lists"), Tr(L, "col.pypi_default_known"), Tr(L, "col.newest")}};
  for (const PlatformCoverage& p : CoverageByPlatform(c)) {
    platforms.push_back({std::string(p.platform), std::to_string(p.releases), std::to_string(p.variants),
                         std::to_string(p.with_arch_list) + "/" + std::to_string(p.cuda_variants),
                         std::to_string(p.pypi_default_known) + "/" + std::to_string(p.releases), OrUnknown(p.newest, L)});
  }
  out += RenderColumns(platforms, "  ");
  out += "\n" + o.style.Bold(Tr(L, "catalog.sources", {{"count", std::to_string(c.sources.size())}})) + "\n";
  for (const SourceRef& s : c.sources) {
    out += "  " + std::string(s.id) + "  " + std::string(s.title) + "\n    " + o.style.Dim(s.where) + "\n";
  }
  return out;
}

}  // namespace cudamatch
