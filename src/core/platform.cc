#include "core/platform.h"

#include "core/text.h"

namespace cudamatch {

std::string Platform::Name() const {
  std::string_view arch_name = arch == Arch::kAarch64 && os == Os::kMacos ? "arm64" : ArchName(arch);
  return std::string(OsName(os)) + "-" + std::string(arch_name);
}

const std::vector<Os>& AllOs() {
  static const std::vector<Os> kAll = {Os::kLinux, Os::kWindows, Os::kMacos};
  return kAll;
}

const std::vector<Arch>& AllArches() {
  static const std::vector<Arch> kAll = {Arch::kX86_64, Arch::kAarch64};
  return kAll;
}

std::string_view ArchName(Arch arch) { return arch == Arch::kAarch64 ? "aarch64" : "x86_64"; }

std::string_view OsName(Os os) {
  switch (os) {
    case Os::kWindows: return "windows";
    case Os::kMacos: return "macos";
    case Os::kLinux: break;
  }
  return "linux";
}

Result<Os> ParseOs(std::string_view text) {
  std::string t = ToLower(Trim(text));
  for (Os os : AllOs()) {
    if (t == OsName(os)) return os;
  }
  if (t == "win") return Os::kWindows;
  if (t == "mac" || t == "darwin" || t == "osx") return Os::kMacos;
  return Err("unknown OS " + Quote(text) + " (expected linux, windows or macos)");
}

Result<Arch> ParseArch(std::string_view text) {
  std::string t = ToLower(Trim(text));
  for (Arch arch : AllArches()) {
    if (t == ArchName(arch)) return arch;
  }
  if (t == "amd64" || t == "x64") return Arch::kX86_64;
  if (t == "arm64") return Arch::kAarch64;
  return Err("unknown architecture " + Quote(text) + " (expected x86_64 or aarch64)");
}

}  // namespace cudamatch
