// PasteSnapshot: the facts read from a paste to one Snapshot, each value citing its line
// ("line 14: CUDA used to build PyTorch: 12.1"). Two lines that say different things about one
// fact are a conflict (the first is kept, the conflict is reported); what the paste cannot show is
// listed in PasteInfo::not_checked and never taken as absent.

#include <algorithm>
#include <map>

#include "core/text.h"
#include "probe/paste.h"

namespace cudamatch {

namespace {

constexpr size_t kCiteMax = 100;

// "line 14: CUDA used to build PyTorch: 12.1", the line cut (on a UTF-8 boundary) to ~100 bytes.
std::string Cite(const PasteText& text, int line) {
  std::string_view t = line >= 1 && line <= static_cast<int>(text.lines.size()) ? Trim(text.lines[line - 1].text) : "";
  std::string out = "line " + std::to_string(line) + ": ";
  if (t.size() <= kCiteMax) return out + std::string(t);
  size_t cut = kCiteMax;
  while (cut > 0 && (static_cast<unsigned char>(t[cut]) & 0xC0) == 0x80) --cut;
  return out + std::string(t.substr(0, cut)) + "...";
}

// The distribution name as the live probe keys it: lower case, "-" for "_"; conda's "pytorch" is torch.
std::string PackageKey(std::string_view name) {
  std::string key = ToLower(name);
  std::replace(key.begin(), key.end(), '_', '-');
  return key == "pytorch" ? "torch" : key;
}

bool KeptPackage(std::string_view name) {
  return name == "torch" || name == "torchvision" || name == "torchaudio" || name == "triton" ||
         name == "pytorch-triton" || name == "pytorch-triton-rocm" || StartsWith(name, "nvidia-");
}

// What two lines must agree on, and the form they are compared in ("2.1.0" for a torch of
// "2.1.0+cu121" and a conda "pytorch 2.1.0").
struct FactKey {
  PasteFactKind kind;
  std::string name;
  auto operator<=>(const FactKey&) const = default;
};

std::optional<FactKey> KeyOf(const PasteFact& f) {
  switch (f.kind) {
    case PasteFactKind::kDriverVersion:
    case PasteFactKind::kDriverCuda:
    case PasteFactKind::kKernelModule:
    case PasteFactKind::kTorchCuda:
    case PasteFactKind::kPythonVersion:
    case PasteFactKind::kL4t:
      return FactKey{f.kind, ""};
    case PasteFactKind::kGpu:
    case PasteFactKind::kGpuCc:
      return FactKey{f.kind, f.name};
    case PasteFactKind::kTorchVersion:
      return FactKey{PasteFactKind::kPackage, "torch"};
    case PasteFactKind::kPackage:
      if (KeptPackage(PackageKey(f.name))) return FactKey{f.kind, PackageKey(f.name)};
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

// The nvidia-smi table cuts long GPU names ("NVIDIA GeForce RTX 4090 L..."): a name that starts
// another (letters and digits only) is the same GPU.
bool SameGpuName(std::string_view a, std::string_view b) {
  auto key = [](std::string_view s) {
    std::string k = ToLower(s);
    if (EndsWith(k, "...")) k.resize(k.size() - 3);
    return AlnumKey(k);
  };
  std::string ka = key(a), kb = key(b);
  return StartsWith(ka, kb) || StartsWith(kb, ka);
}

std::string Compared(const PasteFact& f) {
  if (f.kind == PasteFactKind::kPackage || f.kind == PasteFactKind::kTorchVersion) {
    if (auto v = Pep440::Parse(f.value)) return v->Public();
  }
  if (f.kind == PasteFactKind::kTorchCuda || f.kind == PasteFactKind::kDriverCuda) {
    if (auto v = CudaVersion::Parse(f.value)) return v->MajorMinor();
  }
  if (f.kind == PasteFactKind::kPythonVersion) {
    if (auto v = PyVersion::Parse(f.value)) return v->ToString();
  }
  return f.value;
}

// "glibc2.35" at the end of "Linux-5.15.0-88-generic-x86_64-with-glibc2.35" -> "2.35".
std::string GlibcOfPlatform(std::string_view platform) {
  size_t at = platform.rfind("glibc");
  return at == std::string_view::npos ? "" : std::string(platform.substr(at + 5));
}

// "Ubuntu 22.04.3 LTS (x86_64)" -> "ubuntu": the ids the remedies know.
std::string OsIdOf(std::string_view os) {
  static constexpr std::pair<std::string_view, std::string_view> kIds[] = {
      {"ubuntu", "ubuntu"}, {"debian", "debian"}, {"fedora", "fedora"}, {"centos", "centos"},
      {"red hat", "rhel"},  {"rocky", "rocky"},   {"almalinux", "almalinux"}, {"arch linux", "arch"},
      {"opensuse", "opensuse-leap"},
  };
  std::string lower = ToLower(os);
  for (const auto& [prefix, id] : kIds) {
    if (StartsWith(lower, prefix)) return std::string(id);
  }
  return "";
}

// "C:\Users\ann\..." anywhere in a value: a drive letter, a colon and a backslash.
bool HasDrivePath(std::string_view v) {
  for (size_t i = 0; i + 2 < v.size(); ++i) {
    bool letter = (v[i] >= 'A' && v[i] <= 'Z') || (v[i] >= 'a' && v[i] <= 'z');
    if (letter && v[i + 1] == ':' && v[i + 2] == '\\' && (i == 0 || !std::isalnum(static_cast<unsigned char>(v[i - 1])))) return true;
  }
  return false;
}

std::optional<Os> OsSaidBy(const PasteFact& f) {
  std::string lower = ToLower(f.value);
  bool windows = lower.find("microsoft windows") != std::string::npos || StartsWith(lower, "windows-") ||
                 lower.find("win_amd64") != std::string::npos || lower.find("win32") != std::string::npos ||
                 HasDrivePath(f.value) || lower.find("[msc v.") != std::string::npos;
  if (windows && f.kind != PasteFactKind::kWsl) return Os::kWindows;
  bool mac = StartsWith(lower, "mac os") || StartsWith(lower, "macos") || lower.find("darwin") != std::string::npos;
  if (mac && (f.kind == PasteFactKind::kOs || f.kind == PasteFactKind::kPythonPlatform)) return Os::kMacos;
  return std::nullopt;
}

// "x86_64" in "(x86_64)", "-x86_64-with-glibc2.35" or "AMD64".
std::optional<Arch> ArchSaidBy(std::string_view value) {
  std::string lower = ToLower(value);
  for (std::string_view word : {"aarch64", "arm64", "x86_64", "amd64"}) {
    if (lower.find(word) != std::string::npos) {
      if (auto a = ParseArch(word)) return *a;
    }
  }
  return std::nullopt;
}

// The version in "/usr/lib/x86_64-linux-gnu/libcudnn.so.8.9.2", "8.9.2" or
// "C:\...\bin\cudnn_ops_train64_8.dll" (only the major: 8).
}  // namespace

// The pytorch channel's build strings: py3.8_cpu_0, py3.10_cuda12.1_cudnn8.9.2_0; conda-forge's:
// cuda118_py311h4ee7bbc_300, cpu_generic_py312h... (conda list's third column).
CondaBuild CondaBuildOf(std::string_view build) {
  CondaBuild out;
  for (std::string_view part : Split(build, '_')) {
    if (part == "cpu") out.cpu = true;
    if (!StartsWith(part, "cuda") || part.size() <= 4) continue;
    std::string_view digits = part.substr(4);
    std::string text(digits);
    bool packed = digits.size() == 3 && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (packed) text = text.substr(0, 2) + "." + text.substr(2);
    if (!packed && digits.find('.') == std::string_view::npos) continue;
    if (auto v = CudaVersion::Parse(text)) out.cuda = *v;
  }
  if (out.cuda) out.cpu = false;
  return out;
}

namespace {

std::optional<Pep440> CudnnVersionOf(std::string_view value) {
  if (auto v = Pep440::Parse(value)) return *v;
  size_t slash = value.find_last_of("/\\");
  std::string_view file = slash == std::string_view::npos ? value : value.substr(slash + 1);
  if (size_t so = file.find(".so."); so != std::string_view::npos) {
    if (auto v = Pep440::Parse(file.substr(so + 4))) return *v;
  }
  if (EndsWith(ToLower(file), ".dll")) {
    size_t underscore = file.rfind('_');
    if (underscore != std::string_view::npos) {
      if (auto v = Pep440::Parse(file.substr(underscore + 1, file.size() - underscore - 5))) return *v;
    }
  }
  return std::nullopt;
}

class SnapshotBuilder {
 public:
  SnapshotBuilder(const PasteText& text, std::string path) : text_(text), shown_(path == "-" ? "stdin" : path) {
    info_.path = std::move(path);
    info_.lines = static_cast<int>(text.lines.size());
    info_.truncated = text.truncated;
    info_.encoding = text.encoding;
  }

  Snapshot Build(const std::vector<PasteFact>& facts) {
    for (const PasteFact& f : facts) {
      if (IsConflict(f)) continue;
      Apply(f);
      NotePlatform(f);
    }
    FinishPlatform();
    snap_.driver.nvml = NvmlState::kSkippedPaste;
    NotChecked();
    if (env_) snap_.pythons.push_back(std::move(*env_));
    snap_.paste = std::move(info_);
    return std::move(snap_);
  }

 private:
  // A second line about a fact already read: kept out (the first stays); a conflict when it differs.
  bool IsConflict(const PasteFact& f) {
    auto key = KeyOf(f);
    if (!key) return false;
    auto [it, first] = seen_.emplace(*key, f);
    if (first) return false;
    if (f.kind == PasteFactKind::kGpu && SameGpuName(it->second.value, f.value)) return true;
    if (Compared(it->second) != Compared(f)) info_.conflicts.push_back(PasteConflict{key->kind, key->name, it->second, f});
    return true;
  }

  void Unparsed(const PasteFact& f) { info_.unparsed.push_back(f); }

  void Found(const PasteFact& f, std::string probe) {
    snap_.trail.push_back(Evidence{std::move(probe), Cite(text_, f.line), Evidence::Outcome::kFound, f.value});
  }

  void Apply(const PasteFact& f);
  void ApplyDriver(const PasteFact& f);
  void ApplyGpu(const PasteFact& f);
  void ApplyHost(const PasteFact& f);
  void ApplyPython(const PasteFact& f);
  void ApplyCudnn(const PasteFact& f);
  void ApplyToolkit(const PasteFact& f);
  void NotePlatform(const PasteFact& f);
  void FinishPlatform();
  void NotChecked();

  GpuInfo& Gpu(std::string_view index) {
    int i = static_cast<int>(ParseUint(index).value_or(0));
    for (GpuInfo& g : snap_.gpus) {
      if (g.index == i) return g;
    }
    snap_.gpus.push_back(GpuInfo{});
    snap_.gpus.back().index = i;
    return snap_.gpus.back();
  }
  PythonEnv& Env() {
    if (!env_) {
      env_.emplace();
      env_->executable = "python";
      env_->prefix = shown_;  // where the report says the environment is: the paste
      env_->active = true;
      env_->active_reason = "paste";
      env_->kind = PythonKind::kGiven;
    }
    return *env_;
  }
  PackageInfo& Package(const std::string& name) {
    PackageInfo& p = Env().packages[name];
    p.name = name;
    return p;
  }

  const PasteText& text_;
  std::string shown_;
  Snapshot snap_;
  PasteInfo info_;
  std::map<FactKey, PasteFact> seen_;
  std::optional<PythonEnv> env_;
  std::optional<Os> os_;
  std::optional<Arch> arch_;
  std::string platform_line_;
};

void SnapshotBuilder::Apply(const PasteFact& f) {
  switch (f.kind) {
    case PasteFactKind::kFormat:
      for (PasteFormat fmt : {f.format}) {
        if (std::find(info_.formats.begin(), info_.formats.end(), fmt) == info_.formats.end()) info_.formats.push_back(fmt);
      }
      return;
    case PasteFactKind::kDriverVersion:
    case PasteFactKind::kDriverCuda:
    case PasteFactKind::kKernelModule:
    case PasteFactKind::kWsl:
      return ApplyDriver(f);
    case PasteFactKind::kGpu:
    case PasteFactKind::kGpuCc:
    case PasteFactKind::kGpuMemoryMib:
    case PasteFactKind::kGpuBusId:
      return ApplyGpu(f);
    case PasteFactKind::kToolkit:
      return ApplyToolkit(f);
    case PasteFactKind::kCudnn:
      return ApplyCudnn(f);
    case PasteFactKind::kOs:
    case PasteFactKind::kArch:
    case PasteFactKind::kGcc:
    case PasteFactKind::kGlibc:
    case PasteFactKind::kPythonPlatform:
    case PasteFactKind::kL4t:
    case PasteFactKind::kJetsonModel:
      return ApplyHost(f);
    case PasteFactKind::kPythonVersion:
    case PasteFactKind::kPackage:
    case PasteFactKind::kTorchVersion:
    case PasteFactKind::kTorchCuda:
    case PasteFactKind::kTorchHip:
      return ApplyPython(f);
    case PasteFactKind::kUnparsed:
      return Unparsed(f);
    case PasteFactKind::kDriverFailure:
      info_.driver_failures.push_back(f);
      return;
    case PasteFactKind::kTorchDebug:
    case PasteFactKind::kCudaAvailable:
    case PasteFactKind::kCudaModuleLoading:
      return;  // said in the paste, judged by no rule
  }
}

void SnapshotBuilder::ApplyDriver(const PasteFact& f) {
  DriverInfo& d = snap_.driver;
  if (f.kind == PasteFactKind::kWsl) {
    d.wsl = true;
    return Found(f, "driver");
  }
  if (f.kind == PasteFactKind::kDriverCuda) {
    auto v = CudaVersion::Parse(f.value);
    if (!v) return Unparsed(f);
    d.cuda = *v;
    d.cuda_source = Cite(text_, f.line);
    d.cuda_origin = Origin::kObserved;
    return Found(f, "driver");
  }
  auto v = DriverVersion::Parse(f.value);
  if (!v) return Unparsed(f);
  if (f.kind == PasteFactKind::kKernelModule) {
    d.kernel_module_loaded = true;
    d.kernel_version = *v;
    d.kernel_source = Cite(text_, f.line);
    d.kernel_flavor = f.name == "open" ? KernelFlavor::kOpen : f.name == "proprietary" ? KernelFlavor::kProprietary : KernelFlavor::kUnknown;
  } else {
    d.userspace_version = *v;
    d.userspace_source = Cite(text_, f.line);
  }
  Found(f, "driver");
}

void SnapshotBuilder::ApplyGpu(const PasteFact& f) {
  GpuInfo& g = Gpu(f.name);
  if (g.source.empty()) g.source = Cite(text_, f.line);
  switch (f.kind) {
    case PasteFactKind::kGpu:
      g.name = f.value;
      g.name_origin = Origin::kObserved;
      break;
    case PasteFactKind::kGpuCc:
      if (auto cc = ComputeCapability::Parse(f.value)) {
        g.cc = *cc;
        g.cc_source = Cite(text_, f.line);
        g.cc_origin = Origin::kObserved;
      } else {
        return Unparsed(f);
      }
      break;
    case PasteFactKind::kGpuMemoryMib:
      if (auto mib = ParseUint(f.value)) g.memory_bytes = static_cast<uint64_t>(*mib) * 1024 * 1024;
      break;
    default:
      g.pci_bus_id = f.value;
      break;
  }
  Found(f, "gpus");
}

void SnapshotBuilder::ApplyToolkit(const PasteFact& f) {
  auto v = CudaVersion::Parse(f.value);
  if (!v) return Unparsed(f);
  for (const ToolkitInfo& t : snap_.toolkits) {
    if (t.version && t.version->MajorMinor() == v->MajorMinor() && t.path == f.name) return;  // the same nvcc, said twice
  }
  ToolkitInfo t;
  t.path = f.name;
  t.version = *v;
  t.version_source = Cite(text_, f.line);
  t.has_nvcc = true;  // collect_env's "CUDA runtime version" is nvcc's, like nvcc --version
  t.active = snap_.toolkits.empty();
  if (t.active) t.active_reason = "PATH";
  snap_.toolkits.push_back(std::move(t));
  Found(f, "toolkits");
}

void SnapshotBuilder::ApplyCudnn(const PasteFact& f) {
  auto v = CudnnVersionOf(f.value);
  if (!v) return Unparsed(f);
  for (const CudnnInfo& c : snap_.cudnn) {
    if (c.version && *c.version == *v) return;  // libcudnn.so.8.9.2, libcudnn_ops.so.8.9.2, ...: one cuDNN
  }
  CudnnInfo c;
  c.path = Pep440::Parse(f.value) ? "" : f.value;
  c.version = *v;
  c.source = Cite(text_, f.line);
  c.kind = c.path.find("CUDA") != std::string::npos || c.path.find("/cuda") != std::string::npos ? CudnnKind::kToolkit : CudnnKind::kSystem;
  snap_.cudnn.push_back(std::move(c));
  Found(f, "cudnn");
}

void SnapshotBuilder::ApplyHost(const PasteFact& f) {
  HostInfo& h = snap_.host;
  switch (f.kind) {
    case PasteFactKind::kOs:
      if (h.os_name.empty()) h.os_name = f.value;
      if (h.os_id.empty()) h.os_id = OsIdOf(f.value);
      break;
    case PasteFactKind::kArch:
      if (auto a = ArchSaidBy(f.value)) arch_ = *a;
      break;
    case PasteFactKind::kGcc: {
      std::vector<std::string> words = SplitNonEmpty(f.value, ' ');
      auto major = words.empty() ? std::nullopt : ParseUint(words.back().substr(0, words.back().find('.')));
      if (!major) return Unparsed(f);
      h.gcc_major = static_cast<int>(*major);
      h.gcc_source = Cite(text_, f.line);
      break;
    }
    case PasteFactKind::kGlibc:
      h.glibc = StartsWith(f.value, "glibc-") ? f.value.substr(6) : f.value;
      break;
    case PasteFactKind::kPythonPlatform:
      platform_line_ = f.value;
      if (h.glibc.empty()) h.glibc = GlibcOfPlatform(f.value);
      break;
    case PasteFactKind::kL4t:
    case PasteFactKind::kJetsonModel:
      if (!h.jetson) h.jetson.emplace();
      h.jetson->detected = true;
      (f.kind == PasteFactKind::kL4t ? h.jetson->l4t : h.jetson->model) = f.value;
      break;
    default:
      break;
  }
  Found(f, "host");
}

void SnapshotBuilder::ApplyPython(const PasteFact& f) {
  PythonEnv& env = Env();
  if (f.kind == PasteFactKind::kPythonVersion) {
    auto v = PyVersion::Parse(f.value);
    if (!v) return Unparsed(f);
    env.version = *v;
    env.version_source = Cite(text_, f.line);
    return Found(f, "python");
  }
  std::string name = f.kind == PasteFactKind::kPackage ? PackageKey(f.name) : "torch";
  if (!KeptPackage(name)) return;
  PackageInfo& p = Package(name);
  if (f.kind == PasteFactKind::kTorchCuda) {
    if (f.value == "N/A" || f.value == "None" || f.value == "Could not collect") {
      p.cuda_none = true;
    } else if (auto v = CudaVersion::Parse(f.value)) {
      p.cuda = *v;
      p.cuda_origin = Origin::kObserved;
    } else {
      return Unparsed(f);
    }
    p.cuda_source = Cite(text_, f.line);
  } else if (f.kind == PasteFactKind::kTorchHip) {
    p.hip = f.value;
  } else if (f.format == PasteFormat::kCondaList && name == "torch" && !p.cuda && !p.cuda_none) {
    auto v = Pep440::Parse(f.value);
    if (!v) return Unparsed(f);
    p.version = *v;
    p.version_source = Cite(text_, f.line);
    CondaBuild build = CondaBuildOf(f.extra.substr(0, f.extra.find(' ')));
    if (build.cuda) {
      p.cuda = build.cuda;
      p.cuda_origin = Origin::kObserved;
    }
    p.cuda_none = build.cpu;
    if (build.cuda || build.cpu) p.cuda_source = Cite(text_, f.line);
  } else {
    auto v = Pep440::Parse(f.value);
    if (!v) return Unparsed(f);
    p.version = *v;
    p.version_source = Cite(text_, f.line);
  }
  Found(f, "python");
}

void SnapshotBuilder::NotePlatform(const PasteFact& f) {
  if (!os_) os_ = OsSaidBy(f);
  if (f.kind == PasteFactKind::kOs || f.kind == PasteFactKind::kPythonPlatform) {
    if (!arch_) arch_ = ArchSaidBy(f.value);
  }
}

void SnapshotBuilder::FinishPlatform() {
  snap_.platform.os = os_.value_or(Os::kLinux);
  if (!arch_ && !platform_line_.empty()) arch_ = ArchSaidBy(platform_line_);
  snap_.platform.arch = arch_.value_or(Arch::kX86_64);
  if (arch_) snap_.host.arch = std::string(ArchName(*arch_));
  if (snap_.platform.os == Os::kWindows) snap_.host.system_drive = "C:";
}

void SnapshotBuilder::NotChecked() {
  std::vector<PasteGap>& gaps = info_.not_checked;
  if (!snap_.driver.version()) gaps.push_back(PasteGap::kDriver);
  if (snap_.gpus.empty()) gaps.push_back(PasteGap::kGpus);
  if (snap_.toolkits.empty()) gaps.push_back(PasteGap::kToolkits);
  bool package_list = std::any_of(info_.formats.begin(), info_.formats.end(), [](PasteFormat f) {
    return f == PasteFormat::kPipList || f == PasteFormat::kPipFreeze || f == PasteFormat::kCondaList;
  });
  if (!package_list) gaps.push_back(PasteGap::kPythonPackages);  // collect_env lists a few names only
  for (PasteGap g : {PasteGap::kOtherEnvironments, PasteGap::kLibraries, PasteGap::kBinaries, PasteGap::kFiles}) gaps.push_back(g);
}

}  // namespace

Snapshot PasteSnapshot(const PasteText& text, const std::vector<PasteFact>& facts, std::string path) {
  return SnapshotBuilder(text, std::move(path)).Build(facts);
}

}  // namespace cudamatch
