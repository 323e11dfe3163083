// The only place that knows argv, the process environment and exit codes.
#include <algorithm>
#include <map>

#include "cli/common.h"
#include "cli/generate.h"
#include "cli/process.h"
#include "core/child.h"
#include "core/text.h"
#include "probe/nvidia_api.h"

namespace cudamatch {
namespace {

const std::vector<std::string>& Subcommands() {
  static const std::vector<std::string> kNames = {"doctor", "lookup", "table", "catalog", "plan", "check", "explain"};
  return kNames;
}

// `cudamatch` alone, or with only options, runs doctor.
std::vector<std::string> WithDefaultCommand(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  for (const std::string& a : args) {
    if (a == "-h" || a == "--help" || a == "--version") return args;
    if (std::find(Subcommands().begin(), Subcommands().end(), a) != Subcommands().end()) return args;
  }
  args.insert(args.begin(), "doctor");
  return args;
}

std::string DidYouMean(const std::string& word) {
  if (word.empty() || word[0] == '-') return "";
  for (const std::string& name : Subcommands()) {
    if (EditDistance(word, name) <= 2) return " (did you mean '" + name + "'?)";
  }
  return "";
}

int Run(int argc, char** argv, bool stdout_is_tty) {
  CLI::App app{"cudamatch: which CUDA, driver, GPU and PyTorch versions fit together, and why"};
  app.set_version_flag("--version", std::string("cudamatch ") + CUDAMATCH_VERSION);
  app.require_subcommand(1, 1);
  GlobalFlags flags;
  AddGlobalFlags(app, flags);
  std::string generate;
  app.add_option("--generate", generate, "Print the man page or a completion script: man, bash, zsh or fish")
      ->group("");
  std::map<std::string, RunFn> runs = {
      {"doctor", RegisterDoctor(app)}, {"lookup", RegisterLookup(app)},   {"table", RegisterTable(app)},
      {"catalog", RegisterCatalog(app)}, {"plan", RegisterPlan(app)},     {"check", RegisterCheck(app)},
      {"explain", RegisterExplain(app)}};
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) sub->fallthrough();
  std::vector<std::string> args = WithDefaultCommand(argc, argv);
  std::reverse(args.begin(), args.end());
  try {
    app.parse(args);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError& e) {
    std::string hint;
    for (int i = 1; i < argc && hint.empty(); ++i) hint = DidYouMean(argv[i]);
    return Fail(std::string(e.what()) + hint + "; see --help");
  } catch (const CLI::ParseError& e) {
    return Fail(std::string(e.what()) + "; see --help");
  }
  if (!generate.empty()) {
    auto kind = ParseGenerated(generate);
    if (!kind) return Fail(kind.error());
    Print(Generate(DescribeCli(app), *kind, CUDAMATCH_VERSION));
    return kExitOk;
  }
  auto ctx = MakeContext(flags, ProcessEnvironment(), stdout_is_tty);
  if (!ctx) return Fail(ctx.error());
  for (const auto& [name, run] : runs) {
    if (app.got_subcommand(name)) return run(**ctx);
  }
  return Fail("no command given; see --help");
}

}  // namespace
}  // namespace cudamatch

int main(int argc, char** argv) {
  std::vector<std::string> args = cudamatch::ProcessArguments(argc, argv);
  if (auto rc = cudamatch::ServeChildTask(args, cudamatch::FindNvidiaTask)) return *rc;
  bool stdout_is_tty = cudamatch::PrepareOutput();
  std::vector<char*> utf8_argv{argv[0]};
  for (std::string& a : args) utf8_argv.push_back(a.data());
  try {
    return cudamatch::FinishOutput(cudamatch::Run(static_cast<int>(utf8_argv.size()), utf8_argv.data(), stdout_is_tty));
  } catch (const std::exception& e) {
    return cudamatch::Fail(std::string("internal error: ") + e.what());
  }
}
