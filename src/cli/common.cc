#include "cli/common.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/text.h"

namespace cudamatch {

void AddGlobalFlags(CLI::App& app, GlobalFlags& flags) {
  app.add_flag("--json", flags.json, "Print one JSON object (schema in docs/json.md)");
  app.add_option("--lang", flags.lang, "Language of human output: en or zh (default: from LANG)");
  app.add_option("--color", flags.color, "auto, always or never (NO_COLOR is honoured)");
  app.add_option("--catalog", flags.catalog_dir, "Read catalog TSV files from DIR instead of the built-in copy");
  app.add_flag("-v,--verbose", flags.verbose, "Show the evidence trail: every source tried");
  app.add_option("--os", flags.os, "Answer for linux, windows or macos (default: linux)");
  app.add_option("--arch", flags.arch, "Answer for x86_64 or aarch64 (default: this machine)");
}

Result<Catalog> LoadCatalog(const std::string& dir) {
  std::vector<CatalogFile> files = EmbeddedCatalogFiles();
  if (dir.empty()) return ParseCatalog(files);
  auto texts = std::make_shared<std::vector<std::string>>();
  texts->reserve(files.size());  // no reallocation: rows point into these strings
  for (CatalogFile& f : files) {
    std::string path = dir + "/" + f.name;
    std::ifstream in(path, std::ios::binary);
    if (!in) continue;
    std::ostringstream buf;
    buf << in.rdbuf();
    texts->push_back(buf.str());
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

void Print(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

int Fail(const std::string& message, int code) {
  std::string line = "cudamatch: error: " + message + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
  return code;
}

}  // namespace cudamatch
