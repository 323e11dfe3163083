// A gap in the catalog's data is said as one: a release, variant or pairing the data does not
// list is "not in the catalog (data of DATE)", a note that fails nothing on its own; a release
// known only in part is no rejected candidate unless asked; and where the data cannot decide,
// what is certain (a CUDA version's targets, the driver it needs) still does.
#include <gtest/gtest.h>

#include <algorithm>

#include "catalog/query.h"
#include "plan/check.h"
#include "plan/gaps.h"
#include "plan/lookup.h"
#include "plan/plan.h"
#include "report/plan_report.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TheCatalog;

CheckResult Check(std::vector<std::string> pins, MachineSpec spec = {}) {
  return CheckPins(TheCatalog(), spec, ParsePinArgs(pins).value());
}

const Reason* Note(const CheckResult& r, const std::string& id) {
  for (const Reason& n : r.notes) {
    if (n.id == id) return &n;
  }
  return nullptr;
}

std::string Arg(const MessageArgs& args, const std::string& key) {
  for (const auto& [k, v] : args) {
    if (k == key) return v.value_or("");
  }
  return "";
}

bool HasProblem(const CheckResult& r, const std::string& id) {
  return std::any_of(r.problems.begin(), r.problems.end(), [&](const Problem& p) { return p.id == id; });
}

// The release after the catalog's newest on one line (2.14.0 -> 2.14.1).
Pep440 NextPatchOfNewest() {
  const Pep440& newest = TheCatalog().torch.back().torch;
  return Pep440::Parse(std::to_string(newest.Part(0)) + "." + std::to_string(newest.Part(1)) + ".99").value();
}

TEST(Check, AReleaseAfterTheCatalogIsNotInTheCatalogNotNonexistent) {
  CheckResult r = Check({"torch==2.14.1", "torchvision==0.29.1"});
  EXPECT_TRUE(r.ok());
  const Reason* gap = Note(r, "gap.torch_near");
  ASSERT_NE(gap, nullptr);
  EXPECT_EQ(Arg(gap->args, "date"), TheCatalog().data_date);
  EXPECT_EQ(Arg(gap->args, "nearest").substr(0, 6), "2.14.0");
  EXPECT_TRUE(r.corrected.empty());  // nothing to correct: the pins may well be right
}

TEST(Check, AnUnknownVersionFarAboveTheDataIsANoteNamingTheNewestKnown) {
  CheckResult r = Check({"torch==9.9.9"});
  EXPECT_TRUE(r.ok());
  const Reason* gap = Note(r, "gap.torch_near");
  ASSERT_NE(gap, nullptr);
  std::string nearest = Arg(gap->args, "nearest");
  EXPECT_EQ(nearest.substr(0, nearest.find(',')), TheCatalog().torch.back().torch.Public());
}

TEST(Check, AReleaseAfterTheCatalogWithACudaTagIsJudgedFromThatCuda) {
  MachineSpec s;
  s.driver = DriverVersion::Parse("535.104.05").value();
  CheckResult r = Check({"torch==" + NextPatchOfNewest().Public() + "+cu130"}, s);
  ASSERT_TRUE(HasProblem(r, "check.build"));  // CUDA 13.0 needs a 580 driver: certain
  EXPECT_NE(Note(r, "gap.judged"), nullptr);
  EXPECT_NE(Note(r, "gap.torch_near"), nullptr);
  s.driver = DriverVersion::Parse("580.65.06").value();
  EXPECT_TRUE(Check({"torch==" + NextPatchOfNewest().Public() + "+cu130"}, s).ok());
}

TEST(Check, AnUnknownCompanionWithoutAKnownPairIsANote) {
  CheckResult r = Check({"torch==2.15.0", "torchvision==0.30.0"});
  EXPECT_TRUE(r.ok());
  ASSERT_NE(Note(r, "gap.companion_near"), nullptr);
  EXPECT_EQ(Arg(Note(r, "gap.companion_near")->args, "nearest").substr(0, 6), "0.29.0");
}

TEST(Check, AnUnknownCompanionOfAReleaseWithAKnownPairIsStillUnpaired) {
  CheckResult r = Check({"torch==1.13.0", "torchvision==1.4.0"});
  ASSERT_TRUE(HasProblem(r, "check.paired_missing"));
  EXPECT_EQ(Arg(r.problems.front().args, "date"), TheCatalog().data_date);
}

TEST(Check, ABareTorchPinIsNotDecidedByAPartlyKnownRelease) {
  MachineSpec s;
  s.python = PyVersion::Parse("3.12").value();
  CheckResult r = Check({"torch"}, s);
  ASSERT_NE(r.release, nullptr);
  EXPECT_FALSE(PartlyKnown(TheCatalog(), *r.release)) << r.release->torch.Public();
  EXPECT_TRUE(r.ok());
}

TEST(Check, APartlyKnownReleasePinnedExactlyGetsNotesNotErrors) {
  const TorchRelease* partly = nullptr;
  for (const TorchRelease& t : TheCatalog().torch) {
    if (PartlyKnown(TheCatalog(), t) && !t.python_min) partly = &t;
  }
  ASSERT_NE(partly, nullptr) << "the catalog has no release with an unknown Python range";
  MachineSpec s;
  s.python = PyVersion::Parse("3.11").value();
  CheckResult r = Check({"torch==" + partly->torch.Public()}, s);
  EXPECT_TRUE(r.ok());
  EXPECT_NE(Note(r, "gap.python"), nullptr);
  EXPECT_NE(Note(r, "gap.default"), nullptr);
}

