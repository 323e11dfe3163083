// PEP 440 versions and specifiers (https://peps.python.org/pep-0440/).
#include <algorithm>
#include <cctype>
#include <tuple>

#include "core/text.h"
#include "core/version.h"

namespace cudamatch {

namespace {

constexpr size_t kMaxVersionText = 256;

Error Malformed(std::string_view what, std::string_view text) {
  return Err("malformed " + std::string(what) + " " + Quote(text));
}

// A cursor over lowercase version text.
class Scanner {
 public:
  explicit Scanner(std::string_view s) : s_(s) {}
  bool done() const { return pos_ >= s_.size(); }
  char peek(size_t ahead = 0) const { return pos_ + ahead < s_.size() ? s_[pos_ + ahead] : '\0'; }
  bool Eat(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  bool EatWord(std::string_view w) {
    if (s_.substr(pos_, w.size()) != w) return false;
    pos_ += w.size();
    return true;
  }
  bool EatSeparator() { return Eat('.') || Eat('-') || Eat('_'); }
  std::optional<int64_t> Number() {
    size_t start = pos_;
    while (std::isdigit(static_cast<unsigned char>(peek()))) ++pos_;
    if (pos_ == start) return std::nullopt;
    std::string_view digits = s_.substr(start, pos_ - start);
    while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
    return ParseUint(digits);
  }
  // The optional separator and number after "rc", "post" or "dev": 0 when there is none.
  int64_t ImplicitNumber() {
    size_t before = pos_;
    EatSeparator();
    if (auto n = Number()) return *n;
    pos_ = before;
    return 0;
  }
  size_t pos() const { return pos_; }
  void set_pos(size_t p) { pos_ = p; }
  std::string_view rest() const { return s_.substr(std::min(pos_, s_.size())); }

 private:
  std::string_view s_;
  size_t pos_ = 0;
};

bool ParsePre(Scanner& sc, Pep440& v) {
  size_t save = sc.pos();
  sc.EatSeparator();
  static const std::pair<std::string_view, Pep440::Pre> kWords[] = {
      {"alpha", Pep440::Pre::kAlpha}, {"beta", Pep440::Pre::kBeta},   {"preview", Pep440::Pre::kRc},
      {"pre", Pep440::Pre::kRc},      {"rc", Pep440::Pre::kRc},       {"a", Pep440::Pre::kAlpha},
      {"b", Pep440::Pre::kBeta},      {"c", Pep440::Pre::kRc}};
  for (const auto& [word, kind] : kWords) {
    if (sc.EatWord(word)) {
      v.pre = kind;
      v.pre_number = sc.ImplicitNumber();
      return true;
    }
  }
  sc.set_pos(save);
  return false;
}

bool ParsePost(Scanner& sc, Pep440& v) {
  size_t save = sc.pos();
  if (sc.Eat('-')) {
    if (auto n = sc.Number()) {
      v.post = *n;
      return true;
    }
    sc.set_pos(save);
  }
  sc.EatSeparator();
  for (std::string_view word : {"post", "rev", "r"}) {
    if (sc.EatWord(word)) {
      v.post = sc.ImplicitNumber();
      return true;
    }
  }
  sc.set_pos(save);
  return false;
}

bool ParseDev(Scanner& sc, Pep440& v) {
  size_t save = sc.pos();
  sc.EatSeparator();
  if (sc.EatWord("dev")) {
    v.dev = sc.ImplicitNumber();
    return true;
  }
  sc.set_pos(save);
  return false;
}

bool ParseLocal(std::string_view text, std::vector<std::string>& out) {
  if (text.empty()) return false;
  std::string piece;
  for (char c : text) {
    if (c == '.' || c == '-' || c == '_') {
      if (piece.empty()) return false;
      out.push_back(piece);
      piece.clear();
    } else if (std::isalnum(static_cast<unsigned char>(c))) {
      piece += c;
    } else {
      return false;
    }
  }
  if (piece.empty()) return false;
  out.push_back(piece);
  return true;
}

bool IsNumeric(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Numeric local segments sort above alphanumeric ones; numbers compare as numbers.
std::strong_ordering CompareLocalSegment(const std::string& a, const std::string& b) {
  bool an = IsNumeric(a), bn = IsNumeric(b);
  if (an != bn) return an ? std::strong_ordering::greater : std::strong_ordering::less;
  if (an) {
    std::string_view x = a, y = b;
    while (x.size() > 1 && x.front() == '0') x.remove_prefix(1);
    while (y.size() > 1 && y.front() == '0') y.remove_prefix(1);
    if (x.size() != y.size()) return x.size() <=> y.size();
    return x.compare(y) <=> 0;
  }
  return a.compare(b) <=> 0;
}

// The sort key of packaging's _cmpkey: a dev-only release sorts before its pre-releases; a final
// release sorts after them; no post sorts first; no dev sorts last.
std::tuple<int, int64_t, int, int64_t, int, int64_t> SuffixKey(const Pep440& v) {
  int pre_rank;
  if (v.pre == Pep440::Pre::kNone && !v.post && v.dev) pre_rank = -1;
  else if (v.pre == Pep440::Pre::kNone) pre_rank = 4;
  else pre_rank = static_cast<int>(v.pre);
  int post_rank = v.post ? 1 : 0;
  int dev_rank = v.dev ? 0 : 1;
  return {pre_rank, v.pre == Pep440::Pre::kNone ? 0 : v.pre_number, post_rank, v.post.value_or(0),
          dev_rank, v.dev.value_or(0)};
}

std::strong_ordering CompareRelease(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  size_t n = std::max(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    int64_t x = i < a.size() ? a[i] : 0;
    int64_t y = i < b.size() ? b[i] : 0;
    if (x != y) return x <=> y;
  }
  return std::strong_ordering::equal;
}

std::strong_ordering ComparePublic(const Pep440& a, const Pep440& b) {
  if (a.epoch != b.epoch) return a.epoch <=> b.epoch;
  if (auto c = CompareRelease(a.release, b.release); c != 0) return c;
  return SuffixKey(a) <=> SuffixKey(b);
}

}  // namespace

namespace {

// "2.3.1": digits and single dots only, the form of nearly every version read; nullopt for
// anything else, which the general parser reads.
std::optional<Pep440> PlainRelease(std::string_view text) {
  if (text.empty() || text.size() > 64) return std::nullopt;
  Pep440 v;
  v.release.reserve(static_cast<size_t>(std::count(text.begin(), text.end(), '.')) + 1);
  int64_t n = 0;
  size_t digits = 0;
  for (char ch : text) {
    if (ch >= '0' && ch <= '9') {
      if (++digits > 18) return std::nullopt;
      n = n * 10 + (ch - '0');
    } else if (ch == '.' && digits > 0) {
      v.release.push_back(n);
      n = 0;
      digits = 0;
    } else {
      return std::nullopt;
    }
  }
  if (digits == 0) return std::nullopt;
  v.release.push_back(n);
  return v;
}

}  // namespace

Result<Pep440> Pep440::Parse(std::string_view text) {
  if (auto plain = PlainRelease(text)) return std::move(*plain);
  std::string_view trimmed = Trim(text);
  if (trimmed.empty() || trimmed.size() > kMaxVersionText) return Malformed("version", text);
  std::string lower = ToLower(trimmed);
  std::string_view body = lower;
  std::string_view local_text;
  if (size_t plus = body.find('+'); plus != std::string_view::npos) {
    local_text = body.substr(plus + 1);
    body = body.substr(0, plus);
  }
  Pep440 v;
  Scanner sc(body);
  sc.Eat('v');
  auto first = sc.Number();
  if (!first) return Malformed("version", text);
  if (sc.Eat('!')) {
    v.epoch = *first;
    first = sc.Number();
    if (!first) return Malformed("version", text);
  }
  v.release.push_back(*first);
  while (sc.peek() == '.' && std::isdigit(static_cast<unsigned char>(sc.peek(1)))) {
    sc.Eat('.');
    v.release.push_back(*sc.Number());
  }
  ParsePre(sc, v);
  ParsePost(sc, v);
  ParseDev(sc, v);
  if (!sc.done()) return Malformed("version", text);
  if (lower.find('+') != std::string::npos && !ParseLocal(local_text, v.local)) {
    return Malformed("version", text);
  }
  // Normalising can lengthen the text ("1r" -> "1.post0"): what is accepted must stay within the
  // limit in its canonical form too, so that the canonical form parses again.
  if (trimmed.size() + 16 > kMaxVersionText && v.ToString().size() > kMaxVersionText) {
    return Malformed("version", text);
  }
  return v;
}

std::string Pep440::Public() const {
  std::string out;
  if (epoch != 0) out += std::to_string(epoch) + "!";
  for (size_t i = 0; i < release.size(); ++i) {
    if (i > 0) out += '.';
    out += std::to_string(release[i]);
  }
  if (pre != Pre::kNone) {
    out += pre == Pre::kAlpha ? "a" : pre == Pre::kBeta ? "b" : "rc";
    out += std::to_string(pre_number);
  }
  if (post) out += ".post" + std::to_string(*post);
  if (dev) out += ".dev" + std::to_string(*dev);
  return out;
}

std::string Pep440::LocalLabel() const {
  std::string out;
  for (size_t i = 0; i < local.size(); ++i) {
    if (i > 0) out += '.';
    out += local[i];
  }
  return out;
}

std::string Pep440::ToString() const {
  std::string label = LocalLabel();
  return label.empty() ? Public() : Public() + "+" + label;
}

Pep440 Pep440::WithoutLocal() const {
  Pep440 v = *this;
  v.local.clear();
  return v;
}

std::strong_ordering operator<=>(const Pep440& a, const Pep440& b) {
  if (auto c = ComparePublic(a, b); c != 0) return c;
  if (a.local.empty() != b.local.empty()) {
    return a.local.empty() ? std::strong_ordering::less : std::strong_ordering::greater;
  }
  size_t n = std::min(a.local.size(), b.local.size());
  for (size_t i = 0; i < n; ++i) {
    if (auto c = CompareLocalSegment(a.local[i], b.local[i]); c != 0) return c;
  }
  return a.local.size() <=> b.local.size();
}

bool operator==(const Pep440& a, const Pep440& b) { return (a <=> b) == 0; }

namespace {

bool PrefixMatches(const Pep440& spec, const Pep440& cand) {
  if (spec.epoch != cand.epoch) return false;
  for (size_t i = 0; i < spec.release.size(); ++i) {
    if (cand.Part(i) != spec.release[i]) return false;
  }
  return true;
}

}  // namespace

// Longest first, so that a prefix match finds "===" before "==" and ">=" before ">".
constexpr std::pair<SpecOp, std::string_view> kSpecOps[] = {
    {SpecOp::kArbitrary, "==="},    {SpecOp::kEqual, "=="},   {SpecOp::kNotEqual, "!="},
    {SpecOp::kGreaterEqual, ">="}, {SpecOp::kLessEqual, "<="}, {SpecOp::kCompatible, "~="},
    {SpecOp::kGreater, ">"},       {SpecOp::kLess, "<"},
};

std::string_view SpecOpText(SpecOp op) {
  for (const auto& [o, text] : kSpecOps) {
    if (o == op) return text;
  }
  return "";
}

std::optional<SpecOp> SpecOpPrefix(std::string_view text) {
  for (const auto& [o, op] : kSpecOps) {
    if (StartsWith(text, op)) return o;
  }
  return std::nullopt;
}

namespace {

bool EqualMatches(const Specifier& s, const Pep440& candidate, const Pep440& pub) {
  if (s.wildcard) return PrefixMatches(s.version, pub);
  if (s.version.local.empty()) return ComparePublic(pub, s.version) == 0;
  return candidate == s.version;
}

}  // namespace

bool Specifier::Matches(const Pep440& candidate) const {
  const Pep440 pub = candidate.WithoutLocal();
  if (op == SpecOp::kArbitrary) return candidate.ToString() == version.ToString();
  if (op == SpecOp::kEqual) return EqualMatches(*this, candidate, pub);
  if (op == SpecOp::kNotEqual) return !EqualMatches(*this, candidate, pub);
  auto c = ComparePublic(pub, version);
  switch (op) {
    case SpecOp::kGreaterEqual: return c >= 0;
    case SpecOp::kLessEqual: return c <= 0;
    case SpecOp::kLess:
      // "<V" excludes pre-releases of V itself unless V is one.
      if (c >= 0) return false;
      return version.IsPrerelease() || !pub.IsPrerelease() || CompareRelease(pub.release, version.release) != 0;
    case SpecOp::kGreater:
      // ">V" excludes post-releases of V unless V is one.
      if (c <= 0) return false;
      return version.post || !pub.post || CompareRelease(pub.release, version.release) != 0;
    case SpecOp::kCompatible: {
      if (c < 0) return false;
      Pep440 prefix = version;
      prefix.release.pop_back();
      return PrefixMatches(prefix, pub);
    }
    case SpecOp::kEqual:
    case SpecOp::kNotEqual:
    case SpecOp::kArbitrary: break;
  }
  return false;
}

Result<SpecifierSet> SpecifierSet::Parse(std::string_view text) {
  SpecifierSet set;
  set.text = std::string(Trim(text));
  for (std::string_view clause : Split(text, ',')) {
    clause = Trim(clause);
    if (clause.empty()) {
      if (Trim(text).empty()) break;
      return Malformed("version specifier", text);
    }
    Specifier spec;
    std::optional<SpecOp> written = SpecOpPrefix(clause);
    spec.op = written.value_or(SpecOp::kEqual);  // a bare version means ==
    std::string_view rest = Trim(clause.substr(written ? SpecOpText(*written).size() : 0));
    if (EndsWith(rest, ".*")) {
      if (spec.op != SpecOp::kEqual && spec.op != SpecOp::kNotEqual) return Malformed("version specifier", text);
      spec.wildcard = true;
      rest.remove_suffix(2);
    }
    auto v = Pep440::Parse(rest);
    if (!v) return Malformed("version specifier", text);
    if (spec.op == SpecOp::kCompatible && v->release.size() < 2) return Malformed("version specifier", text);
    spec.version = std::move(*v);
    spec.text = std::string(clause);
    set.clauses.push_back(std::move(spec));
  }
  return set;
}

bool SpecifierSet::Matches(const Pep440& candidate) const {
  return std::all_of(clauses.begin(), clauses.end(),
                     [&](const Specifier& s) { return s.Matches(candidate); });
}

}  // namespace cudamatch
