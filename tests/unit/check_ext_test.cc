// `check` with extension pins: xformers, flash-attn, bitsandbytes and vllm judged against the torch
// the pins install (what each release requires of torch, which CUDA builds have prebuilt wheels),
// and companions pinned with another CUDA variant than torch.
#include "plan/check_ext.h"

#include <gtest/gtest.h>

#include "catalog/extensions.h"
#include "report/plan_report.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TheCatalog;

bool IsExtension(std::string_view name) { return IsCatalogExtension(TheCatalog(), name); }

// A Linux machine with an RTX 3090 on a 550 driver (CUDA 12.4), Python 3.10.
MachineSpec Machine(Os os = Os::kLinux, const char* driver = "550.54.14", const char* cc = "8.6") {
  MachineSpec s;
  s.platform = Platform{os, Arch::kX86_64};
  s.driver = DriverVersion::Parse(driver).value();
  s.gpus = {ComputeCapability::Parse(cc).value()};
  s.has_nvidia_gpu = true;
  s.python = PyVersion::Parse("3.10").value();
  return s;
}

CheckResult Check(std::vector<std::string> pins, MachineSpec spec = Machine()) {
  return CheckPins(TheCatalog(), spec, ParsePinArgs(pins, IsExtension).value());
}

const Problem* Find(const CheckResult& r, std::string_view id) {
  for (const Problem& p : r.problems) {
    if (p.id == id) return &p;
  }
  return nullptr;
}

bool HasNote(const CheckResult& r, std::string_view id) {
  return std::any_of(r.notes.begin(), r.notes.end(), [&](const Reason& n) { return n.id == id; });
}

std::string Arg(const MessageArgs& args, std::string_view key) {
  for (const auto& [k, v] : args) {
    if (k == key) return v.value_or("");
  }
  return "";
}

std::string Text(const CheckResult& r) { return RenderCheck(r, TextOptions{}); }

// facebookresearch/xformers#1052: torch 2.3.1+cu121 installed, `pip install xformers==0.0.26.post1`
// replaced it with torch 2.3.0 (that release requires torch==2.3.0); xformers 0.0.27 was the
// release built for torch 2.3.1.
TEST(CheckExtensions, XformersPinnedForAnotherTorchMovesTheXformersPin) {
  CheckResult r = Check({"torch==2.3.1", "xformers==0.0.26.post1"});
  const Problem* p = Find(r, "check.ext_torch");
  ASSERT_NE(p, nullptr) << Text(r);
  EXPECT_EQ(Arg(p->args, "name"), "xformers");
  EXPECT_EQ(Arg(p->args, "need"), "==2.3.0");
  EXPECT_EQ(Arg(p->args, "torch"), "2.3.1");
  EXPECT_EQ(p->fix, "xformers==0.0.27");
  EXPECT_NE(Text(r).find("xformers 0.0.26.post1 requires torch==2.3.0, but the pins install torch 2.3.1"), std::string::npos);
  EXPECT_EQ(r.problems.size(), 1u);
}

TEST(CheckExtensions, XformersBuiltForThePinnedTorchPasses) {
  CheckResult r = Check({"torch==2.3.0", "xformers==0.0.26.post1"});
  EXPECT_TRUE(r.ok()) << Text(r);
  EXPECT_TRUE(HasNote(r, "check.ext_fits"));
  ASSERT_EQ(r.extensions.size(), 1u);
  EXPECT_TRUE(r.extensions[0].in_catalog);
  EXPECT_EQ(r.extensions[0].torch, "==2.3.0");
  EXPECT_EQ(r.extensions[0].wheel, "pypi");
  Json j = CheckJson(r);
  EXPECT_EQ(j["extensions"][0]["name"], "xformers");
  EXPECT_EQ(j["extensions"][0]["torch"], "==2.3.0");
}

// facebookresearch/xformers#1146: torch 2.4.1, `pip install -U xformers` (then 0.0.28.post3, built
// for torch 2.5.1) uninstalled it; the maintainers pointed at xformers 0.0.28 for torch 2.4.1.
TEST(CheckExtensions, NewestXformersOnAnOlderTorchGetsTheNearestReleaseForIt) {
  CheckResult r = Check({"torch==2.4.1", "xformers==0.0.28.post3"});
  const Problem* p = Find(r, "check.ext_torch");
  ASSERT_NE(p, nullptr) << Text(r);
  EXPECT_EQ(Arg(p->args, "need"), "==2.5.1");
  EXPECT_EQ(p->fix, "xformers==0.0.28.post1");
}

