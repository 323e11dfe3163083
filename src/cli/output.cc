#include "cli/output.h"

#include "cli/common.h"

namespace cudamatch {

Output Views(std::function<Json()> json, std::function<std::string(const TextOptions&)> text, int exit_code,
             decltype(Output::markdown) markdown) {
  Output out;
  out.markdown = std::move(markdown);
  out.exit_code = exit_code;
  out.json = std::move(json);
  out.text = std::move(text);
  return out;
}

Output Failed(std::string message, int exit_code) {
  Output out;
  out.exit_code = exit_code;
  out.error = std::move(message);
  return out;
}

const std::vector<Format>& Formats() {
  static const std::vector<Format> kFormats = {
      {"text", "Text for people, in the language of --lang", RenderTextFormat},
      {"json", "One JSON object (schema in docs/json.md)", RenderJsonFormat},
      {"markdown", "A redacted report to paste into an issue (doctor only; docs/markdown.md)", RenderMarkdownFormat},
  };
  return kFormats;
}

const Format* FindFormat(std::string_view name) {
  for (const Format& f : Formats()) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::vector<Choice> FormatChoices() {
  std::vector<Choice> choices;
  for (const Format& f : Formats()) choices.push_back(Choice{f.name, f.help});
  return choices;
}

namespace {

// The error's kind when the command did not name one: a usage error, or no answer (exit 1).
std::string_view ErrorId(const std::string& id, int exit_code) {
  if (!id.empty()) return id;
  return exit_code == kExitUsage ? "usage.invalid" : "no_answer";
}

std::string ErrorText(std::string_view id, const std::string& message, int code, std::string_view command,
                      const RunMeta& meta) {
  Json j = ErrorJson(id, message, code, command);
  j["meta"] = MetaJson(meta);
  return JsonText(j);
}

}  // namespace

int EmitOutput(const Output& out, const Context& ctx, std::string* shown) {
  if (!out.error.empty()) {
    if (ctx.format->name == "json") {
      Print(ErrorText(ErrorId(out.error_id, out.exit_code), out.error, out.exit_code, ctx.command, ContextMeta(ctx)));
    }
    return Fail(out.error, out.exit_code);
  }
  if (!HasView(out, ctx)) return Fail(Tr(ctx.lang, "usage.markdown_doctor_only"));
  std::string text = ctx.format->render(out, ctx);
  Print(text);
  if (shown != nullptr) *shown = std::move(text);
  return out.exit_code;
}

}  // namespace cudamatch

namespace cudamatch {

bool WantsJson(const std::vector<std::string>& words) {
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == "--") break;
    if (w == "--json" || w == "--format=json") return true;
    if (w == "--format" && i + 1 < words.size() && words[i + 1] == "json") return true;
  }
  return false;
}

int FailUsage(const Error& e, const std::string& shown, const std::vector<std::string>& words,
              const std::map<std::string, std::string>& env, Lang lang) {
  if (WantsJson(words)) {
    RunMeta meta;
    meta.tool_version = CUDAMATCH_VERSION;
    if (auto catalog = LoadCatalog("", lang)) meta.catalog_data_date = catalog->data_date;
    meta.run_time = RunTime(env).value_or(std::string());
    Print(ErrorText(ErrorId(e.id, kExitUsage), e.message, kExitUsage, "", meta));
  }
  return Fail(shown);
}

}  // namespace cudamatch
