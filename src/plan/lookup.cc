#include "plan/lookup.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "core/text.h"

namespace cudamatch {

namespace {

std::string Digits(const Pep440& v) {
  std::string out;
  for (int64_t part : v.release) out += std::to_string(part);
  return out;
}

std::string StripLeadingZeros(std::string s) {
  size_t i = 0;
  while (i + 1 < s.size() && s[i] == '0') ++i;
  return s.substr(i);
}

std::vector<VariantAnswer> AnswerVariants(const Catalog& c, const TorchRelease& t, const Platform& p,
                                          const Mirror* mirror) {
  std::vector<VariantAnswer> out;
  for (const TorchVariant* v : VariantsOf(c, t.torch, p.Name())) {
    VariantAnswer a;
    a.row = v;
    a.pypi_default = v->pypi_default;
    if (v->variant.cuda) {
      a.linux_driver = MinDriverFor(c, *v->variant.cuda, Os::kLinux);
      a.windows_driver = MinDriverFor(c, *v->variant.cuda, Os::kWindows);
    }
    a.commands = BuildInstallCommands(InstallRequest{&t, v, p, true, true, mirror});
    out.push_back(std::move(a));
  }
  return out;
}

LookupResult TorchLookup(const Catalog& c, const LookupQuery& q, const Pep440& v, const Platform& p,
                         const Mirror* mirror) {
  LookupResult r{q, {}, {}, {}, {}, {}};
  std::vector<const TorchRelease*> releases;
  if (q.kind == LookupQuery::Kind::kTorch) {
    if (const TorchRelease* t = FindTorch(c, v)) releases.push_back(t);
  } else {
    releases = q.kind == LookupQuery::Kind::kTorchvision ? TorchForVision(c, v) : TorchForAudio(c, v);
  }
  if (releases.empty()) {
    NotFound nf{std::string(q.kind == LookupQuery::Kind::kTorch ? "torch" :
                            q.kind == LookupQuery::Kind::kTorchvision ? "torchvision" : "torchaudio") +
                    " " + v.Public(), {}, c.data_date};
    if (q.kind == LookupQuery::Kind::kTorch) {
      for (const TorchRelease* t : NearestTorch(c, v, 3)) nf.suggestions.push_back(t->torch.Public());
    } else {
      bool audio = q.kind == LookupQuery::Kind::kTorchaudio;
      for (const auto& [ver, t] : NearestPaired(c, v, audio, 3)) {
        nf.suggestions.push_back(ver.Public() + " (torch " + t->torch.Public() + ")");
      }
    }
    r.not_found = std::move(nf);
    return r;
  }
  TorchAnswer a;
  // The newest torch paired with the asked version that has wheels here, else the newest.
  a.release = releases.back();
  for (auto it = releases.rbegin(); it != releases.rend(); ++it) {
    if (!VariantsOf(c, (*it)->torch, p.Name()).empty()) {
      a.release = *it;
      break;
    }
  }
  a.paired = releases;
  a.variants = AnswerVariants(c, *a.release, p, mirror);
  a.pypi_default = PypiDefaultVariant(c, *a.release, p.Name());
  r.torch = std::move(a);
  return r;
}

LookupResult CudaLookup(const Catalog& c, const LookupQuery& q, const CudaVersion& v) {
  LookupResult r{q, {}, {}, {}, {}, {}};
  CudaAnswer a;
  a.cuda = v;
  a.releases = ToolkitReleases(c, v);
  a.targets = TargetsFor(c, v);
  if (a.releases.empty() && a.targets == nullptr) {
    NotFound nf{"CUDA " + v.ToString(), {}, c.data_date};
    for (const CudaToolkit& t : c.toolkits) {
      if (t.cuda.major == v.major && nf.suggestions.size() < 8 &&
          (nf.suggestions.empty() || nf.suggestions.back() != t.cuda.MajorMinor())) {
        nf.suggestions.push_back(t.cuda.MajorMinor());
      }
    }
    r.not_found = std::move(nf);
    return r;
  }
  a.linux_driver = MinDriverFor(c, v, Os::kLinux);
  a.windows_driver = MinDriverFor(c, v, Os::kWindows);
  for (const CudnnRelease& d : c.cudnn) {
    if (d.Supports(v)) a.cudnn.push_back(&d);
  }
  a.compilers = HostCompilerFor(c, v);
  for (const TorchVariant& tv : c.torch_variants) {
    if (tv.platform == "linux-x86_64" && tv.variant.cuda && tv.variant.cuda->SameMinor(v)) {
      a.torch_wheels.push_back(&tv);
    }
  }
  r.cuda = std::move(a);
  return r;
}

// The wheel variants of `platform` (the asked one; linux-x86_64 by default).
LookupResult DriverLookup(const Catalog& c, const LookupQuery& q, const DriverVersion& d, const Platform& p) {
  LookupResult r{q, {}, {}, {}, {}, {}};
  DriverAnswer a;
  a.driver = d;
  a.os = p.os;
  const Os os = p.os;
  const std::string platform = p.Name();
  a.served = MaxCudaForDriver(c, d, os);
  std::set<std::string> seen;
  for (const TorchVariant& tv : c.torch_variants) {
    if (tv.platform != platform || !tv.variant.cuda || !seen.insert(tv.variant.tag).second) continue;
    a.variants.push_back({tv.variant.tag, *tv.variant.cuda, FitDriver(c, d, *tv.variant.cuda, os)});
  }
  std::sort(a.variants.begin(), a.variants.end(),
            [](const VariantFitAnswer& x, const VariantFitAnswer& y) { return x.cuda < y.cuda; });
  for (const TorchVariant& tv : c.torch_variants) {
    if (tv.platform != platform || !tv.variant.cuda) continue;
    DriverFit fit = FitDriver(c, d, *tv.variant.cuda, os);
    const TorchRelease* t = FindTorch(c, tv.torch);
    if (fit == DriverFit::kFull) {
      a.newest_torch = t;
      a.newest_variant = &tv;
    }
    if (fit == DriverFit::kFull || fit == DriverFit::kMinorCompat) {
      a.newest_torch_compat = t;
      a.newest_variant_compat = &tv;
    }
  }
  r.driver = std::move(a);
  return r;
}

std::optional<GpuAnswer> AnswerGpu(const Catalog& c, const ComputeCapability& cc,
                                   std::vector<const GpuModel*> models) {
  GpuAnswer a;
  a.models = std::move(models);
  a.cc = cc;
  a.architecture = ArchitectureFor(c, cc);
  a.first_cuda = FirstCudaFor(c, cc);
  a.last_cuda = LastCudaFor(c, cc);
  a.still_supported = a.last_cuda && !c.targets.empty() && a.last_cuda->SameMinor(c.targets.back().cuda);
  if (a.first_cuda) a.min_driver = MinDriverFor(c, *a.first_cuda, Os::kLinux);
  a.jetson = !a.models.empty() && IsJetson(*a.models.front());
  for (auto it = c.torch_variants.rbegin(); it != c.torch_variants.rend() && !a.jetson; ++it) {
    if (!it->variant.cuda) continue;
    WheelFit w{&*it, std::nullopt};
    if (it->arch_list) w.fit = FitWheel(c, *it->arch_list, *it->variant.cuda, cc);
    a.wheels.push_back(w);
  }
  return a;
}

std::vector<const GpuModel*> GpusWithCc(const Catalog& c, const ComputeCapability& cc) {
  std::vector<const GpuModel*> out;
  for (const GpuModel& g : c.gpus) {
    if (g.cc == cc) out.push_back(&g);
  }
  return out;
}

// Compute capabilities of known GPUs with the same major ("8.0 8.6 8.7 8.9"), else all majors.
std::vector<std::string> KnownCcNear(const Catalog& c, const ComputeCapability& cc) {
  std::set<std::string> same, all;
  for (const GpuModel& g : c.gpus) {
    (g.cc.major == cc.major ? same : all).insert(g.cc.Sm());
  }
  const std::set<std::string>& pick = same.empty() ? all : same;
  return {pick.begin(), pick.end()};
}

// A fragment names no model: no digit in it and several models match ("rtx", "sm_"), or it is
// only a prefix of sm_/compute_ syntax. Such a query gets the list, never a silent pick.
std::string AlnumLower(std::string_view text) {
  std::string out;
  for (unsigned char ch : text) {
    if (std::isalnum(ch)) out += static_cast<char>(std::tolower(ch));
  }
  return out;
}

bool IsFragment(const std::string& text, const GpuMatch& m) {
  std::string key = AlnumLower(text);
  if (StartsWith(key, "sm") || StartsWith(key, "compute")) return true;  // not a cc (that parsed above)
  if (std::any_of(key.begin(), key.end(), [](unsigned char ch) { return std::isdigit(ch); })) return false;
  if (m.models.size() > 1) return true;
  std::string name = AlnumLower(m.models.front()->name);
  // "NVIDIA Jetson AGX Thor", as NVIDIA's tools print it, names the catalog's "Jetson AGX Thor".
  if (StartsWith(key, "nvidia") && name == key.substr(6)) return false;
  return !(name == key || (EndsWith(name, key) && key.size() >= 6));
}

LookupResult GpuLookup(const Catalog& c, const LookupQuery& q) {
  LookupResult r{q, {}, {}, {}, {}, {}};
  std::string text(Trim(q.text));
  bool hex4 = text.size() == 4 && ParseHex(text).has_value() && !ComputeCapability::Parse(text).ok();
  if (hex4 || StartsWith(ToLower(text), "0x") || StartsWith(ToLower(text), "10de:")) {
    std::string id = StartsWith(ToLower(text), "10de:") ? text.substr(5) : text;
    if (auto n = ParseHex(id); n && *n <= 0xffff) {
      auto models = GpusByPciId(c, *n);
      if (!models.empty()) {
        r.gpu = AnswerGpu(c, models.front()->cc, models);
        return r;
      }
    }
  }
  if (auto cc = ComputeCapability::Parse(text)) {
    if (auto now = ArchitectureFor(c, *cc) == nullptr ? RenamedCc(c, *cc) : std::nullopt) {
      r.gpu = AnswerGpu(c, *now, {});
      if (r.gpu) r.gpu->renamed_from = *cc;
      return r;
    }
    if (ArchitectureFor(c, *cc) == nullptr && GpusWithCc(c, *cc).empty()) {
      r.not_found = NotFound{"compute capability " + cc->ToString(), KnownCcNear(c, *cc)};
      return r;
    }
    r.gpu = AnswerGpu(c, *cc, {});
    return r;
  }
  GpuMatch m = MatchGpuName(c, text);
  if (m.models.empty() || IsFragment(text, m)) {
    std::vector<std::string> names = m.suggestions;
    std::string key = AlnumLower(text);
    if (StartsWith(key, "sm") || StartsWith(key, "compute")) {
      r.not_found = NotFound{"GPU " + Quote(text), KnownCcNear(c, ComputeCapability{})};
      return r;
    }
    for (const GpuModel& g : c.gpus) {
      if (names.size() < 12 && !key.empty() && AlnumLower(g.name).find(key) != std::string::npos) names.emplace_back(g.name);
    }
    r.not_found = NotFound{"GPU " + Quote(text), names};
    return r;
  }
  r.gpu = AnswerGpu(c, m.models.front()->cc, m.models);
  return r;
}

}  // namespace

Result<LookupQuery> ParseLookupQuery(const std::vector<std::string>& args) {
  if (args.empty()) return Err("lookup needs an entity, e.g. torch==2.3.1, cuda==12.4, driver==550.54.14, gpu \"RTX 3090\"");
  std::string first = ToLower(args[0]);
  if (first == "gpu") {
    std::vector<std::string> rest(args.begin() + 1, args.end());
    if (rest.empty()) return Err("lookup gpu needs a name, compute capability or PCI id");
    return LookupQuery{LookupQuery::Kind::kGpu, Join(rest, " ")};
  }
  std::string name, version;
  std::string joined = Join(args, " ");
  size_t sep = joined.find_first_of("= ");
  if (sep == std::string::npos) return Err("expected NAME==VERSION, got " + Quote(joined));
  name = ToLower(Trim(joined.substr(0, sep)));
  size_t value = joined.find_first_not_of("= ", sep);
  if (name.empty() || value == std::string::npos) {
    return Err("expected NAME==VERSION, got " + Quote(joined) + " (e.g. torch==2.3.1, cuda==12.4, driver==550.54.14)");
  }
  version = std::string(Trim(joined.substr(value)));
  static const std::pair<const char*, LookupQuery::Kind> kKinds[] = {
      {"torch", LookupQuery::Kind::kTorch},   {"pytorch", LookupQuery::Kind::kTorch},
      {"torchvision", LookupQuery::Kind::kTorchvision}, {"torchaudio", LookupQuery::Kind::kTorchaudio},
      {"cuda", LookupQuery::Kind::kCuda},     {"driver", LookupQuery::Kind::kDriver},
      {"gpu", LookupQuery::Kind::kGpu}};
  for (const auto& [n, kind] : kKinds) {
    if (name == n) return LookupQuery{kind, version};
  }
  return Err("unknown entity " + Quote(name) + " (expected torch, torchvision, torchaudio, cuda, driver or gpu)");
}

static Result<LookupResult> LookupOn(const Catalog& c, const LookupQuery& q, const Platform& platform,
                                     const Mirror* mirror);

// The versions of torchvision or torchaudio the catalog knows, ascending, each with the newest
// torch release it pairs with.
std::vector<std::pair<Pep440, const TorchRelease*>> KnownPaired(const Catalog& c, bool audio) {
  std::string_view package = audio ? "torchaudio" : "torchvision";
  std::map<Pep440, const TorchRelease*> known;
  for (const TorchRelease& t : c.torch) {
    const auto& paired = audio ? t.torchaudio : t.torchvision;
    if (paired) known[*paired] = &t;
  }
  for (const Companion& m : c.companions) {
    const TorchRelease* t = FindTorch(c, m.torch);
    if (m.package == package && t != nullptr) known.emplace(m.version, t);
  }
  return {known.begin(), known.end()};
}

std::vector<std::pair<Pep440, const TorchRelease*>> NearestPaired(const Catalog& c, const Pep440& v,
                                                                  bool audio, size_t limit) {
  std::vector<std::pair<Pep440, const TorchRelease*>> known = KnownPaired(c, audio);
  std::vector<Pep440> versions;
  for (const auto& [ver, t] : known) versions.push_back(ver);
  std::string want = StripLeadingZeros(Digits(v.WithoutLocal()));
  std::vector<size_t> order = NearestOrder(versions, v);
  // A mistyped version with the same digits (1.4.0 for 0.14.0) first, then by release order.
  std::stable_partition(order.begin(), order.end(), [&](size_t i) { return StripLeadingZeros(Digits(versions[i])) == want; });
  std::vector<std::pair<Pep440, const TorchRelease*>> out;
  for (size_t i = 0; i < order.size() && out.size() < limit; ++i) out.push_back(known[order[i]]);
  return out;
}

Result<LookupResult> Lookup(const Catalog& c, const LookupQuery& q, const Platform& platform,
                            const Mirror* mirror) {
  auto r = LookupOn(c, q, platform, mirror);
  if (r) r->platform = platform.Name();
  return r;
}

Result<LookupResult> Lookup(const Catalog& c, const LookupQuery& q, const LookupTarget& target,
                            const Mirror* mirror) {
  auto r = Lookup(c, q, target.platform, mirror);
  if (!r) return r;
  if (r->gpu && !r->gpu->jetson) r->gpu->verdict = AnswerGpuFor(c, *r->gpu, target, mirror);
  if (r->driver) r->driver->verdict = AnswerDriverFor(c, *r->driver, target, mirror);
  return r;
}

static Result<LookupResult> LookupOn(const Catalog& c, const LookupQuery& q, const Platform& platform,
                                     const Mirror* mirror) {
  switch (q.kind) {
    case LookupQuery::Kind::kTorch:
    case LookupQuery::Kind::kTorchvision:
    case LookupQuery::Kind::kTorchaudio: {
      auto v = Pep440::Parse(q.text);
      if (!v) return Error{v.error()};
      return TorchLookup(c, q, *v, platform, mirror);
    }
    case LookupQuery::Kind::kCuda: {
      std::string text = q.text;
      if (StartsWith(ToLower(text), "cu") && text.size() > 2 && std::isdigit(static_cast<unsigned char>(text[2]))) {
        auto variant = Variant::Parse(text);
        if (!variant) return Error{variant.error()};
        return CudaLookup(c, q, *variant->cuda);
      }
      auto v = CudaVersion::Parse(text);
      if (!v) return Error{v.error()};
      return CudaLookup(c, q, *v);
    }
    case LookupQuery::Kind::kDriver: {
      auto d = DriverVersion::Parse(q.text);
      if (!d) return Error{d.error()};
      return DriverLookup(c, q, *d, platform);
    }
    case LookupQuery::Kind::kGpu:
      return GpuLookup(c, q);
  }
  return Err("unknown lookup");
}

}  // namespace cudamatch
