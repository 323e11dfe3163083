#include "core/report_entry.h"

#include <algorithm>

#include "core/text.h"
#include "core/value_codec.h"

namespace cudamatch {

namespace {

constexpr std::string_view kMagic = "cudamatch-report-cache 1\n";

}  // namespace

std::string EncodeReport(const std::string& key, const std::string& root, const std::vector<FsDep>& deps,
                         const KeptReport& report) {
  Writer w;
  w.Str(key);
  w.Str(root);
  PutDeps(w, deps);
  w.Bool(report.colour);
  w.Int(report.exit_code);
  w.Str(report.text);
  std::string payload = std::move(w).Take();
  return std::string(kMagic) + Hex16(Checksum64(payload)) + "\n" + payload;
}

std::optional<DecodedReport> DecodeReport(std::string_view text, const std::string& key) {
  if (text.substr(0, kMagic.size()) != kMagic) return std::nullopt;
  text.remove_prefix(kMagic.size());
  if (text.size() < 17 || text[16] != '\n') return std::nullopt;
  std::string_view payload = text.substr(17);
  if (text.substr(0, 16) != Hex16(Checksum64(payload))) return std::nullopt;
  try {
    Reader r(payload);
    if (r.Str() != key) return std::nullopt;
    DecodedReport out;
    out.root = r.Str();
    out.deps = GetFsDeps(r);
    out.report.colour = r.Bool();
    out.report.exit_code = r.IntIn(0, 255);
    out.report.text = r.Str();
    if (!r.done()) return std::nullopt;
    return out;
  } catch (const BadEntry&) {
    return std::nullopt;
  }
}

const std::vector<std::string_view>& UnreadVariables() {
  static const std::vector<std::string_view> names = {
      "_",                                        // bash: the command being run
      "OLDPWD", "SHLVL",                          // the shell's previous directory, its depth
      "SSH_CLIENT", "SSH_CONNECTION", "SSH_TTY",  // a login's address, port and terminal
      "XDG_SESSION_ID", "WINDOWID", "TERM_SESSION_ID",
      "HYPERFINE_RANDOMIZED_ENVIRONMENT_OFFSET",  // hyperfine pads the environment per run
  };
  return names;
}

bool IsUnreadVariable(std::string_view name) {
  const auto& names = UnreadVariables();
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace cudamatch
