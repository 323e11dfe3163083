// The one renderer seam. A command returns an Output: views of its result (JSON and text) and
// its exit code, or an error. One place, EmitOutput, picks the format asked for (--format, or
// --json as its alias) and writes it. A new format is one new file with its render function and
// one row in Formats().
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "cli/args.h"
#include "report/json.h"
#include "report/text.h"

namespace cudamatch {

struct Context;

struct Output {
  int exit_code = 0;
  std::string error;  // set: the command failed; "cudamatch: error: <error>" on stderr, nothing on stdout
                      // (under --json, the error as a JSON object on stdout as well)
  std::string error_id;  // the kind of error for that object; "" names it by the exit code
  std::function<Json()> json;
  std::function<std::string(const TextOptions&)> text;
  // A report to paste into an issue (--format markdown), redacted with what the run's
  // environment names (its HOME, USER, USERNAME); only doctor sets it.
  std::function<std::string(const TextOptions&, const std::map<std::string, std::string>& env)> markdown;
};

// A result in both views, with its exit code.
Output Views(std::function<Json()> json, std::function<std::string(const TextOptions&)> text, int exit_code = 0,
             decltype(Output::markdown) markdown = nullptr);
// A failed command: the message and its exit code (a usage error by default).
Output Failed(std::string message, int exit_code = 2);

using RenderFn = std::function<std::string(const Output&, const Context&)>;

struct Format {
  std::string_view name;  // the --format value
  std::string_view help;
  RenderFn render;
};

// Every output format, the default (text) first. --format's allowed values come from here.
const std::vector<Format>& Formats();
const Format* FindFormat(std::string_view name);
// --format's allowed values.
std::vector<Choice> FormatChoices();

// The formats' renderers, one file each (format_text.cc, format_json.cc, format_markdown.cc).
std::string RenderTextFormat(const Output& out, const Context& ctx);
std::string RenderJsonFormat(const Output& out, const Context& ctx);
std::string RenderMarkdownFormat(const Output& out, const Context& ctx);
// Whether the output has a view for the context's format: markdown is doctor's only.
bool HasView(const Output& out, const Context& ctx);

// Writes the output in the context's format (or the error to stderr); returns the exit code.
int EmitOutput(const Output& out, const Context& ctx, std::string* shown = nullptr);

// Whether the words ask for JSON (--json, --format json, --format=json before any "--"): an error
// found before the context exists is then a JSON object on stdout too.
bool WantsJson(const std::vector<std::string>& words);
// An error before the command runs (exit 2): `shown` on stderr (the error in `lang`, with its
// hint), and `e` as a JSON object on stdout when the words ask for JSON. `env` gives the run's time.
int FailUsage(const Error& e, const std::string& shown, const std::vector<std::string>& words,
              const std::map<std::string, std::string>& env, Lang lang);

}  // namespace cudamatch
