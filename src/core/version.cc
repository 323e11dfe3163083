#include "core/version.h"

#include <algorithm>
#include <cctype>
#include <tuple>

#include "core/text.h"

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
      size_t before_sep = sc.pos();
      sc.EatSeparator();
      auto n = sc.Number();
      if (!n) sc.set_pos(before_sep);
      v.pre_number = n.value_or(0);
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
      size_t before_sep = sc.pos();
      sc.EatSeparator();
      auto n = sc.Number();
      if (!n) sc.set_pos(before_sep);
      v.post = n.value_or(0);
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
    size_t before_sep = sc.pos();
    sc.EatSeparator();
    auto n = sc.Number();
    if (!n) sc.set_pos(before_sep);
    v.dev = n.value_or(0);
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

Result<Pep440> Pep440::Parse(std::string_view text) {
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

bool Specifier::Matches(const Pep440& candidate) const {
  const Pep440 pub = candidate.WithoutLocal();
  if (op == "===") return candidate.ToString() == version.ToString();
  if (op == "==" || op == "!=") {
    bool eq;
    if (wildcard) eq = PrefixMatches(version, pub);
    else if (version.local.empty()) eq = ComparePublic(pub, version) == 0;
    else eq = candidate == version;
    return op == "==" ? eq : !eq;
  }
  auto c = ComparePublic(pub, version);
  if (op == ">=") return c >= 0;
  if (op == "<=") return c <= 0;
  if (op == "<") {
    // "<V" excludes pre-releases of V itself unless V is one.
    if (c >= 0) return false;
    return version.IsPrerelease() || !pub.IsPrerelease() ||
           CompareRelease(pub.release, version.release) != 0;
  }
  if (op == ">") {
    // ">V" excludes post-releases of V unless V is one.
    if (c <= 0) return false;
    return version.post || !pub.post || CompareRelease(pub.release, version.release) != 0;
  }
  if (op == "~=") {
    if (c < 0) return false;
    Pep440 prefix = version;
    prefix.release.pop_back();
    return PrefixMatches(prefix, pub);
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
    for (std::string_view op : {"===", "==", "!=", ">=", "<=", "~=", ">", "<"}) {
      if (StartsWith(clause, op)) {
        spec.op = std::string(op);
        break;
      }
    }
    if (spec.op.empty()) spec.op = "==";  // a bare version means ==
    std::string_view rest = Trim(clause.substr(StartsWith(clause, spec.op) ? spec.op.size() : 0));
    if (EndsWith(rest, ".*")) {
      if (spec.op != "==" && spec.op != "!=") return Malformed("version specifier", text);
      spec.wildcard = true;
      rest.remove_suffix(2);
    }
    auto v = Pep440::Parse(rest);
    if (!v) return Malformed("version specifier", text);
    if (spec.op == "~=" && v->release.size() < 2) return Malformed("version specifier", text);
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

// ---- CUDA ----

Result<CudaVersion> CudaVersion::Parse(std::string_view text) {
  std::string_view t = Trim(text);
  if (t.size() > 32) return Malformed("CUDA version", text);
  std::vector<std::string_view> parts = Split(t, '.');
  if (parts.size() == 1) {
    auto n = ParseUint(parts[0]);
    if (!n) return Malformed("CUDA version", text);
    if (*n >= 1000 && *n < 100000) return FromApiInt(static_cast<int>(*n));
    if (*n > 0 && *n < 100) return CudaVersion{static_cast<int>(*n), 0, std::nullopt};
    return Malformed("CUDA version", text);
  }
  if (parts.size() > 3) return Malformed("CUDA version", text);
  std::vector<int> nums;
  for (std::string_view p : parts) {
    auto n = ParseUint(p);
    if (!n || *n > 100000) return Malformed("CUDA version", text);
    nums.push_back(static_cast<int>(*n));
  }
  if (nums[0] == 0 || nums[0] > 99 || nums[1] > 99) return Malformed("CUDA version", text);
  CudaVersion v{nums[0], nums[1], std::nullopt};
  if (nums.size() == 3) v.patch = nums[2];
  return v;
}

CudaVersion CudaVersion::FromApiInt(int value) {
  return CudaVersion{value / 1000, (value % 1000) / 10, std::nullopt};
}

std::string CudaVersion::MajorMinor() const {
  return std::to_string(major) + "." + std::to_string(minor);
}

std::string CudaVersion::ToString() const {
  return patch ? MajorMinor() + "." + std::to_string(*patch) : MajorMinor();
}

std::strong_ordering operator<=>(const CudaVersion& a, const CudaVersion& b) {
  return std::tuple(a.major, a.minor, a.patch.value_or(0)) <=>
         std::tuple(b.major, b.minor, b.patch.value_or(0));
}

bool operator==(const CudaVersion& a, const CudaVersion& b) { return (a <=> b) == 0; }

// ---- Variant ----

Result<Variant> Variant::Parse(std::string_view text) {
  std::string t = ToLower(Trim(text));
  if (t == "cpu") return Cpu();
  if (StartsWith(t, "cu") && t.size() >= 4 && t.size() <= 5) {
    std::string_view digits = std::string_view(t).substr(2);
    if (auto n = ParseUint(digits)) {
      int major = static_cast<int>(*n / 10), minor = static_cast<int>(*n % 10);
      if (major >= 7) return ForCuda(CudaVersion{major, minor, std::nullopt});
    }
    return Malformed("wheel variant", text);
  }
  if (StartsWith(t, "rocm") && t.size() > 4) {
    std::string_view ver = std::string_view(t).substr(4);
    for (std::string_view p : Split(ver, '.')) {
      if (!ParseUint(p)) return Malformed("wheel variant", text);
    }
    return Variant{Kind::kRocm, std::nullopt, t};
  }
  if (t == "xpu") return Variant{Kind::kOther, std::nullopt, t};
  return Malformed("wheel variant", text);
}

Variant Variant::ForCuda(const CudaVersion& cuda) {
  return Variant{Kind::kCuda, cuda.Truncated(),
                 "cu" + std::to_string(cuda.major) + std::to_string(cuda.minor)};
}

Variant Variant::Cpu() { return Variant{Kind::kCpu, std::nullopt, "cpu"}; }

std::pair<int, std::vector<int>> VariantSortKey(const Variant& v) {
  switch (v.kind) {
    case Variant::Kind::kCpu:
      return {0, {}};
    case Variant::Kind::kCuda:
      return {1, {v.cuda->major, v.cuda->minor}};
    case Variant::Kind::kRocm: {
      std::vector<int> nums;
      for (std::string_view p : Split(std::string_view(v.tag).substr(4), '.')) {
        nums.push_back(static_cast<int>(ParseUint(p).value_or(0)));
      }
      return {2, nums};
    }
    case Variant::Kind::kOther:
      break;
  }
  return {3, {}};
}

// ---- Driver ----

Result<DriverVersion> DriverVersion::Parse(std::string_view text) {
  std::string_view t = Trim(text);
  std::vector<std::string_view> pieces = Split(t, '.');
  if (t.empty() || pieces.size() > 4) return Malformed("driver version", text);
  DriverVersion v;
  for (std::string_view p : pieces) {
    auto n = ParseUint(p);
    if (!n || p.size() > 6) return Malformed("driver version", text);
    v.parts.push_back(static_cast<int>(*n));
  }
  if (v.parts[0] == 0 || v.parts[0] > 9999 || (v.parts.size() == 1 && v.parts[0] < 100)) {
    return Malformed("driver version", text);
  }
  v.text = std::string(t);
  return v;
}

std::strong_ordering operator<=>(const DriverVersion& a, const DriverVersion& b) {
  size_t n = std::max(a.parts.size(), b.parts.size());
  for (size_t i = 0; i < n; ++i) {
    int x = i < a.parts.size() ? a.parts[i] : 0;
    int y = i < b.parts.size() ? b.parts[i] : 0;
    if (x != y) return x <=> y;
  }
  return std::strong_ordering::equal;
}

bool operator==(const DriverVersion& a, const DriverVersion& b) { return (a <=> b) == 0; }

// ---- Compute capability ----

namespace {

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
  }
  return true;
}

}  // namespace

Result<ComputeCapability> ComputeCapability::Parse(std::string_view text) {
  std::string_view s = Trim(text);
  bool had_prefix = false;
  for (std::string_view prefix : {"sm_", "compute_", "sm", "cc"}) {
    if (StartsWithNoCase(s, prefix)) {
      s.remove_prefix(prefix.size());
      had_prefix = true;
      break;
    }
  }
  ComputeCapability cc;
  if (!s.empty()) {
    char last = static_cast<char>(std::tolower(static_cast<unsigned char>(s.back())));
    if (last == 'a' || last == 'f') {
      cc.suffix = last;
      s.remove_suffix(1);
    }
  }
  if (size_t dot = s.find('.'); dot != std::string_view::npos) {
    auto ma = ParseUint(s.substr(0, dot)), mi = ParseUint(s.substr(dot + 1));
    if (!ma || !mi || *ma == 0 || *ma > 99 || *mi > 9) return Malformed("compute capability", text);
    cc.major = static_cast<int>(*ma);
    cc.minor = static_cast<int>(*mi);
    return cc;
  }
  auto n = ParseUint(s);
  if (!had_prefix || !n || *n < 10 || *n > 999) return Malformed("compute capability", text);
  cc.major = static_cast<int>(*n / 10);
  cc.minor = static_cast<int>(*n % 10);
  return cc;
}

std::string ComputeCapability::ToString() const {
  std::string out = std::to_string(major) + "." + std::to_string(minor);
  if (suffix) out += suffix;
  return out;
}

std::string ComputeCapability::Sm() const {
  std::string out = "sm_" + std::to_string(Number());
  if (suffix) out += suffix;
  return out;
}

std::string ComputeCapability::Compute() const {
  std::string out = "compute_" + std::to_string(Number());
  if (suffix) out += suffix;
  return out;
}

std::strong_ordering operator<=>(const ComputeCapability& a, const ComputeCapability& b) {
  return std::tuple(a.major, a.minor, a.suffix) <=> std::tuple(b.major, b.minor, b.suffix);
}

bool operator==(const ComputeCapability& a, const ComputeCapability& b) { return (a <=> b) == 0; }

// ---- Python ----

Result<PyVersion> PyVersion::Parse(std::string_view text) {
  std::string_view t = Trim(text);
  PyVersion v;
  if (EndsWith(t, "t")) {
    v.freethreaded = true;
    t.remove_suffix(1);
  }
  std::vector<std::string_view> parts = Split(t, '.');
  if (parts.size() < 2 || parts.size() > 3) return Malformed("Python version", text);
  auto ma = ParseUint(parts[0]), mi = ParseUint(parts[1]);
  if (!ma || !mi || *ma < 2 || *ma > 9 || *mi > 99) return Malformed("Python version", text);
  if (parts.size() == 3 && !ParseUint(parts[2])) {
    // "3.11.7", "3.13.0rc1": anything after the minor that starts with a digit is the micro part.
    if (parts[2].empty() || !std::isdigit(static_cast<unsigned char>(parts[2][0]))) {
      return Malformed("Python version", text);
    }
  }
  v.major = static_cast<int>(*ma);
  v.minor = static_cast<int>(*mi);
  return v;
}

std::string PyVersion::ToString() const {
  return std::to_string(major) + "." + std::to_string(minor) + (freethreaded ? "t" : "");
}

std::strong_ordering operator<=>(const PyVersion& a, const PyVersion& b) {
  return std::tuple(a.major, a.minor, a.freethreaded) <=> std::tuple(b.major, b.minor, b.freethreaded);
}

bool operator==(const PyVersion& a, const PyVersion& b) { return (a <=> b) == 0; }

}  // namespace cudamatch
