// The report cache's entry (cli/report_cache.h): a line "cudamatch-report-cache 1", a line with
// the Checksum64 (core/text.h) of the rest, then the values (core/value_codec.h): the key, the
// root, the file dependencies (core/journal_fs.h), whether colour is shown, the exit status and
// the report's text.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/journal_fs.h"

namespace cudamatch {

struct KeptReport {
  bool colour = false;  // whether the text's colour sequences are shown
  int exit_code = 0;
  std::string text;  // what Print was given
};

std::string EncodeReport(const std::string& key, const std::string& root, const std::vector<FsDep>& deps,
                         const KeptReport& report);

struct DecodedReport {
  std::string root;
  std::vector<FsDep> deps;
  KeptReport report;
};
// nullopt for anything but an intact entry of `key`.
std::optional<DecodedReport> DecodeReport(std::string_view text, const std::string& key);

// Environment variables that change between runs that are otherwise the same (a new shell, a new
// login, a benchmark tool's padding) and that no part of cudamatch reads: left out of the key.
// A test holds that no source file names one of them.
const std::vector<std::string_view>& UnreadVariables();
bool IsUnreadVariable(std::string_view name);

}  // namespace cudamatch
