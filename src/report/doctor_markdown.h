// The doctor report as Markdown, to paste into a GitHub or Gitee issue or a reply: the verdict
// first (the summary of report/doctor_summary.cc), then the findings, most severe first, each
// with its evidence and its fix commands in fenced code blocks that hold the commands and
// nothing else, then the details of the text report inside a collapsed <details> block. Every
// line is redacted (report/redact.h: homes, user names, credentials) and prose is escaped so
// that no character of a value turns into Markdown.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "diagnose/finding.h"
#include "probe/snapshot.h"
#include "report/text.h"

namespace cudamatch {

// `env`: the run's environment, whose HOME, USER, USERNAME (report/redact.h) are redacted too.
std::string RenderDoctorMarkdown(const Snapshot& snap, const std::vector<Finding>& findings, const TextOptions& o,
                                 const std::map<std::string, std::string>& env);

// Prose with a backslash before every character Markdown could read as markup (\ ` * _ { } [ ]
// < > # | ~ ! &), so that "sm_80 and sm_86" or "<user>" show as written.
std::string EscapeMarkdown(std::string_view text);
// A code fence longer than any run of backticks in `text` (at least three).
std::string FenceFor(std::string_view text);

}  // namespace cudamatch
