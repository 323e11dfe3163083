// The command table: every command and option declared once, with where its value goes. The
// parser, --help, the man page and the shell completions all read this one declaration.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "report/i18n.h"

namespace cudamatch {

struct Context;
struct Output;  // cli/output.h: what a command produces, rendered in the format asked for
using RunFn = std::function<Output(Context&)>;

// One value an option or positional argument allows, with what it means ("" when it needs no words).
struct Choice {
  std::string_view name;
  std::string_view help;
};

// Another spelling of an allowed value ("zh_CN" for zh, "amd64" for x86_64): the allowed name it
// stands for, or std::nullopt.
using SpellingFn = std::function<std::optional<std::string>(std::string_view)>;

// One option or positional argument, and the variable its value is stored in.
struct Arg {
  enum class Kind {
    kFlag,         // --json: sets a bool
    kValue,        // --root DIR: one value
    kRepeated,     // --gpu NAME: may be given again; every value is kept
    kPositional,   // explain [topic]: one word
    kPositionals,  // lookup ENTITY...: the remaining words
  };
  Kind kind = Kind::kFlag;
  std::string_view short_name;  // "v" for -v, or ""
  std::string_view long_name;   // "verbose" for --verbose; a positional's name
  std::string_view value;       // "DIR": the value's name in help; "" for a flag
  std::string_view help;
  bool required = false;  // positionals only
  bool hidden = false;    // left out of --help, the man page and the completions
  bool* flag = nullptr;
  std::string* text = nullptr;
  std::vector<std::string>* list = nullptr;
  std::function<void(const std::string&)> on_value;  // called after the value is stored
  // The values allowed, when the set is closed: the parser refuses any other (naming the nearest),
  // --help, the man page and the completions list them. An empty value stands for the default.
  std::vector<Choice> choices;
  SpellingFn spelling;  // other accepted spellings; the stored value is always a choice's name

  // Declares the allowed values (and, optionally, other spellings of them).
  Arg& OneOf(std::vector<Choice> allowed, SpellingFn other_spellings = nullptr);

  bool positional() const { return kind == Kind::kPositional || kind == Kind::kPositionals; }
  bool takes_value() const { return kind != Kind::kFlag; }
  std::string Names() const;  // "-v, --verbose", "--root", or the positional's name
};

class Command {
 public:
  Command(std::string_view name, std::string_view help, RunFn run = nullptr)
      : name_(name), help_(help), run_(std::move(run)) {}

  // `names` is "--json", "-v,--verbose" or "-r,--requirement".
  Arg& Flag(std::string_view names, bool* target, std::string_view help);
  Arg& Option(std::string_view names, std::string* target, std::string_view value, std::string_view help);
  Arg& Repeated(std::string_view names, std::vector<std::string>* target, std::string_view value,
                std::string_view help);
  Arg& Positional(std::string_view name, std::string* target, std::string_view help);
  Arg& Positionals(std::string_view name, std::vector<std::string>* target, std::string_view help);

  std::string_view name() const { return name_; }
  std::string_view help() const { return help_; }
  const std::vector<Arg>& args() const { return args_; }
  const RunFn& run() const { return run_; }
  // For a command whose report may be kept between runs (cli/report_cache.h): the root this
  // command line looks at ("/", or --root as given), nullopt when its report may not be kept.
  std::function<std::optional<std::string>(const std::map<std::string, std::string>& env)> kept_root;
  const Arg* FindLong(std::string_view name) const;
  const Arg* FindShort(std::string_view name) const;

 private:
  Arg& Add(Arg::Kind kind, std::string_view names, std::string_view help);
  std::string_view name_;
  std::string_view help_;
  RunFn run_;
  std::vector<Arg> args_;
};

// The program: global options (every command takes them) and the commands.
class CommandLine {
 public:
  CommandLine(std::string_view name, std::string_view help) : global_(name, help) {}
  Command& global() { return global_; }
  const Command& global() const { return global_; }
  // Declares a command and what runs it; its options are added to the Command returned.
  Command& Add(std::string_view name, std::string_view help, RunFn run);
  const std::vector<std::unique_ptr<Command>>& commands() const { return commands_; }
  const Command* Find(std::string_view name) const;

 private:
  Command global_;
  std::vector<std::unique_ptr<Command>> commands_;
};

struct ParsedLine {
  enum class Ask { kRun, kHelp, kVersion };
  Ask ask = Ask::kRun;
  const Command* command = nullptr;  // nullptr: none named (help then describes the program)
};

// Stores each value in its variable. Global options may come before or after the command;
// `--` ends the options. Errors name the word and, for a near miss, the option or command meant.
// Errors are in `lang` (messages usage.*).
Result<ParsedLine> ParseCommandLine(const CommandLine& cli, const std::vector<std::string>& words, Lang lang = Lang::kEn);

// --help of the program (command == nullptr) or of one command, in `lang`: each text is the
// message help.* named after where it is declared (HelpIds), the declared text where none is.
std::string HelpText(const CommandLine& cli, const Command* command, Lang lang = Lang::kEn);

// Every help text of the command table: its message id ("help.cmd.plan", "help.arg.plan.python",
// "help.choice.cudamatch.lang.zh") and the English declared in the table.
struct HelpId {
  std::string id;
  std::string declared;
};
std::vector<HelpId> HelpIds(const CommandLine& cli);

// "did you mean": the candidate nearest `word` (edit distance at most 2; else the first candidate
// that begins with `word`), or std::nullopt. The one near-miss finder of the program.
std::optional<std::string> DidYouMean(std::string_view word, const std::vector<std::string>& candidates);
// " (did you mean 'x'?)", or "" when nothing is near.
std::string DidYouMeanHint(std::string_view word, const std::vector<std::string>& candidates, Lang lang = Lang::kEn);
// "en, zh": the names of an argument's allowed values.
std::string ChoiceList(const Arg& arg);

}  // namespace cudamatch
