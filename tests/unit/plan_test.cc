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
  EXPECT_TRUE(EveryRejectionHas(none, "reject.no_kernels", "reject.arch_unknown"));
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

}  // namespace
}  // namespace cudamatch
