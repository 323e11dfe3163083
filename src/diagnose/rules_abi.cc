// The C++ ABI of torch's API between an extension and torch: the torch symbols an extension's
// shared objects need (.dynsym, undefined) against those torch's libc10.so defines. A build made
// with the other _GLIBCXX_USE_CXX11_ABI fails to import with "undefined symbol:
// _ZN3c106detail14torchCheckFail...". PyPI's torch wheels used the old ABI before 2.7 and the
// new one from 2.7 on (pytorch/pytorch#143962), 2.6.0+cu126 already the new one
// (Dao-AILab/flash-attention#1644): the ABI is read from the libraries, never from the version.
#include "catalog/extensions.h"
#include "core/text.h"
#include "diagnose/rule_fns.h"
#include "probe/parsers.h"

namespace cudamatch {

namespace {

struct TorchAbi {
  bool cxx11 = false;
  std::string symbol;  // one symbol libc10.so defines, in that ABI
  std::string file;
};

// The ABI torch's libraries export, when one of them defines torch symbols of one ABI only.
std::optional<TorchAbi> TorchExports(const PackageInfo& torch) {
  for (const BinaryInfo& b : torch.abi_libs) {
    bool cxx11 = !b.symbols.defines_cxx11.empty();
    if (cxx11 == !b.symbols.defines_old.empty()) continue;
    return TorchAbi{cxx11, cxx11 ? b.symbols.defines_cxx11 : b.symbols.defines_old, b.path};
  }
  return std::nullopt;
}

std::string AbiName(bool cxx11) { return cxx11 ? "_GLIBCXX_USE_CXX11_ABI=1" : "_GLIBCXX_USE_CXX11_ABI=0"; }

// The nested name of a mangled symbol: _ZN3c106detail14torchCheckFailEPKcS2_jRKSs ->
// c10::detail::torchCheckFail; the name itself when it is not of that shape.
std::string ShortName(std::string_view m) {
  size_t i = StartsWith(m, "_ZNK") ? 4 : StartsWith(m, "_ZN") ? 3 : 0;
  if (i == 0) return std::string(m);
  std::string out;
  while (i < m.size() && m[i] >= '0' && m[i] <= '9') {
    size_t len = 0;
    while (i < m.size() && m[i] >= '0' && m[i] <= '9' && len < m.size()) len = len * 10 + static_cast<size_t>(m[i++] - '0');
    if (len > m.size() - i) return std::string(m);
    out += (out.empty() ? "" : "::") + std::string(m.substr(i, len));
    i += len;
  }
  return out.empty() ? std::string(m) : out;
}

std::string PythonTag(const PythonEnv& env) {
  return env.version ? "cp" + std::to_string(env.version->major) + std::to_string(env.version->minor) : "";
}

// A torch that PyTorch published: no nightly, pre-release or local build (NGC's
// 2.2.0a0+81ea7a4), whose exact build no prebuilt extension wheel was made against.
bool PublishedTorch(const Pep440& v) {
  std::string label = v.LocalLabel();
  bool known_label = label.empty() || label == "cpu" || StartsWith(label, "cu") || StartsWith(label, "rocm");
  return !v.IsPrerelease() && known_label;
}

// The catalog's wheel of this release that states torch's ABI and fits its release and CUDA.
const ExtensionWheel* AbiWheel(const Snapshot& s, const Catalog& c, const PackageInfo& torch, const ExtensionInfo& ext,
                               bool cxx11) {
  if (!ext.version || !torch.cuda) return nullptr;
  const ExtensionRelease* e = FindExtension(c, ext.name, *ext.version);
  if (e == nullptr) return nullptr;
  TorchBuild build{*torch.version, torch.cuda, cxx11 ? CxxAbi::kCxx11 : CxxAbi::kPreCxx11};
  for (const ExtensionWheel* w : WheelsFor(c, *e, s.platform.Name(), build)) {
    if (w->abi != CxxAbi::kUnknown && w->location == WheelLocation::kGithubRelease) return w;
  }
  return nullptr;
}

// The fix: the prebuilt wheel for this torch and ABI; else a rebuild with the nvcc of torch's
// CUDA major (CUDA_HOME set to it); else the rebuild, after the toolkit the evidence names.
RemedyNeed AbiNeed(const Snapshot& s, const Catalog& c, const PythonEnv& env, const PackageInfo& torch,
                   const ExtensionInfo& ext, bool cxx11, std::vector<EvidenceItem>& evidence) {
  std::string python = PythonTag(env);
  // No wheel was built against a nightly, pre-release or container build of torch, and one built
  // against a later release of torch's line may need what this one lacks (flash-attention#931).
  const ExtensionWheel* w = PublishedTorch(*torch.version) ? AbiWheel(s, c, torch, ext, cxx11) : nullptr;
  if (w) {
    std::optional<Pep440> built = WheelBuiltAgainst(*w, *torch.version);
    if (built && torch.version->WithoutLocal() < *built) w = nullptr;
  }
  if (w && !python.empty()) {
    std::string url = WheelUrl(*w, *torch.version, python);
    // The very file installed (its name states torch's ABI, its symbols the other one:
    // Dao-AILab/flash-attention#1783) is no fix: then the rebuild.
    if (ext.wheel_file.empty() || !EndsWith(url, "/" + ext.wheel_file)) {
      RemedyNeed need = Need(RemedyNeed::Kind::kExtensionWheel);
      need.package = ext.name;
      need.version = ext.version;
      need.path = std::move(url);
      return need;
    }
  }
  return RebuildNeed(s, env, ext, &evidence);
}

void AddWheelEvidence(const ExtensionInfo& ext, bool torch_cxx11, std::vector<EvidenceItem>& evidence) {
  if (!ext.wheel_cxx11abi || *ext.wheel_cxx11abi == torch_cxx11) return;
  evidence.push_back(Ev("evidence.wheel_abi", {{"wheel", ext.wheel_file}, {"source", ext.wheel_source},
                                               {"flag", *ext.wheel_cxx11abi ? "cxx11abiTRUE" : "cxx11abiFALSE"}}));
}

}  // namespace

void CheckExtensionAbi(const Snapshot& s, const Catalog& c, const PlanQuery&, std::vector<Finding>& out) {
  ForEachTorch(s, [&](const PythonEnv& env, const PackageInfo& torch) {
    std::optional<TorchAbi> abi = TorchExports(torch);
    if (!abi) return;
    for (const ExtensionInfo& ext : env.extensions) {
      for (const BinaryInfo& lib : ext.libs) {
        const std::string& needs = abi->cxx11 ? lib.symbols.needs_old : lib.symbols.needs_cxx11;
        if (needs.empty()) continue;
        std::vector<EvidenceItem> evidence = {
            Ev("evidence.needs_symbol", {{"file", lib.path}, {"symbol", ShortName(needs)}, {"mangled", needs},
                                         {"abi", AbiName(!abi->cxx11)}}),
            Ev("evidence.defines_symbol", {{"file", abi->file}, {"symbol", ShortName(abi->symbol)}, {"mangled", abi->symbol},
                                           {"abi", AbiName(abi->cxx11)}}),
            TorchEvidence(env, torch)};
        AddWheelEvidence(ext, abi->cxx11, evidence);
        RemedyNeed need = AbiNeed(s, c, env, torch, ext, abi->cxx11, evidence);
        out.push_back(EmitFor(s, env, "ext.cxx_abi",
                              {{"env", env.prefix}, {"package", ext.name + (ext.version ? " " + ext.version->ToString() : "")},
                               {"file", lib.path}, {"abi", AbiName(!abi->cxx11)}, {"torch", torch.version->ToString()},
                               {"torch_abi", AbiName(abi->cxx11)}, {"symbol", ShortName(needs)}},
                              std::move(evidence), "extensions", need));
        break;  // one finding per package
      }
    }
  });
}

namespace {

// Whether the ABI rule speaks for this library: it needs torch symbols of the other ABI than
// the one torch exports (then every such symbol is missing, and the ABI is the cause to name).
bool OtherAbi(const std::optional<TorchAbi>& abi, const BinaryInfo& lib) {
  return abi && !(abi->cxx11 ? lib.symbols.needs_old : lib.symbols.needs_cxx11).empty();
}

// torch's major.minor: the line a wheel's name states ("2.2").
std::string TorchLine(const PackageInfo& torch) {
  Pep440 v = torch.version->WithoutLocal();
  return std::to_string(v.Part(0)) + "." + std::to_string(v.Part(1));
}

// The fix for a library that needs torch symbols this torch lacks: a wheel of the release for
// this very torch (the PyTorch index's, else the release assets' in torch's ABI); a rebuild from
// source against it otherwise, with the nvcc of torch's CUDA major, the only way for a torch no
// wheel was built against.
RemedyNeed MissingSymbolNeed(const Snapshot& s, const Catalog& c, const PythonEnv& env, const PackageInfo& torch,
                             const ExtensionInfo& ext, const std::optional<TorchAbi>& abi,
                             std::vector<EvidenceItem>& evidence) {
  // An editable install is rebuilt where it lives, against this torch.
  if (ext.editable || !PublishedTorch(*torch.version)) return RebuildNeed(s, env, ext, &evidence);
  RemedyNeed need = BuiltTorchNeed(s, c, env, torch, ext, nullptr);
  if (need.kind != RemedyNeed::Kind::kExtensionRebuild) return need;
  return abi ? AbiNeed(s, c, env, torch, ext, abi->cxx11, evidence) : RebuildNeed(s, env, ext, &evidence);
}

}  // namespace

// An extension's library needs torch symbols that none of torch's libraries defines: its import
// fails with "undefined symbol: _ZN2at4_ops15sum_IntList_out4call..." (Dao-AILab/flash-attention#784:
// a wheel built against a torch nightly, installed beside NGC's 2.2.0a0+81ea7a4). Whatever its
// metadata says, it was built against another torch. The ABI rule speaks for a library whose
// symbols are of the other C++ ABI.
void CheckExtensionSymbols(const Snapshot& s, const Catalog& c, const PlanQuery&, std::vector<Finding>& out) {
  ForEachTorch(s, [&](const PythonEnv& env, const PackageInfo& torch) {
    std::optional<TorchAbi> abi = TorchExports(torch);
    for (const ExtensionInfo& ext : env.extensions) {
      for (const BinaryInfo& lib : ext.libs) {
        if (!lib.torch_lookup || lib.torch_lookup->missing == 0 || OtherAbi(abi, lib)) continue;
        // The package's own record of its build (ext.built_torch), its wheel's torch line
        // (ext.wheel_torch) or its requirement on torch (ext.torch_pin: vllm 0.3.2's torch==2.1.2
        // beside 2.2.1, vllm-project/vllm#3147) already names the torch it was built for, and the fix.
        std::string line = WheelTorchLine(ext.wheel_file);
        if (!ext.built_torch.empty() || (!line.empty() && line != TorchLine(torch)) || TorchPinUnmet(env, ext)) break;
        const SymbolLookup& r = *lib.torch_lookup;
        std::vector<EvidenceItem> evidence = {
            Ev("evidence.missing_symbol", {{"file", lib.path}, {"symbol", ShortName(r.first_missing)},
                                           {"mangled", r.first_missing}, {"dir", r.torch_lib},
                                           {"missing", std::to_string(r.missing)}, {"looked_up", std::to_string(r.looked_up)}}),
            TorchEvidence(env, torch)};
        if (!ext.wheel_file.empty()) {
          evidence.push_back(Ev("evidence.installed_wheel", {{"wheel", ext.wheel_file}, {"source", ext.wheel_source}}));
        }
        RemedyNeed need = MissingSymbolNeed(s, c, env, torch, ext, abi, evidence);
        out.push_back(EmitFor(s, env, "ext.missing_symbol",
                              {{"env", env.prefix}, {"package", ext.name + (ext.version ? " " + ext.version->ToString() : "")},
                               {"file", lib.path}, {"torch", torch.version->ToString()},
                               {"symbol", ShortName(r.first_missing)}, {"mangled", r.first_missing},
                               {"missing", std::to_string(r.missing)}},
                              std::move(evidence), "extensions", need));
        break;  // one finding per package
      }
    }
  });
}

// A prebuilt extension wheel names the torch line it was built for ("+cu122torch2.2"; pip keeps the
// file's name in direct_url.json): beside torch of another line its import fails with "undefined
// symbol" (the issue's flash-attn built for torch 2.2 beside torch 2.3). Of the same line, the
// catalog's row for the file says which release it was built against: a torch older than that
// may lack what it uses (Dao-AILab/flash-attention#931: 2.5.8's torch 2.2 asset, built against
// 2.2.2, beside torch 2.2.0). The fix for another line is the release's wheel for this torch.
void CheckExtensionWheelTorch(const Snapshot& s, const Catalog& c, const PlanQuery&, std::vector<Finding>& out) {
  ForEachTorch(s, [&](const PythonEnv& env, const PackageInfo& torch) {
    Pep440 have = torch.version->WithoutLocal();
    std::string have_line = std::to_string(have.Part(0)) + "." + std::to_string(have.Part(1));
    for (const ExtensionInfo& ext : env.extensions) {
      std::string line = WheelTorchLine(ext.wheel_file);
      if (line.empty()) continue;
      std::vector<EvidenceItem> evidence = {Ev("evidence.wheel_torch", {{"wheel", ext.wheel_file}, {"source", ext.wheel_source},
                                                                         {"line", line}}),
                                            TorchEvidence(env, torch)};
      MessageArgs args = {{"env", env.prefix}, {"package", ext.name + (ext.version ? " " + ext.version->ToString() : "")},
                          {"wheel", ext.wheel_file}, {"line", line}, {"torch", torch.version->ToString()}};
      if (line != have_line) {
        std::optional<bool> cxx11 = ext.wheel_cxx11abi;
        if (auto exports = TorchExports(torch)) cxx11 = exports->cxx11;
        RemedyNeed need;
        if (cxx11) need = AbiNeed(s, c, env, torch, ext, *cxx11, evidence);
        if (need.kind != RemedyNeed::Kind::kExtensionWheel) need = {};  // a rebuild is for the ABI finding to say
        out.push_back(EmitFor(s, env, "ext.wheel_torch", std::move(args), std::move(evidence), "extensions", need));
        continue;
      }
      // The same line: the catalog's row of this very file says what it was built against.
      if (!ext.version || !torch.cuda) continue;
      const ExtensionRelease* e = FindExtension(c, ext.name, *ext.version);
      if (e == nullptr) continue;
      TorchBuild build{*torch.version, torch.cuda, CxxAbi::kUnknown};
      for (const ExtensionWheel* w : WheelsFor(c, *e, s.platform.Name(), build)) {
        std::string python = PythonTag(env);
        if (python.empty() || !EndsWith(WheelUrl(*w, *torch.version, python), "/" + ext.wheel_file)) continue;
        std::optional<Pep440> built = WheelBuiltAgainst(*w, *torch.version);
        if (!built || built->IsPrerelease() || !(have < *built)) break;
        args.push_back({"built", built->Public()});
        evidence.push_back(Ev("evidence.wheel_built_against", {{"wheel", ext.wheel_file}, {"built", built->Public()},
                                                               {"source", std::string(w->prov.sources().empty() ? "" : w->prov.sources().front())}}));
        out.push_back(EmitFor(s, env, "ext.wheel_torch_patch", std::move(args), std::move(evidence), "extensions"));
        break;
      }
    }
  });
}

}  // namespace cudamatch
