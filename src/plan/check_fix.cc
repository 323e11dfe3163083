#include "plan/check_fix.h"

#include <algorithm>
#include <map>

#include "core/text.h"

namespace cudamatch {

namespace {

bool IsFileIssue(const Problem& p) { return StartsWith(p.id, "req."); }

std::string ArgOf(const Problem& p, std::string_view key) {
  for (const auto& [k, v] : p.args) {
    if (k == key && v) return *v;
  }
  return "";
}

// "torchvision==0.19.0+cu121" -> "torchvision"; "" for anything else (an install command).
std::string PinnedName(const std::string& pin) {
  size_t eq = pin.find("==");
  if (eq == std::string::npos || pin.find(' ') != std::string::npos) return "";
  return pin.substr(0, eq);
}

std::string CorrectedPin(const CheckResult& r, const std::string& name) {
  for (const std::string& pin : r.corrected) {
    if (PinnedName(pin) == name) return pin;
  }
  return "";
}

std::string CorrectedTorch(const CheckResult& r) {
  std::string pin = CorrectedPin(r, "torch");
  return pin.empty() ? "" : pin.substr(pin.find("==") + 2);
}

// Whether the corrected pins keep the torch release the pins name.
bool KeepsTorch(const CheckResult& r) {
  std::string pin = CorrectedTorch(r);
  if (r.release == nullptr || pin.empty()) return false;
  auto v = Pep440::Parse(pin);
  return v && v->Public() == r.release->torch.Public();
}

// Without corrected pins: a package pinned two ways by two fixes gets neither.
void DropContradictions(CheckResult& r) {
  std::map<std::string, std::string> by_name;
  std::map<std::string, bool> contradicted;
  for (const Problem& p : r.problems) {
    std::string name = PinnedName(p.fix);
    if (name.empty()) continue;
    auto [it, fresh] = by_name.emplace(name, p.fix);
    if (!fresh && it->second != p.fix) contradicted[name] = true;
  }
  for (Problem& p : r.problems) {
    if (contradicted[PinnedName(p.fix)]) p.fix.clear();
  }
}

void GroupByFix(CheckResult& r) {
  std::vector<std::string> order;
  for (const Problem& p : r.problems) {
    if (std::find(order.begin(), order.end(), p.fix) == order.end()) order.push_back(p.fix);
  }
  auto rank = [&](const Problem& p) { return std::find(order.begin(), order.end(), p.fix) - order.begin(); };
  std::stable_sort(r.problems.begin(), r.problems.end(), [&](const Problem& a, const Problem& b) { return rank(a) < rank(b); });
}

}  // namespace

std::string ProblemPackage(const Problem& p) {
  if (p.id == "check.label_mismatch") return "torchvision";
  if (p.id == "check.pins_conflict" || p.id == "check.paired_missing" ||
      p.id == "check.unpaired" || p.id == "check.unpaired_set" || p.id == "check.companion_label") {
    return ArgOf(p, "name");
  }
  return "";
}

void AlignFixes(CheckResult& r) {
  if (r.corrected.empty()) {
    DropContradictions(r);
  } else {
    bool keeps_torch = KeepsTorch(r);
    for (Problem& p : r.problems) {
      if (IsFileIssue(p)) continue;
      std::string pin = keeps_torch ? CorrectedPin(r, ProblemPackage(p)) : "";
      p.fix = pin.empty() ? r.install : pin;
    }
  }
  GroupByFix(r);
}

std::string MovedTorch(const CheckResult& r) {
  if (r.release == nullptr || KeepsTorch(r)) return "";
  return CorrectedTorch(r);
}

bool SaysFix(const CheckResult& r, size_t i) {
  const std::string& fix = r.problems[i].fix;
  return !fix.empty() && (i + 1 == r.problems.size() || r.problems[i + 1].fix != fix);
}

}  // namespace cudamatch
