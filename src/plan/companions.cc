#include "plan/companions.h"

#include "catalog/query.h"

namespace cudamatch {

namespace {

bool SameLine(const Pep440& a, const Pep440& b) { return a.Part(0) == b.Part(0) && a.Part(1) == b.Part(1); }

}  // namespace

std::optional<Pep440> PairedVersion(const TorchRelease& t, std::string_view package) {
  if (package == "torchvision") return t.torchvision;
  if (package == "torchaudio") return t.torchaudio;
  return std::nullopt;
}

PythonRange CompanionPythonRange(const Catalog& c, std::string_view package, const Pep440& version) {
  const Companion* m = FindCompanion(c, package, version.WithoutLocal());
  if (m == nullptr) return {};
  return {m->python_min, m->python_max};
}

std::vector<const TorchRelease*> TorchForCompanion(const Catalog& c, std::string_view package, const Pep440& version) {
  Pep440 plain = version.WithoutLocal();
  std::vector<const TorchRelease*> exact, line;
  for (const TorchRelease& t : c.torch) {
    auto paired = PairedVersion(t, package);
    if (CompanionPairs(c, package, plain, t)) exact.push_back(&t);
    else if (paired && SameLine(*paired, plain)) line.push_back(&t);
  }
  // A version companions.tsv lists pairs as the table says; only an unlisted one goes by its line.
  if (!exact.empty() || FindCompanion(c, package, plain) != nullptr) return exact;
  return line;
}

CompanionKnown KnowCompanion(const Catalog& c, std::string_view package, const Pep440& version) {
  Pep440 plain = version.WithoutLocal();
  if (FindCompanion(c, package, plain) != nullptr) return CompanionKnown::kPublished;
  bool line = false;
  for (const TorchRelease& t : c.torch) {
    auto paired = PairedVersion(t, package);
    if (!paired) continue;
    if (*paired == plain) return CompanionKnown::kPublished;
    line = line || SameLine(*paired, plain);
  }
  return line ? CompanionKnown::kSameLine : CompanionKnown::kUnknown;
}

bool PairsWith(const Catalog& c, const TorchRelease& t, std::string_view package, const Pep440& version) {
  for (const TorchRelease* r : TorchForCompanion(c, package, version)) {
    if (r == &t) return true;
  }
  return false;
}

}  // namespace cudamatch
