#include "catalog/query.h"

#include <algorithm>
#include <tuple>

#include "core/text.h"

namespace cudamatch {

// ---- PyTorch ----


std::optional<ComputeCapability> RenamedCc(const Catalog& c, const ComputeCapability& cc) {
  for (const GpuArchitecture& a : c.architectures) {
    for (const ComputeCapability& x : a.renamed_from) {
      if (x.major == cc.major && x.minor == cc.minor && a.ccs.size() == 1) return a.ccs.front();
    }
  }
  return std::nullopt;
}

namespace {

std::vector<const TorchRelease*> TorchWhere(const Catalog& c, std::string_view package, const Pep440& v,
                                            std::optional<Pep440> TorchRelease::*field) {
  Pep440 pub = v.WithoutLocal();
  const Companion* comp = FindCompanion(c, package, pub);
  std::vector<const TorchRelease*> out;
  for (const TorchRelease& t : c.torch) {
    bool named = (t.*field) && *(t.*field) == pub;
    if (named || (comp != nullptr && comp->torch == t.torch)) out.push_back(&t);
  }
  return out;
}

}  // namespace

std::vector<const TorchRelease*> TorchForVision(const Catalog& c, const Pep440& v) {
  return TorchWhere(c, "torchvision", v, &TorchRelease::torchvision);
}

std::vector<const TorchRelease*> TorchForAudio(const Catalog& c, const Pep440& v) {
  return TorchWhere(c, "torchaudio", v, &TorchRelease::torchaudio);
}

const TorchVariant* PypiDefaultVariant(const Catalog& c, const TorchRelease& t, std::string_view platform) {
  for (const TorchVariant* v : VariantsOf(c, t.torch, platform)) {
    if (v->pypi_default) return v;
  }
  return nullptr;
}

const Companion* FindCompanion(const Catalog& c, std::string_view package, const Pep440& version) {
  Pep440 pub = version.WithoutLocal();
  for (const Companion& m : c.companions) {
    if (m.package == package && m.version == pub) return &m;
  }
  return nullptr;
}

std::vector<const Companion*> CompanionsFor(const Catalog& c, std::string_view package, const Pep440& torch) {
  Pep440 pub = torch.WithoutLocal();
  std::vector<const Companion*> out;
  for (const Companion& m : c.companions) {
    if (m.package == package && m.torch == pub) out.push_back(&m);
  }
  std::reverse(out.begin(), out.end());  // rows are sorted by version, oldest first
  return out;
}

bool CompanionPairs(const Catalog& c, std::string_view package, const Pep440& version, const TorchRelease& t) {
  Pep440 pub = version.WithoutLocal();
  const auto& named = package == "torchvision" ? t.torchvision : t.torchaudio;
  if (named && *named == pub) return true;
  const Companion* comp = FindCompanion(c, package, pub);
  return comp != nullptr && comp->torch == t.torch;
}

namespace {

// Whether the plain version text "N(.N)*" equals `v` (1.13 == 1.13.0), read without the general
// parser; nullopt when the text is not that plain, for Pep440::Parse to answer. A plain text is
// never a `v` with an epoch, a pre-, post- or dev-release or a local label.
std::optional<bool> PlainReleaseEquals(std::string_view text, const Pep440& v) {
  if (text.empty()) return std::nullopt;
  bool plain_v = v.epoch == 0 && v.pre == Pep440::Pre::kNone && !v.post && !v.dev && v.local.empty();
  size_t i = 0, part = 0;
  bool equal = true;
  while (i < text.size()) {
    int64_t n = 0;
    size_t digits = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9' && digits < 12; ++i, ++digits) n = n * 10 + (text[i] - '0');
    if (digits == 0 || (i < text.size() && text[i] != '.') || (i + 1 == text.size())) return std::nullopt;
    if (i < text.size()) ++i;
    if (n != v.Part(part)) equal = false;
    ++part;
  }
  for (; part < v.release.size(); ++part) {
    if (v.release[part] != 0) equal = false;
  }
  return equal && plain_v;
}

// Whether the version text `text` (a table's first cell) is `v`.
bool VersionTextIs(std::string_view text, const Pep440& v) {
  if (auto plain = PlainReleaseEquals(text, v)) return *plain;
  auto parsed = Pep440::Parse(text);
  return parsed && *parsed == v;
}

}  // namespace

const TorchRelease* FindTorch(const Catalog& c, const Pep440& v) {
  Pep440 pub = v.WithoutLocal();
  // While the table is unparsed, only this release's row is read (a doctor run asks for the
  // installed torches and the newest release alone); it is the row the whole table holds later.
  if (const auto* releases = c.torch.Keys()) {
    for (size_t i = 0; i < releases->size(); ++i) {
      if (!VersionTextIs((*releases)[i], pub)) continue;
      const TorchRelease* t = c.torch.Row(i);
      if (t != nullptr && t->torch == pub) return t;
    }
    return nullptr;
  }
  for (const TorchRelease& t : c.torch) {
    if (t.torch == pub) return &t;
  }
  return nullptr;
}

std::vector<const TorchVariant*> VariantsOf(const Catalog& c, const Pep440& torch,
                                            std::string_view platform) {
  Pep440 pub = torch.WithoutLocal();
  // While the table is unparsed, only the rows of this release on this platform are read (a
  // doctor run asks for the installed torch's variants alone); each distinct version text is
  // parsed once.
  std::string_view last_text;
  bool last_match = false;
  const std::vector<TorchVariant>* part = c.torch_variants.Part(pub.ToString() + "\t" + std::string(platform), [&](std::string_view text) {
    if (text.data() != nullptr && text == last_text) return last_match;
    last_text = text;
    if (auto plain = PlainReleaseEquals(text, pub)) return last_match = *plain;
    auto v = Pep440::Parse(text);
    return last_match = v && *v == pub;
  }, platform);
  std::vector<const TorchVariant*> out;
  for (const TorchVariant& v : part != nullptr ? *part : c.torch_variants.rows()) {
    if (v.platform == platform && v.torch == pub) out.push_back(&v);
  }
  return out;
}

const TorchVariant* FindVariant(const Catalog& c, const Pep440& torch, std::string_view platform,
                                std::string_view tag) {
  for (const TorchVariant* v : VariantsOf(c, torch, platform)) {
    if (v->variant.tag == tag) return v;
  }
  return nullptr;
}

const TorchCompleteList* CompleteVariantList(const Catalog& c, const Pep440& torch, std::string_view platform) {
  Pep440 pub = torch.WithoutLocal();
  for (const TorchCompleteList& l : c.torch_complete) {
    if (l.torch == pub && l.platform == platform) return &l;
  }
  return nullptr;
}

std::vector<size_t> NearestOrder(const std::vector<Pep440>& sorted, const Pep440& v) {
  Pep440 plain = v.WithoutLocal();
  size_t below = static_cast<size_t>(std::count_if(sorted.begin(), sorted.end(), [&](const Pep440& t) { return t < plain; }));
  // (other line, steps away in release order, other major, older): the version itself, its own
  // line, then outward with the newer one first.
  auto key = [&](size_t i) {
    const Pep440& t = sorted[i];
    bool older = i < below;
    size_t steps = older ? below - 1 - i : i - below;
    return std::make_tuple(t.Part(0) != plain.Part(0) || t.Part(1) != plain.Part(1), steps, t.Part(0) != plain.Part(0), older);
  };
  std::vector<size_t> order(sorted.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key(a) < key(b); });
  return order;
}

