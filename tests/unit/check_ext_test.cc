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
// that moved to torch 2.6.0 was vllm 0.8.0. With torch 2.5.1 pinned beside vllm 0.8.0, vllm 0.7.3
// (torch==2.5.1) is the nearest release that keeps the torch pin; with torch 2.0.0 no vllm release
// with a catalogued wheel accepts that torch, so the torch pin is what moves.
TEST(CheckExtensions, VllmPinnedToOneTorchMovesTheVllmPinElseTheTorchPin) {
  CheckResult r = Check({"torch==2.5.1", "vllm==0.8.0"});
  const Problem* p = Find(r, "check.ext_torch");
  ASSERT_NE(p, nullptr) << Text(r);
  EXPECT_EQ(Arg(p->args, "alt"), "0.7.3");
  EXPECT_EQ(p->fix, "vllm==0.7.3");

  CheckResult old = Check({"torch==2.0.0", "vllm==0.8.0"});
  const Problem* moves = Find(old, "check.ext_torch_moves");
  ASSERT_NE(moves, nullptr) << Text(old);
  EXPECT_EQ(Arg(moves->args, "moved"), "2.6.0");
  EXPECT_EQ(moves->fix, "torch==2.6.0");
  EXPECT_NE(Text(old).find("move the torch pin to 2.6.0"), std::string::npos);
}

// vllm 0.2.0's pin is known (torch>=2.0.0, its version-bump commit) but not which torch its wheel
// was built against, so the catalog lists no wheel of it: a gap, not a problem.
TEST(CheckExtensions, ReleaseWithoutCataloguedWheelsIsAGapNotAProblem) {
  CheckResult r = Check({"torch==2.0.1", "vllm==0.2.0"});
  EXPECT_EQ(Find(r, "check.ext_torch"), nullptr);
  EXPECT_EQ(Find(r, "check.ext_no_platform"), nullptr);
  EXPECT_TRUE(HasNote(r, "check.ext_wheels_unknown")) << Text(r);
}

// A release the catalog leaves out (vllm 0.4.1: its torch pin changed within the release's range
// of commits) is said to be unknown and judged on nothing.
TEST(CheckExtensions, ReleaseOutsideTheCatalogIsSaidSoNeverCalledMissing) {
  CheckResult r = Check({"torch==2.4.0", "vllm==0.4.1"});
  EXPECT_TRUE(HasNote(r, "check.ext_not_in_catalog"));
  EXPECT_TRUE(r.ok()) << Text(r);
  ASSERT_EQ(r.extensions.size(), 1u);
  EXPECT_FALSE(r.extensions[0].in_catalog);
  std::string text = Text(r);
  EXPECT_NE(text.find("vllm 0.4.1 is not in the catalog"), std::string::npos) << text;
  EXPECT_EQ(text.find("does not exist"), std::string::npos) << text;
  // Nothing against the pins is no confirmed fit: the release left unchecked is named instead.
  EXPECT_EQ(r.unchecked, std::vector<std::string>{"vllm 0.4.1"});
  EXPECT_EQ(text.find("Pins are consistent"), std::string::npos) << text;
  EXPECT_NE(text.find("vllm 0.4.1 could not be checked"), std::string::npos) << text;
  EXPECT_TRUE(Check({"torch==2.4.0", "vllm==0.6.3.post1"}).unchecked.empty());
}

