#include "diagnose/rules.h"

#include <algorithm>

#include "diagnose/rule_fns.h"
#include "core/text.h"
#include "plan/fix.h"
#include "plan/spec.h"

namespace cudamatch {

std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kInfo: break;
  }
  return "info";
}

const std::vector<Rule>& Rules() {
  static const std::vector<Rule> kRules = {
      {"driver-missing", CheckDriverMissing},       {"module-not-loaded", CheckModuleNotLoaded},
      {"driver-mismatch", CheckDriverMismatch},     {"wsl-linux-driver", CheckWslLinuxDriver},
      {"container-devices", CheckContainerDevices}, {"visible-devices", CheckVisibleDevices},
      {"torch-driver", CheckTorchDriver},           {"torch-kernels", CheckTorchKernels},
      {"pairing", CheckPairing},                    {"cpu-build", CheckCpuBuild},
      {"rocm-build", CheckRocmBuild},               {"torch-python", CheckTorchPython},
      {"nvcc-major", CheckNvccMajor},               {"gcc-too-new", CheckGccTooNew},
      {"ld-library-path", CheckLdLibraryPath},      {"pip-mirror", CheckPipMirror},
      {"forward-compat", CheckForwardCompat},       {"unknown-gpu", CheckUnknownGpu},
      {"torch-unknown", CheckTorchUnknown},         {"torch-file-list", CheckTorchFileList},
      {"ext-kernels", CheckExtensionKernels},       {"ext-runtime", CheckExtensionRuntime},
      {"ext-pins", CheckExtensionPins},             {"runtime-shadowed", CheckRuntimeShadowed},
      {"companion-builds", CheckCompanionBuilds},   {"nvidia-wheels", CheckNvidiaWheels},
      {"torch-beyond-catalog", CheckTorchBeyondCatalog},
      {"pip-other-python", CheckPipOtherPython},     {"toolkit-path", CheckToolkitPathVsCudaPath},
      {"library-fault", CheckLibraryFaults},         {"implausible-value", CheckImplausibleValues},
  };
  return kRules;
}

const std::vector<std::string_view>& FindingIds() {
  static const std::vector<std::string_view> kIds = {
      "driver.missing",          "driver.module_not_loaded", "driver.mismatch",
      "wsl.linux_driver",        "container.no_devices",     "env.visible_devices_hide_all",
      "env.visible_devices_some", "torch.driver_too_old",    "torch.driver_minor_compat",
      "torch.no_kernels",        "torch.ptx_jit",            "torch.vision_unpaired",
      "torch.audio_unpaired",    "torch.vision_cuda_mismatch", "torch.cpu_build",
      "torch.rocm_on_nvidia",    "torch.python_unsupported", "toolkit.nvcc_major",
      "toolkit.gcc_too_new",     "env.ld_library_path",      "pip.mirror_default_only",
      "driver.forward_compat",   "gpu.unknown",              "torch.not_in_catalog",
      "torch.kernels_differ",    "ext.no_kernels",           "ext.cuda_major",
      "ext.cudnn_major",         "ext.torch_pin",            "runtime.shadowed",
      "torch.audio_cuda_mismatch", "torch.nvidia_wheels_missing", "torch.nvidia_wheels_mismatch",
      "container.module_not_loaded", "container.driver_mismatch", "torch.beyond_catalog",
      "driver.library_fault",    "driver.implausible_value", "torch.cpu_build_driver",
      "env.pip_other_python",    "toolkit.path_vs_cuda_path",
  };
  return kIds;
}

std::vector<Finding> RunRules(const Snapshot& snap, const Catalog& c) {
  std::vector<Finding> out;
  for (const Rule& rule : Rules()) rule.check(snap, c, out);
  return out;
}

