#include "cli/args.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "core/text.h"

namespace cudamatch {

std::string Arg::Names() const {
  if (positional()) return std::string(long_name);
  std::string out;
  if (!short_name.empty()) out = "-" + std::string(short_name);
  if (!long_name.empty()) out += (out.empty() ? "--" : ", --") + std::string(long_name);
  return out;
}

Arg& Arg::OneOf(std::vector<Choice> allowed, SpellingFn other_spellings) {
  choices = std::move(allowed);
  spelling = std::move(other_spellings);
  return *this;
}

Arg& Command::Add(Arg::Kind kind, std::string_view names, std::string_view help) {
  Arg& a = args_.emplace_back();
  a.kind = kind;
  a.help = help;
  if (a.positional()) {
    a.long_name = names;
    return a;
  }
  for (std::string_view n : Split(names, ',')) {
    if (StartsWith(n, "--")) a.long_name = n.substr(2);
    else if (StartsWith(n, "-")) a.short_name = n.substr(1);
  }
  return a;
}

Arg& Command::Flag(std::string_view names, bool* target, std::string_view help) {
  Arg& a = Add(Arg::Kind::kFlag, names, help);
  a.flag = target;
  return a;
}

Arg& Command::Option(std::string_view names, std::string* target, std::string_view value, std::string_view help) {
  Arg& a = Add(Arg::Kind::kValue, names, help);
  a.text = target;
  a.value = value;
  return a;
}

Arg& Command::Repeated(std::string_view names, std::vector<std::string>* target, std::string_view value,
                       std::string_view help) {
  Arg& a = Add(Arg::Kind::kRepeated, names, help);
  a.list = target;
  a.value = value;
  return a;
}

Arg& Command::Positional(std::string_view name, std::string* target, std::string_view help) {
  Arg& a = Add(Arg::Kind::kPositional, name, help);
  a.text = target;
  a.value = name;
  return a;
}

Arg& Command::Positionals(std::string_view name, std::vector<std::string>* target, std::string_view help) {
  Arg& a = Add(Arg::Kind::kPositionals, name, help);
  a.list = target;
  a.value = name;
  return a;
}

const Arg* Command::FindLong(std::string_view name) const {
  for (const Arg& a : args_) {
    if (!a.positional() && !a.long_name.empty() && a.long_name == name) return &a;
  }
  return nullptr;
}

const Arg* Command::FindShort(std::string_view name) const {
  for (const Arg& a : args_) {
    if (!a.positional() && !a.short_name.empty() && a.short_name == name) return &a;
  }
  return nullptr;
}

Command& CommandLine::Add(std::string_view name, std::string_view help, RunFn run) {
  commands_.push_back(std::make_unique<Command>(name, help, std::move(run)));
  return *commands_.back();
}

const Command* CommandLine::Find(std::string_view name) const {
  for (const auto& c : commands_) {
    if (c->name() == name) return c.get();
  }
  return nullptr;
}

namespace {

constexpr std::string_view kDefaultCommand = "doctor";

// The message ids of the table's help texts, named after where each is declared.
std::string CommandId(const Command& c) { return "help.cmd." + std::string(c.name()); }
std::string ArgId(const Command& owner, const Arg& a) {
  return "help.arg." + std::string(owner.name()) + "." + std::string(a.long_name);
}
std::string ChoiceId(const Command& owner, const Arg& a, const Choice& c) {
  return ArgId(owner, a) + "." + std::string(c.name);
}

// The message `id` in `lang`; the declared text where the tables have none.
std::string HelpOf(Lang lang, const std::string& id, std::string_view declared) {
  return HasMessage(lang, id) ? Tr(lang, id) : std::string(declared);
}

// An error of the command line, with the id that names its kind (JSON's error.id).
Error UsageError(std::string_view id, std::string message) {
  Error e = Err(std::move(message));
  e.id = std::string(id);
  return e;
}

std::string Upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::string> ChoiceNames(const Arg& arg) {
  std::vector<std::string> names;
  for (const Choice& c : arg.choices) names.emplace_back(c.name);
  return names;
}

// The allowed name `value` stands for: itself, or what its other spelling names.
std::optional<std::string> MatchChoice(const Arg& arg, const std::string& value) {
  for (const Choice& c : arg.choices) {
    if (c.name == value) return value;
  }
  if (!arg.spelling) return std::nullopt;
  std::optional<std::string> name = arg.spelling(value);
  if (!name) return std::nullopt;
  for (const Choice& c : arg.choices) {
    if (c.name == *name) return name;
  }
  return std::nullopt;
}

// "unknown value 'zhh' for --lang (did you mean 'zh'?); allowed: en, zh"
std::string UnknownChoice(const Arg& arg, std::string_view shown, const std::string& value, Lang lang) {
  return Tr(lang, "usage.unknown_value", {{"value", Quote(value)}, {"option", std::string(shown)},
                                          {"hint", DidYouMeanHint(value, ChoiceNames(arg), lang)}, {"list", ChoiceList(arg)}});
}

std::vector<std::string> CommandNames(const CommandLine& cli) {
  std::vector<std::string> names;
  for (const auto& c : cli.commands()) names.emplace_back(c->name());
  return names;
}

std::vector<std::string> LongNames(const Command* command, const Command& global) {
  std::vector<std::string> names;
  for (const Command* c : {command, &global}) {
    if (c == nullptr) continue;
    for (const Arg& a : c->args()) {
      if (!a.positional() && !a.hidden && !a.long_name.empty()) names.push_back("--" + std::string(a.long_name));
    }
  }
  return names;
}

// The command the words name, or doctor when they name none: `cudamatch --json` runs doctor.
const Command* NamedCommand(const CommandLine& cli, const std::vector<std::string>& words) {
  for (const std::string& w : words) {
    if (w == "--") break;
    if (const Command* c = cli.Find(w)) return c;
  }
  return nullptr;
}

class Parser {
 public:
  Parser(const CommandLine& cli, const std::vector<std::string>& words, Lang lang) : cli_(cli), words_(words), lang_(lang) {}

