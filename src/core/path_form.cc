#include "core/path_form.h"

#include <algorithm>
#include <cctype>

namespace cudamatch {

namespace {

bool HasDrive(std::string_view p) {
  return p.size() >= 2 && p[1] == ':' && std::isalpha(static_cast<unsigned char>(p[0]));
}

}  // namespace

std::string WindowsPathForm(std::string_view path, std::string_view drive) {
  std::string out(path);
  if (!path.empty() && path.front() == '/' && !HasDrive(path.substr(1)) && path.substr(0, 2) != "//") {
    out = std::string(drive.empty() ? "C:" : drive) + out;
  } else if (!path.empty() && path.front() == '/' && HasDrive(path.substr(1))) {
    out = out.substr(1);  // "/C:/x" as some tools write it
  }
  std::replace(out.begin(), out.end(), '/', '\\');
  return out;
}

std::string PathForOs(std::string_view path, Os os, std::string_view drive) {
  return os == Os::kWindows ? WindowsPathForm(path, drive) : std::string(path);
}

}  // namespace cudamatch