std::vector<const TorchRelease*> NearestTorch(const Catalog& c, const Pep440& v, size_t limit) {
  std::vector<const TorchRelease*> all;
  for (const TorchRelease& t : c.torch) all.push_back(&t);
  std::sort(all.begin(), all.end(), [](const TorchRelease* a, const TorchRelease* b) { return a->torch < b->torch; });
  std::vector<Pep440> versions;
  for (const TorchRelease* t : all) versions.push_back(t->torch);
  std::vector<const TorchRelease*> out;
  for (size_t i : NearestOrder(versions, v)) {
    if (out.size() >= limit) break;
    out.push_back(all[i]);
  }
  return out;
}

PythonFit FitPython(const TorchRelease& t, const PyVersion& py) {
  for (const PyVersion& e : t.python_experimental) {
    if (e == py) return PythonFit::kExperimental;
  }
  if (!t.python_min || !t.python_max) return PythonFit::kUnknown;
  PyVersion plain = py;
  plain.freethreaded = false;
  if (py.freethreaded) return PythonFit::kUnsupported;  // only listed free-threaded builds exist
  if (plain >= *t.python_min && plain <= *t.python_max) return PythonFit::kSupported;
  return PythonFit::kUnsupported;
}

// ---- CUDA and drivers ----

std::vector<const CudaToolkit*> ToolkitReleases(const Catalog& c, const CudaVersion& minor) {
  std::vector<const CudaToolkit*> out;
  for (const CudaToolkit& t : c.toolkits) {
    if (t.cuda.SameMinor(minor)) out.push_back(&t);
  }
  return out;
}

