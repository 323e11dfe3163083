#include "report/i18n.h"

#include <algorithm>
#include <functional>
#include <map>

#include "core/embedded.h"
#include "core/safe_text.h"
#include "core/text.h"

namespace cudamatch {

Result<Lang> ParseLang(std::string_view text) {
  std::string t = ToLower(Trim(text));
  if (t == "en" || StartsWith(t, "en_") || StartsWith(t, "en-") || t == "c" || t == "posix") {
    return Lang::kEn;
  }
  if (t == "zh" || StartsWith(t, "zh_") || StartsWith(t, "zh-")) return Lang::kZh;
  return Err("unknown language " + Quote(text) + " (expected en or zh)");
}

Lang LangFromLocale(std::string_view lc_all, std::string_view lc_messages, std::string_view lang) {
  for (std::string_view value : {lc_all, lc_messages, lang}) {
    if (value.empty()) continue;
    return StartsWith(ToLower(value), "zh") ? Lang::kZh : Lang::kEn;
  }
  return Lang::kEn;
}

std::string_view LangCode(Lang lang) { return lang == Lang::kZh ? "zh" : "en"; }

namespace {

std::string Unescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    size_t slash = text.find('\\');
    if (slash == std::string_view::npos || slash + 1 == text.size()) {  // a last lone backslash stays
      out.append(text);
      break;
    }
    out.append(text.substr(0, slash));
    char c = text[slash + 1];
    out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
    text.remove_prefix(slash + 2);
  }
  return out;
}

// The text of each message by id (for an id given twice, its first entry): an open-addressing
// hash table of views, built in one pass with one allocation.
class Table {
 public:
  explicit Table(size_t expected = 0) : slots_(Capacity(expected)) {}
  // false when `id` is there already.
  bool Add(std::string_view id, std::string_view text) {
    if (2 * (size_ + 1) > slots_.size()) Grow();
    Slot& slot = slots_[Find(id)];  // one hash: the table is grown before, never while, it is looked up
    if (!slot.id.empty()) return false;
    slot = Slot{id, text};
    ++size_;
    return true;
  }
  void Set(std::string_view id, std::string_view text) { slots_[Find(id)].text = text; }
  const std::string_view* Get(std::string_view id) const {
    const Slot& s = slots_[Find(id)];
    return s.id.empty() ? nullptr : &s.text;
  }

 private:
  struct Slot {
    std::string_view id, text;  // an empty id: a free slot (ids are never empty)
  };
  static size_t Capacity(size_t expected) {
    size_t n = 64;
    while (n < 2 * expected) n *= 2;
    return n;
  }
  // The slot of `id`, or the free one where it would go (the table is never full).
  size_t Find(std::string_view id) const {
    size_t mask = slots_.size() - 1;
    size_t i = TextHash(id) & mask;
    while (!slots_[i].id.empty() && slots_[i].id != id) i = (i + 1) & mask;
    return i;
  }
  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.size() * 2, Slot{});
    for (const Slot& s : old) {
      if (!s.id.empty()) slots_[Find(s.id)] = s;
    }
  }
  std::vector<Slot> slots_;
  size_t size_ = 0;
};

// The embedded catalog of `file`, as ParseMessages reads it, without copying: ids and texts are
// views into the embedded text; only a text with an escape is unescaped, into `unescaped`, which
// lives as long as the table. A catalog with a malformed line gives no table (ParseMessages and
// the message tests say where).
Table BuildTable(std::string_view file, std::vector<std::string>& unescaped) {
  std::string_view text;
  for (size_t i = 0; i < kEmbeddedMessagesCount; ++i) {
    if (kEmbeddedMessages[i].name == file) text = kEmbeddedMessages[i].text;
  }
  Table table(text.size() / 100);  // about one message per 100 bytes (reading every byte to count costs more)
  std::vector<std::string_view> escaped;  // ids whose text is in `unescaped`
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (Trim(line).empty() || line.front() == '#') continue;
    size_t tab = line.find('\t');
    if (tab == std::string_view::npos || tab == 0) return Table();
    std::string_view body = line.substr(tab + 1);
    if (!table.Add(line.substr(0, tab), body)) continue;  // the first entry of an id counts
    if (body.find('\\') != std::string_view::npos) {
      escaped.push_back(line.substr(0, tab));
      unescaped.push_back(Unescape(body));
    }
  }
  for (size_t i = 0; i < escaped.size(); ++i) table.Set(escaped[i], unescaped[i]);  // `unescaped` no longer grows
  return table;
}

