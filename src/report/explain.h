// `cudamatch explain`: topics whose text lives in the message catalogs
// ("explain.<topic>.title" and "explain.<topic>.body").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "report/json.h"
#include "report/text.h"

namespace cudamatch {

const std::vector<std::string_view>& ExplainTopics();
std::string RenderExplain(const std::string& topic, const TextOptions& o);
Json ExplainJson(const std::string& topic);

}  // namespace cudamatch
