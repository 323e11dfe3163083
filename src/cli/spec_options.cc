#include "cli/spec_options.h"

#include <cstdio>

#include "catalog/query.h"
#include "cli/common.h"
#include "core/text.h"
#include "plan/spec.h"

namespace cudamatch {

void AddSpecOptions(Command& sub, SpecOptions& opt) {
  AddRootOption(sub, opt.machine, "Probe the machine image under DIR");
  AddDriverTimeoutOption(sub, opt.machine);
  sub.Option("--driver", &opt.driver, "VERSION", "Driver version, e.g. 470.82.01 (instead of this machine's)");
  sub.Option("--cuda-max", &opt.cuda_max, "X.Y", "The CUDA version the driver serves (nvidia-smi), e.g. 12.2");
  sub.Repeated("--gpu", &opt.gpus, "NAME", "GPU name, e.g. \"RTX 3090\" (repeatable: every GPU must be served)");
  sub.Repeated("--cc", &opt.ccs, "X.Y", "Compute capability, e.g. 8.6 (repeatable)");
  sub.Option("--python", &opt.python, "PYTHON", "Python version (3.10) or an interpreter/environment path");
  sub.Option("--torch", &opt.torch, "SPEC", "Torch versions to consider, e.g. \"==1.13.*\" or latest");
  sub.Option("--with", &opt.with, "LIST", "Companions: torchvision,torchaudio (or none)");
  sub.Option("--mirror", &opt.mirror, "MIRROR", "A mirror from mirrors.tsv (name or URL) for the commands");
  sub.Flag("--no-detect", &opt.no_detect, "Describe the machine by flags only; probe nothing");
}

namespace {

Status ApplyGpus(const SpecOptions& opt, const Catalog& c, Lang lang, MachineSpec& spec) {
  if (opt.gpus.empty() && opt.ccs.empty()) return Status::Ok();
  spec.gpus.clear();
  spec.gpu_names.clear();
  for (const std::string& name : opt.gpus) {
    GpuMatch m = MatchGpuName(c, name);
    if (m.models.empty()) {
      std::string hint = m.suggestions.empty() ? "" : Tr(lang, "usage.did_you_mean", {{"word", Join(m.suggestions, ", ")}});
      return ErrNotFound(Tr(lang, "usage.unknown_gpu", {{"name", Quote(name)}, {"hint", hint}}));
    }
    for (const GpuModel* g : m.models) {
      if (!(g->cc == m.models.front()->cc)) {
        return Err("GPU " + Quote(name) + " is ambiguous: " + std::string(m.models.front()->name) + " (" +
                   m.models.front()->cc.ToString() + ") or " + std::string(g->name) + " (" + g->cc.ToString() + ")");
      }
    }
    spec.gpus.push_back(m.models.front()->cc);
    spec.gpu_names.emplace_back(m.models.front()->name);
  }
  for (const std::string& text : opt.ccs) {
    auto cc = ComputeCapability::Parse(text);
    if (!cc) return Error{cc.error()};
    ComputeCapability value = *cc;
    if (auto now = ArchitectureFor(c, value) == nullptr ? RenamedCc(c, value) : std::nullopt) {
      WriteStderr("cudamatch: " + Tr(lang, "gpu.renamed_cc", {{"old", value.ToString()}, {"cc", now->ToString()}}) + "\n");
      value = *now;
    }
    spec.gpus.push_back(value);
    spec.gpu_names.push_back("");
  }
  spec.has_nvidia_gpu = true;
  return Status::Ok();
}

// A Grace superchip or a Jetson module comes only with the Arm CPU beside it, and runs Linux
// alone (gpu_hosts.tsv): a machine described by flags takes that architecture unless --arch names
// one, and Linux unless --os names a system (so a plan made on a Windows laptop for its Jetson is a
// Linux one); a probed one keeps its own, and the plan says when the two differ
// (plan/platform_gate.h).
void ApplyGpuHost(const Catalog& c, bool infer, bool os_given, MachineSpec& spec) {
  infer = infer && (spec.platform.os == Os::kLinux || !os_given);
  for (const std::string& name : spec.gpu_names) {
    const GpuHost* host = name.empty() ? nullptr : HostOfGpu(c, name);
    if (host == nullptr) continue;
    spec.gpu_host = MachineSpec::GpuHostNote{name, host->arch};
    if (infer && (spec.platform.arch != host->arch || spec.platform.os != Os::kLinux)) {
      spec.platform.os = Os::kLinux;
      spec.platform.arch = host->arch;
      spec.platform_from_gpu = true;
    }
    return;
  }
}

// A Jetson module named by --gpu on linux-aarch64 is planned as a Jetson (plan/platform_gate.h):
// PyPI's aarch64 CUDA builds are SBSA's and do not run on its JetPack, and the plan names the
// JetPack lines the module runs (jetpack.tsv). Thor runs JetPack 7 alone, whose CUDA user space
// is SBSA's, so PyPI's cu130 builds serve it: the gate plans those, with JetPack 7's index.
void ApplyJetsonGpu(const Catalog& c, MachineSpec& spec) {
  if (spec.jetson || spec.platform.os != Os::kLinux || spec.platform.arch != Arch::kAarch64) return;
  for (const std::string& name : spec.gpu_names) {
    GpuMatch match = MatchGpuName(c, name, false);
    if (match.models.empty() || !IsJetson(*match.models.front())) continue;
    const GpuModel& g = *match.models.front();
    spec.jetson = true;
    spec.jetson_model = std::string(g.name);
    return;
  }
}

Status ApplyDriver(const SpecOptions& opt, MachineSpec& spec) {
  if (!opt.driver.empty()) {
    auto d = DriverVersion::Parse(opt.driver);
    if (!d) return Error{d.error()};
    spec.driver = *d;
    spec.driver_cuda.reset();
  }
  if (!opt.cuda_max.empty()) {
    auto c = CudaVersion::Parse(opt.cuda_max);
    if (!c) return Error{c.error()};
    spec.driver_cuda = *c;
    if (opt.driver.empty()) spec.driver.reset();
  }
  return Status::Ok();
}

// --with torchvision,torchaudio | torchvision | none: a word it does not know is an error (a
// typo would otherwise leave the companion out in silence).
Status ApplyWith(const std::string& text, Lang lang, MachineSpec& spec) {
  const std::vector<std::string> allowed = {"torchvision", "torchaudio", "none"};
  spec.with_torchvision = spec.with_torchaudio = false;
  for (std::string_view part : Split(text, ',')) {
    std::string word = ToLower(Trim(part));
    if (word.empty() || word == "none") continue;
    if (word != "torchvision" && word != "torchaudio") {
      return Err(Tr(lang, "usage.unknown_value", {{"value", Quote(word)}, {"option", "--with"},
                                                  {"hint", DidYouMeanHint(word, allowed, lang)}, {"list", Join(allowed, ", ")}}));
    }
    (word == "torchvision" ? spec.with_torchvision : spec.with_torchaudio) = true;
  }
  return Status::Ok();
}

}  // namespace

int SpecErrorExit(const Error& e) { return e.kind == Error::Kind::kNotFound ? kExitFindings : kExitUsage; }

Result<MachineSpec> BuildSpec(const SpecOptions& opt, const Context& ctx) {
  MachineSpec spec;
  bool detect = !opt.no_detect && ctx.flags.os.empty();
  bool python_is_path = opt.python.find('/') != std::string::npos;
  if (python_is_path && !detect) return Err(Tr(ctx.lang, "path.python_no_detect", {{"path", Quote(opt.python)}}));
  if (detect) {
    MachineOptions m = opt.machine;
    if (python_is_path) m.pythons = {opt.python};
    auto probe = ProbeMachine(m, ctx);
    if (!probe) return Error{probe.error()};
    const PythonEnv* primary = PrimaryPython(probe->snapshot);
    // The interpreter given is the one answered for: another one in its place is no answer.
    if (python_is_path && (primary == nullptr || !WasFoundBy(*primary, FoundBy::kGivenPython))) {
      return Err(Tr(ctx.lang, "path.python_not_python", {{"path", Quote(opt.python)}}));
    }
    spec = SpecFromSnapshot(probe->snapshot, primary);
    if (opt.machine.root_given) spec.root = opt.machine.root;
  }
  Platform probed = spec.platform;  // the probed machine's, when detected
  spec.platform = ctx.platform;
  if (detect && ctx.flags.arch.empty() && ctx.flags.os.empty()) spec.platform = probed;
  if (Status s = ApplyDriver(opt, spec); !s.ok()) return Error{s.error()};
  if (Status s = ApplyGpus(opt, ctx.catalog, ctx.lang, spec); !s.ok()) return s.err();
  if (!opt.gpus.empty()) {
    ApplyGpuHost(ctx.catalog, !detect && ctx.flags.arch.empty(), !ctx.flags.os.empty(), spec);
    ApplyJetsonGpu(ctx.catalog, spec);
  }
  if (!opt.python.empty() && !python_is_path) {
    auto py = PyVersion::Parse(opt.python);
    if (!py) return Error{py.error()};
    spec.python = *py;
    spec.python_from.clear();
  }
  if (!opt.torch.empty() && ToLower(opt.torch) != "latest") {
    std::string text = opt.torch;
    if (!text.empty() && std::isdigit(static_cast<unsigned char>(text[0]))) text = "==" + text;
    // "2.5.1+cu121": the release, from that variant's index.
    auto exact = StartsWith(text, "==") && !StartsWith(text, "===") ? Pep440::Parse(text.substr(2)) : Err("not exact");
    if (exact && !exact->LocalLabel().empty()) {
      auto variant = Variant::Parse(exact->LocalLabel());
      if (!variant) return Err("unknown wheel variant " + Quote(exact->LocalLabel()) + " in --torch " + Quote(opt.torch));
      spec.variant = *variant;
      text = "==" + exact->Public();
    }
    auto set = SpecifierSet::Parse(text);
    if (!set) return Error{set.error()};
    spec.torch = *set;
  }
  if (Status s = ApplyWith(opt.with, ctx.lang, spec); !s.ok()) return Error{s.error()};
  if (!opt.mirror.empty()) {
    spec.mirror = FindMirror(ctx.catalog, opt.mirror);
    if (spec.mirror == nullptr) {
      auto unlisted = UnlistedMirror(opt.mirror);
      if (!unlisted) return Error{unlisted.error()};
      spec.unlisted_mirror = std::make_shared<const Mirror>(std::move(*unlisted));
      spec.mirror = spec.unlisted_mirror.get();
    }
  }
  // Chinese readers get a mirrored command under the official one (a mirror whose operator has
  // both halves: PyPI and the PyTorch wheels).
  if (ctx.lang == Lang::kZh && spec.mirror == nullptr) spec.alternative_mirror = MirrorWithPytorchWheels(ctx.catalog);
  return spec;
}

}  // namespace cudamatch
