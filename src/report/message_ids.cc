#include "report/message_ids.h"

namespace cudamatch {

std::optional<std::string_view> NvmlMessageId(NvmlState s) {
  switch (s) {
    case NvmlState::kSkippedRoot: return "nvml.skipped.root";
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
