#include "cli/generate.h"

#include <fmt/format.h>

#include <cctype>

#include "core/text.h"

namespace cudamatch {

namespace {

OptionDoc DescribeOption(const Arg& arg) {
  OptionDoc d;
  if (!arg.short_name.empty()) d.names.push_back("-" + std::string(arg.short_name));
  if (!arg.positional() && !arg.long_name.empty()) d.names.push_back("--" + std::string(arg.long_name));
  d.value = arg.value;
  d.help = arg.help;
  for (const Choice& c : arg.choices) d.values.emplace_back(c.name);
  return d;
}

std::vector<OptionDoc> DescribeOptions(const Command& command) {
  std::vector<OptionDoc> positionals, named;
  for (const Arg& arg : command.args()) {
    if (arg.hidden) continue;
    (arg.positional() ? positionals : named).push_back(DescribeOption(arg));
  }
  positionals.insert(positionals.end(), named.begin(), named.end());
  return positionals;
}

// Roff text: backslashes escaped, a leading control character neutralised.
std::string Roff(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') out += "\\e";
    else if (c == '-') out += "\\-";
    else out += c;
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out.insert(0, "\\&");
  return out;
}

std::string Upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

std::string ManOption(const OptionDoc& o) {
  std::string head;
  if (o.names.empty()) {
    head = "\\fI" + Roff(o.value) + "\\fR";
  } else {
    std::vector<std::string> names;
    for (const std::string& n : o.names) names.push_back("\\fB" + Roff(n) + "\\fR");
    head = Join(names, ", ");
    if (!o.value.empty()) head += " \\fI" + Roff(o.value) + "\\fR";
  }
  std::string values = o.values.empty() ? "" : " Allowed values: " + Join(o.values, ", ") + ".";
  return ".TP\n" + head + "\n" + Roff(o.help + values) + "\n";
}

std::string ManCommand(const CommandDoc& c) {
  std::string out = ".SS " + Roff(c.name) + "\n" + Roff(c.help) + "\n";
  for (const OptionDoc& o : c.options) out += ManOption(o);
  return out;
}

// The README's Examples section, line for line (a test holds the two together): the command,
// and what it answers (the comment after its "#").
struct Example {
  std::string_view command;
  std::string_view comment;
};
constexpr Example kExamples[] = {
    {"cudamatch", "doctor"},
    {"cudamatch lookup torch==1.13.0", "torchvision 0.14.0, torchaudio 0.13.0, Python 3.7-3.10, ..."},
    {"cudamatch lookup driver==470.82.01", "serves CUDA 11.4; the newest torch that runs on it"},
    {"cudamatch lookup gpu \"RTX 3090\"", "8.6, Ampere; the newest build for this machine (--all: every wheel)"},
    {"cudamatch plan --no-detect --driver 470.82.01 --gpu \"RTX 3090\" --python 3.10", "a machine given by flags"},
    {"cudamatch check torch==1.13.0 torchvision==1.4.0", "1.4.0 is not in the catalog; 0.14.0 pairs with 1.13.0"},
    {"cudamatch explain minor-compat --lang zh", "one topic, in Chinese"},
    {"cudamatch doctor --root /mnt/image --json", "a mounted image, as JSON"},
    {"cudamatch doctor --from env.txt", "a pasted collect_env (or - for stdin)"},
    {"cudamatch help plan", "the options of one command"},
    {"cudamatch doctor --root /mnt/c --os windows", "a Windows C: drive or image, from Linux"},
};

std::string ManExamples() {
  std::string out = ".SH EXAMPLES\n";
  for (const Example& e : kExamples) {
    out += ".TP\n\\fB" + Roff(e.command) + "\\fR\n" + Roff(e.comment) + "\n";
  }
  return out;
}

constexpr std::string_view kManTail = R"(.SH EXIT STATUS
.TP
.B 0
Success.
.TP
.B 1
A finding of error severity, no plan fits, or nothing was found.
.TP
.B 2
A usage or internal error.
.SH ENVIRONMENT
.TP
.B LC_ALL, LC_MESSAGES, LANG
Choose the language of human output (English or Simplified Chinese) unless \fB\-\-lang\fR is given.
.TP
.B NO_COLOR
When set, no colour (see \fB\-\-color\fR).
.TP
.B VIRTUAL_ENV, CONDA_PREFIX, PATH, PYENV_ROOT, LD_LIBRARY_PATH
Where doctor looks for Python environments and libraries.
.SH SEE ALSO
The JSON output is described in docs/json.md of the cudamatch sources.
)";

}  // namespace

Result<Generated> ParseGenerated(std::string_view name) {
  if (name == "man") return Generated::kMan;
  if (name == "bash") return Generated::kBash;
  if (name == "zsh") return Generated::kZsh;
  if (name == "fish") return Generated::kFish;
  if (name == "help-ids") return Generated::kHelpIds;
  return Err("--generate takes man, bash, zsh or fish (or help-ids, for the tests), not " + Quote(name));
}

CliDoc DescribeCli(const CommandLine& cli) {
  CliDoc doc;
  doc.name = cli.global().name();
  doc.help = cli.global().help();
  if (StartsWith(doc.help, doc.name + ": ")) doc.help = doc.help.substr(doc.name.size() + 2);
  doc.globals = DescribeOptions(cli.global());
  for (const auto& c : cli.commands()) {
    doc.commands.push_back(CommandDoc{std::string(c->name()), std::string(c->help()), DescribeOptions(*c)});
  }
  return doc;
}

std::string GenerateMan(const CliDoc& doc, std::string_view version) {
  std::string name = Roff(doc.name);
  std::string out = fmt::format(".TH {} 1 \"\" \"{} {}\" \"User Commands\"\n", Upper(doc.name), name,
                                Roff(version));
  out += ".SH NAME\n" + name + " \\- " + Roff(doc.help) + "\n";
  out += ".SH SYNOPSIS\n.B " + name + "\n[\\fIOPTIONS\\fR] [\\fICOMMAND\\fR [\\fIARGS\\fR]]\n";
  out += ".SH DESCRIPTION\n\\fB" + name + "\\fR with no command runs \\fBdoctor\\fR.\n";
  out += "Every command takes the global options and prints JSON with \\fB\\-\\-json\\fR.\n";
  out += ".SH COMMANDS\n";
  for (const CommandDoc& c : doc.commands) out += ManCommand(c);
  out += ".SH GLOBAL OPTIONS\n";
  for (const OptionDoc& o : doc.globals) out += ManOption(o);
  out += ManExamples();
  out += kManTail;
  return out;
}

std::string Generate(const CliDoc& doc, Generated kind, std::string_view version) {
  switch (kind) {
    case Generated::kMan: return GenerateMan(doc, version);
    case Generated::kBash: return GenerateBash(doc);
    case Generated::kZsh: return GenerateZsh(doc);
    case Generated::kFish: return GenerateFish(doc);
    case Generated::kHelpIds: return "";  // needs the command table itself: HelpIdLines
  }
  return "";
}

}  // namespace cudamatch
