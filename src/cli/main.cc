// The only place that knows argv, the process environment and exit codes.
#include <map>

#include "cli/common.h"
#include "cli/generate.h"
#include "cli/process.h"
#include "cli/report_cache.h"
#include "core/child.h"
#include "core/text.h"
#include "probe/nvidia_api.h"

namespace cudamatch {
namespace {

// The language of what is said before the command line is understood (its errors, --help):
// --lang where the words give it, else the locale.
Lang EarlyLang(const std::vector<std::string>& args, const std::map<std::string, std::string>& env) {
  for (size_t i = 0; i < args.size() && args[i] != "--"; ++i) {
    std::string value;
    if (StartsWith(args[i], "--lang=")) value = args[i].substr(7);
    else if (args[i] == "--lang" && i + 1 < args.size()) value = args[i + 1];
    else continue;
    if (auto lang = ParseLang(value)) return *lang;
  }
  auto get = [&](const char* name) { auto it = env.find(name); return it == env.end() ? std::string() : it->second; };
  return LangFromLocale(get("LC_ALL"), get("LC_MESSAGES"), get("LANG"));
}

// `cudamatch help [COMMAND]`: the same text as --help.
void RegisterHelp(CommandLine& cli, std::string& topic) {
  std::vector<Choice> names;
  for (const auto& c : cli.commands()) names.push_back(Choice{c->name(), ""});
  names.push_back(Choice{"help", ""});
  Command& sub = cli.Add("help", "Print the help of the program, or of one command", nullptr);
  sub.Positional("command", &topic, "A command; without one, the program's help").OneOf(std::move(names));
}

int Run(const std::vector<std::string>& args, bool stdout_is_tty) {
  CommandLine cli("cudamatch", "cudamatch: which CUDA, driver, GPU and PyTorch versions fit together, and why");
  GlobalFlags flags;
  AddGlobalFlags(cli.global(), flags);
  std::string generate;
  cli.global().Option("--generate", &generate, "KIND", "Print the man page or a completion script: man, bash, zsh or fish")
      .hidden = true;
  RegisterDoctor(cli);
  RegisterLookup(cli);
  RegisterTable(cli);
  RegisterCatalog(cli);
  RegisterPlan(cli);
  RegisterCheck(cli);
  RegisterExplain(cli);
  std::string help_topic;
  RegisterHelp(cli, help_topic);
  std::map<std::string, std::string> env = ProcessEnvironment();
  Lang lang = EarlyLang(args, env);
  auto line = ParseCommandLine(cli, args, lang);
  if (!line) return FailUsage(line.err(), Tr(lang, "usage.see_help", {{"message", line.error()}}), args, env, lang);
  if (line->ask == ParsedLine::Ask::kVersion) {
    Print(std::string("cudamatch ") + CUDAMATCH_VERSION + "\n");
    return kExitOk;
  }
  if (line->ask == ParsedLine::Ask::kHelp) {
    Print(HelpText(cli, line->command, lang));
    return kExitOk;
  }
  if (line->command->name() == "help") {
    Print(HelpText(cli, help_topic.empty() ? nullptr : cli.Find(help_topic), lang));
    return kExitOk;
  }
  if (!generate.empty()) {
    auto kind = ParseGenerated(generate);
    if (!kind) return Fail(kind.error());
    if (*kind == Generated::kHelpIds) {
      for (const HelpId& h : HelpIds(cli)) Print(h.id + " " + h.declared + "\n");
      return kExitOk;
    }
    Print(Generate(DescribeCli(cli), *kind, CUDAMATCH_VERSION));
    return kExitOk;
  }
  std::unique_ptr<ReportCache> kept = OpenReportCache(*line->command, args, env, flags, stdout_is_tty);
  if (kept != nullptr) {
    if (auto report = kept->Find()) {
      SetColourOutput(report->colour);
      Print(report->text);
      return report->exit_code;
    }
  }
  auto ctx = MakeContext(flags, std::move(env), stdout_is_tty);
  if (!ctx) return FailUsage(ctx.err(), ctx.error(), args, ProcessEnvironment(), lang);
  (*ctx)->command = line->command->name();
  if (kept != nullptr) (*ctx)->journal = std::make_shared<FsJournal>();
  std::string shown;
  int code = EmitOutput(line->command->run()(**ctx), **ctx, &shown);
  if (kept != nullptr && !shown.empty()) kept->Keep(*(*ctx)->journal, KeptReport{(*ctx)->style.color, code, std::move(shown)});
  return code;
}

}  // namespace
}  // namespace cudamatch

int main(int argc, char** argv) {
  std::vector<std::string> args = cudamatch::ProcessArguments(argc, argv);
  if (auto rc = cudamatch::ServeChildTask(args, cudamatch::FindNvidiaTask)) return *rc;
  bool stdout_is_tty = cudamatch::PrepareOutput();
  try {
    return cudamatch::FinishOutput(cudamatch::Run(args, stdout_is_tty));
  } catch (const std::exception& e) {
    return cudamatch::Fail(std::string("internal error: ") + e.what());
  }
}
