#include <algorithm>

#include "core/safe_text.h"
#include "core/text.h"
#include "diagnose/rules.h"
#include "diagnose/summary.h"
#include "plan/remedy_text.h"
#include "report/doctor.h"
#include "report/explain.h"
#include "report/message_ids.h"

namespace cudamatch {

bool UnreadableUnder(const Snapshot& snap, std::string_view dir) {
  // `dir` is a path of the tree ("/Users/ann/venv") or, in a Windows report, as its user writes
  // it ("C:\Users\ann\venv"): either separator ends it.
  bool ends_in_separator = EndsWith(dir, "/") || EndsWith(dir, "\\");
  return std::any_of(snap.unreadable.begin(), snap.unreadable.end(), [&](const Unreadable& u) {
    if (u.path == dir) return true;
    if (!StartsWith(u.path, dir) || u.path.size() == dir.size()) return false;
    char next = u.path[dir.size()];
    return ends_in_separator || next == '/' || next == '\\';
  });
}

namespace {

// A value (a name, a path, a version read from a file) put into the report outside a table cell
// or a message argument: redacted, and escaped so that it never starts a line of its own.
std::string V(std::string_view value) { return SafeText(value, Sink::kValue); }

// " (text)" in English, "（text）" in Chinese.
std::string Paren(Lang L, const std::string& text) { return Tr(L, "common.paren", {{"text", text}}); }

std::string Section(const std::string& id, const TextOptions& o) { return "\n" + o.style.Bold(Tr(o.lang, id)) + "\n"; }

std::string Gib(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.0f GiB", static_cast<double>(bytes) / (1024.0 * 1024 * 1024));
  return buf;
}

// The three "CUDA versions" people confuse, side by side, one line of meaning each.
std::string ThreeCudas(const Snapshot& s, const TextOptions& o) {
  Lang L = o.lang;
  std::vector<std::vector<std::string>> rows;
  std::string none = Tr(L, s.driver.installed() ? "common.unknown" : "common.none");
  rows.push_back({Tr(L, "doctor.cuda.driver"), s.driver.cuda ? s.driver.cuda->MajorMinor() : none,
                  Tr(L, DriverCudaMeaningId(s.driver.version()))});
  if (s.toolkits.empty()) rows.push_back({Tr(L, "doctor.cuda.toolkit"), Tr(L, "common.none"), Tr(L, "doctor.cuda.toolkit_meaning")});
  for (const ToolkitInfo& t : s.toolkits) {
    rows.push_back({Tr(L, "doctor.cuda.toolkit"), OrUnknown(t.version, L) + (t.active ? " *" : ""),
                    Tr(L, "doctor.cuda.toolkit_meaning"), o.style.Dim(t.path)});
  }
  bool any_torch = false;
  for (const PythonEnv& e : s.pythons) {
    auto it = e.packages.find("torch");
    if (it == e.packages.end()) continue;
    any_torch = true;
    const PackageInfo& p = it->second;
    std::string value = p.cuda ? p.cuda->MajorMinor() : p.hip ? "ROCm " + *p.hip : IsCpuBuild(p) ? "CPU" : Tr(L, "common.unknown");
    rows.push_back({Tr(L, "doctor.cuda.torch"), value, Tr(L, "doctor.cuda.torch_meaning"), o.style.Dim(e.prefix)});
  }
  bool unread = std::any_of(s.pythons.begin(), s.pythons.end(), [&](const PythonEnv& e) { return UnreadableUnder(s, e.prefix); });
  if (!any_torch) {
    rows.push_back({Tr(L, "doctor.cuda.torch"), Tr(L, unread ? "common.unreadable" : "common.none"), Tr(L, "doctor.cuda.torch_meaning")});
  }
  return Section("doctor.section.cudas", o) + RenderColumnsFit(rows, "  ", o.width);
}

std::string DriverSection(const Snapshot& s, const TextOptions& o) {
  Lang L = o.lang;
  const DriverInfo& d = s.driver;
  std::vector<std::vector<std::string>> rows;
  bool windows = s.platform.os == Os::kWindows;  // one driver, no kernel module or device nodes to show
  if (!windows && d.kernel_version) {
    rows.push_back({Tr(L, "doctor.driver.kernel"), d.kernel_version->text + Paren(L, Tr(L, FlavorMessageId(d.kernel_flavor))),
                    o.style.Dim(d.kernel_source)});
  } else if (!windows) {
    if (s.host.jetson) {  // the Tegra GPU driver is L4T's: no desktop module to load
      const std::string& module = s.host.jetson->gpu_module;
      rows.push_back({Tr(L, "doctor.driver.kernel"),
                      module.empty() ? Tr(L, "doctor.driver.kernel_tegra") : Tr(L, "doctor.driver.kernel_tegra_module", {{"version", module}}),
                      module.empty() ? "" : o.style.Dim("/proc/driver/nvidia/version")});
    } else {
      const char* none = d.wsl ? "doctor.driver.kernel_wsl" : s.paste ? "doctor.paste.not_in_paste" : "doctor.driver.kernel_none";
      rows.push_back({Tr(L, "doctor.driver.kernel"), Tr(L, none), ""});
    }
  }
  rows.push_back({Tr(L, "doctor.driver.userspace"), d.userspace_version ? d.userspace_version->text
                                                      : d.libcuda_paths.empty() ? Tr(L, "common.none") : Tr(L, "common.unknown"),
                  o.style.Dim(d.userspace_version ? d.userspace_source : Join(d.libcuda_paths, " "))});
  rows.push_back({Tr(L, "doctor.driver.cuda"), d.cuda ? d.cuda->MajorMinor() : Tr(L, "common.unknown"), o.style.Dim(d.cuda_source)});
  if (d.nvml != NvmlState::kNotTried) {
    rows.push_back({"NVML", NvmlText(d, L), ""});
  }
  std::string no_devices = Tr(L, s.paste                       ? "doctor.paste.not_in_paste"
                                 : UnreadableUnder(s, "/dev") ? "common.unreadable"
                                                              : "common.none");
  if (!windows) rows.push_back({Tr(L, "doctor.driver.devices"), d.device_node_paths.empty() ? no_devices : Join(d.device_node_paths, " "), ""});
  if (d.wsl) rows.push_back({"WSL", Tr(L, "common.yes"), "/proc/version"});
  if (d.container) rows.push_back({Tr(L, "doctor.driver.container"), Tr(L, "common.yes"), o.style.Dim(d.container_source)});
  if (d.cuda_visible_devices) rows.push_back({"CUDA_VISIBLE_DEVICES", "\"" + *d.cuda_visible_devices + "\"", ""});
  for (const ForwardCompat& fc : d.forward_compat) {
    std::string where = fc.path;
    if (!fc.loader_source.empty()) {
      where += "  (" + Tr(L, "evidence.forward_compat_loader", {{"source", fc.loader_source}, {"dir", fc.loader_dir}}) + ")";
    }
    rows.push_back({Tr(L, "doctor.driver.forward_compat"), OrUnknown(fc.version, L), o.style.Dim(where)});
  }
  return Section("doctor.section.driver", o) + RenderColumnsFit(rows, "  ", o.width);
}

std::string GpuSection(const Snapshot& s, const TextOptions& o) {
  Lang L = o.lang;
  if (s.gpus.empty()) {
    const char* id = s.platform.os != Os::kWindows ? "doctor.gpus.none"
                     : s.root == "/"               ? "doctor.gpus.windows_nvml_none"  // this machine
                                                   : "doctor.gpus.windows_not_visible";
    return Section("doctor.section.gpus", o) + "  " + Tr(L, id) + "\n";
  }
  std::vector<std::vector<std::string>> rows;
  for (const GpuGroup& group : GroupGpus(s.gpus)) {  // identical GPUs: one row with their count
    const GpuInfo& g = s.gpus[group.members.front()];
    std::string cc = g.cc ? g.cc->ToString() + Paren(L, g.cc->Sm() + (g.architecture.empty() ? "" : Tr(L, "common.list_sep") + g.architecture))
                          : Tr(L, "common.unknown");
    std::vector<std::string> indices, buses;
    for (size_t i : group.members) {
      indices.push_back(std::to_string(s.gpus[i].index));
      buses.push_back(s.gpus[i].pci_bus_id);
    }
    bool one = group.members.size() == 1;
    rows.push_back({Join(indices, ","), GroupLabel(s.gpus, group), cc, g.memory_bytes ? Gib(*g.memory_bytes) : "",
                    one ? g.pci_bus_id : o.style.Dim(Join(buses, " ")), one ? o.style.Dim(g.source) : ""});
  }
  return Section("doctor.section.gpus", o) + RenderColumnsFit(rows, "  ", o.width);
}

std::string ToolkitSection(const Snapshot& s, const TextOptions& o) {
  Lang L = o.lang;
  if (s.toolkits.empty()) return Section("doctor.section.toolkits", o) + "  " + Tr(L, "doctor.toolkits.none") + "\n";
  std::vector<std::vector<std::string>> rows;
  for (const ToolkitInfo& t : s.toolkits) {
    std::string active = t.active ? Tr(L, "doctor.toolkits.active", {{"reason", t.active_reason}}) : "";
    rows.push_back({t.active ? "*" : " ", OrUnknown(t.version, L), t.path, active, o.style.Dim(t.version_source)});
  }
  return Section("doctor.section.toolkits", o) + RenderColumnsFit(rows, "  ", o.width);
}

std::string CudnnSection(const Snapshot& s, const TextOptions& o) {
  Lang L = o.lang;
  if (s.cudnn.empty()) return Section("doctor.section.cudnn", o) + "  " + Tr(L, "doctor.cudnn.none") + "\n";
  std::vector<std::vector<std::string>> rows;
  for (const CudnnInfo& c : s.cudnn) {
    rows.push_back({OrUnknown(c.version, L), Tr(L, CudnnKindMessageId(c.kind)), c.path, o.style.Dim(c.source)});
  }
  return Section("doctor.section.cudnn", o) + RenderColumnsFit(rows, "  ", o.width);
}

std::string PackageLine(const PackageInfo& p, Lang L) {
  std::string out = V(p.name) + " " + V(OrUnknown(p.version, L));
  if (p.cuda) out += Paren(L, "CUDA " + p.cuda->MajorMinor());
  else if (p.hip) out += Paren(L, "ROCm " + *p.hip);
  else if (IsCpuBuild(p)) out += Paren(L, "CPU");
  return out;
}

// The CUDA sonames a library links: "libcudart.so.12 libcudnn.so.9".
std::string CudaLinks(const BinaryInfo& b) {
  std::vector<std::string> out;
  for (const std::string& n : b.needed) {
    if (StartsWith(n, "libcudart.") || StartsWith(n, "libcudnn") || StartsWith(n, "libcublas")) out.push_back(n);
  }
  return Join(out, " ");
}

// What torch's libraries and the environment's CUDA extensions carry and load.
std::string BinaryLines(const PythonEnv& e, const TextOptions& o) {
  Lang L = o.lang;
  std::string out;
  if (auto it = e.packages.find("torch"); it != e.packages.end()) {
    for (const BinaryInfo& b : it->second.binaries) {
      if (!b.code) continue;
      out += "      " + Tr(L, "doctor.pythons.gpu_code", {{"file", std::string(Basename(b.path))},
                                                          {"list", FatbinCodeNames(*b.code)}}) + "\n";
    }
    for (const RuntimeLib& r : it->second.runtime) {
      std::string where = r.path.empty() ? Tr(L, "doctor.pythons.runtime_missing")
                                         : r.path + " (" + std::string(LibOriginName(*r.origin)) + ")";
      out += "      " + Tr(L, "doctor.pythons.runtime", {{"soname", r.soname}, {"where", where}}) + "\n";
    }
  }
  for (const ExtensionInfo& x : e.extensions) {
    for (const BinaryInfo& b : x.libs) {
      std::string code = b.code ? FatbinCodeNames(*b.code) : Tr(L, "doctor.pythons.no_gpu_code");
      std::string links = CudaLinks(b);
      // A CUDA package, neither linking nor requiring torch, says so: it is not judged against torch.
      bool cuda_package = !x.LinksTorch() && x.torch_pins.empty();
      out += "      " + Tr(L, cuda_package ? "doctor.pythons.cuda_package" : "doctor.pythons.extension",
                           {{"package", x.name + " " + OrUnknown(x.version, L)},
                                                           {"file", std::string(Basename(b.path))}, {"list", code}}) +
             (links.empty() ? "" : "  " + o.style.Dim(links)) + "\n";
    }
  }
  return out;
}

// The ptxas binaries the environment's triton bundles, each with the CUDA release its text names
// and its path inside the site directory.
std::string TritonPtxasLines(const PythonEnv& e, const TextOptions& o) {
  std::string out;
  for (const PtxasInfo& p : e.triton_ptxas) {
    std::string_view where = p.path;
    for (const std::string& site : e.site_packages) {
      if (StartsWith(where, site + "/")) where.remove_prefix(site.size() + 1);
    }
    out += "      " + Tr(o.lang, "doctor.pythons.triton_ptxas", {{"tool", p.tool}, {"version", OrUnknown(p.version, o.lang)}}) +
           "  " + o.style.Dim(V(std::string(where))) + "\n";
  }
  return out;
}

std::string PythonSection(const Snapshot& s, const TextOptions& o) {
  Lang L = o.lang;
  std::string out = Section("doctor.section.pythons", o);
  if (s.pythons.empty()) return out + "  " + Tr(L, "doctor.pythons.none") + "\n";
  for (const PythonEnv& e : s.pythons) {
    std::string version = "Python " + OrUnknown(e.version, L);
    std::string active = e.active ? "  " + Tr(L, "doctor.toolkits.active", {{"reason", e.active_reason}}) : "";
    out += std::string(e.active ? "  * " : "    ") + o.style.Cyan(V(e.prefix)) + "  " + V(version) + "  " + Tr(L, PythonKindMessageId(e.kind)) +
           (e.name.empty() ? "" : " '" + V(e.name) + "'") + active +
           (e.cudamatch_own ? "  " + o.style.Dim(Tr(L, "doctor.pythons.cudamatch_own")) : "") + "\n";
    std::vector<std::string> pkgs;
    for (const char* name : {"torch", "torchvision", "torchaudio", "triton"}) {
      if (auto it = e.packages.find(name); it != e.packages.end()) pkgs.push_back(PackageLine(it->second, L));
    }
    size_t nvidia = std::count_if(e.packages.begin(), e.packages.end(),
                                  [](const auto& kv) { return StartsWith(kv.first, "nvidia-"); });
    if (nvidia > 0) pkgs.push_back(Tr(L, "doctor.pythons.nvidia_wheels", {{"count", std::to_string(nvidia)}}));
    const char* no_torch = UnreadableUnder(s, e.prefix) ? "doctor.pythons.torch_unreadable" : "doctor.pythons.no_torch";
    out += "      " + (pkgs.empty() ? o.style.Dim(Tr(L, no_torch)) : Join(pkgs, " · ")) + "\n";
    out += BinaryLines(e, o);
    out += TritonPtxasLines(e, o);
    if (o.verbose) {
      for (const auto& [name, p] : e.packages) {
        out += "      " + o.style.Dim(V(name + " " + OrUnknown(p.version, L) + "  " + p.version_source)) + "\n";
      }
    }
  }
  return out;
}

// A Jetson: the board, its L4T and JetPack, the SoC, and where the JetPack's torch builds are.
void JetsonRows(const JetsonInfo& j, const TextOptions& o, std::vector<std::vector<std::string>>& rows) {
  Lang L = o.lang;
  std::string board = j.model.empty() ? "Jetson" : j.model;
  if (!j.soc.empty()) board += " (" + j.soc + ")";
  rows.push_back({"Jetson", board});
  rows.push_back({"L4T", OrUnknownText(j.l4t, L) + (j.l4t_source.empty() ? "" : "  " + o.style.Dim(j.l4t_source))});
  if (!j.jetpack.empty()) {
    std::string cuda = j.cuda ? ", CUDA " + j.cuda->MajorMinor() : "";
    rows.push_back({"JetPack", j.jetpack + cuda + "  " + o.style.Dim("catalog: jetpack.tsv")});
    rows.push_back({Tr(L, "doctor.host.jetson_wheels"), j.wheels});
  }
}

std::string HostSection(const Snapshot& s, const TextOptions& o) {
  Lang L = o.lang;
  const HostInfo& h = s.host;
  std::vector<std::vector<std::string>> rows;
  rows.push_back({Tr(L, "doctor.host.os"), OrUnknownText(h.os_name, L) + (h.arch.empty() ? "" : " " + h.arch)});
  if (!h.glibc.empty()) rows.push_back({"glibc", h.glibc});
  bool windows = s.platform.os == Os::kWindows;
  if (!windows) rows.push_back({"GCC", h.gcc_major ? std::to_string(*h.gcc_major) : Tr(L, "common.unknown")});
  for (const PathTool* t : {&h.path_python, &h.path_pip}) {
    if (!t->empty()) rows.push_back({Tr(L, t == &h.path_python ? "doctor.host.path_python" : "doctor.host.path_pip"), t->path});
  }
  for (const LibraryPathEntry& e : h.ld_library_path) {
    rows.push_back({"LD_LIBRARY_PATH", e.dir + (e.cuda_libs.empty() ? "" : "  (" + Join(e.cuda_libs, " ") + ")")});
  }
  if (!h.pip_index_url.empty()) rows.push_back({Tr(L, "doctor.host.pip_index"), h.pip_index_url + "  " + o.style.Dim(h.pip_index_source)});
  if (h.jetson) JetsonRows(*h.jetson, o, rows);
  return Section("doctor.section.host", o) + RenderColumnsFit(rows, "  ", o.width);
}

// Places that exist but could not be read: what this report could not check.
std::string UnreadableSection(const Snapshot& s, const TextOptions& o) {
  if (s.unreadable.empty()) return "";
  std::vector<std::vector<std::string>> rows;
  for (const Unreadable& u : s.unreadable) rows.push_back({u.path, o.style.Dim(u.reason)});
  return Section("doctor.section.unreadable", o) + "  " + Tr(o.lang, "doctor.unreadable.intro") + "\n" +
         RenderColumnsFit(rows, "  ", o.width);
}

std::string NoFindings(const Snapshot& s, const TextOptions& o) {
  if (s.unreadable.empty()) return "  " + o.style.Green(Tr(o.lang, "doctor.findings.none")) + "\n";
  return "  " + o.style.Yellow(Tr(o.lang, "doctor.findings.none_incomplete", {{"count", std::to_string(s.unreadable.size())}})) + "\n";
}

std::string SeverityLabel(Severity sev, const TextOptions& o) {
  std::string text = Tr(o.lang, "severity." + std::string(SeverityName(sev)));
  if (sev == Severity::kError) return o.style.Red(text);
  if (sev == Severity::kWarning) return o.style.Yellow(text);
  return o.style.Cyan(text);
}

// "fix: <command>" on one line when it fits; else the label alone and each command line under
// it, whole, so that it can be copied as it is.
std::string CommandLines(Lang L, const char* label_id, const std::string& commands, const TextOptions& o) {
  if (commands.empty()) return "";
  std::string one = "    " + Labelled(L, label_id, commands);
  if (commands.find('\n') == std::string::npos && DisplayWidth(one) <= o.width) {
    return "    " + Labelled(L, label_id, o.style.Green(commands)) + "\n";
  }
  std::string out = "    " + Tr(L, label_id) + "\n";
  for (std::string_view line : Lines(commands)) out += "      " + o.style.Green(SafeText(line, Sink::kValue)) + "\n";
  return out;
}

}  // namespace

std::string RenderFinding(const Finding& f, const TextOptions& o) {
  Lang L = o.lang;
  std::string out = WrapLine("  " + SeverityLabel(f.severity, o) + " " + o.style.Bold(TrArgs(L, "finding." + f.id + ".message", f.args)) +
                             "  " + o.style.Dim("[" + f.id + "]"), o.width, "    ");
  out += WrapLine("    " + Labelled(L, "finding.why", TrArgs(L, "finding." + f.id + ".why", f.args)), o.width, "      ");
  for (const EvidenceItem& e : f.evidence) {
    bool also = std::any_of(e.args.begin(), e.args.end(), [](const auto& kv) { return kv.first == "also"; });
    out += WrapLine("    " + Labelled(L, also ? "finding.also" : "finding.evidence", TrArgs(L, e.id, e.args)), o.width, "      ");
  }
  out += CommandLines(L, "finding.fix", RemedyText(f.remedy), o);
  out += CommandLines(L, "finding.fix_next", RemedyText(f.remedy_next), o);
  if (!f.topic.empty()) out += "    " + o.style.Dim(Tr(L, "finding.more", {{"topic", f.topic}})) + "\n";
  return out;
}

std::string RenderTrail(const std::vector<Evidence>& trail, const TextOptions& o) {
  std::string out = Section("doctor.section.trail", o);
  static const char* kOutcome[] = {"found", "missing", "error", "skipped"};
  for (const Evidence& e : trail) {
    out += "  " + V(e.probe) + "  " + kOutcome[static_cast<int>(e.outcome)] + "  " + V(e.source) +
           (e.detail.empty() ? "" : "  " + o.style.Dim(V(e.detail))) + "\n";
  }
  return out;
}

std::string RenderDoctor(const Snapshot& s, const std::vector<Finding>& findings, const TextOptions& o) {
  Lang L = o.lang;
  std::string out = RenderDoctorSummary(s, findings, o);
  out += RenderPasteBlock(s, o);
  out += Section("doctor.section.findings", o);
  if (findings.empty()) out += NoFindings(s, o);
  for (const Finding& f : findings) out += RenderFinding(f, o);
  std::string root = s.root == "/" ? "" : Tr(L, "doctor.root", {{"root", s.root}});
  out += "\n" + WrapLine(o.style.Bold(Tr(L, "doctor.section.details")) + (root.empty() || StartsWith(root, "（") ? "" : "  ") + root,
                         o.width, "    ");
  out += RenderDoctorDetails(s, o);
  return out;
}

std::string RenderDoctorDetails(const Snapshot& s, const TextOptions& o) {
  std::string details = ThreeCudas(s, o) + DriverSection(s, o) + GpuSection(s, o) + ToolkitSection(s, o) + CudnnSection(s, o) +
                        PythonSection(s, o) + HostSection(s, o) + UnreadableSection(s, o);
  if (o.verbose) details += RenderTrail(s.trail, o);
  return WrapLines(details, o.width, 4);  // what the tables could not fit, folded
}

}  // namespace cudamatch
