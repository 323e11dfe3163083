#include "report/redact.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "core/safe_text.h"
#include "core/text.h"

namespace cudamatch {

namespace {

// What stands in for each kind of private text, by where it goes.
struct Replacement {
  const char* what;
  const char* prose;
  const char* posix;
  const char* powershell;
  const char* cmd;
};
enum Kind { kPosixHome, kWindowsHome, kUserName };
constexpr Replacement kReplacements[] = {
    {"a POSIX home: /home/NAME, /Users/NAME, /root, $HOME", "~", "~", "~", "~"},
    {"a Windows home: X:\\Users\\NAME, %USERPROFILE%", "%USERPROFILE%", "%USERPROFILE%", "$env:USERPROFILE", "%USERPROFILE%"},
    {"a user name anywhere else", "<user>", "$USER", "$env:USERNAME", "%USERNAME%"},
    // Credentials in URLs ("https://ann:s3cret@host/..."): "***", by RedactCredentials.
};

const char* ReplacementFor(Kind kind, RedactFor place) {
  const Replacement& r = kReplacements[kind];
  switch (place) {
    case RedactFor::kPosix: return r.posix;
    case RedactFor::kPowerShell: return r.powershell;
    case RedactFor::kCmd: return r.cmd;
    case RedactFor::kProse: break;
  }
  return r.prose;
}

// Names not redacted where they stand alone: accounts of no person, the shared folders, and
// words the report itself uses (an account named "cuda" must not blank out every "cuda").
bool Impersonal(std::string_view name) {
  static const char* kNames[] = {"root", "user", "users", "admin", "administrator", "guest", "nobody", "public", "default",
                                 "default user", "all users", "shared", "ubuntu", "debian", "runner", "jovyan", "docker",
                                 "cuda", "nvidia", "torch", "python", "conda", "pip", "gpu", "driver", "build", "test"};
  std::string lower = ToLower(name);
  return name.size() < 2 || std::any_of(std::begin(kNames), std::end(kNames), [&](const char* n) { return lower == n; });
}

// The folders beside the users' own under /Users and C:\Users: not anyone's home.
bool SharedFolder(std::string_view name) {
  std::string lower = ToLower(name);
  for (const char* n : {"public", "default", "default user", "all users", "shared"}) {
    if (lower == n) return true;
  }
  return false;
}

bool NameChar(char c) { return c != '/' && c != '\\' && c != '\'' && c != '"' && c != ':' && c != ';' && c != ',' &&
                               c != ')' && c != ']' && c != '>' && c != '`' && !std::isspace(static_cast<unsigned char>(c)); }
bool WordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.'; }
bool EqualNoCase(std::string_view a, std::string_view b) { return a.size() == b.size() && ToLower(a) == ToLower(b); }

// A home directory starting at `text[i]`: its length and kind. A path starts there: what is
// before it is not part of a word or a path.
struct HomeMatch {
  size_t length = 0;
  Kind kind = kPosixHome;
  std::string name;  // the user's name in it ("" for /root and the environment's homes)
};

size_t NameEnd(std::string_view text, size_t from) {
  size_t end = from;
  while (end < text.size() && NameChar(text[end])) ++end;
  return end;
}

bool EndsPath(std::string_view text, size_t at) {
  return at >= text.size() || text[at] == '/' || text[at] == '\\' || !NameChar(text[at]);
}

std::optional<HomeMatch> HomeAt(std::string_view text, size_t i, const RedactionSet& set) {
  if (i > 0 && (WordChar(text[i - 1]) || text[i - 1] == '/' || text[i - 1] == '\\' || text[i - 1] == '~')) return std::nullopt;
  std::string_view rest = text.substr(i);
  for (const std::string& home : set.homes) {
    if (StartsWith(rest, home) && EndsPath(text, i + home.size())) {
      bool windows = home.size() > 1 && home[1] == ':';
      return HomeMatch{home.size(), windows ? kWindowsHome : kPosixHome, ""};
    }
  }
  if (StartsWith(rest, "/root") && EndsPath(text, i + 5)) return HomeMatch{5, kPosixHome, ""};
  for (std::string_view base : {"/home/", "/Users/"}) {
    if (!StartsWith(rest, base)) continue;
    size_t end = NameEnd(text, i + base.size());
    std::string name(text.substr(i + base.size(), end - i - base.size()));
    if (!name.empty() && !SharedFolder(name)) return HomeMatch{end - i, kPosixHome, name};
  }
  bool drive = rest.size() > 9 && std::isalpha(static_cast<unsigned char>(rest[0])) && rest[1] == ':' &&
               (rest[2] == '\\' || rest[2] == '/') && EqualNoCase(rest.substr(3, 5), "Users") && (rest[8] == '\\' || rest[8] == '/');
  if (drive) {
    size_t end = NameEnd(text, i + 9);
    std::string name(text.substr(i + 9, end - i - 9));
    if (!name.empty() && !SharedFolder(name)) return HomeMatch{end - i, kWindowsHome, name};
  }
  return std::nullopt;
}

// Where a command starts in PowerShell: the line's start or after "; ", "&& " or "| ".
bool AtCommandStart(const std::string& out) {
  std::string_view t = out;
  while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
  return t.empty() || EndsWith(t, ";") || EndsWith(t, "&&") || EndsWith(t, "|");
}

// Writes the stand-in for a home at the end of `out`, keeping the command valid: a quoted POSIX
// path becomes ~/'rest' (the shell expands no quoted "~"); a PowerShell path in single quotes
// moves to double quotes (which expand $env:) and is run with "&" at a command's start.
// Returns the quote that must close the word instead of its old one ('\0' for none).
char WriteHome(std::string& out, const HomeMatch& m, RedactFor place, std::string_view after, size_t& skip) {
  char quote = !out.empty() && (out.back() == '\'' || out.back() == '"') ? out.back() : '\0';
  std::string stand_in = ReplacementFor(m.kind, place);
  if (place == RedactFor::kPosix && m.kind == kPosixHome && quote != '\0') {
    out.pop_back();
    out += stand_in;
    if (!after.empty() && after[0] == quote) {
      skip = 1;  // the word was the home alone
    } else if (!after.empty() && after[0] == '/') {
      out += "/";
      out += quote;
      skip = 1;
    }
    return '\0';
  }
  if (place == RedactFor::kPowerShell && m.kind == kWindowsHome) {
    if (quote == '\'') out.pop_back();
    bool start = AtCommandStart(out);
    if (start && !EndsWith(out, "& ")) out += "& ";
    if (quote == '\'' || start) {
      out += "\"" + stand_in;
      return quote == '\'' ? '"' : ' ';  // close the new double quote where the word ends
    }
  }
  out += stand_in;
  return '\0';
}

std::string RedactHomes(std::string_view text, const RedactionSet& set, RedactFor place) {
  std::string out;
  char reclose = '\0';  // a quote to write where the current word ends (see WriteHome)
  for (size_t i = 0; i < text.size();) {
    if (reclose != '\0') {
      bool ends = reclose == '"' ? text[i] == '\'' : text[i] == ' ';
      if (ends) {
        out += '"';
        if (reclose == '"') ++i;
        reclose = '\0';
        continue;
      }
    }
    if (auto m = HomeAt(text, i, set)) {
      size_t skip = 0;
      char r = WriteHome(out, *m, place, text.substr(i + m->length), skip);
      if (r != '\0') reclose = r;
      i += m->length + skip;
      continue;
    }
    out += text[i++];
  }
  if (reclose != '\0') out += '"';
  return out;
}

std::string RedactUsers(std::string_view text, const RedactionSet& set, RedactFor place) {
  std::string out(text);
  for (const std::string& name : set.users) {
    std::string stand_in = ReplacementFor(kUserName, place);
    for (size_t pos = 0; pos + name.size() <= out.size();) {
      bool match = EqualNoCase(std::string_view(out).substr(pos, name.size()), name) &&
                   (pos == 0 || !std::isalnum(static_cast<unsigned char>(out[pos - 1]))) &&
                   (pos + name.size() == out.size() || !std::isalnum(static_cast<unsigned char>(out[pos + name.size()])));
      if (!match) {
        ++pos;
        continue;
      }
      out.replace(pos, name.size(), stand_in);
      pos += stand_in.size();
    }
  }
  return out;
}

void AddUser(std::vector<std::string>& users, std::string_view name) {
  if (Impersonal(name)) return;
  if (std::none_of(users.begin(), users.end(), [&](const std::string& u) { return EqualNoCase(u, name); })) users.emplace_back(name);
}

bool LongerFirst(const std::string& a, const std::string& b) { return a.size() != b.size() ? a.size() > b.size() : a < b; }

}  // namespace

RedactionSet RedactionsFor(std::string_view text, const std::map<std::string, std::string>& env) {
  RedactionSet set;
  for (const char* var : {"HOME", "USERPROFILE"}) {
    auto it = env.find(var);
    if (it == env.end()) continue;
    std::string home = it->second;
    while (home.size() > 1 && (home.back() == '/' || home.back() == '\\')) home.pop_back();
    if (home.size() > 3) set.homes.push_back(home);  // not "/" or "C:\"
    size_t slash = home.find_last_of("/\\");
    if (slash != std::string::npos) AddUser(set.users, std::string_view(home).substr(slash + 1));
  }
  for (const char* var : {"USER", "USERNAME", "LOGNAME"}) {
    if (auto it = env.find(var); it != env.end()) AddUser(set.users, it->second);
  }
  RedactionSet none;
  for (size_t i = 0; i < text.size(); ++i) {
    if (auto m = HomeAt(text, i, none); m && !m->name.empty()) AddUser(set.users, m->name);
  }
  std::sort(set.homes.begin(), set.homes.end(), LongerFirst);
  std::sort(set.users.begin(), set.users.end(), LongerFirst);
  return set;
}

std::string Redact(std::string_view text, const RedactionSet& set, RedactFor place) {
  std::string out;
  for (std::string_view line : Lines(text)) {
    // Credentials first, on the URL as written; then the homes, whose names the users pass
    // would otherwise cut out of the path first.
    out += RedactUsers(RedactHomes(RedactCredentials(line), set, place), set, place) + "\n";
  }
  if (!text.empty() && text.back() != '\n' && !out.empty()) out.pop_back();
  return out;
}

}  // namespace cudamatch
