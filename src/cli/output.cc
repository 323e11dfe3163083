#include "cli/output.h"

#include "cli/common.h"

namespace cudamatch {

Output Views(std::function<Json()> json, std::function<std::string(const TextOptions&)> text, int exit_code) {
  Output out;
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

int EmitOutput(const Output& out, const Context& ctx) {
  if (!out.error.empty()) return Fail(out.error, out.exit_code);
  Print(ctx.format->render(out, ctx));
  return out.exit_code;
}

}  // namespace cudamatch