// Dao-AILab/flash-attention#784: NGC pytorch 23.12 (torch 2.2.0a0+81ea7a4, a build of its own);
// `pip install flash-attn --no-build-isolation` fetched the wheel for torch 2.2 and failed with
// "undefined symbol"; the maintainer: no prebuilt wheel can match that torch, build from source.
// check says so, with the build that compiles (FLASH_ATTENTION_FORCE_BUILD=TRUE: otherwise
// flash-attn's setup.py downloads the same wheel), not "Pins are consistent".
TEST(CheckExtensions, BesideAnUnpublishedTorchAPrebuiltExtensionIsBuiltFromSource) {
  CheckResult r = Check({"torch==2.2.0a0+81ea7a4", "flash-attn==2.6.3"});
  EXPECT_FALSE(r.ok());
  const Problem* p = Find(r, "check.ext_unpublished_torch");
  ASSERT_NE(p, nullptr) << Text(r);
  EXPECT_EQ(Arg(p->args, "torch"), "2.2.0a0+81ea7a4");
  EXPECT_EQ(p->fix, "FLASH_ATTENTION_FORCE_BUILD=TRUE pip install --no-build-isolation --no-binary flash-attn \"flash-attn==2.6.3\"");
  // On a probed machine, its interpreter's pip.
  MachineSpec probed = Machine();
  probed.interpreter = "/usr/bin/python";
  CheckResult on_probed = Check({"torch==2.2.0a0+81ea7a4", "flash-attn==2.6.3"}, probed);
  p = Find(on_probed, "check.ext_unpublished_torch");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->fix.find("FLASH_ATTENTION_FORCE_BUILD=TRUE /usr/bin/python -m pip install --no-build-isolation"), 0u) << p->fix;
  // A release the catalog does not list: neither torch nor it was checked, and the text says so.
  r = Check({"torch==2.2.0a0+81ea7a4", "flash-attn==2.5.0"});
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.unchecked, (std::vector<std::string>{"torch 2.2.0a0+81ea7a4", "flash-attn 2.5.0"}));
  std::string text = Text(r);
  EXPECT_EQ(text.find("Pins are consistent"), std::string::npos) << text;
  EXPECT_NE(text.find("torch 2.2.0a0+81ea7a4, flash-attn 2.5.0 could not be checked"), std::string::npos) << text;
  // A release pinned to another torch: no other release of it has a wheel built against this
  // torch either, so the torch pin moves (never "vllm 0.2.0 accepts torch 2.2.0a0").
  r = Check({"torch==2.2.0a0+81ea7a4", "vllm==0.4.0"});
  EXPECT_EQ(Find(r, "check.ext_torch"), nullptr) << Text(r);
  p = Find(r, "check.ext_torch_moves");
  ASSERT_NE(p, nullptr) << Text(r);
  EXPECT_EQ(p->fix, "torch==2.1.2");
}

// hiyouga/EasyR1#27: "vllm 0.7.3 requires torch==2.5.1, but you have torch 2.4.0+cu124". vllm
// 0.7.3 pins torch==2.5.1 (catalog: its requirements at the release commit); the release that
// keeps torch 2.4.0 is vllm 0.6.3.post1.
TEST(CheckExtensions, Vllm073BesideTorch240NamesTheVllmForIt) {
  CheckResult r = Check({"torch==2.4.0", "vllm==0.7.3"});
  const Problem* p = Find(r, "check.ext_torch");
  ASSERT_NE(p, nullptr) << Text(r);
  EXPECT_EQ(Arg(p->args, "need"), "==2.5.1");
  EXPECT_EQ(p->fix, "vllm==0.6.3.post1");
}

// vllm-project/vllm#1807: vllm 0.2.2 (built with torch 2.1.0) beside torch 2.0.1+cu118:
// "undefined symbol: _ZN3c104cuda9SetDeviceEi"; the answer was torch 2.1.0.
TEST(CheckExtensions, Vllm022BesideTorch201MovesTorchTo210) {
  CheckResult r = Check({"torch==2.0.1+cu118", "vllm==0.2.2"});
  const Problem* p = Find(r, "check.ext_torch_moves");
  ASSERT_NE(p, nullptr) << Text(r);
  EXPECT_EQ(p->fix, "torch==2.1.0");
}

