// The platform a question is about: the machine's own, or one described by --os / --arch.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace cudamatch {

enum class Os { kLinux, kWindows, kMacos };
enum class Arch { kX86_64, kAarch64 };

struct Platform {
  Os os = Os::kLinux;
  Arch arch = Arch::kX86_64;

  // The catalog's platform name: "linux-x86_64", "windows-x86_64", "macos-arm64", ...
  std::string Name() const;
  bool operator==(const Platform&) const = default;
};

// Every value, in the order they are listed (--os, --arch: allowed values, help, completions).
const std::vector<Os>& AllOs();
const std::vector<Arch>& AllArches();

Result<Os> ParseOs(std::string_view text);      // linux | windows | macos (also win, mac, darwin, osx)
Result<Arch> ParseArch(std::string_view text);  // x86_64 | aarch64 (also amd64, x64, arm64)
std::string_view OsName(Os os);
std::string_view ArchName(Arch arch);  // "x86_64", "aarch64"

}  // namespace cudamatch
