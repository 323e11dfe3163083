#include "plan/check_require.h"

#include <algorithm>

namespace cudamatch {

namespace {

// The kind of build the pins install: the catalog's variant, else the tag of a build outside it.
std::optional<Variant> InstalledKind(const CheckResult& r) {
  if (r.variant != nullptr) return r.variant->variant;
  if (r.build.empty()) return std::nullopt;
  auto exact = Pep440::Parse(r.build);
  if (!exact) return std::nullopt;
  return VariantOrNone(exact->LocalLabel());
}

std::string Candidate(const CheckResult& r) {
  if (r.release != nullptr && r.variant != nullptr) return r.release->torch.Public() + "+" + r.variant->variant.tag;
  return r.build;
}

bool HasProblem(const CheckResult& r, std::string_view id) {
  return std::any_of(r.problems.begin(), r.problems.end(), [id](const Problem& p) { return p.id == id; });
}

}  // namespace

void RequireGpuBuild(CheckResult& result) {
  std::optional<Variant> kind = InstalledKind(result);
  if (!kind) {
    if (result.ok()) result.problems.push_back({"check.require_gpu_unknown", {}, {}, ""});
    return;
  }
  if (kind->kind != Variant::Kind::kCpu || HasProblem(result, "check.cpu_on_gpu")) return;
  result.problems.push_back({"check.require_gpu", {{"candidate", Candidate(result)}}, {}, ""});
}

}  // namespace cudamatch
