// `cudamatch explain`: topics whose text lives in the message catalogs
// ("explain.<topic>.title" and "explain.<topic>.body").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/version.h"
#include "report/json.h"
#include "report/text.h"

namespace cudamatch {

const std::vector<std::string_view>& ExplainTopics();
// Other names a topic is asked by: a CUDA error's number ("804" is forward-compat).
struct ExplainAlias {
  std::string_view name, topic;
  std::string_view help;  // its --help line (help.arg.explain.topic.<name>)
};
const std::vector<ExplainAlias>& ExplainAliases();
// The topic `name` is (itself, or the one its alias names).
std::string ExplainTopicOf(const std::string& name);
std::string RenderExplain(const std::string& topic, const TextOptions& o);
Json ExplainJson(const std::string& topic);

// The first driver branch whose nvidia-smi header reads "KMD Version: 610.43.02   CUDA UMD
// Version: 13.3" instead of "Driver Version: ...   CUDA Version: ..." (explain.nvidia-smi.sources).
inline constexpr int kUmdHeaderBranch = 610;
// The message that says where nvidia-smi shows the driver's CUDA for `driver`'s header generation
// (doctor.cuda.driver_meaning, or doctor.cuda.driver_meaning_umd from R610 on).
std::string_view DriverCudaMeaningId(const std::optional<DriverVersion>& driver);

}  // namespace cudamatch