// Akegarasu/lora-scripts#377: xformers 0.0.23 was pinned beside torch 2.2.1; the fix noted that
// xformers 0.0.23 goes with torch 2.1.1 (no prebuilt xformers for 2.2.1 then) and pinned torch
// 2.1.1, adding the PyTorch cu118 index for the cu118 build. v0.0.23's wheels.yml builds for torch
// 2.1.1 with CUDA 11.8 and 12.1.
TEST(CheckExtensions, Xformers0023PinnedBesideTorch221NamesTorch211) {
  CheckResult r = Check({"torch==2.2.1", "xformers==0.0.23"});
  const Problem* p = Find(r, "check.ext_torch");
  ASSERT_NE(p, nullptr) << Text(r);
  EXPECT_EQ(Arg(p->args, "need"), "==2.1.1");
  EXPECT_EQ(Arg(p->args, "torch"), "2.2.1");
  EXPECT_EQ(p->fix, "xformers==0.0.25");

  CheckResult fixed = Check({"torch==2.1.1+cu118", "xformers==0.0.23"});
  EXPECT_TRUE(fixed.ok()) << Text(fixed);
  ASSERT_EQ(fixed.extensions.size(), 1u);
  EXPECT_TRUE(fixed.extensions[0].in_catalog);
  EXPECT_EQ(fixed.extensions[0].torch, "==2.1.1");
  EXPECT_EQ(fixed.extensions[0].wheel, "pytorch-index");
}

// vllm-project/vllm#12719: vllm pinned torch==2.5.1 while the user wanted torch 2.6; the release
// that moved to torch 2.6.0 was vllm 0.8.0. With torch 2.5.1 pinned beside vllm 0.8.0 no vllm
// release in the catalog accepts that torch, so the torch pin is what moves.
TEST(CheckExtensions, VllmPinnedToOneTorchMovesTheTorchPin) {
  CheckResult r = Check({"torch==2.5.1", "vllm==0.8.0"});
  const Problem* p = Find(r, "check.ext_torch_moves");
  ASSERT_NE(p, nullptr) << Text(r);
  EXPECT_EQ(Arg(p->args, "moved"), "2.6.0");
  EXPECT_EQ(p->fix, "torch==2.6.0");
  EXPECT_NE(Text(r).find("move the torch pin to 2.6.0"), std::string::npos);
}

TEST(CheckExtensions, ReleaseWithoutCataloguedWheelsIsAGapNotAProblem) {
  CheckResult r = Check({"torch==2.6.0", "vllm==0.8.0"});
  EXPECT_EQ(Find(r, "check.ext_torch"), nullptr);
  EXPECT_EQ(Find(r, "check.ext_no_platform"), nullptr);
  EXPECT_TRUE(HasNote(r, "check.ext_wheels_unknown")) << Text(r);
}

// hiyouga/EasyR1#27: "vllm 0.7.3 requires torch==2.5.1, but you have torch 2.4.0+cu124". The
// catalog does not list vllm 0.7.3: check says so and judges nothing of it.
TEST(CheckExtensions, ReleaseOutsideTheCatalogIsSaidSoNeverCalledMissing) {
  CheckResult r = Check({"torch==2.4.0", "vllm==0.7.3"});
  EXPECT_TRUE(HasNote(r, "check.ext_not_in_catalog"));
  EXPECT_TRUE(r.ok()) << Text(r);
  ASSERT_EQ(r.extensions.size(), 1u);
  EXPECT_FALSE(r.extensions[0].in_catalog);
  std::string text = Text(r);
  EXPECT_NE(text.find("vllm 0.7.3 is not in the catalog"), std::string::npos) << text;
  EXPECT_EQ(text.find("does not exist"), std::string::npos) << text;
}

// bitsandbytes-foundation/bitsandbytes#1510: on Windows with a CUDA 12.8 torch (RTX 50 series),
// "libbitsandbytes_cuda128.dll does not exist"; the maintainers' answer was v0.45.3, the first
// release with CUDA 12.8 builds.
TEST(CheckExtensions, BitsandbytesWithoutTheTorchCudaMinorNamesWhatExistsAndTheNearestRelease) {
  CheckResult r = Check({"torch==2.7.1+cu128", "bitsandbytes==0.45.2"}, Machine(Os::kWindows, "572.16", "12.0"));
  const Problem* p = Find(r, "check.ext_no_wheel");
  ASSERT_NE(p, nullptr) << Text(r);
  EXPECT_EQ(Arg(p->args, "cuda"), "12.8");
  EXPECT_EQ(Arg(p->args, "platform"), "windows-x86_64");
  EXPECT_EQ(Arg(p->args, "list"), "11.7, 11.8, 12.0, 12.1, 12.2, 12.3, 12.4, 12.5, 12.6");
  EXPECT_EQ(p->fix, "bitsandbytes==0.45.3");
}

