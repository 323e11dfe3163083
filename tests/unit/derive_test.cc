// The derive step: observations in, derived values out, each marked with where it came from.
#include "derive/derive.h"

#include <gtest/gtest.h>

#include <set>

#include "probe/snapshot.h"
#include "test_util.h"

namespace cudamatch {
namespace {

using testing::TheCatalog;

Snapshot WithDriver(const std::string& user_space, Os os = Os::kLinux) {
  Snapshot s;
  s.platform.os = os;
  s.driver.userspace_version = DriverVersion::Parse(user_space).value();
  s.driver.userspace_source = "/usr/lib/x86_64-linux-gnu/libcuda.so.1 -> libcuda.so." + user_space;
  s.trail.push_back(Evidence{"driver", "/usr/lib/x86_64-linux-gnu/libcuda.so.1", Evidence::Outcome::kFound, user_space});
  s.trail.push_back(Evidence{"gpus", "/proc/driver/nvidia/gpus", Evidence::Outcome::kMissing, ""});
  return s;
}

TEST(DeriveDriver, CudaComesFromTheBranchTableWhenNoLibrarySaidIt) {
  Snapshot s = WithDriver("550.54.14");
  Derive(TheCatalog(), s);
  ASSERT_TRUE(s.driver.cuda);
  EXPECT_EQ(s.driver.cuda->MajorMinor(), "12.4");
  EXPECT_EQ(s.driver.cuda_origin, Origin::kDriverBranchTable);
  EXPECT_EQ(s.driver.cuda_source, "catalog: driver branch 550");
  // Its evidence follows the driver probe's, before the GPU probe's.
  ASSERT_EQ(s.trail.size(), 3u);
  EXPECT_EQ(s.trail[1].probe, "driver");
  EXPECT_EQ(s.trail[1].source, "catalog:driver_branches.tsv");
  EXPECT_EQ(s.trail[2].probe, "gpus");
}

TEST(DeriveDriver, ObservedCudaIsKept) {
  Snapshot s = WithDriver("550.54.14");
  s.driver.cuda = CudaVersion{12, 3, std::nullopt};
  s.driver.cuda_source = "libcuda cuDriverGetVersion";
  s.driver.cuda_origin = Origin::kObserved;
  Derive(TheCatalog(), s);
  EXPECT_EQ(s.driver.cuda->MajorMinor(), "12.3");
  EXPECT_EQ(s.driver.cuda_origin, Origin::kObserved);
  EXPECT_EQ(s.trail.size(), 2u);
}

TEST(DeriveDriver, WindowsDriverNumbersMapToTheirBranch) {
  Snapshot s = WithDriver("566.36", Os::kWindows);
  Derive(TheCatalog(), s);
  ASSERT_TRUE(s.driver.cuda);
  EXPECT_EQ(s.driver.cuda->MajorMinor(), "12.7");
  EXPECT_EQ(s.driver.cuda_origin, Origin::kDriverBranchTable);
  EXPECT_EQ(s.driver.cuda_source, "catalog: driver branch 565");
}

TEST(DeriveDriver, NoDriverVersionDerivesNothing) {
  Snapshot s;
  Derive(TheCatalog(), s);
  EXPECT_FALSE(s.driver.cuda);
  EXPECT_EQ(s.driver.cuda_origin, Origin::kNone);
}

TEST(DeriveGpus, GpuSeenOnlyByPciIdIsNamedAndIdentified) {
  Snapshot s;
  GpuInfo g;
  g.pci_bus_id = "0000:01:00.0";
  g.pci_device_id = 0x2684;
  g.source = "/sys/bus/pci/devices/0000:01:00.0";
  s.gpus.push_back(g);
  Derive(TheCatalog(), s);
  const GpuInfo& d = s.gpus[0];
  EXPECT_EQ(d.name, "GeForce RTX 4090");
  EXPECT_EQ(d.name_origin, Origin::kGpuByPciId);
  ASSERT_TRUE(d.cc);
  EXPECT_EQ(d.cc->ToString(), "8.9");
  EXPECT_EQ(d.cc_origin, Origin::kGpuByPciId);
  EXPECT_EQ(d.cc_source, "catalog: GeForce RTX 4090");
  EXPECT_EQ(d.architecture, "Ada Lovelace");
  EXPECT_EQ(d.architecture_origin, Origin::kArchitectureTable);
}

TEST(DeriveGpus, NamedGpuIsIdentifiedByName) {
  Snapshot s;
  GpuInfo g;
  g.name = "NVIDIA A100-SXM4-80GB";
  g.name_origin = Origin::kObserved;
  s.gpus.push_back(g);
  Derive(TheCatalog(), s);
  EXPECT_EQ(s.gpus[0].name_origin, Origin::kObserved);
  ASSERT_TRUE(s.gpus[0].cc);
  EXPECT_EQ(s.gpus[0].cc->ToString(), "8.0");
  EXPECT_EQ(s.gpus[0].cc_origin, Origin::kGpuByName);
  EXPECT_EQ(s.gpus[0].architecture, "Ampere");
}

TEST(DeriveGpus, ObservedComputeCapabilityOfNoKnownArchitectureIsReplaced) {
  Snapshot s;
  GpuInfo g;
  g.name = "NVIDIA GeForce RTX 4090";
  g.cc = ComputeCapability{42, 7, 0};
  g.cc_source = "NVML";
  g.cc_origin = Origin::kObserved;
  s.gpus.push_back(g);
  s.trail.push_back(Evidence{"gpus", "nvml:nvmlDeviceGetCount_v2", Evidence::Outcome::kFound, "1 GPUs"});
  Derive(TheCatalog(), s);
  ASSERT_EQ(s.implausible.size(), 1u);
  EXPECT_EQ(s.implausible[0].value, "42.7");
  EXPECT_EQ(s.gpus[0].cc->ToString(), "8.9");
  EXPECT_EQ(s.gpus[0].cc_origin, Origin::kGpuByName);
  ASSERT_EQ(s.trail.size(), 2u);
  EXPECT_EQ(s.trail[1].outcome, Evidence::Outcome::kError);
}

TEST(DeriveGpus, ObservedComputeCapabilityIsKept) {
  Snapshot s;
  GpuInfo g;
  g.name = "NVIDIA A100-SXM4-80GB";
  g.cc = ComputeCapability{8, 0, 0};
  g.cc_source = "NVML";
  g.cc_origin = Origin::kObserved;
  s.gpus.push_back(g);
  Derive(TheCatalog(), s);
  EXPECT_EQ(s.gpus[0].cc_origin, Origin::kObserved);
  EXPECT_EQ(s.gpus[0].cc_source, "NVML");
  EXPECT_TRUE(s.implausible.empty());
}

PackageInfo Torch(const char* version) {
  PackageInfo p;
  p.name = "torch";
  p.version = Pep440::Parse(version).value();
  return p;
}

TEST(DeriveVariant, FromTheLocalLabel) {
  PackageInfo p = Torch("2.4.1+cu121");
  DerivedVariant v = VariantOf(p);
  ASSERT_TRUE(v.variant);
  EXPECT_EQ(v.variant->tag, "cu121");
  EXPECT_EQ(v.variant->kind, Variant::Kind::kCuda);
  EXPECT_EQ(v.origin, Origin::kLocalLabel);
}

TEST(DeriveVariant, FromTheNvidiaRuntimeRequirementWhenTheVersionHasNoLabel) {
  PackageInfo p = Torch("2.4.0");
  p.nvidia_requirements = {"nvidia-cuda-runtime-cu12==12.1.105"};
  p.cuda = CudaVersion{12, 1, std::nullopt};
  p.cuda_source = "Requires-Dist nvidia-cuda-runtime-cu12==12.1.105";
  p.cuda_origin = Origin::kNvidiaRequirement;
  DerivedVariant v = VariantOf(p);
  ASSERT_TRUE(v.variant);
  EXPECT_EQ(v.variant->tag, "cu121");
  EXPECT_EQ(v.origin, Origin::kBuildCuda);
}

TEST(DeriveVariant, FromHipAndFromCudaNone) {
  PackageInfo rocm = Torch("2.5.1");
  rocm.hip = "6.2.41133-dd7f95766";
  DerivedVariant r = VariantOf(rocm);
  ASSERT_TRUE(r.variant);
  EXPECT_EQ(r.variant->tag, "rocm6.2");
  EXPECT_EQ(r.origin, Origin::kHipVersion);
  PackageInfo odd = Torch("2.5.1");
  odd.hip = "unknown";
  EXPECT_EQ(VariantOf(odd).variant->tag, "rocm");
  PackageInfo cpu = Torch("2.3.1");
  cpu.cuda_none = true;
  DerivedVariant c = VariantOf(cpu);
  ASSERT_TRUE(c.variant);
  EXPECT_EQ(c.variant->kind, Variant::Kind::kCpu);
  EXPECT_EQ(c.origin, Origin::kNoCuda);
}

TEST(DeriveVariant, NothingKnownIsNullopt) {
  DerivedVariant v = VariantOf(Torch("2.4.0"));
  EXPECT_FALSE(v.variant);
  EXPECT_EQ(v.origin, Origin::kNone);
}

TEST(DeriveVariant, EveryPackageOfEveryEnvironmentIsDerived) {
  Snapshot s;
  PythonEnv env;
  env.packages["torch"] = Torch("2.4.1+cu121");
  env.packages["torchvision"] = Torch("0.19.1+cpu");
  s.pythons.push_back(env);
  Derive(TheCatalog(), s);
  EXPECT_EQ(VariantTag(s.pythons[0].packages.at("torch")), "cu121");
  EXPECT_TRUE(IsCpuBuild(s.pythons[0].packages.at("torchvision")));
  EXPECT_EQ(s.pythons[0].packages.at("torchvision").variant_origin, Origin::kLocalLabel);
}

TEST(DeriveOrigin, EveryOriginHasItsOwnName) {
  std::set<std::string_view> names;
  for (int i = 0; i <= static_cast<int>(Origin::kNoCuda); ++i) names.insert(OriginName(static_cast<Origin>(i)));
  EXPECT_EQ(names.size(), static_cast<size_t>(Origin::kNoCuda) + 1);
}

}  // namespace
}  // namespace cudamatch
