// The paste a doctor --from report was read from: a short block under the summary ("Read from
// FILE: formats ...; not checked: ...") and the "paste" object of the JSON.
#include <algorithm>

#include "core/safe_text.h"
#include "core/text.h"
#include "report/doctor.h"
#include "report/i18n.h"
#include "report/style.h"

namespace cudamatch {

namespace {

std::string FormatList(const PasteInfo& p) {
  std::vector<std::string> names;
  for (PasteFormat f : p.formats) names.emplace_back(PasteFormatName(f));
  return Join(names, ", ");
}

Json FactJson(const PasteFact& f) {
  return Json{{"line", f.line}, {"format", PasteFormatName(f.format)}, {"value", f.value}};
}

}  // namespace

bool NotInPaste(const Snapshot& snap, PasteGap gap) {
  if (!snap.paste) return false;
  const std::vector<PasteGap>& gaps = snap.paste->not_checked;
  return std::find(gaps.begin(), gaps.end(), gap) != gaps.end();
}

std::string RenderPasteBlock(const Snapshot& snap, const TextOptions& o) {
  if (!snap.paste) return "";
  const PasteInfo& p = *snap.paste;
  Lang L = o.lang;
  std::string path = p.path == "-" ? "stdin" : p.path;
  std::string out = "\n" + WrapLine(Tr(L, "doctor.paste.read", {{"path", SafeText(path, Sink::kValue)}, {"formats", FormatList(p)},
                                                               {"lines", std::to_string(p.lines)}, {"encoding", p.encoding}}),
                                    o.width, "    ");
  std::vector<std::string> gaps;
  for (PasteGap g : p.not_checked) gaps.push_back(Tr(L, "paste.gap." + std::string(PasteGapName(g))));
  out += WrapLine(o.style.Dim(Tr(L, "doctor.paste.not_checked", {{"gaps", Join(gaps, Tr(L, "common.list_sep"))}})), o.width, "    ");
  if (!p.unparsed.empty()) {
    out += WrapLine(Tr(L, "doctor.paste.unparsed", {{"count", std::to_string(p.unparsed.size())},
                                                      {"line", std::to_string(p.unparsed.front().line)}}),
                    o.width, "    ");
  }
  return out;
}

Json PasteJson(const PasteInfo& p) {
  Json formats = Json::array(), gaps = Json::array(), conflicts = Json::array(), unparsed = Json::array();
  for (PasteFormat f : p.formats) formats.push_back(PasteFormatName(f));
  for (PasteGap g : p.not_checked) gaps.push_back(PasteGapName(g));
  for (const PasteConflict& c : p.conflicts) {
    conflicts.push_back(Json{{"fact", PasteFactKindName(c.kind)}, {"name", c.name}, {"first", FactJson(c.first)},
                             {"second", FactJson(c.second)}});
  }
  for (const PasteFact& f : p.unparsed) unparsed.push_back(FactJson(f));
  return Json{{"path", p.path},         {"formats", formats},       {"lines", p.lines},
              {"truncated", p.truncated}, {"encoding", p.encoding}, {"not_checked", gaps},
              {"conflicts", conflicts},   {"unparsed", unparsed}};
}

}  // namespace cudamatch