// chatchat-space/Langchain-Chatchat#2184: xformers 0.0.22.post4 requires torch 2.1.0, the user had
// torch 2.0.1.
TEST(CheckExtensions, Xformers0022Post4BesideTorch201NamesTorch210) {
  CheckResult r = Check({"torch==2.0.1", "xformers==0.0.22.post4"});
  const Problem* p = Find(r, "check.ext_torch_moves");
  ASSERT_NE(p, nullptr) << Text(r);
  EXPECT_EQ(Arg(p->args, "need"), "==2.1.0");
  EXPECT_EQ(p->fix, "torch==2.1.0");
}

// bitsandbytes-foundation/bitsandbytes#1510: on Windows with a CUDA 12.8 torch (RTX 50 series),
// "libbitsandbytes_cuda128.dll does not exist"; the maintainers' answer was v0.45.3, the first
// release with CUDA 12.8 builds.
TEST(CheckExtensions, BitsandbytesWithoutTheTorchCudaMinorNamesWhatExistsAndTheNearestRelease) {
  CheckResult r = Check({"torch==2.7.1+cu128", "bitsandbytes==0.45.2"}, Machine(Os::kWindows, "572.16", "12.0"));
  const Problem* p = Find(r, "check.ext_no_wheel_pypi");  // PyPI's wheel installs; its library is missing
  ASSERT_NE(p, nullptr) << Text(r);
  EXPECT_EQ(Arg(p->args, "cuda"), "12.8");
  EXPECT_EQ(Arg(p->args, "platform"), "windows-x86_64");
  EXPECT_EQ(Arg(p->args, "list"), "11.7, 11.8, 12.0, 12.1, 12.2, 12.3, 12.4, 12.5, 12.6");
  EXPECT_EQ(p->fix, "bitsandbytes==0.45.3");
  EXPECT_NE(Text(r).find("pip installs its PyPI wheel all the same"), std::string::npos) << Text(r);
  EXPECT_EQ(Text(r).find("build it from source"), std::string::npos) << Text(r);
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

// Dao-AILab/flash-attention#931: torch 2.2.0 with flash-attn 2.5.8's prebuilt wheel:
// "undefined symbol: _ZN3c104cuda9SetDeviceEi"; tridao: "Wheels are built for torch 2.2.2 and
// torch 2.3.0. Looks like it's not compatible with 2.2.0." setup.py picks the asset by torch's
// major.minor, so 2.2.0 gets the one built against 2.2.2 (publish.yml's matrix at v2.5.8).
TEST(CheckExtensions, FlashAttnWheelBuiltAgainstANewerPatchMovesTheTorchPin) {
  CheckResult r = Check({"torch==2.2.0", "flash-attn==2.5.8"});
  const Problem* p = Find(r, "check.ext_built_newer");
  ASSERT_NE(p, nullptr) << Text(r);
  EXPECT_EQ(Arg(p->args, "built"), "2.2.2");
  EXPECT_EQ(Arg(p->args, "line"), "2.2");
  EXPECT_EQ(p->fix, "torch==2.2.2");
  EXPECT_NE(Text(r).find("was built against torch 2.2.2, and the pins install torch 2.2.0"), std::string::npos) << Text(r);
  // The release it was built against, or a later one of the line, passes.
  EXPECT_EQ(Find(Check({"torch==2.2.2", "flash-attn==2.5.8"}), "check.ext_built_newer"), nullptr);
  // flash-attn 2.5.7's torch 2.2 asset was built against 2.2.0 (its matrix): no problem there.
  EXPECT_EQ(Find(Check({"torch==2.2.0", "flash-attn==2.5.7"}), "check.ext_built_newer"), nullptr);
}

// flash-attn 2.5.9's torch 2.4 asset was built against the nightly 2.4.0.dev20240407 (publish.yml's
// matrix at v2.5.9; tridao in #836: wheels were compiled with nightlies until the release): said
// as a note, since no release of the line matches it.
TEST(CheckExtensions, FlashAttnWheelBuiltAgainstANightlyIsNoted) {
  CheckResult r = Check({"torch==2.4.0", "flash-attn==2.5.9"});
  EXPECT_TRUE(HasNote(r, "check.ext_built_nightly")) << Text(r);
  EXPECT_EQ(Find(r, "check.ext_no_wheel_torch"), nullptr) << Text(r);
  EXPECT_NE(Text(r).find("built against the nightly 2.4.0.dev20240407"), std::string::npos) << Text(r);
}

// Dao-AILab/flash-attention#1832: torch 2.6.0 with flash-attn 2.6.3, which has no torch 2.6 wheel;
// users moved to a release with one. The nearest releases (2.7.1.post1 to 2.7.3) built their
// torch 2.6 wheel against a nightly of 2.6, so the fix is the first built against 2.6.0 itself.
TEST(CheckExtensions, FlashAttnFixSkipsReleasesBuiltAgainstANightlyOfTheLine) {
  CheckResult r = Check({"torch==2.6.0", "flash-attn==2.6.3"}, Machine(Os::kLinux, "570.86.10", "8.9"));
  const Problem* p = Find(r, "check.ext_no_wheel_torch");
  ASSERT_NE(p, nullptr) << Text(r);
  EXPECT_EQ(p->fix, "flash-attn==2.7.4") << Text(r);
  CheckResult fixed = Check({"torch==2.6.0", "flash-attn==2.7.4"}, Machine(Os::kLinux, "570.86.10", "8.9"));
  EXPECT_TRUE(fixed.ok()) << Text(fixed);
  EXPECT_FALSE(HasNote(fixed, "check.ext_built_nightly")) << Text(fixed);
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

// tenstorrent/tt-forge#890: a Python 3.11 image with torch 2.9.0+cpu, torchvision 0.24.0 (no
// variant) and torchaudio 2.9.0: "operator torchvision::nms does not exist". An untagged companion
// installed apart from torch's index comes from PyPI, whose Linux x86_64 wheels of 2.9.0 are the
// cu128 build; the merged fix pins the image's torch/torchvision pair consistently.
TEST(CheckExtensions, UntaggedCompanionFromPypiBesideACpuTorchIsAnotherVariant) {
  MachineSpec cpu = Machine();  // the image's machine: no NVIDIA GPU, no driver
  cpu.gpus.clear();
  cpu.has_nvidia_gpu = false;
  cpu.driver.reset();
  cpu.python = PyVersion::Parse("3.11").value();
  CheckResult r = Check({"torch==2.9.0+cpu", "torchvision==0.24.0", "torchaudio==2.9.0"}, cpu);
  auto note = std::find_if(r.notes.begin(), r.notes.end(), [](const Reason& n) {
    return n.id == "check.companion_pypi" && Arg(n.args, "name") == "torchvision";
  });
  ASSERT_NE(note, r.notes.end()) << Text(r);
  EXPECT_EQ(Arg(note->args, "other"), "cu128");
  EXPECT_EQ(Arg(note->args, "symptom"), "operator torchvision::nms does not exist");
  EXPECT_NE(Text(r).find("or pin torchvision==0.24.0+cpu"), std::string::npos) << Text(r);
  // From the CPU index, or with the tag, they are the CPU builds: nothing to say.
  PinSet pins = ParsePinArgs({"torch==2.9.0+cpu", "torchvision==0.24.0"}, IsExtension).value();
  pins.index_url = "https://download.pytorch.org/whl/cpu";
  CheckResult indexed = CheckPins(TheCatalog(), cpu, pins);
  EXPECT_FALSE(HasNote(indexed, "check.companion_pypi")) << Text(indexed);
  EXPECT_FALSE(HasNote(Check({"torch==2.9.0+cpu", "torchvision==0.24.0+cpu"}, cpu), "check.companion_pypi"));
  // PyPI's own build beside an untagged companion: the same variant.
  EXPECT_FALSE(HasNote(Check({"torch==2.9.0+cu128", "torchvision==0.24.0"}), "check.companion_pypi"));
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
