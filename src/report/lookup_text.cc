#include <algorithm>
#include <functional>
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
  std::string out = (nf.date.empty() ? Tr(o.lang, "lookup.not_found", {{"what", nf.what}})
                                     : Tr(o.lang, "lookup.not_found_release", {{"what", nf.what}, {"date", nf.date}})) + "\n";
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


constexpr size_t kWidth = 100;  // the columns a line of the answer fits in

// Bytes of the UTF-8 sequence that starts with `c`.
size_t Utf8Length(unsigned char c) { return c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1; }

// The text in lines of at most kWidth columns, each starting with `indent`: broken at spaces, or
// between two wide (CJK) characters; a word longer than the width stays whole. Each line styled.
// Chinese punctuation that never begins a line.
bool ClosingPunctuation(std::string_view unit) {
  for (std::string_view p : {"，", "。", "；", "：", "）", "、", "！", "？"}) {
    if (unit == p) return true;
  }
  return false;
}

std::string Wrapped(std::string_view text, const std::string& indent, const std::function<std::string(std::string_view)>& style) {
  std::vector<std::string> lines = {""};
  size_t used = DisplayWidth(indent);
  bool space = false;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = pos;
    if (text[pos] == ' ') {
      while (end < text.size() && text[end] == ' ') ++end;
      space = true;
      pos = end;
      continue;
    }
    if (static_cast<unsigned char>(text[pos]) < 0x80) {
      while (end < text.size() && text[end] != ' ' && static_cast<unsigned char>(text[end]) < 0x80) ++end;
    } else {
      end = std::min(text.size(), pos + Utf8Length(static_cast<unsigned char>(text[pos])));
    }
    std::string_view unit = text.substr(pos, end - pos);
    size_t need = DisplayWidth(unit) + (space ? 1 : 0);
    if (!lines.back().empty() && used + need > kWidth && !ClosingPunctuation(unit)) {
      lines.emplace_back();
      used = DisplayWidth(indent);
      need -= space ? 1 : 0;
    } else if (space && !lines.back().empty()) {
      lines.back() += ' ';
    }
    lines.back() += unit;
    used += need;
    space = false;
    pos = end;
  }
  std::string out;
  for (const std::string& l : lines) out += indent + style(l) + "\n";
  return out;
}

std::string Plain(std::string_view s) { return std::string(s); }

// "2.14.0+cu126 (through minor-version compatibility)".
std::string PickText(const TorchPick& p, Lang L) {
  std::string out = p.release->torch.Public() + "+" + p.variant->variant.tag;
  std::vector<std::string> how;
  if (p.kernel == KernelFit::kPtx) how.push_back(Tr(L, "lookup.answer.via_ptx"));
  if (p.driver_fit == DriverFit::kMinorCompat) how.push_back(Tr(L, "lookup.answer.via_compat"));
  if (p.driver_fit == DriverFit::kUnknown && p.min_driver) {
    how.push_back(Tr(L, "lookup.answer.needs_driver", {{"driver", p.min_driver->text}}));
  }
  if (!how.empty()) out += Tr(L, "common.paren", {{"text", Join(how, Tr(L, "common.list_sep"))}});
  return out;
}

// "For linux-x86_64 (this machine), any Python, driver 535.261.03 (CUDA 12.2, found on this machine)".
std::string TargetLine(const LookupTarget& t, bool with_driver, Lang L) {
  std::string platform = t.platform.Name();
  if (!t.platform_from_gpu.empty()) platform = Tr(L, "spec.platform_from_gpu", {{"platform", platform}, {"gpu", t.platform_from_gpu}});
  else if (t.platform_from_machine) platform = Tr(L, "lookup.for.platform_machine", {{"platform", platform}});
  std::string python = t.python ? Tr(L, "lookup.for.python", {{"python", t.python->ToString()}}) : Tr(L, "lookup.for.any_python");
  std::string cuda = t.driver_cuda ? t.driver_cuda->MajorMinor() : Tr(L, "common.unknown");
  std::string driver = !t.driver_checked ? Tr(L, "lookup.for.driver_not_checked")
                       : !t.driver        ? Tr(L, "lookup.for.no_driver")
                                          : Tr(L, t.driver_from_machine ? "lookup.for.driver_machine" : "lookup.for.driver_given",
                                               {{"driver", t.driver->text}, {"cuda", cuda}});
  if (!with_driver) return Tr(L, "lookup.for_platform", {{"platform", platform}, {"python", python}});
  return Tr(L, "lookup.for", {{"platform", platform}, {"python", python}, {"driver", driver}});
}

// The newest build as a sentence and, under it, the pip command that installs it.
std::string PickLines(const TorchPick& p, const std::string& id, const std::string& platform, const TextOptions& o) {
  std::string out = "  " + o.style.Bold(Tr(o.lang, id, {{"torch", PickText(p, o.lang)}, {"platform", platform}})) + "\n";
  if (!p.pip.empty()) out += "    " + p.pip + "\n";
  return out;
}