// Only the language asked for is read.
const Table& TableFor(Lang lang) {
  if (lang == Lang::kZh) {
    static std::vector<std::string> storage;
    static const Table zh = BuildTable("zh.tsv", storage);
    return zh;
  }
  static std::vector<std::string> storage;
  static const Table en = BuildTable("en.tsv", storage);
  return en;
}

// The text of `id` (its first entry), or nullptr.
const std::string_view* FindText(const Table& table, std::string_view id) {
  return table.Get(id);
}

}  // namespace

Result<std::vector<MessageEntry>> ParseMessages(std::string_view file, std::string_view text) {
  std::vector<MessageEntry> out;
  int line_no = 0;
  for (std::string_view line : Lines(text)) {
    ++line_no;
    if (Trim(line).empty() || line.front() == '#') continue;
    size_t tab = line.find('\t');
    if (tab == std::string_view::npos || tab == 0) {
      return Err(std::string(file) + ":" + std::to_string(line_no) + ":1: expected id<TAB>text");
    }
    out.push_back(MessageEntry{std::string(line.substr(0, tab)), Unescape(line.substr(tab + 1)), line_no});
  }
  return out;
}

std::vector<std::string> Placeholders(std::string_view text) {
  std::vector<std::string> names;
  size_t pos = 0;
  while ((pos = text.find('{', pos)) != std::string_view::npos) {
    size_t end = text.find('}', pos);
    if (end == std::string_view::npos) break;
    names.emplace_back(text.substr(pos + 1, end - pos - 1));
    pos = end + 1;
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

namespace {

std::vector<MessageEntry> LoadEmbedded(std::string_view file) {
  for (size_t i = 0; i < kEmbeddedMessagesCount; ++i) {
    if (kEmbeddedMessages[i].name != file) continue;
    auto parsed = ParseMessages(file, kEmbeddedMessages[i].text);
    if (parsed) return std::move(*parsed);
  }
  return {};
}

}  // namespace

const std::vector<MessageEntry>& EmbeddedMessages(Lang lang) {
  if (lang == Lang::kZh) {
    static const std::vector<MessageEntry> zh = LoadEmbedded("zh.tsv");
    return zh;
  }
  static const std::vector<MessageEntry> en = LoadEmbedded("en.tsv");
  return en;
}

bool HasMessage(Lang lang, std::string_view id) {
  return FindText(TableFor(lang), id) != nullptr;
}

std::string Tr(Lang lang, std::string_view id, MsgArgs args) {
  std::vector<std::pair<std::string, std::optional<std::string>>> v;
  for (const auto& [k, val] : args) v.emplace_back(std::string(k), val);
  return TrArgs(lang, id, v);
}

std::string Labelled(Lang lang, std::string_view label_id, const std::string& text) {
  std::string label = Tr(lang, label_id);
  return label + (EndsWith(label, "：") ? "" : " ") + SafeText(text, Sink::kValue);
}

std::string TrArgs(Lang lang, std::string_view id, const std::vector<std::pair<std::string, std::optional<std::string>>>& args) {
  const std::string_view* found = FindText(TableFor(lang), id);
  if (found == nullptr) return "[" + std::string(id) + "]";
  std::string_view text = *found;
  std::string out;
  out.reserve(text.size() + 32);
  size_t i = 0;
  while (i < text.size()) {
    size_t open = text.find('{', i);
    if (open == std::string::npos) break;
    size_t close = text.find('}', open);
    if (close == std::string::npos) break;
    out.append(text, i, open - i);
    std::string_view name(text.data() + open + 1, close - open - 1);
    auto arg = std::find_if(args.begin(), args.end(), [&](const auto& a) { return a.first == name; });
    if (arg != args.end()) out += arg->second ? SafeText(*arg->second, Sink::kValue) : Tr(lang, "common.unknown");  // a value never starts a line
    i = close + 1;
  }
  out.append(text, i, std::string::npos);
  return out;
}

}  // namespace cudamatch
