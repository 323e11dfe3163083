// The only place that knows argv, the process environment and exit codes.
#include <signal.h>
#include <unistd.h>

#include <map>

#include "cli/common.h"
#include "cli/generate.h"
#include "core/text.h"

extern char** environ;

namespace cudamatch {
namespace {

std::map<std::string, std::string> CaptureEnvironment() {
  std::map<std::string, std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string_view entry(*e);
    size_t eq = entry.find('=');
    if (eq != std::string_view::npos) env.emplace(std::string(entry.substr(0, eq)), std::string(entry.substr(eq + 1)));
  }
  return env;
}

int Run(int argc, char** argv) {
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
  auto line = ParseCommandLine(cli, std::vector<std::string>(argv + 1, argv + argc));
  if (!line) return Fail(line.error() + "; see --help");
  if (line->ask == ParsedLine::Ask::kVersion) {
    Print(std::string("cudamatch ") + CUDAMATCH_VERSION + "\n");
    return kExitOk;
  }
  if (line->ask == ParsedLine::Ask::kHelp) {
    Print(HelpText(cli, line->command));
    return kExitOk;
  }
  if (!generate.empty()) {
    auto kind = ParseGenerated(generate);
    if (!kind) return Fail(kind.error());
    Print(Generate(DescribeCli(cli), *kind, CUDAMATCH_VERSION));
    return kExitOk;
  }
  auto ctx = MakeContext(flags, CaptureEnvironment(), isatty(STDOUT_FILENO) == 1);
  if (!ctx) return Fail(ctx.error());
  return line->command->run()(**ctx);
}

}  // namespace
}  // namespace cudamatch

int main(int argc, char** argv) {
  // A closed output pipe becomes EPIPE on write, handled in FinishOutput, instead of SIGPIPE.
  signal(SIGPIPE, SIG_IGN);
  try {
    return cudamatch::FinishOutput(cudamatch::Run(argc, argv));
  } catch (const std::exception& e) {
    return cudamatch::Fail(std::string("internal error: ") + e.what());
  }
}
