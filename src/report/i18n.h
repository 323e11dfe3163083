// Human text in English and Simplified Chinese. Every sentence lives in the message catalogs
// (messages/en.tsv, messages/zh.tsv), looked up by id; "{name}" placeholders are filled by Tr.
// JSON output never goes through here: it stays language-neutral.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"

namespace cudamatch {

enum class Lang { kEn, kZh };

Result<Lang> ParseLang(std::string_view text);  // "en", "zh", "zh_CN", "zh-CN"
// From LC_ALL, LC_MESSAGES, LANG in that order (POSIX precedence); English by default.
Lang LangFromLocale(std::string_view lc_all, std::string_view lc_messages, std::string_view lang);
std::string_view LangCode(Lang lang);

using MsgArgs = std::initializer_list<std::pair<std::string_view, std::string>>;

// The message `id` in `lang` with its placeholders filled. An unknown id renders as "[id]".
// Arguments are values: each goes through SafeText(Sink::kValue), so none can start a line.
std::string Tr(Lang lang, std::string_view id, MsgArgs args = {});
// An argument that is nullopt renders as common.unknown in `lang`.
std::string TrArgs(Lang lang, std::string_view id, const std::vector<std::pair<std::string, std::optional<std::string>>>& args);
// The label `label_id` ("why:", "原因：") followed by `text`: a space after a half-width colon,
// none after a full-width one. `text` is one line: it goes through SafeText(Sink::kValue).
std::string Labelled(Lang lang, std::string_view label_id, const std::string& text);
// Whether `id` exists in `lang`.
bool HasMessage(Lang lang, std::string_view id);

struct MessageEntry {
  std::string id;
  std::string text;
  int line = 0;
};

// Parses one message catalog ("id<TAB>text" lines; \n, \t and \\ escapes in text).
Result<std::vector<MessageEntry>> ParseMessages(std::string_view file, std::string_view text);
// The placeholder names of a message text, sorted and unique.
std::vector<std::string> Placeholders(std::string_view text);
// The embedded catalog of one language.
const std::vector<MessageEntry>& EmbeddedMessages(Lang lang);

}  // namespace cudamatch
