// Plans for real situations with known answers.
#include "plan/plan.h"

#include <gtest/gtest.h>

#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TheCatalog;

MachineSpec Spec(const char* driver, std::vector<const char*> ccs, const char* python) {
  MachineSpec s;
  if (driver) s.driver = DriverVersion::Parse(driver).value();
  for (const char* cc : ccs) s.gpus.push_back(ComputeCapability::Parse(cc).value());
  s.has_nvidia_gpu = !ccs.empty();
  if (python) s.python = PyVersion::Parse(python).value();
  return s;
}

bool HasReason(const Rejection& r, const std::string& id) {
  for (const Reason& x : r.reasons) {
    if (x.id == id) return true;
  }
  return false;
}

bool EveryRejectionHas(const Plan& p, const std::string& id, const std::string& or_id = "") {
  if (p.rejected.empty()) return false;
  for (const Rejection& r : p.rejected) {
    if (r.candidate.find('+') == std::string::npos) continue;  // a release without wheels for the platform
    if (!HasReason(r, id) && (or_id.empty() || !HasReason(r, or_id))) return false;
  }
  return true;
}

bool HasCaveat(const Plan& p, const std::string& id) {
  for (const Reason& r : p.caveats) {
    if (r.id == id) return true;
  }
  return false;
}

TEST(Plan, Driver470WithRtx3090AndPython310GetsCu118ThroughMinorCompat) {
  Plan p = MakePlan(TheCatalog(), Spec("470.82.01", {"8.6"}, "3.10"));
  ASSERT_NE(p.release, nullptr);
  EXPECT_EQ(p.release->torch.Part(0), 2);
  EXPECT_EQ(p.variant->variant.tag, "cu118");
  EXPECT_EQ(p.driver_fit, DriverFit::kMinorCompat);
  EXPECT_TRUE(HasCaveat(p, "caveat.minor_compat"));
  bool rejected_cu12 = false;
  for (const Rejection& r : p.rejected) rejected_cu12 = rejected_cu12 || HasReason(r, "reject.driver_too_old");
  EXPECT_TRUE(rejected_cu12);
  EXPECT_NE(p.commands.pip.find("--index-url https://download.pytorch.org/whl/cu118"), std::string::npos);
}

TEST(Plan, Gtx1080TiOnDriver580GetsAVariantThatStillCarriesPascal) {
  Plan p = MakePlan(TheCatalog(), Spec("580.65.06", {"6.1"}, nullptr));
  ASSERT_NE(p.release, nullptr);
  ASSERT_TRUE(p.variant->arch_list);
  EXPECT_EQ(FitArch(*p.variant->arch_list, ComputeCapability::Parse("6.1").value()).fit, KernelFit::kSass);
  EXPECT_NE(p.variant->variant.tag, "cu128");
  EXPECT_NE(p.variant->variant.tag, "cu130");
  bool rejected_for_kernels = false;
  for (const Rejection& r : p.rejected) rejected_for_kernels = rejected_for_kernels || HasReason(r, "reject.no_kernels");
  EXPECT_TRUE(rejected_for_kernels);
}

TEST(Plan, Rtx5090OnlyGetsCu128OrNewer) {
  Plan p = MakePlan(TheCatalog(), Spec(nullptr, {"12.0"}, nullptr));
  ASSERT_NE(p.release, nullptr);
  EXPECT_GE(*p.variant->variant.cuda, CudaVersion::Parse("12.8").value());
  // Pinned to a release before Blackwell wheels: nothing fits.
  MachineSpec old = Spec(nullptr, {"12.0"}, nullptr);
  old.torch = SpecifierSet::Parse("<2.7").value();
  Plan none = MakePlan(TheCatalog(), old);
  EXPECT_EQ(none.release, nullptr);
  // A wheel whose arch list is unknown is still certain not to run here when its CUDA cannot
  // build code for sm_120 at all.
  EXPECT_TRUE(EveryRejectionHas(none, "reject.no_kernels", "reject.cuda_cannot_target"));
}

TEST(Plan, H100OnDriver525RunsCu12Wheels) {
  Plan p = MakePlan(TheCatalog(), Spec("525.60.13", {"9.0"}, nullptr));
  ASSERT_NE(p.release, nullptr);
  EXPECT_EQ(p.variant->variant.cuda->major, 12);
  EXPECT_EQ(p.driver_fit, DriverFit::kMinorCompat);
}

TEST(Plan, Python313WithTorch113HasNoPlan) {
  MachineSpec s = Spec(nullptr, {}, "3.13");
  s.torch = SpecifierSet::Parse("==1.13.*").value();
  Plan p = MakePlan(TheCatalog(), s);
  EXPECT_EQ(p.release, nullptr);
  EXPECT_TRUE(EveryRejectionHas(p, "reject.python"));
  ASSERT_FALSE(p.suggestions.empty());
  EXPECT_EQ(p.suggestions.front().id, "suggest.python");
}

