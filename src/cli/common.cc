#include "cli/common.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "cli/process.h"
#include "core/fs.h"
#include "core/safe_text.h"
#include "core/text.h"

namespace cudamatch {

namespace {
constexpr size_t kCatalogTableCap = 16 << 20;
}  // namespace

void AddGlobalFlags(Command& global, GlobalFlags& flags) {
  global.Flag("--json", &flags.json, "Print one JSON object (schema in docs/json.md)");
  global.Option("--lang", &flags.lang, "LANG", "Language of human output: en or zh (default: from LANG)");
  global.Option("--color", &flags.color, "WHEN", "auto, always or never (NO_COLOR is honoured)");
  global.Option("--catalog", &flags.catalog_dir, "DIR", "Read catalog TSV files from DIR instead of the built-in copy");
  global.Flag("-v,--verbose", &flags.verbose, "Show the evidence trail: every source tried");
  global.Option("--os", &flags.os, "OS", "Answer for linux, windows or macos (default: the system cudamatch runs on)");
  global.Option("--arch", &flags.arch, "ARCH", "Answer for x86_64 or aarch64 (default: this machine)");
}

Result<Catalog> LoadCatalog(const std::string& dir) {
  std::vector<CatalogFile> files = EmbeddedCatalogFiles();
  if (dir.empty()) return ParseCatalog(files);
  if (!IsDirectory(dir)) return Err("--catalog " + Quote(dir) + ": no such directory");
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

Result<std::unique_ptr<Context>> MakeContext(const GlobalFlags& flags, std::map<std::string, std::string> env,
                                             bool stdout_is_tty) {
  auto ctx = std::make_unique<Context>();
  ctx->flags = flags;
  ctx->platform.os = HostOs();
  ctx->env = std::move(env);
  if (!flags.lang.empty()) {
    auto lang = ParseLang(flags.lang);
    if (!lang) return Error{lang.error()};
    ctx->lang = *lang;
  } else {
    ctx->lang = LangFromLocale(ctx->Env("LC_ALL"), ctx->Env("LC_MESSAGES"), ctx->Env("LANG"));
  }
  if (flags.color == "always") ctx->style.color = true;
  else if (flags.color == "never") ctx->style.color = false;
  else if (flags.color == "auto") ctx->style.color = stdout_is_tty && ctx->Env("NO_COLOR").empty() && ctx->Env("TERM") != "dumb";
  else return Err("--color must be auto, always or never, not " + Quote(flags.color));
  SetColourOutput(ctx->style.color);
  if (!flags.os.empty()) {
    auto os = ParseOs(flags.os);
    if (!os) return Error{os.error()};
    ctx->platform.os = *os;
  }
  if (!flags.arch.empty()) {
    auto arch = ParseArch(flags.arch);
    if (!arch) return Error{arch.error()};
    ctx->platform.arch = *arch;
  }
  auto catalog = LoadCatalog(flags.catalog_dir);
  if (!catalog) return Err("catalog: " + catalog.error());
  ctx->catalog = std::move(*catalog);
  return ctx;
}

namespace {

// What Print keeps of colour sequences: only when --color put them there.
bool g_colour_output = false;
int g_write_errno = 0;

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
  std::string line = "cudamatch: error: " + SafeText(message, Sink::kReport) + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
  return code;
}

}  // namespace cudamatch