  Result<ParsedLine> Run() {
    const Command* named = NamedCommand(cli_, words_);
    command_ = named != nullptr ? nullptr : cli_.Find(kDefaultCommand);
    defaulted_ = named == nullptr;
    bool options_done = false;
    for (i_ = 0; i_ < words_.size(); ++i_) {
      const std::string& w = words_[i_];
      if (!options_done && w == "--") {
        options_done = true;
      } else if (!options_done && w.size() > 1 && w[0] == '-') {
        if (w == "-h" || w == "--help") return ParsedLine{ParsedLine::Ask::kHelp, defaulted_ ? nullptr : command_};
        if (w == "--version") return ParsedLine{ParsedLine::Ask::kVersion, nullptr};
        if (Status s = TakeOption(w); !s.ok()) return s.err();
      } else if (Status s = TakeWord(w); !s.ok()) {
        return s.err();
      }
    }
    if (command_ == nullptr) return UsageError("usage.no_command", Tr(lang_, "usage.no_command"));
    for (const Arg& a : command_->args()) {
      bool empty = a.kind == Arg::Kind::kPositional ? a.text->empty() : a.list != nullptr && a.list->empty();
      if (a.positional() && a.required && empty) {
        return UsageError("usage.missing_argument", Tr(lang_, "usage.needs", {{"command", std::string(command_->name())}, {"name", std::string(a.long_name)},
                                             {"help", HelpOf(lang_, ArgId(*command_, a), a.help)}}));
      }
    }
    return ParsedLine{ParsedLine::Ask::kRun, command_};
  }

 private:
  const Arg* Find(bool is_long, std::string_view name) const {
    for (const Command* c : {command_, &cli_.global()}) {
      if (c == nullptr) continue;
      const Arg* a = is_long ? c->FindLong(name) : c->FindShort(name);
      if (a != nullptr) return a;
    }
    return nullptr;
  }

  // A word that names an option of this command line: not taken as the value before it.
  bool IsOption(const std::string& w) const {
    if (w == "-h" || w == "--help" || w == "--version") return true;
    if (StartsWith(w, "--")) return w.size() > 2 && Find(true, std::string_view(w).substr(2, w.find('=') - 2)) != nullptr;
    return w.size() > 1 && w[0] == '-' && Find(false, std::string_view(w).substr(1, 1)) != nullptr;
  }

  Status TakeOption(const std::string& w) {
    bool is_long = StartsWith(w, "--");
    std::string_view body = std::string_view(w).substr(is_long ? 2 : 1);
    std::string_view name = body;
    std::optional<std::string> inline_value;
    if (is_long) {
      size_t eq = body.find('=');
      if (eq != std::string_view::npos) {
        name = body.substr(0, eq);
        inline_value = std::string(body.substr(eq + 1));
      }
    } else if (body.size() > 1) {
      name = body.substr(0, 1);
      inline_value = std::string(body.substr(body[1] == '=' ? 2 : 1));
    }
    const Arg* arg = Find(is_long, name);
    std::string shown = (is_long ? "--" : "-") + std::string(name);
    if (arg == nullptr) {
      std::string hint = DidYouMeanHint(shown, LongNames(command_, cli_.global()), lang_);
      if (command_ != nullptr && !defaulted_) {
        return UsageError("usage.unknown_option", Tr(lang_, "usage.unknown_option_for", {{"option", Quote(shown)}, {"command", std::string(command_->name())}, {"hint", hint}}));
      }
      return UsageError("usage.unknown_option", Tr(lang_, "usage.unknown_option", {{"option", Quote(shown)}, {"hint", hint}}));
    }
    if (!arg->takes_value()) {
      if (inline_value) return UsageError("usage.unexpected_value", Tr(lang_, "usage.takes_no_value", {{"option", shown}}));
      *arg->flag = true;
      return Status::Ok();
    }
    if (!inline_value) {
      if (i_ + 1 >= words_.size() || IsOption(words_[i_ + 1])) {
        return UsageError("usage.missing_value", Tr(lang_, "usage.needs_value", {{"option", shown}, {"value", std::string(arg->value)}}));
      }
      inline_value = words_[++i_];
    }
    return Store(*arg, shown, *inline_value);
  }

