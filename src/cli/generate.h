// The man page and the shell completions, generated from the same command table that parses the
// arguments and prints --help, so the three never disagree. `cudamatch --generate KIND`
// prints one of them; the build writes them next to the binary and `cmake --install` installs them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cli/args.h"
#include "core/result.h"

namespace cudamatch {

// kHelpIds: every help text's message id and declared English, one "id text" line each
// (the tests check the message tables against it).
enum class Generated { kMan, kBash, kZsh, kFish, kHelpIds };

Result<Generated> ParseGenerated(std::string_view name);

// One option or positional argument as declared.
struct OptionDoc {
  std::vector<std::string> names;  // "-v", "--verbose"; empty for a positional
  std::string value;               // the positional's name or the value's type; "" for a flag
  std::string help;
  std::vector<std::string> values;  // the allowed values, when the set is closed
};

struct CommandDoc {
  std::string name;
  std::string help;
  std::vector<OptionDoc> options;  // positionals first, then options, as declared
};

// The whole command line: global options (every command takes them) and the commands.
struct CliDoc {
  std::string name;
  std::string help;
  std::vector<OptionDoc> globals;
  std::vector<CommandDoc> commands;
};

// Reads the declaration; hidden options are left out.
CliDoc DescribeCli(const CommandLine& cli);

std::string GenerateMan(const CliDoc& doc, std::string_view version);
std::string GenerateBash(const CliDoc& doc);
std::string GenerateZsh(const CliDoc& doc);
std::string GenerateFish(const CliDoc& doc);
std::string Generate(const CliDoc& doc, Generated kind, std::string_view version);

}  // namespace cudamatch
