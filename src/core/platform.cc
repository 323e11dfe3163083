#include "core/platform.h"

#include "core/text.h"

namespace cudamatch {

std::string Platform::Name() const {
  std::string arch_name = arch == Arch::kX86_64 ? "x86_64" : (os == Os::kMacos ? "arm64" : "aarch64");
  return std::string(OsName(os)) + "-" + arch_name;
}

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
  if (t == "linux") return Os::kLinux;
  if (t == "windows" || t == "win") return Os::kWindows;
  if (t == "macos" || t == "mac" || t == "darwin" || t == "osx") return Os::kMacos;
  return Err("unknown OS " + Quote(text) + " (expected linux, windows or macos)");
}

Result<Arch> ParseArch(std::string_view text) {
  std::string t = ToLower(Trim(text));
  if (t == "x86_64" || t == "amd64" || t == "x64") return Arch::kX86_64;
  if (t == "aarch64" || t == "arm64") return Arch::kAarch64;
  return Err("unknown architecture " + Quote(text) + " (expected x86_64 or aarch64)");
}

}  // namespace cudamatch
