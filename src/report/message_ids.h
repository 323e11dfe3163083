// The message id of each value of the snapshot's enums, one table per enum: message ids are never
// built by gluing a value's text to a prefix.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "probe/snapshot.h"
#include "report/i18n.h"

namespace cudamatch {

std::string_view FlavorMessageId(KernelFlavor f);
std::string_view PythonKindMessageId(PythonKind k);
std::string_view CudnnKindMessageId(CudnnKind k);

// nvml.skipped.root, ...; nullopt for the states shown as they are (ok, an error, not tried).
std::optional<std::string_view> NvmlMessageId(NvmlState s);
// The NVML row of `doctor`: "ok", the error, or why it was not loaded in the user's language.
std::string NvmlText(const DriverInfo& d, Lang L);

}  // namespace cudamatch