TEST(Check, AVariantTheCatalogLacksIsANoteAndJudgedFromItsCuda) {
  MachineSpec s;
  s.driver = DriverVersion::Parse("470.82.01").value();
  CheckResult r = Check({"torch==2.14.0+cu999"}, s);  // CUDA 99.9: nothing known of it
  EXPECT_NE(Note(r, "gap.variant"), nullptr);
  r = Check({"torch==2.14.0+cu129"}, s);
  if (FindVariant(TheCatalog(), Pep440::Parse("2.14.0").value(), "linux-x86_64", "cu129") == nullptr) {
    EXPECT_NE(Note(r, "gap.variant"), nullptr);
    EXPECT_NE(Note(r, "gap.judged"), nullptr);
  }
  ASSERT_TRUE(HasProblem(r, "check.machine"));  // a 470 driver runs no CUDA 12 build: certain
}

// An unknown arch list decides nothing, but what its CUDA can build for does.
TEST(Plan, AnUnknownArchListStillRejectsAGpuItsCudaCannotTarget) {
  const Catalog& c = TheCatalog();
  const TorchVariant* unknown = nullptr;
  for (const TorchVariant& v : c.torch_variants) {
    if (v.variant.cuda && !v.arch_list && WidestArchList(c, *v.variant.cuda) && *v.variant.cuda < CudaVersion::Parse("12.8").value()) unknown = &v;
  }
  ASSERT_NE(unknown, nullptr);
  const TorchRelease* t = FindTorch(c, unknown->torch);
  ASSERT_NE(t, nullptr);
  MachineSpec s;
  s.platform = unknown->platform == "windows-x86_64" ? Platform{Os::kWindows, Arch::kX86_64} : Platform{};
  s.gpus = {ComputeCapability::Parse("12.0").value()};  // Blackwell: no CUDA before 12.8 builds for it
  std::vector<Reason> reasons = CheckCandidate(c, s, *t, *unknown, nullptr);
  auto has = [&](const std::string& id) {
    return std::any_of(reasons.begin(), reasons.end(), [&](const Reason& r) { return r.id == id; });
  };
  EXPECT_TRUE(has("reject.cuda_cannot_target")) << unknown->torch.Public() << "+" << unknown->variant.tag;
  EXPECT_FALSE(has("reject.arch_unknown"));
  s.gpus = {ComputeCapability::Parse("8.6").value()};  // CUDA can build for it: the list decides, and it is unknown
  reasons = CheckCandidate(c, s, *t, *unknown, nullptr);
  EXPECT_TRUE(has("reject.arch_unknown"));
}

TEST(Lookup, NearestCompanionsFollowReleaseOrderAndTheSameLine) {
  auto near = NearestPaired(TheCatalog(), Pep440::Parse("0.29.2").value(), false, 3);
  ASSERT_EQ(near.size(), 3u);
  EXPECT_EQ(near[0].first.Public(), "0.29.0");
  EXPECT_EQ(near[1].first.Public(), "0.28.0");
  // A version mistyped with the same digits still finds its release first.
  near = NearestPaired(TheCatalog(), Pep440::Parse("1.4.0").value(), false, 1);
  ASSERT_EQ(near.size(), 1u);
  EXPECT_EQ(near[0].first.Public(), "0.14.0");
}

TEST(Lookup, AReleaseTheCatalogLacksCarriesTheDataDate) {
  auto r = Lookup(TheCatalog(), ParseLookupQuery({"torchvision==0.29.2"}).value(), Platform{}, nullptr);
  ASSERT_TRUE(r);
  ASSERT_TRUE(r->not_found);
  EXPECT_EQ(r->not_found->date, TheCatalog().data_date);
  ASSERT_FALSE(r->not_found->suggestions.empty());
  EXPECT_EQ(r->not_found->suggestions.front(), "0.29.0 (torch 2.14.0)");
}

TEST(Lookup, AGpuNameWithNvidiasPrefixFindsTheModel) {
  for (const char* name : {"NVIDIA Jetson AGX Thor", "Jetson AGX Thor"}) {
    auto r = Lookup(TheCatalog(), ParseLookupQuery({"gpu", name}).value(), Platform{}, nullptr);
    ASSERT_TRUE(r) << name;
    EXPECT_FALSE(r->not_found) << name;
    ASSERT_TRUE(r->gpu) << name;
  }
}

TEST(Plan, APartlyKnownReleaseIsNoRejectedCandidateUnlessVerbose) {
  MachineSpec s;
  s.platform = Platform{Os::kWindows, Arch::kX86_64};
  s.python = PyVersion::Parse("3.10").value();
  Plan p = MakePlan(TheCatalog(), s);
  ASSERT_NE(p.release, nullptr);
  auto partly = std::find_if(p.rejected.begin(), p.rejected.end(), [](const Rejection& r) { return r.partly_known; });
  ASSERT_NE(partly, p.rejected.end());
  std::string candidate = partly->candidate;
  TextOptions quiet;
  EXPECT_EQ(RenderPlan(p, s, quiet).find(candidate + ":"), std::string::npos);
  TextOptions verbose;
  verbose.verbose = true;
  EXPECT_NE(RenderPlan(p, s, verbose).find(candidate + ":"), std::string::npos);
}

}  // namespace
}  // namespace cudamatch