// Dao-AILab/flash-attention#2299: no official flash-attn wheel for torch 2.10 (2.8.3's are built
// for torch 2.4 to 2.8); users built their own.
TEST(CheckExtensions, FlashAttnWithoutAWheelForTheTorchLineSaysWhichLinesItHas) {
  CheckResult r = Check({"torch==2.10.0", "flash-attn==2.8.3"}, Machine(Os::kLinux, "580.65.06", "8.9"));
  const Problem* p = Find(r, "check.ext_no_wheel_torch");
  ASSERT_NE(p, nullptr) << Text(r);
  EXPECT_EQ(Arg(p->args, "lines"), "2.4, 2.5, 2.6, 2.7, 2.8");
  EXPECT_EQ(Arg(p->args, "list"), "12.x");
  EXPECT_EQ(p->fix, "");  // no release in the catalog has one
}

TEST(CheckExtensions, FlashAttnOnWindowsHasNoPrebuiltWheel) {
  CheckResult r = Check({"torch==2.5.1+cu124", "flash-attn==2.7.4"}, Machine(Os::kWindows));
  const Problem* p = Find(r, "check.ext_no_platform");
  ASSERT_NE(p, nullptr) << Text(r);
  EXPECT_EQ(Arg(p->args, "platform"), "windows-x86_64");
}

TEST(CheckExtensions, WithoutATorchPinTheExtensionDecidesTheTorch) {
  CheckResult r = Check({"xformers==0.0.26.post1"});
  EXPECT_TRUE(HasNote(r, "check.ext_pulls")) << Text(r);
  ASSERT_NE(r.release, nullptr);
  EXPECT_EQ(r.release->torch.Public(), "2.3.0");
  EXPECT_TRUE(r.ok()) << Text(r);
}

TEST(CheckExtensions, WithoutATorchPinOnWindowsPypiGivesTheCpuBuild) {
  CheckResult r = Check({"xformers==0.0.26.post1"}, Machine(Os::kWindows));
  EXPECT_TRUE(HasNote(r, "check.ext_pulls_cpu")) << Text(r);
  EXPECT_NE(Find(r, "check.cpu_on_gpu"), nullptr) << Text(r);
  EXPECT_NE(Text(r).find("from PyPI on windows-x86_64 that is the CPU-only build"), std::string::npos);
}

TEST(CheckExtensions, TorchaudioOfAnotherCudaVariantThanTorch) {
  CheckResult r = Check({"torch==2.6.0+cu126", "torchaudio==2.6.0+cu124"});
  const Problem* p = Find(r, "check.companion_label");
  ASSERT_NE(p, nullptr) << Text(r);
  EXPECT_EQ(Arg(p->args, "name"), "torchaudio");
  EXPECT_EQ(Arg(p->args, "torch"), "cu126");
  EXPECT_EQ(Arg(p->args, "other"), "cu124");
  EXPECT_TRUE(p->fix.starts_with("torchaudio==2.6.0")) << p->fix;
}

TEST(CheckExtensions, RequirementsFileExtensionLinesGetTheSameJudgement) {
  PinSet pins = ParseRequirements("requirements.txt",
                                  "torch==2.3.1\nxformers==0.0.26.post1 ; sys_platform == \"linux\"\nnumpy<2\n", nullptr,
                                  IsExtension);
  ASSERT_EQ(pins.pins.size(), 2u);
  EXPECT_EQ(pins.pins[1].line, 2);
  CheckResult r = CheckPins(TheCatalog(), Machine(), pins);
  const Problem* p = Find(r, "check.ext_torch");
  ASSERT_NE(p, nullptr) << Text(r);
  EXPECT_EQ(p->fix, "xformers==0.0.27");
}

TEST(CheckExtensions, OnlyTheCatalogsExtensionsArePins) {
  EXPECT_FALSE(ParsePinArgs({"xformers==0.0.27"}).ok());
  EXPECT_TRUE(ParsePinArgs({"xformers==0.0.27"}, IsExtension).ok());
  auto numpy = ParsePinArgs({"numpy==1.26.4"}, IsExtension);
  ASSERT_FALSE(numpy.ok());
  EXPECT_NE(numpy.error().find("extensions the catalog lists"), std::string::npos);
  EXPECT_EQ(ParseRequirements("r.txt", "flash_attn==2.8.3\n", nullptr, IsExtension).pins.at(0).name, "flash-attn");
}

}  // namespace
}  // namespace cudamatch