const MinorCompat* MinorCompatFor(const Catalog& c, int cuda_major) {
  for (const MinorCompat& m : c.minor_compat) {
    if (m.major == cuda_major) return &m;
  }
  return nullptr;
}

DriverRequirement MinDriverFor(const Catalog& c, const CudaVersion& cuda, Os os) {
  DriverRequirement req;
  for (const CudaToolkit* t : ToolkitReleases(c, cuda)) {
    const auto& min = os == Os::kWindows ? t->min_driver_windows : t->min_driver_linux;
    if (os == Os::kWindows && t->windows_driver_not_listed) req.windows_not_listed = true;
    if (min && (!req.toolkit_min || *min < *req.toolkit_min)) req.toolkit_min = min;
  }
  if (const MinorCompat* m = MinorCompatFor(c, cuda.major)) {
    req.minor_compat = os == Os::kWindows ? m->min_driver_windows : m->min_driver_linux;
  }
  return req;
}

const DriverBranch* FindBranch(const Catalog& c, int branch) {
  for (const DriverBranch& b : c.branches) {
    if (b.branch == branch) return &b;
  }
  return nullptr;
}

const DriverBranch* WindowsDriverBranch(const Catalog& c, const DriverVersion& driver) {
  constexpr int kFirstWindowsBranch = 450;  // older Windows numbering is not covered
  constexpr int kNewestBranchSpan = 10;     // past the newest branch: at most this far
  const int major = driver.branch();
  const DriverBranch* found = nullptr;
  const DriverBranch* next = nullptr;
  for (const DriverBranch& b : c.branches) {  // sorted by branch
    if (b.branch < kFirstWindowsBranch) continue;
    if (b.branch <= major) found = &b;
    else if (next == nullptr) next = &b;
  }
  if (found == nullptr) return nullptr;
  if (next == nullptr && major >= found->branch + kNewestBranchSpan) return nullptr;
  return found;
}

DriverCuda MaxCudaForDriver(const Catalog& c, const DriverVersion& driver, Os os) {
  DriverCuda out;
  const DriverBranch* b = os == Os::kLinux     ? FindBranch(c, driver.branch())
                          : os == Os::kWindows ? WindowsDriverBranch(c, driver)
                                               : nullptr;
  if (b != nullptr && b->max_cuda) {
    out.cuda = b->max_cuda;
    out.from_branch_table = true;
    out.branch = b->branch;
    return out;
  }
  // The newest CUDA minor whose first release's minimum driver this driver meets. Toolkits are
  // sorted, so each minor's releases are adjacent.
  for (size_t i = 0; i < c.toolkits.size();) {
    const CudaVersion& minor = c.toolkits[i].cuda;
    std::optional<DriverVersion> min;
    for (; i < c.toolkits.size() && c.toolkits[i].cuda.SameMinor(minor); ++i) {
      const auto& m = os == Os::kWindows ? c.toolkits[i].min_driver_windows : c.toolkits[i].min_driver_linux;
      if (m && (!min || *m < *min)) min = m;
    }
    if (!min) {
      if (out.cuda) out.lower_bound = true;
      continue;
    }
    if (driver < *min) break;
    out.cuda = minor.Truncated();
    out.lower_bound = false;
  }
  return out;
}