TEST(Plan, NoGpuNoDriverGetsCpuWheels) {
  Plan p = MakePlan(TheCatalog(), Spec(nullptr, {}, "3.11"));
  ASSERT_NE(p.release, nullptr);
  EXPECT_EQ(p.variant->variant.tag, "cpu");
}

TEST(Plan, PrefersFullDriverSupportThenNewestCuda) {
  // Driver 550 serves 12.4: among 2.5.1's cu118/cu121/cu124 the newest, cu124, runs fully.
  MachineSpec s = Spec("550.54.14", {"8.6"}, nullptr);
  s.torch = SpecifierSet::Parse("==2.5.1").value();
  Plan p = MakePlan(TheCatalog(), s);
  ASSERT_NE(p.release, nullptr);
  EXPECT_EQ(p.variant->variant.tag, "cu124");
  EXPECT_EQ(p.driver_fit, DriverFit::kFull);
  EXPECT_EQ(p.commands.pip, "pip install torch==2.5.1 torchvision==0.20.1 torchaudio==2.5.1");
}

TEST(Plan, EveryGpuMustBeServed) {
  // A GTX 1080 Ti next to an RTX 5090: lists with sm_60 end before sm_120 is added, so no
  // single variant carries code for both, and the plan says so.
  Plan both = MakePlan(TheCatalog(), Spec("580.65.06", {"6.1", "12.0"}, nullptr));
  EXPECT_EQ(both.release, nullptr);
  EXPECT_TRUE(EveryRejectionHas(both, "reject.no_kernels", "reject.arch_unknown"));
  EXPECT_NE(MakePlan(TheCatalog(), Spec("580.65.06", {"6.1"}, nullptr)).release, nullptr);
  EXPECT_NE(MakePlan(TheCatalog(), Spec("580.65.06", {"12.0"}, nullptr)).release, nullptr);
}

TEST(Plan, PyPiMirrorCannotServeANonDefaultVariant) {
  MachineSpec s = Spec("470.82.01", {"8.6"}, "3.10");
  s.mirror = FindMirror(TheCatalog(), "tuna");
  Plan p = MakePlan(TheCatalog(), s);
  ASSERT_NE(p.release, nullptr);
  EXPECT_TRUE(p.commands.mirror_cannot_serve);
  EXPECT_TRUE(HasCaveat(p, "caveat.mirror_cannot_serve"));
  EXPECT_NE(p.commands.pip.find("download.pytorch.org/whl/cu118"), std::string::npos);
}

TEST(Plan, PyPiMirrorServesTheDefaultVariant) {
  MachineSpec s = Spec("550.54.14", {"8.6"}, nullptr);
  s.torch = SpecifierSet::Parse("==2.5.1").value();
  s.mirror = FindMirror(TheCatalog(), "tuna");
  Plan p = MakePlan(TheCatalog(), s);
  ASSERT_NE(p.release, nullptr);
  EXPECT_FALSE(p.commands.mirror_cannot_serve);
  EXPECT_NE(p.commands.pip.find("-i https://pypi.tuna.tsinghua.edu.cn/simple"), std::string::npos);
}

bool HasSuggestion(const Plan& p, const std::string& id) {
  for (const Reason& r : p.suggestions) {
    if (r.id == id) return true;
  }
  return false;
}

std::string Arg(const Reason& r, const std::string& key) {
  for (const auto& [k, v] : r.args) {
    if (k == key) return v.value_or("");
  }
  return "";
}

TEST(DriverWindow, BlackwellNeedsBranch570AndPascalEndsAt580) {
  MachineSpec blackwell = Spec("565.57.01", {"12.0"}, nullptr);
  std::vector<Reason> r = CheckDriverWindow(TheCatalog(), blackwell);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].id, "reject.driver_below_arch");
  EXPECT_EQ(Arg(r[0], "branch"), "570");
  std::vector<Reason> pascal = CheckDriverWindow(TheCatalog(), Spec("590.44.01", {"6.1"}, nullptr));
  ASSERT_EQ(pascal.size(), 1u);
  EXPECT_EQ(pascal[0].id, "reject.driver_past_arch");
  EXPECT_EQ(Arg(pascal[0], "branch"), "580");
  EXPECT_TRUE(CheckDriverWindow(TheCatalog(), Spec("580.95.05", {"6.1", "12.0"}, nullptr)).empty());
  EXPECT_TRUE(CheckDriverWindow(TheCatalog(), Spec(nullptr, {"3.7"}, nullptr)).empty());  // no driver: nothing to say
}

