#include "probe/container_env.h"

#include <algorithm>

#include "core/text.h"

namespace cudamatch {

namespace {

struct OpSpelling {
  std::string_view text;
  RequireOp op;
};

// Two-character operators first, so that ">=" is not read as ">".
constexpr OpSpelling kOps[] = {{">=", RequireOp::kGe}, {"<=", RequireOp::kLe}, {"==", RequireOp::kEq},
                               {"!=", RequireOp::kNe}, {">", RequireOp::kGt},  {"<", RequireOp::kLt},
                               {"=", RequireOp::kEq}};

RequireKey KeyOf(std::string_view name) {
  std::string lower = ToLower(name);
  if (lower == "cuda") return RequireKey::kCuda;
  if (lower == "driver") return RequireKey::kDriver;
  if (lower == "arch") return RequireKey::kArch;
  if (lower == "brand") return RequireKey::kBrand;
  return RequireKey::kOther;
}

std::optional<RequireConstraint> ParseConstraint(std::string_view text) {
  size_t at = text.find_first_of("<>=!");
  if (at == std::string_view::npos || at == 0) return std::nullopt;
  for (const OpSpelling& s : kOps) {
    if (text.substr(at, s.text.size()) != s.text) continue;
    std::string_view value = Trim(text.substr(at + s.text.size()));
    if (value.empty()) return std::nullopt;
    return RequireConstraint{KeyOf(Trim(text.substr(0, at))), s.op, std::string(value)};
  }
  return std::nullopt;
}

// "driver>=535,driver<536" names branch 535; any other driver range names none.
std::optional<int> BranchOf(const RequireGroup& g) {
  std::optional<int> low, high;
  for (const RequireConstraint& c : g) {
    if (c.key != RequireKey::kDriver) continue;
    auto v = DriverVersion::Parse(c.value);
    if (!v) continue;
    if (c.op == RequireOp::kGe) low = v->branch();
    if (c.op == RequireOp::kLt) high = v->branch();
  }
  if (low && high && *high == *low + 1) return low;
  return std::nullopt;
}

}  // namespace

std::vector<RequireGroup> ParseNvidiaRequire(std::string_view text) {
  std::vector<RequireGroup> out;
  for (const std::string& group : SplitNonEmpty(text, ' ')) {
    RequireGroup g;
    for (const std::string& part : SplitNonEmpty(group, ',')) {
      if (auto c = ParseConstraint(part)) g.push_back(std::move(*c));
    }
    if (!g.empty()) out.push_back(std::move(g));
  }
  return out;
}

CudaRequirement ReadCudaRequirement(std::string_view text) {
  CudaRequirement r;
  std::vector<RequireGroup> groups = ParseNvidiaRequire(text);
  r.groups = groups.size();
  for (const RequireGroup& g : groups) {
    if (g.size() == 1 && g[0].key == RequireKey::kCuda && g[0].op == RequireOp::kGe) {
      if (auto v = CudaVersion::Parse(g[0].value)) r.cuda = *v;
    } else if (auto branch = BranchOf(g)) {
      r.branches.push_back(*branch);
    }
  }
  std::sort(r.branches.begin(), r.branches.end());
  r.branches.erase(std::unique(r.branches.begin(), r.branches.end()), r.branches.end());
  return r;
}

bool CapabilitiesInclude(std::string_view capabilities, std::string_view capability) {
  for (const std::string& c : SplitNonEmpty(capabilities, ',')) {
    std::string lower = ToLower(Trim(c));
    if (lower == "all" || lower == capability) return true;
  }
  return false;
}

}  // namespace cudamatch
