#include "cli/common.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "cli/process.h"
#include "catalog/overlay.h"
#include "core/cache_store.h"
#include "core/clock.h"
#include "core/fs.h"
#include "core/safe_text.h"
#include "core/text.h"

namespace cudamatch {

namespace {
constexpr size_t kCatalogTableCap = 16 << 20;
}  // namespace

namespace {

std::vector<Choice> OsChoices() {
  std::vector<Choice> out;
  for (Os os : AllOs()) out.push_back(Choice{OsName(os), ""});
  return out;
}

std::vector<Choice> ArchChoices() {
  std::vector<Choice> out;
  for (Arch arch : AllArches()) out.push_back(Choice{ArchName(arch), ""});
  return out;
}

template <typename T, typename NameFn>
SpellingFn SpellingOf(Result<T> (*parse)(std::string_view), NameFn name) {
  return [parse, name](std::string_view text) -> std::optional<std::string> {
    auto value = parse(text);
    if (!value) return std::nullopt;
    return std::string(name(*value));
  };
}

}  // namespace

void AddGlobalFlags(Command& global, GlobalFlags& flags) {
  global.Option("--format", &flags.format, "FORMAT", "How to print the result (default: text)").OneOf(FormatChoices());
  global.Flag("--json", &flags.json, "The same as --format json (schema in docs/json.md)");
  global.Option("--lang", &flags.lang, "LANG", "Language of human output (default: from LANG)")
      .OneOf({{"en", "English"}, {"zh", "Simplified Chinese"}}, SpellingOf(ParseLang, LangCode));
  global.Option("--color", &flags.color, "WHEN", "Colour in text output (NO_COLOR is honoured)")
      .OneOf({{"auto", "when stdout is a terminal"}, {"always", "even into a pipe or file"}, {"never", "plain text"}});
  global.Option("--catalog", &flags.catalog_dir, "DIR", "Read catalog TSV files from DIR instead of the built-in copy");
  global.Flag("--no-overlay", &flags.no_overlay, "Ignore the index data of `cudamatch catalog update` (also CUDAMATCH_OVERLAY=off)");
  global.Flag("-v,--verbose", &flags.verbose, "Show the evidence trail: every source tried");
  global.Option("--os", &flags.os, "OS", "Answer for this system (default: the system cudamatch runs on)")
      .OneOf(OsChoices(), SpellingOf(ParseOs, OsName));
  global.Option("--arch", &flags.arch, "ARCH", "Answer for this architecture (default: this machine)")
      .OneOf(ArchChoices(), SpellingOf(ParseArch, ArchName));
}

Result<Catalog> LoadCatalog(const std::string& dir, Lang lang) {
  std::vector<CatalogFile> files = EmbeddedCatalogFiles();
  if (dir.empty()) return ParseCatalog(files);
  if (!IsDirectory(dir)) return Err(Tr(lang, "path.catalog_missing", {{"path", Quote(dir)}}));
  auto texts = std::make_shared<std::vector<std::string>>();
  texts->reserve(files.size());  // no reallocation: rows point into these strings
  for (CatalogFile& f : files) {
    std::string path = dir + "/" + std::string(f.name);
    auto text = ReadInputFile(path, kCatalogTableCap);
    if (!text) return Err("--catalog needs every table (" + std::to_string(files.size()) + " files): " + text.error());
    texts->push_back(std::move(*text));
    f.text = texts->back();
    f.origin = path;
  }
  auto catalog = ParseCatalog(files);
  if (catalog) catalog->storage = std::move(texts);
  return catalog;
}

namespace {

// --format, or --json (its alias); text by default.
Result<const Format*> OutputFormat(const GlobalFlags& flags, Lang lang) {
  if (flags.json && !flags.format.empty() && flags.format != "json") {
    return Err(Tr(lang, "usage.json_and_format", {{"format", flags.format}}));
  }
  const Format* format = FindFormat(flags.json ? "json" : flags.format);
  return format != nullptr ? format : &Formats().front();
}

// COLUMNS when it holds a sensible width (as `ls` and `man` honour it), else the terminal's,
// else 100.
size_t OutputWidth(const std::string& columns, size_t terminal) {
  std::optional<int64_t> n = ParseUint(columns);
  if (n && *n >= 40 && *n <= 1000) return static_cast<size_t>(*n);
  return terminal >= 40 ? terminal : 100;
}

}  // namespace

Result<std::unique_ptr<Context>> MakeContext(const GlobalFlags& flags, std::map<std::string, std::string> env,
                                             bool stdout_is_tty) {
  auto ctx = std::make_unique<Context>();
  ctx->flags = flags;
  ctx->platform.os = HostOs();
  ctx->env = std::move(env);
  // The table declares the allowed values: each flag holds one of them (or "" for the default).
  if (!flags.lang.empty()) ctx->lang = ParseLang(flags.lang).value_or(Lang::kEn);
  else ctx->lang = LangFromLocale(ctx->Env("LC_ALL"), ctx->Env("LC_MESSAGES"), ctx->Env("LANG"));
  bool colour_auto = flags.color.empty() || flags.color == "auto";
  ctx->style.color = colour_auto ? stdout_is_tty && ctx->Env("NO_COLOR").empty() && ctx->Env("TERM") != "dumb"
                                 : flags.color == "always";
  SetColourOutput(ctx->style.color);
  ctx->width = OutputWidth(ctx->Env("COLUMNS"), stdout_is_tty ? TerminalColumns() : 0);
  if (!flags.os.empty()) ctx->platform.os = ParseOs(flags.os).value_or(ctx->platform.os);
  if (!flags.arch.empty()) ctx->platform.arch = ParseArch(flags.arch).value_or(ctx->platform.arch);
  // PyTorch has published macOS wheels for arm64 only since 2.3: a Mac means Apple silicon unless --arch says x86_64.
  if (ctx->platform.os == Os::kMacos && flags.arch.empty()) ctx->platform.arch = Arch::kAarch64;
  auto format = OutputFormat(flags, ctx->lang);
  if (!format) {
    Error e = format.err();
    e.id = "usage.conflicting_format";
    return e;
  }
  ctx->format = *format;
  auto catalog = LoadCatalog(flags.catalog_dir, ctx->lang);
  if (!catalog) return Err("catalog: " + catalog.error());
  ctx->catalog = std::move(*catalog);
  UseIndexOverlay(*ctx);
  auto run_time = RunTime(ctx->env);
  if (!run_time) return Error{run_time.err()};
  ctx->run_time = std::move(*run_time);
  return ctx;
}

void UseIndexOverlay(Context& ctx) {
  if (ctx.flags.no_overlay || ctx.Env("CUDAMATCH_OVERLAY") == "off") return;
  std::string dir = DefaultCacheDir(ctx.Env("XDG_CACHE_HOME"), ctx.Env("HOME"), ctx.Env("LOCALAPPDATA"));
  if (dir.empty() || !IsDirectory(dir)) return;  // never made: nothing to read, nothing to create
  std::unique_ptr<CacheStore> store = OpenCacheStore(dir);
  if (!store) return;
  std::optional<std::string> text = store->Get(std::string(kOverlayFile), kOverlayCap);
  if (!text) return;
  std::string path = dir + "/" + std::string(kOverlayFile);
  if (Status s = ApplyOverlay(ctx.catalog, std::move(*text), path); !s.ok()) {
    WriteStderr("cudamatch: " + SafeText(Tr(ctx.lang, "overlay.ignored", {{"why", s.error()}}), Sink::kReport) + "\n");
  }
}

Result<std::string> RunTime(const std::map<std::string, std::string>& env) {
  auto it = env.find(std::string(kNowVariable));
  if (it == env.end()) return Rfc3339Utc(NowSeconds());
  auto seconds = ParseEpochSeconds(it->second);
  if (!seconds) return Error{seconds.err()};
  return Rfc3339Utc(*seconds);
}

namespace {

// What Print keeps of colour sequences: only when --color put them there.
bool g_colour_output = false;
int g_write_errno = 0;
bool g_wrote_stderr = false;

}  // namespace

void SetColourOutput(bool colour) { g_colour_output = colour; }

void Print(const std::string& text) {
  std::string safe = SafeText(text, Sink::kReport, g_colour_output);
  if (std::fwrite(safe.data(), 1, safe.size(), stdout) != safe.size() && g_write_errno == 0) g_write_errno = errno;
}

int FinishOutput(int code) {
  if (std::fflush(stdout) != 0 && g_write_errno == 0) g_write_errno = errno;
  if (g_write_errno == 0 && std::ferror(stdout)) g_write_errno = EIO;
  if (g_write_errno == 0) return code;
  if (g_write_errno == EPIPE) return code;  // the reader has gone (`cudamatch doctor | head -1`)
  return Fail(std::string("cannot write the output: ") + std::strerror(g_write_errno));
}

int Fail(const std::string& message, int code) {
  WriteStderr("cudamatch: error: " + SafeText(message, Sink::kReport) + "\n");
  return code;
}

void WriteStderr(const std::string& line) {
  g_wrote_stderr = true;
  std::fwrite(line.data(), 1, line.size(), stderr);
}

bool WroteStderr() { return g_wrote_stderr; }

}  // namespace cudamatch