std::string SpanLines(const GpuVerdict& v, const TextOptions& o) {
  Lang L = o.lang;
  const GpuCodeSpan& s = v.span;
  std::string platform = v.target.platform.Name();
  if (s.first == nullptr) return Wrapped(Tr(L, "lookup.span.none", {{"platform", platform}}), "  ", Plain);
  std::string out;
  if (s.ended()) {
    out += Wrapped(Tr(L, s.unknown_after_last ? "lookup.span.ended_unknown" : "lookup.span.ended", {{"last", s.last->torch.Public()}, {"variants", Join(s.last_variants, " ")},
                                               {"platform", platform}}), "  ", Plain);
  } else if (!s.last_without.empty()) {
    out += Wrapped(Tr(L, "lookup.span.partial", {{"last", s.last->torch.Public()}, {"without", Join(s.last_without, " ")}}), "  ", Plain);
  }
  out += Wrapped(Tr(L, s.starts_later() ? "lookup.span.range_from" : "lookup.span.range", {{"platform", platform}, {"first", s.first->torch.Public()},
                                             {"first_variants", Join(s.first_variants, " ")}, {"last", s.last->torch.Public()},
                                             {"last_variants", Join(s.last_variants, " ")}}), "  ", Plain);
  return out;
}

// The answer lookup gpu starts with, for the target platform, Python and driver.
std::string GpuVerdictText(const GpuVerdict& v, const TextOptions& o) {
  Lang L = o.lang;
  std::string platform = v.target.platform.Name();
  std::string out = Wrapped(TargetLine(v.target, true, L), "", Plain);
  if (v.newest.release != nullptr) {
    out += PickLines(v.newest, "lookup.answer.newest", platform, o);
  } else {
    out += "  " + o.style.Bold(Tr(L, "lookup.answer.none_gpu", {{"platform", platform}})) + "\n";
    for (const Reason& r : v.why_none) out += Wrapped(TrArgs(L, r.id, r.args), "    ", Plain);
  }
  if (v.newer_driver.release != nullptr) {
    out += "  " + Tr(L, "lookup.answer.other_driver", {{"torch", PickText(v.newer_driver, L)}}) + "\n";
  }
  if (v.pypi_default != nullptr && v.newest.release != nullptr) {
    out += Wrapped(Tr(L, "lookup.answer.pypi_default", {{"torch", v.span.newest->torch.Public() + "+" + v.pypi_default->variant.tag}}), "  ", Plain);
  }
  out += SpanLines(v, o);
  for (const Reason& r : v.next) out += Wrapped(TrArgs(L, r.id, r.args), "  ", Plain);
  bool said_next = std::any_of(v.next.begin(), v.next.end(), [](const Reason& r) { return StartsWith(r.id, "lookup.next."); });
  if (!said_next && !v.span.ended() && v.span.first != nullptr) out += "  " + Tr(L, "lookup.next.none") + "\n";
  return out;
}

std::string DriverTable(const DriverAnswer& a, Lang L) {
  std::vector<std::vector<std::string>> rows = {{Tr(L, "col.variant"), "CUDA", Tr(L, "col.runs")}};
  for (const VariantFitAnswer& v : a.variants) rows.push_back({v.tag, v.cuda.MajorMinor(), DriverFitText(v.fit, L)});
  return RenderColumns(rows, "  ");
}

// "cu80 ... cu113  runs": one line per run of variants the driver runs the same way.
std::string DriverRuns(const DriverVerdict& v, Lang L) {
  std::vector<std::vector<std::string>> rows;
  for (const FitRun& r : v.runs) {
    rows.push_back({r.count == 1 ? r.first : r.first + " … " + r.last, DriverFitText(r.fit, L)});
  }
  return RenderColumns(rows, "    ");
}

