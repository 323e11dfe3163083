#include "report/doctor_markdown.h"

#include <algorithm>

#include "core/text.h"
#include "plan/remedy_text.h"
#include "report/doctor.h"
#include "report/redact.h"

namespace cudamatch {

namespace {

// The report as pieces before redaction: each piece is redacted for where it goes, once the
// whole report is known (a user name seen in one path is redacted in every piece).
struct Piece {
  enum class Kind { kMarkup, kProse, kCode, kPre } kind;
  std::string text;
  RedactFor place = RedactFor::kProse;  // kCode: the shell its commands are for
  std::string lang;                     // kCode and kPre: the fence's info string
};

using Pieces = std::vector<Piece>;

void Markup(Pieces& p, std::string text) { p.push_back({Piece::Kind::kMarkup, std::move(text)}); }
// One paragraph or list item: `before` (markup) then escaped `prose`, then `after` (markup).
void Prose(Pieces& p, std::string before, std::string prose, std::string after = "\n") {
  Markup(p, std::move(before));
  p.push_back({Piece::Kind::kProse, std::move(prose)});
  Markup(p, std::move(after));
}

// A label in bold, its colon after the bold: "**why**: text", "**原因**：text" (a closing "**"
// right after "：" and before a CJK character would not close, by CommonMark's flanking rules).
std::string BoldLabel(Lang L, std::string_view label_id) {
  std::string label = Tr(L, label_id);
  for (std::string_view colon : {"：", ":"}) {
    if (EndsWith(label, colon)) return "**" + EscapeMarkdown(label.substr(0, label.size() - colon.size())) + "**" + std::string(colon);
  }
  return "**" + EscapeMarkdown(label) + "**";
}

// "**why**: text"; no space after a full-width colon.
void Labelled(Pieces& p, Lang L, std::string_view label_id, std::string text, std::string before = "") {
  std::string label = BoldLabel(L, label_id);
  Markup(p, before + label + (EndsWith(label, "：") ? "" : " "));
  p.push_back({Piece::Kind::kProse, std::move(text)});
  Markup(p, "\n");
}

RedactFor PlaceFor(Shell shell) {
  switch (shell) {
    case Shell::kPowerShell: return RedactFor::kPowerShell;
    case Shell::kCmd: return RedactFor::kCmd;
    case Shell::kPosix: break;
  }
  return RedactFor::kPosix;
}

std::string_view FenceLang(Shell shell) {
  switch (shell) {
    case Shell::kPowerShell: return "powershell";
    case Shell::kCmd: return "bat";
    case Shell::kPosix: break;
  }
  return "sh";
}

// The verdict: the summary block's lines, the machine and the counts in bold, one list item per
// environment between them.
void Verdict(Pieces& p, const Snapshot& s, const std::vector<Finding>& findings, const TextOptions& o) {
  TextOptions one_line = o;
  one_line.width = std::string::npos;  // each summary line whole
  std::string text = RenderDoctorSummary(s, findings, one_line);
  std::vector<std::string_view> all = Lines(text);
  for (size_t i = 0; i < all.size(); ++i) {
    bool edge = i == 0 || i + 1 == all.size();
    if (edge) Prose(p, "**", std::string(all[i]), "**\n\n");
    else Prose(p, "- ", std::string(all[i]), i + 2 == all.size() ? "\n\n" : "\n");
  }
}

// A paste's block (what was read, what a paste cannot show), one list item per line.
void PasteBlock(Pieces& p, const Snapshot& s, const TextOptions& o) {
  if (!s.paste) return;
  TextOptions one_line = o;
  one_line.width = std::string::npos;
  const std::string block = RenderPasteBlock(s, one_line);
  std::vector<std::string_view> lines = Lines(block);
  bool any = false;
  for (std::string_view line : lines) {
    if (Trim(line).empty()) continue;
    Prose(p, "- ", std::string(Trim(line)));
    any = true;
  }
  if (any) Markup(p, "\n");
}

void Commands(Pieces& p, Lang L, std::string_view label_id, const std::optional<Remedy>& r) {
  std::string commands = RemedyText(r);
  if (commands.empty()) return;
  Markup(p, "\n" + BoldLabel(L, label_id) + "\n");
  std::string body;
  for (std::string_view line : Lines(commands)) body += std::string(line) + "\n";
  p.push_back({Piece::Kind::kCode, body, PlaceFor(r->shell), std::string(FenceLang(r->shell))});
}

void FindingPieces(Pieces& p, const Finding& f, Lang L) {
  std::string severity = Tr(L, "markdown.severity." + std::string(SeverityName(f.severity)));
  Prose(p, "#### ", Tr(L, "markdown.finding", {{"severity", severity}, {"message", TrArgs(L, "finding." + f.id + ".message", f.args)}}),
        " `" + f.id + "`\n\n");
  Labelled(p, L, "finding.why", TrArgs(L, "finding." + f.id + ".why", f.args));
  Markup(p, "\n");
  for (const EvidenceItem& e : f.evidence) {
    bool also = std::any_of(e.args.begin(), e.args.end(), [](const auto& kv) { return kv.first == "also"; });
    Labelled(p, L, also ? "finding.also" : "finding.evidence", TrArgs(L, e.id, e.args), "- ");
  }
  Commands(p, L, "finding.fix", f.remedy);
  Commands(p, L, "finding.fix_next", f.remedy_next);
  if (!f.topic.empty()) Prose(p, "\n", Tr(L, "finding.more", {{"topic", f.topic}}), "\n");
  Markup(p, "\n");
}

void Findings(Pieces& p, const Snapshot& s, std::vector<Finding> findings, Lang L) {
  Prose(p, "### ", Tr(L, "doctor.section.findings"), "\n\n");
  if (findings.empty()) {
    std::string none = s.unreadable.empty() ? Tr(L, "doctor.findings.none")
                                            : Tr(L, "doctor.findings.none_incomplete", {{"count", std::to_string(s.unreadable.size())}});
    Prose(p, "", none, "\n\n");
  }
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) { return a.severity < b.severity; });
  for (const Finding& f : findings) FindingPieces(p, f, L);
}

