// `plan --print FIELD`: one value of a plan on one line, for scripts, on real situations.
#include "report/plan_print.h"

#include <gtest/gtest.h>

#include "core/clock.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TheCatalog;

MachineSpec Spec(const char* driver, std::vector<const char*> ccs, const char* python, Os os = Os::kLinux) {
  MachineSpec s;
  if (driver) s.driver = DriverVersion::Parse(driver).value();
  for (const char* cc : ccs) s.gpus.push_back(ComputeCapability::Parse(cc).value());
  s.has_nvidia_gpu = !ccs.empty();
  if (python) s.python = PyVersion::Parse(python).value();
  s.platform.os = os;
  return s;
}

struct Printed {
  Plan plan;
  MachineSpec spec;
  FieldValue Of(PlanField f) const { return PlanFieldValue(TheCatalog(), plan, spec, f); }
  std::string Line(PlanField f) const {
    FieldValue v = Of(f);
    EXPECT_TRUE(v.line.has_value()) << v.why_id;
    return v.line.value_or("");
  }
};

Printed For(MachineSpec spec) { return Printed{MakePlan(TheCatalog(), spec), spec}; }

TEST(PlanPrint, EveryFieldHasOneNameAndHelp) {
  for (const PlanFieldInfo& f : PlanFields()) {
    EXPECT_EQ(FindPlanField(f.name), f.field) << f.name;
    EXPECT_FALSE(f.help.empty()) << f.name;
  }
  EXPECT_FALSE(FindPlanField("index_url").has_value());
}

// Driver 470 with an RTX 3090: cu118 through minor-version compatibility (plan_test.cc), from
// the cu118 index, which pip-args names after the pins.
TEST(PlanPrint, PipArgsArePinsThenTheIndexOfTheVariant) {
  Printed p = For(Spec("470.82.01", {"8.6"}, "3.10"));
  ASSERT_NE(p.plan.variant, nullptr);
  std::string args = p.Line(PlanField::kPipArgs);
  EXPECT_TRUE(args.rfind("torch==" + p.plan.release->torch.Public() + " ", 0) == 0) << args;
  EXPECT_NE(args.find(" --index-url https://download.pytorch.org/whl/cu118"), std::string::npos) << args;
  EXPECT_EQ(args.find('\''), std::string::npos);
  EXPECT_EQ(p.Line(PlanField::kIndexUrl), "https://download.pytorch.org/whl/cu118");
  EXPECT_EQ(p.Line(PlanField::kVariant), "cu118");
  EXPECT_EQ(p.Line(PlanField::kTorchBackend), "cu118");
  EXPECT_EQ(p.Line(PlanField::kCuda), "11.8");
  EXPECT_EQ(p.Line(PlanField::kDriverCuda), "11.4");  // R470 serves CUDA 11.4
}

// A machine without a GPU: the CPU build; it has no CUDA, and uv's backend is "cpu".
TEST(PlanPrint, CpuPlanHasNoCudaButABackend) {
  Printed p = For(Spec(nullptr, {}, "3.11"));
  ASSERT_NE(p.plan.variant, nullptr);
  EXPECT_EQ(p.Line(PlanField::kVariant), "cpu");
  EXPECT_EQ(p.Line(PlanField::kTorchBackend), "cpu");
  FieldValue cuda = p.Of(PlanField::kCuda);
  EXPECT_FALSE(cuda.line.has_value());
  EXPECT_EQ(cuda.why_id, "plan.print.no_cuda");
  EXPECT_EQ(p.Of(PlanField::kDriverCuda).why_id, "plan.print.no_driver_cuda");
}

// A Fermi GPU (sm_20): no torch build has code for it, so nothing is printed for any plan field.
TEST(PlanPrint, NothingFitsPrintsNothing) {
  Printed p = For(Spec("390.138", {"2.0"}, "3.8"));
  ASSERT_EQ(p.plan.release, nullptr);
  for (PlanField f : {PlanField::kIndexUrl, PlanField::kPipArgs, PlanField::kTorchBackend, PlanField::kVariant,
                      PlanField::kCuda}) {
    FieldValue v = p.Of(f);
    EXPECT_FALSE(v.line.has_value());
    EXPECT_EQ(v.why_id, "plan.print.nothing_fits");
  }
  EXPECT_EQ(p.Line(PlanField::kDriverCuda), "9.1");  // R390 serves CUDA 9.1: a base image's CUDA still
}

// torch 1.8.1 installs from the find-links page: there is no index URL to give, only pip-args.
TEST(PlanPrint, FindLinksEraHasNoIndexUrl) {
  MachineSpec spec = Spec("470.82.01", {"8.6"}, "3.8");
  spec.torch = SpecifierSet::Parse("==1.8.1").value();
  Printed p = For(spec);
  ASSERT_NE(p.plan.release, nullptr);
  EXPECT_EQ(p.Of(PlanField::kIndexUrl).why_id, "plan.print.find_links");
  EXPECT_NE(p.Line(PlanField::kPipArgs).find("--find-links https://download.pytorch.org/whl/torch_stable.html"),
            std::string::npos);
}

