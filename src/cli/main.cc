// The only place that knows argv, the process environment and exit codes.
#include <map>

#include "cli/common.h"
#include "cli/generate.h"
#include "cli/process.h"
#include "core/child.h"
#include "core/text.h"
#include "probe/nvidia_api.h"

namespace cudamatch {
namespace {

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
  std::map<std::string, std::string> env = ProcessEnvironment();
  auto line = ParseCommandLine(cli, args);
  if (!line) return FailUsage(line.err(), "; see --help", args, env);
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
  auto ctx = MakeContext(flags, std::move(env), stdout_is_tty);
  if (!ctx) return FailUsage(ctx.err(), "", args, ProcessEnvironment());
  (*ctx)->command = line->command->name();
  return EmitOutput(line->command->run()(**ctx), **ctx);
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
