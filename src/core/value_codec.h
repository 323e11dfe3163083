// Values written one after another and read back in the same order, each marked by its first byte:
//   i<decimal>;        an integer          s<length>:<bytes>  a string, any bytes
//   t, f               true, false         n                  none (an optional without a value)
//   l<count>;          a list of <count> values
// The cache files (the environment cache, the report cache) are sequences of these. A Reader that
// meets anything else where a value is expected throws BadEntry: the entry is unreadable.
#pragma once

#include <charconv>
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cudamatch {

class Writer {
 public:
  void Int(int64_t v) {
    out_ += 'i';
    out_ += std::to_string(v);
    out_ += ';';
  }
  void Str(std::string_view s) {
    out_ += 's';
    out_ += std::to_string(s.size());
    out_ += ':';
    out_ += s;
  }
  void Bool(bool b) { out_ += b ? 't' : 'f'; }
  void None() { out_ += 'n'; }
  void List(size_t n) {
    out_ += 'l';
    out_ += std::to_string(n);
    out_ += ';';
  }
  void Strs(const std::vector<std::string>& v) {
    List(v.size());
    for (const std::string& s : v) Str(s);
  }
  void Ints(const std::vector<int>& v) {
    List(v.size());
    for (int n : v) Int(n);
  }
  std::string Take() && { return std::move(out_); }

 private:
  std::string out_;
};

struct BadEntry : std::runtime_error {
  BadEntry() : std::runtime_error("unreadable cache entry") {}
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}

  int64_t Int() {
    Expect('i');
    return Number<int64_t>(';');
  }
  int IntIn(int lo, int hi) {
    int64_t v = Int();
    if (v < lo || v > hi) throw BadEntry();
    return static_cast<int>(v);
  }
  uint64_t Unsigned() {
    int64_t v = Int();
    if (v < 0) throw BadEntry();
    return static_cast<uint64_t>(v);
  }
  std::string Str() {
    Expect('s');
    size_t n = Number<size_t>(':');
    if (n > in_.size()) throw BadEntry();
    std::string s(in_.substr(0, n));
    in_.remove_prefix(n);
    return s;
  }
  bool Bool() {
    if (Take('t')) return true;
    Expect('f');
    return false;
  }
  bool None() { return Take('n'); }  // consumes the mark when it is there
  size_t List() {
    Expect('l');
    size_t n = Number<size_t>(';');
    if (n > in_.size()) throw BadEntry();  // every value takes at least one byte
    return n;
  }
  std::vector<std::string> Strs() {
    std::vector<std::string> out(List());
    for (std::string& s : out) s = Str();
    return out;
  }
  std::vector<int> Ints() {
    std::vector<int> out(List());
    for (int& n : out) n = IntIn(INT32_MIN, INT32_MAX);
    return out;
  }
  bool done() const { return in_.empty(); }

 private:
  bool Take(char mark) {
    if (in_.empty() || in_[0] != mark) return false;
    in_.remove_prefix(1);
    return true;
  }
  void Expect(char mark) {
    if (!Take(mark)) throw BadEntry();
  }
  template <typename T>
  T Number(char end) {
    T v{};
    auto [p, ec] = std::from_chars(in_.data(), in_.data() + in_.size(), v);
    if (ec != std::errc() || p == in_.data() || p == in_.data() + in_.size() || *p != end) throw BadEntry();
    in_.remove_prefix(static_cast<size_t>(p - in_.data()) + 1);
    return v;
  }

  std::string_view in_;
};

}  // namespace cudamatch
