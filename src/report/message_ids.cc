#include "report/message_ids.h"

namespace cudamatch {

std::string_view FlavorMessageId(KernelFlavor f) {
  switch (f) {
    case KernelFlavor::kOpen: return "flavor.open";
    case KernelFlavor::kProprietary: return "flavor.proprietary";
    case KernelFlavor::kUnknown: break;
  }
  return "flavor.";
}

std::string_view PythonKindMessageId(PythonKind k) {
  switch (k) {
    case PythonKind::kSystem: return "pykind.system";
    case PythonKind::kVenv: return "pykind.venv";
    case PythonKind::kConda: return "pykind.conda";
    case PythonKind::kPyenv: return "pykind.pyenv";
    case PythonKind::kUv: return "pykind.uv";
    case PythonKind::kGiven: return "pykind.given";
    case PythonKind::kStore: return "pykind.store";
  }
  return "pykind.system";
}

std::string_view CudnnKindMessageId(CudnnKind k) {
  switch (k) {
    case CudnnKind::kSystem: return "cudnn.kind.system";
    case CudnnKind::kToolkit: return "cudnn.kind.toolkit";
    case CudnnKind::kPip: return "cudnn.kind.pip";
  }
  return "cudnn.kind.system";
}

std::optional<std::string_view> NvmlMessageId(NvmlState s) {
  switch (s) {
    case NvmlState::kSkippedRoot: return "nvml.skipped.root";
    case NvmlState::kSkippedPaste: return "nvml.skipped.paste";
    case NvmlState::kSkippedNoModule: return "nvml.skipped.no_module";
    case NvmlState::kSkippedNoLibrary: return "nvml.skipped.no_library";
    case NvmlState::kNotTried:
    case NvmlState::kOk:
    case NvmlState::kFailed: break;
  }
  return std::nullopt;
}

std::string NvmlText(const DriverInfo& d, Lang L) {
  if (auto id = NvmlMessageId(d.nvml)) return Tr(L, *id);
  return d.nvml_status();
}

}  // namespace cudamatch