  Status Store(const Arg& arg, const std::string& shown, const std::string& given) {
    std::string value = given;
    if (!arg.choices.empty() && !value.empty()) {
      std::optional<std::string> name = MatchChoice(arg, value);
      if (!name) return UsageError("usage.unknown_value", UnknownChoice(arg, shown, value, lang_));
      value = *name;
    }
    if (arg.kind == Arg::Kind::kValue) {
      if (std::find(given_.begin(), given_.end(), &arg) != given_.end()) return UsageError("usage.repeated_option", Tr(lang_, "usage.given_twice", {{"option", shown}}));
      given_.push_back(&arg);
      *arg.text = value;
    } else if (arg.kind == Arg::Kind::kPositional) {
      *arg.text = value;
    } else {
      arg.list->push_back(value);
    }
    if (arg.on_value) arg.on_value(value);
    return Status::Ok();
  }

  Status TakeWord(const std::string& w) {
    if (command_ == nullptr) {
      command_ = cli_.Find(w);
      if (command_ == nullptr) return UnknownCommand(w);
      return Status::Ok();
    }
    for (; positional_ < command_->args().size(); ++positional_) {
      const Arg& a = command_->args()[positional_];
      if (a.kind == Arg::Kind::kPositional) ++positional_;
      if (a.positional()) return Store(a, Upper(a.long_name), w);
    }
    if (defaulted_) return UnknownCommand(w);
    return UsageError("usage.unexpected_argument", Tr(lang_, "usage.unexpected", {{"word", Quote(w)}, {"command", std::string(command_->name())}}));
  }

  Status UnknownCommand(const std::string& w) const {
    return UsageError("usage.unknown_command", Tr(lang_, "usage.unknown_command", {{"word", Quote(w)}, {"hint", DidYouMeanHint(w, CommandNames(cli_), lang_)}}));
  }

