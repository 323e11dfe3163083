// Every message exists in both languages with the same placeholders, and every id the code
// uses exists.
#include "report/i18n.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "diagnose/rules.h"
#include "report/explain.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

std::map<std::string, std::string> AsMap(const std::vector<MessageEntry>& entries) {
  std::map<std::string, std::string> m;
  for (const MessageEntry& e : entries) {
    EXPECT_TRUE(m.emplace(e.id, e.text).second) << "duplicate id " << e.id;
  }
  return m;
}

TEST(Messages, BothLanguagesHaveTheSameIdsAndPlaceholders) {
  auto en = AsMap(EmbeddedMessages(Lang::kEn));
  auto zh = AsMap(EmbeddedMessages(Lang::kZh));
  ASSERT_GT(en.size(), 100u);
  for (const auto& [id, text] : en) {
    auto it = zh.find(id);
    if (it == zh.end()) {
      ADD_FAILURE() << "only in English: " << id;
      continue;
    }
    EXPECT_EQ(Placeholders(text), Placeholders(it->second)) << id;
    EXPECT_FALSE(it->second.empty()) << id;
  }
  for (const auto& [id, text] : zh) EXPECT_TRUE(en.count(id)) << "only in Chinese: " << id;
}

TEST(Messages, EveryFindingHasMessageAndWhy) {
  for (std::string_view id : FindingIds()) {
    for (Lang lang : {Lang::kEn, Lang::kZh}) {
      EXPECT_TRUE(HasMessage(lang, "finding." + std::string(id) + ".message")) << id;
      EXPECT_TRUE(HasMessage(lang, "finding." + std::string(id) + ".why")) << id;
    }
  }
  for (std::string_view topic : ExplainTopics()) {
    for (Lang lang : {Lang::kEn, Lang::kZh}) {
      EXPECT_TRUE(HasMessage(lang, "explain." + std::string(topic) + ".title")) << topic;
      EXPECT_TRUE(HasMessage(lang, "explain." + std::string(topic) + ".body")) << topic;
    }
  }
}

// Ids written as literals in the code ("plan.none", "reject.python", ...) must exist.
TEST(Messages, EveryIdTheCodeNamesExists) {
  std::regex literal("\"((common|severity|fit|col|lookup|catalog|table|doctor|finding|note|caveat|reject|plan|spec|check|explain|evidence)\\.[a-z0-9_.-]*[a-z0-9_])\"");
  size_t checked = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(testing::SourceDir() + "/src")) {
    if (entry.path().extension() != ".cc") continue;
    std::string text = testing::ReadSource(std::filesystem::relative(entry.path(), testing::SourceDir()).string());
    for (auto it = std::sregex_iterator(text.begin(), text.end(), literal); it != std::sregex_iterator(); ++it) {
      std::string id = (*it)[1];
      if (id == "plan.why" || id.back() == '.') continue;  // prefixes completed at run time
      bool is_prefix = text.find("\"" + id + ".\"") != std::string::npos;
      if (is_prefix) continue;
      // Ids that name no message: finding ids and reasons double as message ids with suffixes.
      bool is_finding = std::find(FindingIds().begin(), FindingIds().end(), id) != FindingIds().end();
      if (is_finding) continue;
      ++checked;
      EXPECT_TRUE(HasMessage(Lang::kEn, id)) << id << " in " << entry.path();
      EXPECT_TRUE(HasMessage(Lang::kZh, id)) << id << " in " << entry.path();
    }
  }
  EXPECT_GT(checked, 100u);
}

TEST(Messages, PlaceholdersAreFilled) {
  EXPECT_EQ(Tr(Lang::kEn, "lookup.driver.max_cuda", {{"cuda", "11.4"}}), "Newest CUDA it serves: 11.4");
  EXPECT_EQ(Tr(Lang::kEn, "no.such.id"), "[no.such.id]");
  EXPECT_EQ(Placeholders("{a} and {b} and {a}"), (std::vector<std::string>{"a", "b"}));
}

TEST(Messages, LanguageFromFlagOrLocale) {
  EXPECT_EQ(ParseLang("zh_CN").value(), Lang::kZh);
  EXPECT_EQ(ParseLang("en").value(), Lang::kEn);
  EXPECT_FALSE(ParseLang("fr").ok());
  EXPECT_EQ(LangFromLocale("", "", "zh_CN.UTF-8"), Lang::kZh);
  EXPECT_EQ(LangFromLocale("C", "", "zh_CN.UTF-8"), Lang::kEn);  // LC_ALL wins
  EXPECT_EQ(LangFromLocale("", "", ""), Lang::kEn);
}

TEST(Messages, MalformedCatalogLineIsAnError) {
  auto r = ParseMessages("x.tsv", "good\ttext\nbad line\n");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("x.tsv:2:1"), std::string::npos);
}

}  // namespace
}  // namespace cudamatch

namespace cudamatch {
namespace {

bool IsCjk(char32_t ch) { return (ch >= 0x4e00 && ch <= 0x9fff) || (ch >= 0x3000 && ch <= 0x303f) || (ch >= 0xff00 && ch <= 0xffef); }

std::u32string Decode(const std::string& s) {
  std::u32string out;
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    int n = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
    char32_t cp = n == 1 ? c : c & (0x3f >> (n - 1));
    for (int k = 1; k < n && i + k < s.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3f);
    out += cp;
    i += n;
  }
  return out;
}

// Chinese punctuation as Chinese guides write it: nothing after a full-width colon but the
// text, no half-width comma or colon between Chinese characters, no space before a full-width
// bracket or after an opening one.
TEST(Messages, ChinesePunctuation) {
  size_t checked = 0;
  for (const MessageEntry& m : EmbeddedMessages(Lang::kZh)) {
    std::u32string t = Decode(m.text);
    for (size_t i = 0; i + 1 < t.size(); ++i) {
      char32_t a = t[i], b = t[i + 1];
      EXPECT_FALSE(a == U'：' && b == U' ') << m.id << ": space after full-width colon";
      EXPECT_FALSE(a == U' ' && (b == U'（' || b == U'）')) << m.id << ": space before a full-width bracket";
      EXPECT_FALSE(a == U'（' && b == U' ') << m.id << ": space after a full-width bracket";
      if (i > 0 && (a == U',' || a == U':') && IsCjk(t[i - 1]) && (IsCjk(b) || (b == U' ' && i + 2 < t.size() && IsCjk(t[i + 2])))) {
        ADD_FAILURE() << m.id << ": half-width '" << static_cast<char>(a) << "' between Chinese characters";
      }
    }
    ++checked;
  }
  EXPECT_GT(checked, 200u);
}

}  // namespace
}  // namespace cudamatch