TEST(Plan, ARejectionListsEveryFailingConstraint) {
  // Pascal on 590 with cu130: the driver cannot drive the GPU and the wheel has no sm_61.
  MachineSpec s = Spec("590.44.01", {"6.1"}, "3.12");
  s.torch = SpecifierSet::Parse("==2.9.0").value();
  s.variant = VariantOrNone("cu130");
  Plan p = MakePlan(TheCatalog(), s);
  ASSERT_EQ(p.release, nullptr);
  ASSERT_EQ(p.rejected.size(), 1u);
  EXPECT_TRUE(HasReason(p.rejected[0], "reject.driver_past_arch"));
  EXPECT_TRUE(HasReason(p.rejected[0], "reject.no_kernels"));
  EXPECT_EQ(p.rejected[0].line, "2.9");
}

TEST(Plan, TorchWithALocalTagPicksThatVariant) {
  MachineSpec s = Spec(nullptr, {"8.6"}, nullptr);
  s.torch = SpecifierSet::Parse("==2.5.1").value();
  s.variant = VariantOrNone("cu121");
  Plan p = MakePlan(TheCatalog(), s);
  ASSERT_NE(p.release, nullptr);
  EXPECT_EQ(p.variant->variant.tag, "cu121");
  EXPECT_NE(p.commands.pip.find("whl/cu121"), std::string::npos);
}

TEST(Suggest, DriverUpgradeIsTheLowestThatMakesAPlan) {
  Plan p = MakePlan(TheCatalog(), Spec("535.104.05", {"12.0"}, nullptr));
  ASSERT_EQ(p.release, nullptr);
  ASSERT_TRUE(HasSuggestion(p, "suggest.driver_upgrade"));
  for (const Reason& r : p.suggestions) {
    if (r.id != "suggest.driver_upgrade") continue;
    EXPECT_EQ(Arg(r, "branch"), "570");
    MachineSpec fixed = Spec(Arg(r, "driver").c_str(), {"12.0"}, nullptr);
    EXPECT_NE(MakePlan(TheCatalog(), fixed).release, nullptr);
  }
}

TEST(Suggest, LegacyGpuGetsTheLastDriverBranchThatDrivesIt) {
  Plan p = MakePlan(TheCatalog(), Spec("580.95.05", {"3.7"}, nullptr));
  ASSERT_EQ(p.release, nullptr);
  bool seen = false;
  for (const Reason& r : p.suggestions) {
    if (r.id != "suggest.driver_downgrade") continue;
    seen = true;
    EXPECT_EQ(Arg(r, "branch"), "470");
  }
  EXPECT_TRUE(seen);
  EXPECT_TRUE(HasSuggestion(p, "suggest.last_release_for_gpu"));
}

TEST(Suggest, MixedGpusNameTheBlockerAndTheDevicesToKeep) {
  Plan p = MakePlan(TheCatalog(), Spec("580.65.06", {"6.1", "12.0"}, nullptr));
  ASSERT_EQ(p.release, nullptr);
  std::vector<std::string> visible;
  for (const Reason& r : p.suggestions) {
    if (r.id == "suggest.leave_out_gpu") visible.push_back(Arg(r, "visible"));
  }
  EXPECT_EQ(visible, (std::vector<std::string>{"1", "0"}));
}

TEST(Suggest, AGpuNewerThanEveryWheelGetsASourceBuild) {
  // sm_110 (Jetson Thor): no linux-x86_64 wheel carries SASS or usable PTX for it.
  Plan p = MakePlan(TheCatalog(), Spec(nullptr, {"11.0"}, nullptr));
  ASSERT_EQ(p.release, nullptr);
  bool seen = false;
  for (const Reason& r : p.suggestions) {
    if (r.id != "suggest.source_build") continue;
    seen = true;
    EXPECT_EQ(Arg(r, "arch_list"), "11.0");
  }
  EXPECT_TRUE(seen);
}

TEST(Rejections, GroupedByReleaseLineAndCauseWithSharedCausesApart) {
  Plan p = MakePlan(TheCatalog(), Spec("535.104.05", {"12.0"}, nullptr));
  RejectionSummary g = GroupRejections(p.rejected);
  ASSERT_FALSE(g.shared.empty());
  EXPECT_EQ(g.shared[0].id, "reject.driver_below_arch");
  EXPECT_LT(g.groups.size(), p.rejected.size());
  size_t members = 0;
  for (const RejectionGroup& x : g.groups) {
    members += x.members.size();
    for (const Rejection* r : x.members) EXPECT_EQ(r->line, x.line);
    for (const Reason* r : x.reasons) EXPECT_NE(r->id, "reject.driver_below_arch");
  }
  EXPECT_EQ(members, p.rejected.size());
}

}  // namespace
}  // namespace cudamatch
