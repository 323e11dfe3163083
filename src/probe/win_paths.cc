#include "probe/win_paths.h"

#include "core/text.h"

namespace cudamatch {

namespace {

constexpr size_t kMaxComponents = 64;

char Fold(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }

bool EqualFold(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (Fold(a[i]) != Fold(b[i])) return false;
  }
  return true;
}

bool StartsWithFold(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && EqualFold(s.substr(0, prefix.size()), prefix);
}

}  // namespace

std::optional<std::string> FindCaseless(const Fs& fs, std::string_view path) {
  std::string at = "/";
  size_t n = 0;
  const std::string normal = NormalizePath(path);  // outlives the views Split returns
  for (std::string_view part : Split(normal, '/')) {
    if (part.empty()) continue;
    if (++n > kMaxComponents) return std::nullopt;
    std::string exact = JoinPath(at, part);
    if (fs.LStat(exact).exists()) {
      at = exact;
      continue;
    }
    auto names = fs.List(at);
    if (!names) return std::nullopt;
    std::optional<std::string> hit;
    for (const std::string& name : *names) {
      if (EqualFold(name, part)) {
        hit = JoinPath(at, name);
        break;
      }
    }
    if (!hit) return std::nullopt;
    at = *hit;
  }
  return at;
}

std::vector<std::string> FindAllCaseless(const Fs& fs, std::string_view path, size_t max) {
  std::vector<std::string> at = {"/"};
  size_t n = 0;
  const std::string normal = NormalizePath(path);
  for (std::string_view part : Split(normal, '/')) {
    if (part.empty()) continue;
    if (++n > kMaxComponents) return {};
    std::vector<std::string> next;
    for (const std::string& dir : at) {
      auto names = fs.List(dir);
      if (!names) continue;
      for (const std::string& name : *names) {
        if (EqualFold(name, part) && next.size() < max) next.push_back(JoinPath(dir, name));
      }
    }
    at = std::move(next);
    if (at.empty()) return at;
  }
  return at;
}

std::vector<std::string> ListCaseless(const Fs& fs, std::string_view dir, std::string_view prefix) {
  std::vector<std::string> out;
  auto real = FindCaseless(fs, dir);
  if (!real) return out;
  auto names = fs.List(*real);
  if (!names) return out;
  for (const std::string& name : *names) {
    if (StartsWithFold(name, prefix)) out.push_back(JoinPath(*real, name));
  }
  return out;
}

std::optional<std::string> WindowsToRootPath(std::string_view win_path, std::string_view system_drive) {
  std::string_view drive = system_drive.empty() ? "C:" : system_drive;
  win_path = Trim(win_path);
  if (win_path.size() >= 2 && win_path.front() == '"' && win_path.back() == '"') win_path = win_path.substr(1, win_path.size() - 2);
  if (win_path.size() < 2 || win_path[1] != ':' || !EqualFold(win_path.substr(0, 2), drive.substr(0, 2))) return std::nullopt;
  std::string rest(win_path.substr(2));
  if (rest.empty() || (rest[0] != '\\' && rest[0] != '/')) return std::nullopt;  // "C:foo" is drive-relative
  for (char& c : rest) {
    if (c == '\\') c = '/';
  }
  return NormalizePath(rest);
}

std::string WinEnv(const ProbeInput& in, std::string_view name) {
  if (auto exact = in.env.find(std::string(name)); exact != in.env.end()) return exact->second;
  for (const auto& [key, value] : in.env) {
    if (EqualFold(key, name)) return value;
  }
  return "";
}

std::vector<std::pair<std::string, std::string>> WinEnvPrefixed(const ProbeInput& in, std::string_view prefix) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [key, value] : in.env) {
    if (StartsWithFold(key, prefix)) out.emplace_back(key, value);
  }
  return out;
}

std::vector<WinPathDir> WinPathDirs(const ProbeInput& in) {
  std::vector<WinPathDir> out;
  std::string drive = WinEnv(in, "SystemDrive");
  for (const std::string& entry : SplitNonEmpty(WinEnv(in, "PATH"), ';')) {
    WinPathDir d;
    d.written = entry;
    if (auto p = WindowsToRootPath(entry, drive)) d.path = FindCaseless(*in.fs, *p).value_or("");
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace cudamatch
