// The finding table: every finding id, once, with its severity, the rule that emits it and that
// rule's scope. Rules(), FindingIds(), the message-catalog test and the documentation test all
// read it. Adding a finding: its rule, its row here, and its text in messages/en.tsv and zh.tsv.
#include "diagnose/rule_fns.h"
#include "diagnose/rules.h"

namespace cudamatch {

// The rules (rules_*.cc).
void CheckDriverMissing(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckModuleNotLoaded(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckDriverMismatch(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckWslLinuxDriver(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckWslWindowsDriver(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckWslDxgdmal(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckContainerDevices(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckVisibleDevices(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckForwardCompat(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckUnknownGpu(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckLibraryFaults(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckImplausibleValues(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckTorchDriver(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckTorchKernels(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckPairing(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckCpuBuild(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckRocmBuild(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckTorchPython(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckTorchUnknown(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckTorchBeyondCatalog(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckTorchFileList(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckExtensionKernels(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckCudaPackageDriver(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckExtensionRuntime(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckExtensionRuntimeMissing(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckExtensionPins(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckExtensionBuiltTorch(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckExtensionAbi(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckExtensionSymbols(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckExtensionWheelTorch(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckRuntimeShadowed(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckRuntimeMissing(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckCompanionBuilds(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckNvidiaWheels(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckNvccMajor(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckGccTooNew(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckLdLibraryPath(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckPipMirror(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckPipOtherPython(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckPaste(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckToolkitPathVsCudaPath(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckContainerCapabilities(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckContainerCudaRequirement(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckJetsonBuild(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckTritonPtxas(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckContainerForwardCompat(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);
void CheckForwardCompatLoaded(const Snapshot& s, const Catalog& c, const PlanQuery& plans, std::vector<Finding>& out);

namespace {

constexpr Severity E = Severity::kError, W = Severity::kWarning, I = Severity::kInfo;
constexpr RuleScope kMachine = RuleScope::kMachine, kEnv = RuleScope::kEnvironment;

}  // namespace

const std::vector<FindingDecl>& FindingTable() {
  static const std::vector<FindingDecl> kTable = {
      {"driver.missing", E, CheckDriverMissing, kMachine},
      {"driver.module_not_loaded", E, CheckModuleNotLoaded, kMachine},
      {"container.module_not_loaded", E, CheckModuleNotLoaded, kMachine},
      {"driver.mismatch", E, CheckDriverMismatch, kMachine},
      {"container.driver_mismatch", E, CheckDriverMismatch, kMachine},
      {"wsl.linux_driver", E, CheckWslLinuxDriver, kMachine},
      {"container.no_devices", E, CheckContainerDevices, kMachine},
      {"env.visible_devices_hide_all", E, CheckVisibleDevices, kMachine},
      {"env.visible_devices_some", I, CheckVisibleDevices, kMachine},
      {"torch.driver_too_old", E, CheckTorchDriver, kEnv},
      {"torch.driver_minor_compat", W, CheckTorchDriver, kEnv},
      {"torch.no_kernels", E, CheckTorchKernels, kEnv},
      {"torch.ptx_jit", I, CheckTorchKernels, kEnv},
      {"torch.vision_unpaired", E, CheckPairing, kEnv},
      {"torch.audio_unpaired", E, CheckPairing, kEnv},
      {"torch.cpu_build", W, CheckCpuBuild, kEnv},
      {"torch.cpu_build_driver", W, CheckCpuBuild, kEnv},
      {"torch.cpu_build_pypi_aarch64", W, CheckCpuBuild, kEnv},
      {"torch.rocm_on_nvidia", E, CheckRocmBuild, kEnv},
      {"torch.python_unsupported", W, CheckTorchPython, kEnv},
      {"toolkit.nvcc_major", W, CheckNvccMajor, kEnv},
      {"toolkit.gcc_too_new", W, CheckGccTooNew, kMachine},
      {"env.ld_library_path", W, CheckLdLibraryPath, kMachine},
      {"pip.mirror_default_only", W, CheckPipMirror, kMachine},
      {"driver.forward_compat", I, CheckForwardCompat, kMachine},
      {"gpu.unknown", I, CheckUnknownGpu, kMachine},
      {"torch.not_in_catalog", I, CheckTorchUnknown, kEnv},
      {"torch.kernels_differ", I, CheckTorchFileList, kEnv},
      {"ext.no_kernels", E, CheckExtensionKernels, kEnv},
      {"ext.gpu_unsupported", E, CheckExtensionKernels, kEnv},
      {"cudapkg.no_kernels", E, CheckExtensionKernels, kEnv},
      {"cudapkg.driver_too_old", E, CheckCudaPackageDriver, kEnv},
      {"ext.cuda_major", E, CheckExtensionRuntime, kEnv},
      {"ext.cudnn_major", E, CheckExtensionRuntime, kEnv},
      {"ext.runtime_missing", E, CheckExtensionRuntimeMissing, kEnv},
      {"ext.torch_pin", E, CheckExtensionPins, kEnv},
      {"ext.built_torch", E, CheckExtensionBuiltTorch, kEnv},
      {"ext.built_torch_cpu", E, CheckExtensionBuiltTorch, kEnv},
      {"ext.cxx_abi", E, CheckExtensionAbi, kEnv},
      {"ext.missing_symbol", E, CheckExtensionSymbols, kEnv},
      {"ext.wheel_torch", E, CheckExtensionWheelTorch, kEnv},
      {"ext.wheel_torch_patch", E, CheckExtensionWheelTorch, kEnv},
      {"runtime.shadowed", W, CheckRuntimeShadowed, kEnv},
      {"torch.runtime_missing", E, CheckRuntimeMissing, kEnv},
      {"torch.vision_cuda_mismatch", E, CheckCompanionBuilds, kEnv},
      {"torch.audio_cuda_mismatch", E, CheckCompanionBuilds, kEnv},
      {"torch.nvidia_wheels_missing", E, CheckNvidiaWheels, kEnv},
      {"torch.nvidia_wheels_mismatch", W, CheckNvidiaWheels, kEnv},
      {"torch.beyond_catalog", I, CheckTorchBeyondCatalog, kEnv},
      {"env.pip_other_python", W, CheckPipOtherPython, kMachine},
      {"toolkit.path_vs_cuda_path", W, CheckToolkitPathVsCudaPath, kMachine},
      {"driver.library_fault", W, CheckLibraryFaults, kMachine},
      {"driver.implausible_value", W, CheckImplausibleValues, kMachine},
      {"wsl.dxgdmal_missing", E, CheckWslDxgdmal, kMachine},
      {"wsl.dxgdmal_unknown_driver", W, CheckWslDxgdmal, kMachine},
      {"wsl.windows_driver", I, CheckWslWindowsDriver, kMachine},
      {"paste.conflicting_facts", W, CheckPaste, kMachine},
      {"paste.truncated", I, CheckPaste, kMachine},
      {"paste.driver_unreachable", E, CheckPaste, kMachine},
      {"paste.driver_version_mismatch", E, CheckPaste, kMachine},
      {"container.no_compute_capability", E, CheckContainerCapabilities, kMachine},
      {"container.cuda_requirement", E, CheckContainerCudaRequirement, kMachine},
      {"container.cuda_minor_compat", W, CheckContainerCudaRequirement, kMachine},
      {"container.forward_compat_unsupported", E, CheckContainerForwardCompat, kMachine},
      {"driver.forward_compat_loaded", E, CheckForwardCompatLoaded, kMachine},
      {"jetson.cpu_build", W, CheckJetsonBuild, kEnv},
      {"jetson.sbsa_build", E, CheckJetsonBuild, kEnv},
      {"jetson.no_kernels", E, CheckJetsonBuild, kEnv},
      {"triton.ptxas_too_old", W, CheckTritonPtxas, kEnv},
  };
  return kTable;
}

const FindingDecl* FindFinding(std::string_view id) {
  for (const FindingDecl& d : FindingTable()) {
    if (d.id == id) return &d;
  }
  return nullptr;
}

const std::vector<Rule>& Rules() {
  static const std::vector<Rule> kRules = [] {
    std::vector<Rule> out;
    for (const FindingDecl& d : FindingTable()) {
      if (out.empty() || out.back().check != d.rule) out.push_back(Rule{d.id, d.rule, d.scope, {}});
      out.back().ids.push_back(d.id);
    }
    return out;
  }();
  return kRules;
}

const std::vector<std::string_view>& FindingIds() {
  static const std::vector<std::string_view> kIds = [] {
    std::vector<std::string_view> out;
    for (const FindingDecl& d : FindingTable()) out.push_back(d.id);
    return out;
  }();
  return kIds;
}

}  // namespace cudamatch
