#include "core/version.h"

#include <algorithm>
#include <cctype>
#include <tuple>

#include "core/text.h"

namespace cudamatch {

namespace {

Error Malformed(std::string_view what, std::string_view text) {
  return Err("malformed " + std::string(what) + " " + Quote(text));
}

}  // namespace

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

std::optional<Variant> VariantOrNone(std::string_view tag) {
  if (auto v = Variant::Parse(tag)) return *v;
  return std::nullopt;
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