DriverFit FitDriverCuda(const Catalog& c, const CudaVersion& driver_cuda,
                        const std::optional<DriverVersion>& driver, const CudaVersion& cuda, Os os) {
  if (driver_cuda.major > cuda.major) return DriverFit::kFull;
  if (driver_cuda.major < cuda.major) return DriverFit::kTooOld;
  if (driver_cuda.minor >= cuda.minor) return DriverFit::kFull;
  const MinorCompat* mc = MinorCompatFor(c, cuda.major);
  if (mc == nullptr) return cuda.major < 11 ? DriverFit::kTooOld : DriverFit::kUnknown;
  const auto& floor = os == Os::kWindows ? mc->min_driver_windows : mc->min_driver_linux;
  if (!floor) return DriverFit::kUnknown;
  if (driver) return *driver >= *floor ? DriverFit::kMinorCompat : DriverFit::kTooOld;
  // Only the driver's CUDA is known: its toolkit's minimum driver bounds the driver from below.
  DriverRequirement req = MinDriverFor(c, driver_cuda, os);
  if (req.toolkit_min && *req.toolkit_min >= *floor) return DriverFit::kMinorCompat;
  return DriverFit::kUnknown;
}

DriverFit FitDriver(const Catalog& c, const DriverVersion& driver, const CudaVersion& cuda, Os os) {
  DriverCuda served = MaxCudaForDriver(c, driver, os);
  if (served.cuda && !served.lower_bound) return FitDriverCuda(c, *served.cuda, driver, cuda, os);
  if (served.cuda && *served.cuda >= cuda.Truncated()) return DriverFit::kFull;
  DriverRequirement req = MinDriverFor(c, cuda, os);
  if (req.toolkit_min && driver >= *req.toolkit_min) return DriverFit::kFull;
  if (req.minor_compat && driver >= *req.minor_compat) return DriverFit::kMinorCompat;
  if (req.minor_compat || (req.toolkit_min && cuda.major < 11)) return DriverFit::kTooOld;
  return DriverFit::kUnknown;
}

// ---- GPUs ----

namespace {

std::string ShortKey(std::string_view name) {
  std::string key = AlnumKey(name);
  for (std::string_view prefix : {"nvidia", "geforce"}) {
    if (StartsWith(key, prefix)) key = key.substr(prefix.size());
  }
  return key;
}

// Lowercase alphanumeric runs: "NVIDIA H100 80GB HBM3" -> {"nvidia", "h100", "80gb", "hbm3"}.
std::vector<std::string> ModelTokens(std::string_view name) {
  std::vector<std::string> tokens;
  std::string cur;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      cur += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!cur.empty()) {
      tokens.push_back(std::move(cur));
      cur.clear();
    }
  }
  if (!cur.empty()) tokens.push_back(std::move(cur));
  return tokens;
}

}  // namespace

static const std::vector<Catalog::GpuNameKey>& GpuNameKeys(const Catalog& c) {
  if (c.gpu_name_keys.size() != c.gpus.size()) {
    c.gpu_name_keys.clear();
    for (const GpuModel& g : c.gpus) c.gpu_name_keys.push_back({ShortKey(g.name), AlnumKey(g.name)});
  }
  return c.gpu_name_keys;
}

