#include "report/doctor.h"

#include "core/path_form.h"
#include "diagnose/rules.h"
#include "plan/remedy_text.h"

namespace cudamatch {

namespace {

Json DriverJson(const DriverInfo& d) {
  Json j;
  std::optional<DriverVersion> version = d.version();
  j["version"] = OptString(version);
  j["cuda"] = d.cuda ? Json(d.cuda->MajorMinor()) : Json(nullptr);
  j["kernel_module_loaded"] = d.kernel_module_loaded;
  j["source"] = OptText(d.userspace_version ? d.userspace_source : d.kernel_source);
  j["kernel_version"] = OptString(d.kernel_version);
  j["kernel_flavor"] = OptText(KernelFlavorName(d.kernel_flavor));
  j["kernel_source"] = OptText(d.kernel_source);
  j["userspace_version"] = OptString(d.userspace_version);
  j["userspace_source"] = OptText(d.userspace_source);
  j["cuda_source"] = OptText(d.cuda_source);
  j["nvml"] = OptText(d.nvml_status());
  j["libcuda"] = StringList(d.libcuda_paths);
  j["wsl"] = d.wsl;
  j["container"] = d.container;
  j["device_nodes"] = StringList(d.device_node_paths);
  j["cuda_visible_devices"] = d.cuda_visible_devices ? Json(*d.cuda_visible_devices) : Json(nullptr);
  Json fc = Json::array();
  for (const ForwardCompat& f : d.forward_compat) fc.push_back(Json{{"path", f.path}, {"version", OptString(f.version)},
                                                               {"loader", f.loader_source.empty() ? Json(nullptr)
                                                                                                  : Json{{"source", f.loader_source}, {"dir", f.loader_dir}}}});
  j["forward_compat"] = fc;
  j["wsl_container"] = d.wsl_store_package.empty()
                           ? Json(nullptr)
                           : Json{{"store_package", d.wsl_store_package}, {"dxgdmal", d.wsl_dxgdmal}};
  return j;
}

Json GpuJson(const GpuInfo& g) {
  Json j;
  j["index"] = g.index;
  j["name"] = OptText(g.name);
  j["name_origin"] = g.name_origin == Origin::kNone ? Json(nullptr) : Json(OriginName(g.name_origin));
  j["compute_capability"] = OptString(g.cc);
  j["compute_capability_source"] = OptText(g.cc_source);
  j["architecture"] = OptText(g.architecture);
  j["memory_bytes"] = g.memory_bytes ? Json(*g.memory_bytes) : Json(nullptr);
  j["uuid"] = OptText(g.uuid);
  j["pci_bus_id"] = OptText(g.pci_bus_id);
  if (g.pci_device_id) {
    char buf[8];
    std::snprintf(buf, sizeof(buf), "%04x", *g.pci_device_id);
    j["pci_device_id"] = buf;
  } else {
    j["pci_device_id"] = nullptr;
  }
  j["source"] = g.source;
  return j;
}

Json IntList(const std::vector<int>& v) {
  Json j = Json::array();
  for (int x : v) j.push_back(x);
  return j;
}

Json BinaryJson(const BinaryInfo& b) {
  Json j;
  j["path"] = b.path;
  if (b.code) {
    j["gpu_code"] = Json{{"sass", IntList(b.code->sass)}, {"ptx", IntList(b.code->ptx)},
                         {"sass_arch_specific", IntList(b.code->sass_a)}, {"ptx_arch_specific", IntList(b.code->ptx_a)},
                         {"sass_family_specific", IntList(b.code->sass_f)}, {"ptx_family_specific", IntList(b.code->ptx_f)},
                         {"containers", b.code->containers}, {"entries", b.code->entries},
                         {"compressed", b.code->compressed}, {"sampled", b.code->sampled},
                         {"partial", b.code->partial}};
  } else {
    j["gpu_code"] = nullptr;
  }
  j["needed"] = StringList(b.needed);
  j["rpath"] = StringList(b.rpath);
  j["runpath"] = StringList(b.runpath);
  j["error"] = OptText(b.error);
  if (b.torch_lookup) {
    const SymbolLookup& l = *b.torch_lookup;
    j["torch_symbols"] = Json{{"looked_up", l.looked_up}, {"missing", l.missing},
                              {"first_missing", OptText(l.first_missing)}, {"torch_lib", l.torch_lib}};
  } else {
    j["torch_symbols"] = nullptr;
  }
  return j;
}

Json RuntimeJson(const RuntimeLib& r) {
  Json j;
  j["soname"] = r.soname;
  j["path"] = OptText(r.path);
  j["target"] = OptText(r.target);
  j["origin"] = r.origin ? Json(LibOriginName(*r.origin)) : Json(nullptr);
  j["version"] = OptString(r.version);
  j["version_source"] = OptText(r.version_source);
  j["wheel_path"] = OptText(r.wheel_path);
  j["wheel_version"] = OptString(r.wheel_version);
  j["needed_by"] = OptText(r.needed_by);
  return j;
}

Json ExtensionJson(const ExtensionInfo& x) {
  Json j;
  j["name"] = x.name;
  j["version"] = OptString(x.version);
  j["metadata"] = x.metadata_path;
  j["torch_requirements"] = StringList(x.torch_pins);
  j["links_torch"] = x.LinksTorch();
  Json runtime = Json::array();
  for (const RuntimeLib& r : x.runtime) runtime.push_back(RuntimeJson(r));
  j["runtime"] = runtime;
  Json libs = Json::array();
  for (const BinaryInfo& b : x.libs) libs.push_back(BinaryJson(b));
  j["libraries"] = libs;
  if (x.wheel_file.empty()) {
    j["wheel"] = nullptr;
  } else {
    j["wheel"] = Json{{"file", x.wheel_file}, {"source", x.wheel_source},
                      {"cxx11_abi", x.wheel_cxx11abi ? Json(*x.wheel_cxx11abi) : Json(nullptr)}};
  }
  if (x.built_torch.empty()) {
    j["built"] = nullptr;
  } else {
    j["built"] = Json{{"torch", x.built_torch}, {"cuda", x.built_cuda ? Json(x.built_cuda->MajorMinor()) : Json(nullptr)},
                      {"source", x.built_source}};
  }
  if (x.editable) {
    j["editable"] = Json{{"mode", EditableModeName(x.editable->mode)}, {"project", x.editable->project},
                         {"source", x.editable->source}};
  } else {
    j["editable"] = nullptr;
  }
  return j;
}

Json PackageJson(const PackageInfo& p) {
  Json j;
  j["version"] = OptString(p.version);
  j["cuda"] = p.cuda ? Json(p.cuda->MajorMinor()) : Json(nullptr);
  j["variant"] = OptText(VariantTag(p));
  j["hip"] = p.hip ? Json(*p.hip) : Json(nullptr);
  j["location"] = p.location;
  j["version_source"] = OptText(p.version_source);
  j["cuda_source"] = OptText(p.cuda_source);
  j["metadata_version"] = OptText(p.metadata_version);
  j["nvidia_requirements"] = StringList(p.nvidia_requirements);
  j["bundled_libs"] = StringList(p.bundled_libs);
  if (p.name == "torch") {
    Json bins = Json::array(), runtime = Json::array();
    for (const BinaryInfo& b : p.binaries) bins.push_back(BinaryJson(b));
    for (const RuntimeLib& r : p.runtime) runtime.push_back(RuntimeJson(r));
    j["libraries"] = bins;
    j["runtime"] = runtime;
  }
  return j;
}

// A ptxas triton runs (bundled, or named by a TRITON_PTXAS*_PATH variable): `var` is that
// variable, null for a bundled one; `version` null when the file carries no release line.
Json PtxasJson(const PtxasInfo& p) {
  return Json{{"tool", p.tool}, {"path", p.path}, {"version", OptString(p.version)},
              {"version_line", OptText(p.version_line)}, {"var", OptText(p.env_var)}};
}

Json PtxasList(const std::vector<PtxasInfo>& list) {
  Json j = Json::array();
  for (const PtxasInfo& p : list) j.push_back(PtxasJson(p));
  return j;
}

// `windows_executable` and `windows_prefix`: the paths as written on the Windows machine
// (C:\Users\ann\...), null for other systems' trees.
Json PythonJson(const PythonEnv& e, const Snapshot& snap) {
  Json j;
  j["executable"] = OptText(e.executable);
  j["prefix"] = e.prefix;
  bool windows = snap.platform.os == Os::kWindows;
  j["windows_executable"] = windows && !e.executable.empty() ? Json(WindowsPathForm(e.executable, snap.host.system_drive)) : Json(nullptr);
  j["windows_prefix"] = windows ? Json(WindowsPathForm(e.prefix, snap.host.system_drive)) : Json(nullptr);
  j["externally_managed"] = OptText(e.externally_managed);
  j["version"] = OptString(e.version);
  j["version_source"] = OptText(e.version_source);
  j["kind"] = PythonKindName(e.kind);
  j["name"] = OptText(e.name);
  j["active"] = e.active;
  j["active_reason"] = OptText(e.active_reason);
  j["found_by"] = StringList(e.found_by);
  j["cudamatch_own"] = e.cudamatch_own;
  j["site_packages"] = StringList(e.site_packages);
  Json pkgs = Json::object();
  // Appended, not looked up: the names are unique (a std::map), and ordered_json's operator[]
  // searches linearly, which is quadratic over an environment with 100,000 packages.
  auto& members = pkgs.get_ref<Json::object_t&>();
  members.reserve(e.packages.size());
  for (const auto& [name, p] : e.packages) members.emplace_back(name, PackageJson(p));
  j["packages"] = pkgs;
  Json exts = Json::array();
  for (const ExtensionInfo& x : e.extensions) exts.push_back(ExtensionJson(x));
  j["extensions"] = exts;
  j["triton_ptxas"] = PtxasList(e.triton_ptxas);
  return j;
}

Json JetsonJson(const JetsonInfo& jt) {
  Json j;
  j["model"] = OptText(jt.model);
  j["l4t"] = OptText(jt.l4t);
  j["l4t_source"] = OptText(jt.l4t_source);
  j["soc"] = OptText(jt.soc);
  j["soc_source"] = OptText(jt.soc_source);
  j["gpu_module"] = OptText(jt.gpu_module);
  j["jetpack"] = OptText(jt.jetpack);
  j["jetpack_cuda"] = jt.cuda ? Json(jt.cuda->MajorMinor()) : Json(nullptr);
  j["wheels"] = OptText(jt.wheels);
  j["wheels_kind"] = jt.wheels.empty() ? Json(nullptr) : Json(jt.wheels_index ? "index" : "page");
  j["sbsa"] = jt.sbsa ? Json(*jt.sbsa) : Json(nullptr);
  return j;
}

Json HostJson(const HostInfo& h) {
  Json j;
  j["os"] = OptText(h.os_name);
  j["os_id"] = OptText(h.os_id);
  j["arch"] = OptText(h.arch);
  j["glibc"] = OptText(h.glibc);
  j["gcc_major"] = h.gcc_major ? Json(*h.gcc_major) : Json(nullptr);
  Json ld = Json::array();
  for (const LibraryPathEntry& e : h.ld_library_path) {
    ld.push_back(Json{{"dir", e.dir}, {"cuda_libs", StringList(e.cuda_libs)}, {"cudnn_version", OptString(e.cudnn_version)}});
  }
  j["ld_library_path"] = ld;
  j["pip_index_url"] = OptText(h.pip_index_url);
  j["pip_index_source"] = OptText(h.pip_index_source);
  j["system_drive"] = OptText(h.system_drive);
  j["jetson"] = h.jetson ? JetsonJson(*h.jetson) : Json(nullptr);
  j["triton_ptxas_env"] = PtxasList(h.triton_ptxas_env);
  for (auto [key, t] : {std::pair{"path_python", &h.path_python}, std::pair{"path_pip", &h.path_pip}}) {
    j[key] = t->empty() ? Json(nullptr) : Json{{"path", t->path}, {"prefix", t->prefix}, {"entry", t->written}};
  }
  return j;
}

std::string_view OutcomeName(Evidence::Outcome o) {
  switch (o) {
    case Evidence::Outcome::kFound: return "found";
    case Evidence::Outcome::kMissing: return "missing";
    case Evidence::Outcome::kError: return "error";
    case Evidence::Outcome::kSkipped: return "skipped";
  }
  return "missing";
}

Json ArgsJson(const MessageArgs& args) {
  Json j = Json::object();
  for (const auto& [k, v] : args) j[k] = v ? Json(*v) : Json(nullptr);
  return j;
}

Json GpuGroupsJson(const Snapshot& s, const std::vector<GpuGroup>& groups) {
  Json out = Json::array();
  for (const GpuGroup& g : groups) {
    const GpuInfo& face = s.gpus[g.members.front()];
    Json indices = Json::array();
    for (size_t i : g.members) indices.push_back(s.gpus[i].index);
    out.push_back(Json{{"name", OptText(face.name)}, {"compute_capability", OptString(face.cc)},
                       {"count", g.members.size()}, {"indices", indices}});
  }
  return out;
}

// The summary block as data: the machine's one-line facts, a verdict per environment with torch
// (and the finding that stops it), the counts.
Json SummaryJson(const Snapshot& s, const std::vector<Finding>& findings) {
  Summary sum = Summarize(s, findings);
  std::optional<DriverVersion> version = s.driver.version();
  Json machine = {{"driver_state", DriverStateName(sum.driver)}, {"driver_version", OptString(version)},
                  {"driver_cuda", s.driver.cuda ? Json(s.driver.cuda->MajorMinor()) : Json(nullptr)},
                  {"gpus", GpuGroupsJson(s, sum.gpus)}, {"gpus_not_visible", sum.gpus_not_visible}, {"container", s.driver.container}, {"wsl", s.driver.wsl}};
  Json envs = Json::array();
  for (const EnvSummary& e : sum.envs) {
    const PythonEnv& env = s.pythons[static_cast<size_t>(e.env)];
    const Finding* reason = e.reason >= 0 ? &findings[static_cast<size_t>(e.reason)] : nullptr;
    envs.push_back(Json{{"prefix", env.prefix}, {"torch", OptString(env.packages.at("torch").version)},
                        {"verdict", TorchVerdictName(e.verdict)},
                        {"reason", reason ? Json(reason->id) : Json(nullptr)},
                        {"reason_text", reason ? Json(TrArgs(Lang::kEn, "summary.reason." + reason->id, reason->args)) : Json(nullptr)},
                        {"errors", e.errors}, {"warnings", e.warnings}});
  }
  return Json{{"machine", machine}, {"environments", envs}, {"environments_without_torch", sum.without_torch},
              {"errors", sum.errors}, {"warnings", sum.warnings}};
}

}  // namespace

Json FindingJson(const Finding& f) {
  Json j;
  j["id"] = f.id;
  j["severity"] = SeverityName(f.severity);
  j["message"] = TrArgs(Lang::kEn, "finding." + f.id + ".message", f.args);
  j["why"] = TrArgs(Lang::kEn, "finding." + f.id + ".why", f.args);
  Json evidence = Json::array();
  for (const EvidenceItem& e : f.evidence) {
    evidence.push_back(Json{{"id", e.id}, {"args", ArgsJson(e.args)}, {"text", TrArgs(Lang::kEn, e.id, e.args)}});
  }
  j["evidence"] = evidence;
  j["fix"] = OptText(RemedyText(f.remedy));
  j["fix_next"] = OptText(RemedyText(f.remedy_next));
  j["topic"] = f.topic;
  j["args"] = ArgsJson(f.args);
  j["merged"] = StringList(f.merged);
  return j;
}

Json DoctorJson(const Snapshot& snap, const std::vector<Finding>& findings) {
  Json j = JsonHeader("doctor");
  j["root"] = snap.root;
  j["platform"] = snap.platform.Name();
  j["driver"] = DriverJson(snap.driver);
  j["driver"]["device_nodes_readable"] = !UnreadableUnder(snap, "/dev");
  Json gpus = Json::array(), toolkits = Json::array(), cudnn = Json::array(), pythons = Json::array();
  for (const GpuInfo& g : snap.gpus) gpus.push_back(GpuJson(g));
  for (const ToolkitInfo& t : snap.toolkits) {
    toolkits.push_back(Json{{"version", OptString(t.version)}, {"path", t.path}, {"active", t.active},
                            {"active_reason", OptText(t.active_reason)}, {"kind", ToolkitKindName(t.kind)}, {"nvcc", t.has_nvcc},
                            {"version_source", OptText(t.version_source)}, {"found_by", StringList(t.found_by)},
                            {"max_gcc", t.max_gcc ? Json(*t.max_gcc) : Json()}, {"max_gcc_source", OptText(t.max_gcc_source)},
                            {"ptxas", OptText(t.ptxas)}});
  }
  for (const CudnnInfo& c : snap.cudnn) {
    cudnn.push_back(Json{{"version", OptString(c.version)}, {"path", c.path}, {"kind", CudnnKindName(c.kind)}, {"source", c.source}});
  }
  for (const PythonEnv& e : snap.pythons) {
    pythons.push_back(PythonJson(e, snap));
    pythons.back()["packages_readable"] = !UnreadableUnder(snap, e.prefix);
  }
  j["gpus"] = gpus;
  j["toolkits"] = toolkits;
  j["cudnn"] = cudnn;
  j["pythons"] = pythons;
  j["host"] = HostJson(snap.host);
  Json fs = Json::array();
  for (const Finding& f : findings) fs.push_back(FindingJson(f));
  j["findings"] = fs;
  j["ok"] = !HasErrors(findings);
  j["summary"] = SummaryJson(snap, findings);
  Json unreadable = Json::array(), implausible = Json::array();
  for (const Unreadable& u : snap.unreadable) unreadable.push_back(Json{{"path", u.path}, {"reason", u.reason}});
  for (const ImplausibleValue& v : snap.implausible) {
    implausible.push_back(Json{{"source", v.source}, {"value", v.value}, {"expected", v.expected}});
  }
  j["unreadable"] = unreadable;
  j["complete"] = snap.unreadable.empty();
  j["implausible"] = implausible;
  Json trail = Json::array();
  for (const Evidence& e : snap.trail) {
    trail.push_back(Json{{"probe", e.probe}, {"source", e.source}, {"outcome", OutcomeName(e.outcome)}, {"detail", e.detail}});
  }
  j["trail"] = trail;
  if (snap.paste) j["paste"] = PasteJson(*snap.paste);
  return j;
}

}  // namespace cudamatch