// PyPI's default build (Linux, torch 2.x): plain pins from PyPI, whose index URL is printed.
TEST(PlanPrint, PypiDefaultBuildComesFromPypi) {
  MachineSpec spec = Spec("550.54.14", {"8.0"}, "3.10");
  spec.torch = SpecifierSet::Parse("==2.5.1").value();
  spec.variant = Variant::Parse("cu124").value();
  Printed p = For(spec);
  ASSERT_NE(p.plan.variant, nullptr);
  ASSERT_TRUE(p.plan.commands.FromPypi());
  EXPECT_EQ(p.Line(PlanField::kIndexUrl), "https://pypi.org/simple");
  EXPECT_EQ(p.Line(PlanField::kPipArgs).find("--index-url"), std::string::npos);
  EXPECT_EQ(p.Line(PlanField::kTorchBackend), "cu124");
}

// Install scripts that read nvidia-smi got these wrong (public threads); the plan's one line does not.

// unslothai/unsloth#7814: a Tesla V100 (sm_70) on driver 580 got cu130, whose kernels start at
// sm_75, because the installer took the driver's newest CUDA alone.
TEST(PlanPrintThreads, V100OnDriver580GetsAVariantWithItsKernels) {
  Printed p = For(Spec("580.65.06", {"7.0"}, "3.12"));
  ASSERT_NE(p.plan.variant, nullptr);
  EXPECT_NE(p.Line(PlanField::kVariant), "cu130");
  EXPECT_EQ(p.Line(PlanField::kVariant), "cu126");
}

// jolibrain/colette#64: an R610+ driver prints "CUDA UMD Version", and a CUDA newer than any
// wheel (13.3) made the script ask for cu133, which does not exist. The plan names a published one.
TEST(PlanPrintThreads, DriverNewerThanEveryWheelGetsAPublishedVariant) {
  MachineSpec spec = Spec(nullptr, {"8.9"}, "3.12");
  spec.driver_cuda = CudaVersion::Parse("13.3").value();
  Printed p = For(spec);
  ASSERT_NE(p.plan.variant, nullptr);
  std::string args = p.Line(PlanField::kPipArgs);
  EXPECT_EQ(args.find("cu133"), std::string::npos) << args;
  EXPECT_NE(args.find("--index-url https://download.pytorch.org/whl/" + p.plan.variant->variant.tag), std::string::npos);
  EXPECT_EQ(p.Line(PlanField::kDriverCuda), "13.3");
}

// Comfy-Org/comfy-cli#380: on Windows, --extra-index-url let PyPI's newer CPU-only torch win over
// the CUDA index. pip-args names the CUDA index with --index-url, so PyPI is not consulted.
TEST(PlanPrintThreads, WindowsCudaPlanUsesIndexUrlNotExtraIndexUrl) {
  MachineSpec spec = Spec(nullptr, {"8.9"}, "3.12", Os::kWindows);
  spec.driver_cuda = CudaVersion::Parse("12.4").value();
  Printed p = For(spec);
  ASSERT_NE(p.plan.variant, nullptr);
  ASSERT_TRUE(p.plan.variant->variant.is_cuda());
  std::string args = p.Line(PlanField::kPipArgs);
  EXPECT_NE(args.find(" --index-url https://download.pytorch.org/whl/cu"), std::string::npos) << args;
  EXPECT_EQ(args.find("--extra-index-url"), std::string::npos) << args;
}

// iot-salzburg/gpu-jupyter#24 (driver 390.138, an nvidia/cuda:10.1 image) and
// MauriceNino/dashdot#1226 (driver 535.247.01, an image needing cuda>=12.8): the image's CUDA
// was newer than the host driver serves; driver-cuda gives the base image's CUDA.
TEST(PlanPrintThreads, BaseImageCudaIsWhatTheHostDriverServes) {
  EXPECT_EQ(For(Spec("390.138", {}, "3.8")).Line(PlanField::kDriverCuda), "9.1");
  EXPECT_EQ(For(Spec("535.247.01", {}, "3.11")).Line(PlanField::kDriverCuda), "12.2");
}

TEST(PlanPrint, ShellWordSafety) {
  EXPECT_TRUE(IsShellWordSafe("torch==2.3.1+cu118"));
  EXPECT_TRUE(IsShellWordSafe("https://mirrors.example.org/pytorch-wheels/cu121"));
  for (const char* bad : {"", "a b", "torch>=2.0,<3", "it's", "url?x=1", "*", "[cu]", "$HOME", "a;b", "\"q\""}) {
    EXPECT_FALSE(IsShellWordSafe(bad)) << bad;
  }
}

TEST(RunClock, Rfc3339InUtc) {
  EXPECT_EQ(Rfc3339Utc(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(Rfc3339Utc(1767225600), "2026-01-01T00:00:00Z");
  EXPECT_EQ(Rfc3339Utc(951782399), "2000-02-28T23:59:59Z");
  EXPECT_EQ(Rfc3339Utc(951868800), "2000-03-01T00:00:00Z");  // 2000 is a leap year
  EXPECT_EQ(ParseEpochSeconds("1767225600").value(), 1767225600);
  EXPECT_FALSE(ParseEpochSeconds("").ok());
  EXPECT_FALSE(ParseEpochSeconds("-5").ok());
  EXPECT_FALSE(ParseEpochSeconds("2026-01-01").ok());
}

}  // namespace
}  // namespace cudamatch