GpuMatch MatchGpuName(const Catalog& c, std::string_view query, bool suggest) {
  GpuMatch match;
  std::string full = AlnumKey(query), key = ShortKey(query);
  if (key.empty()) return match;
  const std::vector<Catalog::GpuNameKey>& keys = GpuNameKeys(c);
  int best_tier = 4;
  for (size_t i = 0; i < c.gpus.size(); ++i) {
    const GpuModel& g = c.gpus[i];
    const std::string& gk = keys[i].short_key;
    int tier = gk == key || keys[i].full_key == full ? 1
               : EndsWith(gk, key)                  ? 2
               : gk.find(key) != std::string::npos  ? 3
                                                    : 4;
    if (tier < best_tier) {
      best_tier = tier;
      match.models.clear();
    }
    if (tier == best_tier && tier < 4) match.models.push_back(&g);
  }
  if (match.models.empty()) {
    // A model number alone ("H100 SXM" -> "h100"): every name with that token.
    std::string model;
    for (const std::string& token : ModelTokens(query)) {
      if (token.size() > model.size() && std::any_of(token.begin(), token.end(), ::isdigit)) model = token;
    }
    for (const GpuModel& g : c.gpus) {
      if (model.empty()) break;
      std::vector<std::string> tokens = ModelTokens(g.name);
      if (std::find(tokens.begin(), tokens.end(), model) != tokens.end()) match.models.push_back(&g);
    }
  }
  if (!match.models.empty()) {
    std::stable_sort(match.models.begin(), match.models.end(), [](const GpuModel* a, const GpuModel* b) {
      return a->name.size() < b->name.size();
    });
    return match;
  }
  if (!suggest) return match;
  // The distance is at least the difference in length, so names too far apart in length are
  // never scored: a garbage name of kilobytes costs a comparison of sizes per model.
  size_t max_distance = std::max<size_t>(2, key.size() / 3);
  std::vector<std::pair<size_t, const GpuModel*>> scored;
  for (size_t i = 0; i < c.gpus.size(); ++i) {
    const std::string& gk = keys[i].short_key;
    size_t gap = gk.size() > key.size() ? gk.size() - key.size() : key.size() - gk.size();
    if (gap <= max_distance) scored.emplace_back(EditDistance(gk, key), &c.gpus[i]);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [d, g] : scored) {
    if (d > max_distance || match.suggestions.size() >= 3) break;
    match.suggestions.emplace_back(g->name);
  }
  return match;
}

bool IsJetson(const GpuModel& g) { return StartsWith(g.name, "Jetson "); }

const GpuHost* HostOfGpu(const Catalog& c, std::string_view gpu_name) {
  for (const GpuHost& h : c.gpu_hosts) {
    if (h.gpu == gpu_name) return &h;
  }
  return nullptr;
}

std::vector<const GpuModel*> GpusByPciId(const Catalog& c, uint32_t device_id) {
  std::vector<const GpuModel*> out;
  for (const GpuModel& g : c.gpus) {
    if (std::find(g.pci_ids.begin(), g.pci_ids.end(), device_id) != g.pci_ids.end()) out.push_back(&g);
  }
  return out;
}

const GpuArchitecture* ArchitectureFor(const Catalog& c, const ComputeCapability& cc) {
  for (const GpuArchitecture& a : c.architectures) {
    for (const ComputeCapability& x : a.ccs) {
      if (x.major == cc.major && x.minor == cc.minor) return &a;
    }
  }
  return nullptr;
}

namespace {

bool Targets(const CudaTargets& t, const ComputeCapability& cc) {
  ComputeCapability plain{cc.major, cc.minor, 0};
  if (!t.targets.empty()) return std::find(t.targets.begin(), t.targets.end(), plain) != t.targets.end();
  return t.min_cc && t.max_cc && plain >= *t.min_cc && plain <= *t.max_cc;
}

}  // namespace

std::optional<CudaVersion> FirstCudaFor(const Catalog& c, const ComputeCapability& cc) {
  for (const CudaTargets& t : c.targets) {
    if (Targets(t, cc)) return t.cuda;
  }
  return std::nullopt;
}

std::optional<CudaVersion> LastCudaFor(const Catalog& c, const ComputeCapability& cc) {
  std::optional<CudaVersion> last;
  for (const CudaTargets& t : c.targets) {
    if (Targets(t, cc)) last = t.cuda;
  }
  return last;
}

const CudaTargets* TargetsFor(const Catalog& c, const CudaVersion& cuda) {
  for (const CudaTargets& t : c.targets) {
    if (t.cuda.SameMinor(cuda)) return &t;
  }
  return nullptr;
}

