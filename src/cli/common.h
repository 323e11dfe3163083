// What every subcommand shares: the global flags, the loaded catalog, the language and style,
// the environment captured once in main, and the one exit-code contract.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "cli/args.h"
#include "cli/output.h"
#include "catalog/catalog.h"
#include "core/journal_fs.h"
#include "core/platform.h"
#include "report/i18n.h"
#include "report/style.h"
#include "report/text.h"

namespace cudamatch {

enum ExitCode { kExitOk = 0, kExitFindings = 1, kExitUsage = 2 };

struct GlobalFlags {
  bool json = false;   // --json: the same as --format json
  std::string format;  // --format: a name from Formats(); "" for the default
  std::string lang;
  std::string color = "auto";
  std::string catalog_dir;
  bool no_overlay = false;  // --no-overlay: ignore the index overlay (also CUDAMATCH_OVERLAY=off)
  bool verbose = false;
  std::string os;
  std::string arch;
};

struct Context {
  GlobalFlags flags;
  Lang lang = Lang::kEn;
  Style style;
  Catalog catalog;
  Platform platform;  // --os / --arch, else this machine's
  const Format* format = &Formats().front();  // --format (or --json), else text
  std::map<std::string, std::string> env;
  std::string_view command;  // the command that runs ("plan")
  std::string run_time;  // RFC 3339 UTC, read once: CUDAMATCH_NOW, else the clock

  size_t width = 100;  // text output's columns: COLUMNS, else the terminal's, else 100
  // Set when the report cache (cli/report_cache.h) may keep this run's report: the probe's file
  // system writes down what each answer depended on here.
  std::shared_ptr<FsJournal> journal;
  TextOptions text() const { return TextOptions{lang, style, flags.verbose, width}; }
  std::string Env(const std::string& name) const {
    auto it = env.find(name);
    return it == env.end() ? "" : it->second;
  }
};

// Adds --format, --json, --lang, --color, --catalog, -v, --os, --arch to a command, with their
// allowed values (the platforms' from core/platform.h, the formats' from Formats()).
void AddGlobalFlags(Command& global, GlobalFlags& flags);
// Loads the catalog (embedded, each file overridable from --catalog DIR) and resolves the rest.
Result<std::unique_ptr<Context>> MakeContext(const GlobalFlags& flags, std::map<std::string, std::string> env,
                                             bool stdout_is_tty);
// The run's time: CUDAMATCH_NOW (seconds since the epoch) when set, else the system clock.
Result<std::string> RunTime(const std::map<std::string, std::string>& env);
// The "meta" object of every JSON output (tool version, catalog date, time of the run).
RunMeta ContextMeta(const Context& ctx);
// Lays the index overlay (`catalog update`) from the user's cache directory over ctx.catalog,
// unless --no-overlay or CUDAMATCH_OVERLAY=off; a malformed one is ignored with a warning.
void UseIndexOverlay(Context& ctx);
// Reads the catalog: embedded tables, with files from `dir` (when set) taking their place.
Result<Catalog> LoadCatalog(const std::string& dir, Lang lang = Lang::kEn);

// Commands: each declares itself, its options and what runs it.
void RegisterDoctor(CommandLine& cli);
void RegisterLookup(CommandLine& cli);
void RegisterTable(CommandLine& cli);
void RegisterCatalog(CommandLine& cli);
void RegisterPlan(CommandLine& cli);
void RegisterCheck(CommandLine& cli);
void RegisterExplain(CommandLine& cli);

// Writes to stdout, control characters escaped (colour sequences kept only when colour is on) and
// credentials in URLs redacted; errors go to stderr as "cudamatch: error: ...", the same way.
void Print(const std::string& text);
int Fail(const std::string& message, int code = kExitUsage);
// A line on stderr, as it is; WroteStderr: whether this run wrote one (a report with a warning
// beside it is not kept by the report cache).
void WriteStderr(const std::string& line);
bool WroteStderr();
void SetColourOutput(bool colour);
// Flushes stdout. A write error ends the run with exit 2 and a message; a reader that has gone
// away (a closed pipe) ends it quietly with `code`.
int FinishOutput(int code);

}  // namespace cudamatch