  const CommandLine& cli_;
  const std::vector<std::string>& words_;
  size_t i_ = 0;
  const Command* command_ = nullptr;
  bool defaulted_ = false;
  size_t positional_ = 0;
  std::vector<const Arg*> given_;
  Lang lang_;
};

std::string Usage(const Arg& a) {
  if (a.positional()) {
    std::string name = Upper(a.long_name) + (a.kind == Arg::Kind::kPositionals ? "..." : "");
    return a.required ? name : "[" + name + "]";
  }
  return a.Names() + (a.value.empty() ? "" : " " + std::string(a.value));
}

bool ChoicesHaveHelp(const Arg& a) {
  return std::any_of(a.choices.begin(), a.choices.end(), [](const Choice& c) { return !c.help.empty(); });
}

// The help of an argument with its allowed values: "[values: en, zh]" after the text, or one
// line per value when the values are described.
std::string ArgHelp(const Command& owner, const Arg& a, size_t indent, Lang lang) {
  std::string help = HelpOf(lang, ArgId(owner, a), a.help);
  if (a.choices.empty()) return help;
  if (!ChoicesHaveHelp(a)) return help + " " + Tr(lang, "help.values", {{"list", ChoiceList(a)}});
  size_t width = 0;
  for (const Choice& c : a.choices) width = std::max(width, c.name.size());
  for (const Choice& c : a.choices) {
    help += "\n" + std::string(indent + 2, ' ') + std::string(c.name);
    if (!c.help.empty()) help += std::string(width - c.name.size() + 2, ' ') + HelpOf(lang, ChoiceId(owner, a, c), c.help);
  }
  return help;
}

void AppendArgs(std::string& out, std::string_view title, const Command& owner, const std::vector<Arg>& args,
                bool positionals, Lang lang) {
  std::vector<std::pair<std::string, const Arg*>> rows;
  size_t width = 0;
  for (const Arg& a : args) {
    if (a.hidden || a.positional() != positionals) continue;
    std::string left = positionals ? Upper(a.long_name) : (a.short_name.empty() ? "    " : "") + Usage(a);
    width = std::max(width, left.size());
    rows.emplace_back(std::move(left), &a);
  }
  if (rows.empty()) return;
  out += "\n" + std::string(title) + "\n";
  for (const auto& [left, a] : rows) {
    out += "  " + left + std::string(width - left.size() + 2, ' ') + ArgHelp(owner, *a, width + 4, lang) + "\n";
  }
}

// --help and --version, which every command line takes: declared here, not in the table.
std::vector<Arg> HelpAndVersion() {
  Arg help;
  help.short_name = "h";
  help.long_name = "help";
  help.help = "Print this help (with a command: that command's)";
  Arg version;
  version.long_name = "version";
  version.help = "Print the version";
  return {help, version};
}

std::string ProgramHelp(const CommandLine& cli, Lang lang) {
  const Command& global = cli.global();
  std::string out = HelpOf(lang, "help.program", global.help()) + "\n\n" +
                    Tr(lang, "help.usage", {{"usage", std::string(global.name()) + " [OPTIONS] [COMMAND] [ARGS]"}}) + "\n" +
                    Tr(lang, "help.no_command") + "\n\n" + Tr(lang, "help.commands") + "\n";
  size_t width = 0;
  for (const auto& c : cli.commands()) width = std::max(width, c->name().size());
  for (const auto& c : cli.commands()) {
    out += "  " + std::string(c->name()) + std::string(width - c->name().size() + 2, ' ') + HelpOf(lang, CommandId(*c), c->help()) + "\n";
  }
  std::vector<Arg> args = global.args();
  for (Arg& a : HelpAndVersion()) args.push_back(std::move(a));
  AppendArgs(out, Tr(lang, "help.options"), global, args, false, lang);
  return out;
}

}  // namespace

std::vector<HelpId> HelpIds(const CommandLine& cli) {
  std::vector<HelpId> out = {{"help.program", std::string(cli.global().help())}};
  std::vector<const Command*> owners = {&cli.global()};
  for (const auto& c : cli.commands()) {
    out.push_back({CommandId(*c), std::string(c->help())});
    owners.push_back(c.get());
  }
  for (const Command* owner : owners) {
    std::vector<Arg> args = owner->args();
    if (owner == &cli.global()) {
      for (Arg& a : HelpAndVersion()) args.push_back(std::move(a));
    }
    for (const Arg& a : args) {
      if (a.hidden) continue;
      out.push_back({ArgId(*owner, a), std::string(a.help)});
      for (const Choice& c : a.choices) {
        if (!c.help.empty()) out.push_back({ChoiceId(*owner, a, c), std::string(c.help)});
      }
    }
  }
  return out;
}

std::optional<std::string> DidYouMean(std::string_view word, const std::vector<std::string>& candidates) {
  if (word.empty()) return std::nullopt;
  const std::string* best = nullptr;
  size_t best_distance = 3;  // more than 2: not near
  for (const std::string& c : candidates) {
    size_t d = EditDistance(word, c);
    if (d < best_distance) {
      best = &c;
      best_distance = d;
    }
  }
  if (best != nullptr) return *best;
  for (const std::string& c : candidates) {
    if (StartsWith(c, word)) return c;
  }
  return std::nullopt;
}

std::string DidYouMeanHint(std::string_view word, const std::vector<std::string>& candidates, Lang lang) {
  std::optional<std::string> near = DidYouMean(word, candidates);
  return near ? Tr(lang, "usage.did_you_mean", {{"word", Quote(*near)}}) : "";
}

std::string ChoiceList(const Arg& arg) { return Join(ChoiceNames(arg), ", "); }

Result<ParsedLine> ParseCommandLine(const CommandLine& cli, const std::vector<std::string>& words, Lang lang) {
  return Parser(cli, words, lang).Run();
}

std::string HelpText(const CommandLine& cli, const Command* command, Lang lang) {
  if (command == nullptr) return ProgramHelp(cli, lang);
  const Command& global = cli.global();
  std::string usage = std::string(global.name()) + " " + std::string(command->name()) + " [OPTIONS]";
  for (const Arg& a : command->args()) {
    if (a.positional()) usage += " " + Usage(a);
  }
  std::string out = HelpOf(lang, CommandId(*command), command->help()) + "\n\n" + Tr(lang, "help.usage", {{"usage", usage}}) + "\n";
  AppendArgs(out, Tr(lang, "help.arguments"), *command, command->args(), true, lang);
  AppendArgs(out, Tr(lang, "help.options"), *command, command->args(), false, lang);
  AppendArgs(out, Tr(lang, "help.global_options"), global, global.args(), false, lang);
  return out;
}

}  // namespace cudamatch