ArchFit FitArch(const ArchList& list, const ComputeCapability& gpu) {
  ArchFit best;
  for (const ArchEntry& e : list) {
    bool sass = e.cc.suffix == 'a' ? (e.cc.major == gpu.major && e.cc.minor == gpu.minor)
                                   : (e.cc.major == gpu.major && e.cc.minor <= gpu.minor);
    if (sass && (best.fit != KernelFit::kSass || e.cc > best.via)) best = ArchFit{KernelFit::kSass, e.cc};
  }
  if (best.fit == KernelFit::kSass) return best;
  for (const ArchEntry& e : list) {
    ComputeCapability plain{e.cc.major, e.cc.minor, 0};
    if (e.ptx && plain <= ComputeCapability{gpu.major, gpu.minor, 0} &&
        (best.fit == KernelFit::kNone || e.cc > best.via)) {
      best = ArchFit{KernelFit::kPtx, e.cc};
    }
  }
  return best;
}

ArchFit FitWheel(const Catalog& c, const ArchList& list, const CudaVersion& cuda, const ComputeCapability& gpu) {
  ArchFit fit = FitArch(list, gpu);
  if (fit.fit != KernelFit::kPtx) return fit;
  std::optional<CudaVersion> first = FirstCudaFor(c, gpu);
  if (first && cuda.Truncated() < *first) return ArchFit{};
  return fit;
}

// ---- cuDNN and compilers ----

const CudnnRelease* CudnnFor(const Catalog& c, const Pep440& cudnn) {
  Pep440 v = cudnn.WithoutLocal();
  v.release.resize(std::min<size_t>(v.release.size(), 3));
  for (const CudnnRelease& d : c.cudnn) {
    if (v >= d.first && v <= d.last) return &d;
  }
  return nullptr;
}

const HostCompiler* HostCompilerFor(const Catalog& c, const CudaVersion& cuda) {
  for (const HostCompiler& h : c.host_compilers) {
    if (h.cuda.SameMinor(cuda)) return &h;
  }
  return nullptr;
}

const SourceRef* FindSource(const Catalog& c, std::string_view id) {
  for (const SourceRef& s : c.sources) {
    if (s.id == id) return &s;
  }
  return nullptr;
}

const Mirror* FindMirror(const Catalog& c, std::string_view name_or_url) {
  std::string want = ToLower(name_or_url);
  while (!want.empty() && want.back() == '/') want.pop_back();
  for (const Mirror& m : c.mirrors) {
    std::string url = ToLower(m.url);
    while (!url.empty() && url.back() == '/') url.pop_back();
    if (ToLower(m.name) == want || url == want || StartsWith(want, url + "/")) return &m;
  }
  return nullptr;
}

Result<Mirror> UnlistedMirror(std::string_view url) {
  if (!StartsWith(url, "https://") && !StartsWith(url, "http://")) {
    return Err("unknown mirror " + Quote(url) + " (a name from mirrors.tsv, see `cudamatch catalog`, or an http(s) URL)");
  }
  return Mirror{std::string(url), "pypi", std::string(url), "simple", "", {}};
}

namespace {

// `m` itself when it is of `kind`, else the mirror of `kind` its operator runs (null for none).
const Mirror* SameOperatorsMirror(const Catalog& c, const Mirror& m, std::string_view kind) {
  if (m.kind == kind) return &m;
  if (m.operator_name.empty()) return nullptr;
  for (const Mirror& x : c.mirrors) {
    if (x.kind == kind && x.operator_name == m.operator_name) return &x;
  }
  return nullptr;
}

}  // namespace

const Mirror* PytorchMirrorOf(const Catalog& c, const Mirror& m) { return SameOperatorsMirror(c, m, "pytorch"); }

const Mirror* MirrorWithPytorchWheels(const Catalog& c) {
  for (const Mirror& m : c.mirrors) {
    if (m.kind == "pypi" && PytorchMirrorOf(c, m) != nullptr) return &m;
  }
  return nullptr;
}

const Mirror* PypiMirrorOf(const Catalog& c, const Mirror& m) { return SameOperatorsMirror(c, m, "pypi"); }

}  // namespace cudamatch
