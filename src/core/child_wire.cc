// The reply format and the task form shared by the Linux and Windows children.
#include "core/child.h"
#include "core/text.h"

namespace cudamatch {

ChildOutcome RunInChild(const ChildTask& task, int timeout_ms, size_t max_reply) {
  PendingChild child = StartChild(task, timeout_ms, max_reply);
  return FinishChild(child);
}

void WireWriter::Put(std::string_view key, std::string_view value) {
  text_.append(key);
  text_ += '\t';
  text_ += std::to_string(value.size());
  text_ += ':';
  text_.append(value);
  text_ += '\n';
}

WireRecords ParseWire(std::string_view text) {
  WireRecords records;
  while (!text.empty()) {
    size_t tab = text.find('\t');
    size_t colon = text.find(':', tab == std::string_view::npos ? 0 : tab);
    if (tab == std::string_view::npos || colon == std::string_view::npos) return {};
    auto length = ParseUint(text.substr(tab + 1, colon - tab - 1));
    if (!length || *length > static_cast<int64_t>(text.size() - colon - 1)) return {};
    size_t end = colon + 1 + static_cast<size_t>(*length);
    if (end >= text.size() || text[end] != '\n') return {};
    records.emplace_back(std::string(text.substr(0, tab)), std::string(text.substr(colon + 1, *length)));
    text.remove_prefix(end + 1);
  }
  return records;
}

}  // namespace cudamatch
