#include "core/fs.h"

#include <algorithm>

#include "core/text.h"

namespace cudamatch {

// ---- paths ----

bool IsNormalPath(std::string_view path) {
  if (path.empty() || path[0] != '/') return false;
  if (path.size() == 1) return true;
  size_t start = 1;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    std::string_view part = path.substr(start, end - start);
    if (part.empty() || part == "." || part == "..") return false;
    start = end + 1;
  }
  return true;
}

std::string NormalizePath(std::string_view path) {
  if (IsNormalPath(path)) return std::string(path);
  std::vector<std::string_view> parts;
  for (std::string_view p : Split(path, '/')) {
    if (p.empty() || p == ".") continue;
    if (p == "..") {
      if (!parts.empty()) parts.pop_back();
      continue;
    }
    parts.push_back(p);
  }
  std::string out;
  for (std::string_view p : parts) {
    out += '/';
    out += p;
  }
  return out.empty() ? "/" : out;
}

std::string JoinPath(std::string_view base, std::string_view rel) {
  if (StartsWith(rel, "/")) return NormalizePath(rel);
  return NormalizePath(std::string(base) + "/" + std::string(rel));
}

std::string_view Dirname(std::string_view path) {
  size_t pos = path.find_last_of('/');
  if (pos == std::string_view::npos) return ".";
  if (pos == 0) return "/";
  return path.substr(0, pos);
}

std::string_view Basename(std::string_view path) {
  size_t pos = path.find_last_of('/');
  return pos == std::string_view::npos ? path : path.substr(pos + 1);
}

bool IsPseudoPath(std::string_view path) {
  for (std::string_view pseudo : {"/proc", "/sys", "/dev"}) {
    if (path.substr(0, pseudo.size()) == pseudo && (path.size() == pseudo.size() || path[pseudo.size()] == '/')) return true;
  }
  return false;
}

}  // namespace cudamatch