// Text inside an HTML block, where Markdown's backslash escapes do not apply.
std::string EscapeHtml(std::string_view text) {
  std::string out;
  for (char c : text) out += c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : std::string(1, c);
  return out;
}

// The text report's details in a collapsed block: blank lines around the Markdown inside it, and
// the text in a fence, so that GitHub and Gitee render it as written.
void Details(Pieces& p, const Snapshot& s, const TextOptions& o) {
  Lang L = o.lang;
  if (s.root != "/") Prose(p, "", Tr(L, "markdown.root_image"), "\n\n");
  Markup(p, "<details>\n<summary>" + EscapeHtml(Tr(L, "doctor.section.details")) + "</summary>\n\n");
  std::string details = RenderDoctorDetails(s, o);
  while (StartsWith(details, "\n")) details.erase(0, 1);
  p.push_back({Piece::Kind::kPre, details, RedactFor::kProse, "text"});
  Markup(p, "\n</details>\n");
}

std::string Write(const Pieces& pieces, const std::map<std::string, std::string>& env) {
  std::string all;
  for (const Piece& piece : pieces) all += piece.text + "\n";
  RedactionSet set = RedactionsFor(all, env);
  std::string out;
  for (const Piece& piece : pieces) {
    switch (piece.kind) {
      case Piece::Kind::kMarkup: out += piece.text; break;
      case Piece::Kind::kProse: out += EscapeMarkdown(Redact(piece.text, set, RedactFor::kProse)); break;
      case Piece::Kind::kCode:
      case Piece::Kind::kPre: {
        std::string body = Redact(piece.text, set, piece.place);
        std::string fence = FenceFor(body);
        out += (piece.kind == Piece::Kind::kCode ? "\n" : "") + fence + piece.lang + "\n" + body + fence + "\n";
        break;
      }
    }
  }
  return out;
}

}  // namespace

std::string EscapeMarkdown(std::string_view text) {
  static constexpr std::string_view kSpecial = "\\`*_{}[]<>#|~!&";
  std::string out;
  for (char c : text) {
    if (c == '\n') {
      out += ' ';  // one piece of prose is one line
      continue;
    }
    if (kSpecial.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string FenceFor(std::string_view text) {
  size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max<size_t>(3, longest + 1), '`');
}

std::string RenderDoctorMarkdown(const Snapshot& s, const std::vector<Finding>& findings, const TextOptions& o,
                                 const std::map<std::string, std::string>& env) {
  Pieces p;
  Prose(p, "## ", Tr(o.lang, "markdown.title"), "\n\n");
  Verdict(p, s, findings, o);
  PasteBlock(p, s, o);
  Findings(p, s, findings, o.lang);
  Details(p, s, o);
  return Write(p, env);
}

}  // namespace cudamatch