std::string RenderDriver(const DriverAnswer& a, const LookupQuery& q, const TextOptions& o) {
  Lang L = o.lang;
  const DriverVerdict& v = a.verdict;
  std::string platform = v.target.platform.Name();
  std::string out = o.style.Bold(Tr(L, "lookup.driver.title", {{"driver", a.driver.text}, {"os", std::string(OsName(a.os))}})) + "\n";
  std::string cuda = a.served.cuda ? a.served.cuda->MajorMinor() : Tr(L, "common.unknown");
  out += "  " + Tr(L, a.served.lower_bound ? "lookup.driver.max_cuda_at_least" : "lookup.driver.max_cuda", {{"cuda", cuda}}) + "\n";
  out += Wrapped(TargetLine(v.target, false, L), "  ", Plain);
  if (v.newest.release != nullptr) {
    out += PickLines(v.newest, "lookup.answer.newest", platform, o);
  } else {
    out += "  " + o.style.Bold(Tr(L, "lookup.answer.none_driver", {{"platform", platform}})) + "\n";
  }
  if (v.newest_full.release != nullptr && (v.newest_full.release != v.newest.release || v.newest_full.variant != v.newest.variant)) {
    out += "  " + Tr(L, "lookup.driver.newest", {{"torch", PickText(v.newest_full, L)}}) + "\n";
  }
  out += Wrapped(Tr(L, "lookup.driver.meaning"), "  ", [&](std::string_view t) { return o.style.Dim(t); });
  out += "\n";
  if (a.variants.empty()) return out + "  " + Tr(L, "lookup.driver.no_variants", {{"platform", platform}}) + "\n";
  if (q.all) {
    out += DriverTable(a, L);
  } else {
    out += "  " + Tr(L, "lookup.driver.variants", {{"platform", platform}}) + "\n" + DriverRuns(v, L);
  }
  out += Wrapped(Tr(L, "lookup.driver.explain"), "  ", [&](std::string_view t) { return o.style.Dim(t); });
  if (!q.all) out += "  " + o.style.Dim(Tr(L, "lookup.driver.more")) + "\n";
  return out;
}

// Every release on every platform and whether its CUDA wheels carry code the GPU runs (--all).
std::string GpuMatrix(const GpuAnswer& a, const TextOptions& o) {
  Lang L = o.lang;
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
  return "\n" + Tr(L, "lookup.gpu.wheels") + "\n" + RenderColumns(rows, "  ");
}

std::string RenderGpu(const GpuAnswer& a, const LookupQuery& q, const TextOptions& o) {
  Lang L = o.lang;
  std::string title = a.models.empty() ? "sm_" + std::to_string(a.cc.Number()) : std::string(a.models.front()->name);
  std::string arch = a.architecture    ? a.architecture->name
                     : a.models.empty() ? Tr(L, "common.unknown")
                                        : std::string(a.models.front()->architecture);
  std::string headline = a.models.empty() ? Tr(L, "lookup.gpu.cc", {{"cc", a.cc.ToString()}, {"sm", a.cc.Sm()}, {"arch", arch}})
                                          : Tr(L, "lookup.gpu.headline", {{"name", title}, {"cc", a.cc.ToString()}, {"sm", a.cc.Sm()}, {"arch", arch}});
  std::string out = o.style.Bold(headline) + "\n";
  if (a.renamed_from) {
    out += "  " + Tr(L, "gpu.renamed_cc", {{"old", a.renamed_from->ToString()}, {"cc", a.cc.ToString()}}) + "\n";
  }
  if (a.verdict) out += GpuVerdictText(*a.verdict, o) + "\n";
  if (a.models.size() > 1) {
    std::vector<std::string> names;
    for (size_t i = 1; i < a.models.size() && i < 6; ++i) names.emplace_back(a.models[i]->name);
    out += Wrapped(Tr(L, "lookup.gpu.also", {{"list", Join(names, "; ")}}), "  ", Plain);
  }
  out += "  " + Tr(L, "lookup.gpu.first_cuda", {{"cuda", a.first_cuda ? a.first_cuda->MajorMinor() : Tr(L, "common.unknown")},
                                                {"driver", OrUnknown(a.min_driver.toolkit_min, L)}}) + "\n";
  if (a.last_cuda && !a.still_supported) {
    out += "  " + Tr(L, "lookup.gpu.last_cuda", {{"cuda", a.last_cuda->MajorMinor()}}) + "\n";
  }
  if (a.jetson) return out + Wrapped(Tr(L, "lookup.gpu.jetson"), "  ", Plain);
  if (!q.all) return out + "  " + o.style.Dim(Tr(L, "lookup.gpu.more")) + "\n";
  out += GpuMatrix(a, o);
  out += Wrapped(Tr(L, "lookup.gpu.rules"), "  ", [&](std::string_view t) { return o.style.Dim(t); });
  return out;
}

}  // namespace

std::string RenderLookup(const Catalog&, const LookupResult& r, const TextOptions& o) {
  if (r.not_found) return RenderNotFound(*r.not_found, o);
  if (r.torch) return RenderTorch(*r.torch, r.query, r.platform, o);
  if (r.cuda) return RenderCuda(*r.cuda, o);
  if (r.driver) return RenderDriver(*r.driver, r.query, o);
  return RenderGpu(*r.gpu, r.query, o);
}

std::string RenderCatalog(const Catalog& c, const TextOptions& o) {
  Lang L = o.lang;
  std::string out = o.style.Bold(Tr(L, "catalog.title", {{"date", c.data_date}})) + "\n";
  if (!c.index_date.empty()) out += o.style.Dim(Tr(L, "overlay.index_date", {{"index", c.index_date}})) + "\n";
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