namespace {

std::string Arg(const Finding& f, std::string_view key) {
  for (const auto& [k, v] : f.args) {
    if (k == key) return v.value_or("");
  }
  return "";
}

bool Same(const Finding& a, const Finding& b) { return a.id == b.id && Arg(a, "env") == Arg(b, "env"); }

}  // namespace

FixCheck VerifyFix(const Snapshot& snap, const Catalog& c, const Finding& f, const std::vector<Finding>& before) {
  if (!IsPipInstall(f.fix)) return FixCheck::kNotAPipInstall;
  if (!InstallsModelledPackages(f.fix)) return FixCheck::kNotModelled;
  auto after_snap = ApplyPipCommand(c, snap, Arg(f, "env"), f.fix);
  if (!after_snap) return FixCheck::kCannotApply;
  std::vector<Finding> after = RunRules(*after_snap, c);
  for (const Finding& x : after) {
    if (Same(x, f)) return FixCheck::kStillThere;
    bool existed = std::any_of(before.begin(), before.end(), [&](const Finding& b) { return Same(b, x); });
    if (x.severity == Severity::kError && !existed) return FixCheck::kRaisesError;
  }
  return FixCheck::kClears;
}

std::vector<Finding> Diagnose(const Snapshot& snap, const Catalog& c) {
  std::vector<Finding> out = RunRules(snap, c);
  for (Finding& f : out) {
    FixCheck check = VerifyFix(snap, c, f, out);
    if (check == FixCheck::kStillThere || check == FixCheck::kRaisesError || check == FixCheck::kCannotApply) f.fix.clear();
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Finding& a, const Finding& b) { return a.severity < b.severity; });
  return out;
}

bool HasErrors(const std::vector<Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(),
                     [](const Finding& f) { return f.severity == Severity::kError; });
}

EvidenceItem Ev(std::string id, MessageArgs args) { return EvidenceItem{std::move(id), std::move(args)}; }

std::vector<EvidenceItem> DriverEvidence(const DriverInfo& d) {
  std::vector<EvidenceItem> out;
  if (d.kernel_version) out.push_back(Ev("evidence.driver_kernel", {{"version", d.kernel_version->text}, {"source", d.kernel_source}}));
  if (d.userspace_version) {
    out.push_back(Ev("evidence.driver_userspace", {{"version", d.userspace_version->text}, {"source", d.userspace_source}}));
  }
  if (d.cuda) out.push_back(Ev("evidence.driver_cuda", {{"cuda", d.cuda->MajorMinor()}, {"source", d.cuda_source}}));
  if (out.empty()) out.push_back(Ev("evidence.no_driver"));
  return out;
}

EvidenceItem TorchEvidence(const PythonEnv& env, const PackageInfo& torch) {
  MessageArgs args = {{"version", ArgOf(torch.version, [](const Pep440& v) { return v.ToString(); })}, {"env", env.prefix}, {"source", torch.version_source}};
  if (!torch.cuda) return Ev("evidence.torch", std::move(args));
  args.emplace_back("cuda", torch.cuda->MajorMinor());
  return Ev("evidence.torch_cuda", std::move(args));
}

EvidenceItem PackageEvidence(const PackageInfo& pkg) {
  return Ev("evidence.package", {{"package", pkg.name}, {"version", pkg.version->ToString()}, {"source", pkg.version_source}});
}

EvidenceItem GpuEvidence(const GpuInfo& g) {
  MessageArgs args = {{"gpu", g.name.empty() ? "NVIDIA GPU" : g.name}, {"source", g.source}};
  if (!g.cc) return Ev("evidence.gpu", std::move(args));
  args.emplace_back("cc", g.cc->ToString());
  return Ev("evidence.gpu_cc", std::move(args));
}

const TorchVariant* InstalledVariant(const Catalog& c, const PackageInfo& torch, const Platform& p) {
  if (!torch.version || !torch.variant) return nullptr;
  return FindVariant(c, *torch.version, p.Name(), VariantTag(torch));
}

}  // namespace cudamatch
