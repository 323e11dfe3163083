// Version types, each ordered by its own rules:
//   Pep440           Python package versions ("2.1.0+cu121", "1.13.0a0+gitunknown", "0.15.2rc1")
//   CudaVersion      CUDA releases ("12.1", "12.1.105", and 11040 as the driver API reports it)
//   Variant          wheel variant tags ("cu121", "cpu", "rocm6.2")
//   DriverVersion    NVIDIA driver versions ("535.104.05", "551.61", "610.47")
//   ComputeCapability  GPU compute capability ("8.6", "sm_86", "compute_90", "sm_90a")
//   PyVersion        CPython feature release ("3.10", "3.13t")
// Malformed input is an error that quotes the input.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"

namespace cudamatch {

// PEP 440 version, normalised (https://peps.python.org/pep-0440/).
struct Pep440 {
  enum class Pre { kNone, kAlpha, kBeta, kRc };

  int64_t epoch = 0;
  std::vector<int64_t> release;
  Pre pre = Pre::kNone;
  int64_t pre_number = 0;
  std::optional<int64_t> post;
  std::optional<int64_t> dev;
  std::vector<std::string> local;  // lowercase segments, e.g. {"cu121"} or {"git", "unknown"}

  static Result<Pep440> Parse(std::string_view text);

  std::string ToString() const;  // canonical form, local label included
  std::string Public() const;    // without the local label
  Pep440 WithoutLocal() const;
  std::string LocalLabel() const;  // "cu121", or "" without one
  bool IsPrerelease() const { return pre != Pre::kNone || dev.has_value(); }
  int64_t Part(size_t i) const { return i < release.size() ? release[i] : 0; }
};

// Full PEP 440 ordering, local labels included. 1.13.0 == 1.13.
std::strong_ordering operator<=>(const Pep440& a, const Pep440& b);
bool operator==(const Pep440& a, const Pep440& b);

// One PEP 440 version specifier clause ("==1.13.*", ">=2.0", "~=2.1.0", "!=2.0.0").
// A PEP 440 comparison operator.
enum class SpecOp { kEqual, kNotEqual, kGreaterEqual, kLessEqual, kGreater, kLess, kCompatible, kArbitrary };
std::string_view SpecOpText(SpecOp op);  // "==", "!=", ">=", "<=", ">", "<", "~=", "==="
// The operator `text` starts with (the longest that fits: "===" before "=="); nullopt for none.
std::optional<SpecOp> SpecOpPrefix(std::string_view text);

struct Specifier {
  SpecOp op = SpecOp::kEqual;
  Pep440 version;
  bool wildcard = false;
  std::string text;

  bool Matches(const Pep440& candidate) const;
};

// Comma-separated clauses, all of which must match. Empty matches everything.
struct SpecifierSet {
  std::vector<Specifier> clauses;
  std::string text;

  static Result<SpecifierSet> Parse(std::string_view text);
  bool Matches(const Pep440& candidate) const;
};

struct CudaVersion {
  int major = 0;
  int minor = 0;
  std::optional<int> patch;

  // "12.1", "12.1.105", "12" (as 12.0), or the driver API integer "12020".
  static Result<CudaVersion> Parse(std::string_view text);
  // 1000 * major + 10 * minor, as cuDriverGetVersion and NVML report it.
  static CudaVersion FromApiInt(int value);

  std::string ToString() const;     // "12.1" or "12.1.105"
  std::string MajorMinor() const;   // "12.1"
  CudaVersion Truncated() const { return CudaVersion{major, minor, std::nullopt}; }
  bool SameMinor(const CudaVersion& o) const { return major == o.major && minor == o.minor; }
};

// Missing patch orders as 0: 12.4 == 12.4.0 < 12.4.1.
std::strong_ordering operator<=>(const CudaVersion& a, const CudaVersion& b);
bool operator==(const CudaVersion& a, const CudaVersion& b);

struct Variant {
  enum class Kind { kCpu, kCuda, kRocm, kOther };

  Kind kind = Kind::kCpu;
  std::optional<CudaVersion> cuda;  // for kCuda
  std::string tag;                  // "cu121", "cpu", "rocm6.2", "xpu"

  // "cu121" -> CUDA 12.1 (last digit is the minor), "cu92" -> 9.2, "cpu", "rocm6.2", "xpu".
  static Result<Variant> Parse(std::string_view text);
  static Variant ForCuda(const CudaVersion& cuda);  // 12.1 -> "cu121"
  static Variant Cpu();

  bool is_cuda() const { return kind == Kind::kCuda; }
  bool operator==(const Variant& o) const { return tag == o.tag; }
};

// The variant a tag names; nullopt for "" or a tag that names none.
std::optional<Variant> VariantOrNone(std::string_view tag);

// Orders variants as the catalog lists them: cpu, CUDA by version, ROCm by version, others.
std::pair<int, std::vector<int>> VariantSortKey(const Variant& v);

struct DriverVersion {
  std::vector<int> parts;  // 535.104.05 -> {535, 104, 5}
  std::string text;        // as written, "535.104.05"

  static Result<DriverVersion> Parse(std::string_view text);
  int branch() const { return parts.empty() ? 0 : parts[0]; }
  const std::string& ToString() const { return text; }
};

std::strong_ordering operator<=>(const DriverVersion& a, const DriverVersion& b);
bool operator==(const DriverVersion& a, const DriverVersion& b);

struct ComputeCapability {
  int major = 0;
  int minor = 0;
  char suffix = 0;  // 'a' (arch-specific, sm_90a) or 'f' (family, sm_100f); 0 otherwise

  // "8.6", "sm_86", "compute_86", "sm_90a", "12.0", "sm_120".
  static Result<ComputeCapability> Parse(std::string_view text);

  std::string ToString() const;  // "8.6"
  std::string Sm() const;        // "sm_86"
  std::string Compute() const;   // "compute_86"
  int Number() const { return major * 10 + minor; }
};

std::strong_ordering operator<=>(const ComputeCapability& a, const ComputeCapability& b);
bool operator==(const ComputeCapability& a, const ComputeCapability& b);

struct PyVersion {
  int major = 3;
  int minor = 0;
  bool freethreaded = false;  // "3.13t"

  // "3.10", "3.13t", "3.11.7" (the micro version is dropped).
  static Result<PyVersion> Parse(std::string_view text);
  std::string ToString() const;
};

std::strong_ordering operator<=>(const PyVersion& a, const PyVersion& b);
bool operator==(const PyVersion& a, const PyVersion& b);

}  // namespace cudamatch
