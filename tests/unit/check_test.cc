#include "plan/check.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "catalog/query.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TheCatalog;

CheckResult Check(std::vector<std::string> pins, MachineSpec spec = {}) {
  return CheckPins(TheCatalog(), spec, ParsePinArgs(pins).value());
}

bool Has(const CheckResult& r, const std::string& id) {
  for (const Problem& p : r.problems) {
    if (p.id == id) return true;
  }
  return false;
}

TEST(Check, NonExistentTorchvisionGetsTheRealPair) {
  CheckResult r = Check({"torch==1.13.0", "torchvision==1.4.0"});
  ASSERT_FALSE(r.ok());
  ASSERT_TRUE(Has(r, "check.paired_missing"));
  EXPECT_EQ(r.problems.front().fix, "torchvision==0.14.0");
  EXPECT_NE(std::find(r.corrected.begin(), r.corrected.end(), "torchvision==0.14.0"), r.corrected.end());
}

TEST(Check, UnpairedVersions) {
  CheckResult r = Check({"torch==2.3.1", "torchvision==0.17.0", "torchaudio==2.3.1"});
  ASSERT_TRUE(Has(r, "check.unpaired"));
  EXPECT_EQ(r.problems.front().fix, "torchvision==0.18.1");
}

TEST(Check, ConsistentPinsPass) {
  CheckResult r = Check({"torch==1.13.0", "torchvision==0.14.0", "torchaudio==0.13.0"});
  EXPECT_TRUE(r.ok());
}

TEST(Check, VariantThatTheDriverCannotRun) {
  MachineSpec s;
  s.driver = DriverVersion::Parse("470.82.01").value();
  s.gpus = {ComputeCapability::Parse("8.6").value()};
  s.has_nvidia_gpu = true;
  CheckResult r = Check({"torch==2.3.1+cu121", "torchvision==0.18.1+cu121"}, s);
  ASSERT_TRUE(Has(r, "check.machine"));
  EXPECT_NE(r.install.find("cu118"), std::string::npos);
}

TEST(Check, VariantFromIndexUrlOfARequirementsFile) {
  auto pins = std::make_optional(ParseRequirements("requirements.txt",
                                "# training\n--index-url https://download.pytorch.org/whl/cu118\n"
                                "torch==2.3.1 \\\n  ; platform_system == \"Linux\"\nnumpy<2\ntorchvision==0.18.1\n", nullptr));
  EXPECT_TRUE(pins->issues.empty());
  EXPECT_EQ(pins->pins.size(), 2u);
  EXPECT_EQ(pins->index_url, "https://download.pytorch.org/whl/cu118");
  EXPECT_EQ(VariantFromIndexUrl(pins->index_url), "cu118");
  MachineSpec s;
  s.driver = DriverVersion::Parse("535.104.05").value();
  s.gpus = {ComputeCapability::Parse("8.6").value()};
  s.has_nvidia_gpu = true;
  CheckResult r = CheckPins(TheCatalog(), s, *pins);
  EXPECT_TRUE(r.ok());
  ASSERT_NE(r.variant, nullptr);
  EXPECT_EQ(r.variant->variant.tag, "cu118");
}

TEST(Check, MalformedPinIsReportedWithItsLineAndTheRestIsChecked) {
  PinSet pins = ParseRequirements("req.txt", "torch==2.x\ntorchvision==0.18.1\n", nullptr);
  ASSERT_EQ(pins.issues.size(), 1u);
  EXPECT_EQ(pins.issues[0].line, 1);
  EXPECT_EQ(pins.issues[0].why, "req.unparsed");
  ASSERT_EQ(pins.pins.size(), 1u);
  EXPECT_EQ(pins.pins[0].name, "torchvision");
  EXPECT_FALSE(ParsePinArgs({"torch==2.x"}).ok());
  EXPECT_TRUE(ParsePinArgs({"torch"}).ok());
}

// torch 2.5.1 has (experimental) cp313 wheels, torchvision 0.20.1 has none (pytorch/vision#8747,
// companions.tsv): the set does not install on Python 3.13; on 3.12 it does.
TEST(Check, CompanionWithoutAWheelForThePythonDoesNotFit) {
  MachineSpec spec;
  spec.python = PyVersion::Parse("3.13").value();
  CheckResult r = Check({"torch==2.5.1", "torchvision==0.20.1", "torchaudio==2.5.1"}, spec);
  ASSERT_FALSE(r.ok());
  bool found = false;
  for (const Problem& p : r.problems) {
    for (const Reason& reason : p.reasons) {
      if (reason.id == "reject.companion_python") {
        found = true;
        EXPECT_EQ(reason.args, (MessageArgs{{"package", "torchvision"}, {"version", "0.20.1"}, {"python", "3.13"}, {"min", "3.9"}, {"max", "3.12"}}));
      }
    }
  }
  EXPECT_TRUE(found);
  spec.python = PyVersion::Parse("3.12").value();
  EXPECT_TRUE(Check({"torch==2.5.1", "torchvision==0.20.1", "torchaudio==2.5.1"}, spec).ok());
}

// torchvision 0.8.1 was published for torch 1.7.0 (colab-1676) and 0.8.2 for 1.7.1: check pairs by
// companions.tsv, as doctor does, not by the 0.8 line alone.
TEST(Check, ListedCompanionPairsOnlyWithItsOwnRelease) {
  EXPECT_TRUE(Check({"torch==1.7.0", "torchvision==0.8.1"}).ok());
  CheckResult r = Check({"torch==1.7.1", "torchvision==0.8.1"});
  ASSERT_TRUE(Has(r, "check.unpaired"));
  EXPECT_EQ(r.problems.front().fix, "torchvision==0.8.2");
}

// The fix changes as little as it can: a set that fails only on Python moves to the first release
// whose three packages have wheels for it, and keeps the kind of build the pins meant (PyPI's
// default, not the CPU index), whatever the newest release is.
TEST(Check, PythonOnlyFailureMovesToTheNearestReleaseThatFits) {
  MachineSpec s;
  s.python = PyVersion::Parse("3.13").value();
  CheckResult r = Check({"torch==2.5.1", "torchvision==0.20.1", "torchaudio==2.5.1"}, s);
  ASSERT_TRUE(Has(r, "check.machine"));
  EXPECT_EQ(r.corrected, (std::vector<std::string>{"torch==2.6.0", "torchvision==0.21.0", "torchaudio==2.6.0"}));
  EXPECT_EQ(r.install, "pip install torch==2.6.0 torchvision==0.21.0 torchaudio==2.6.0");
  // A CUDA 12.1 pin stays a CUDA build: 2.6.0 has no cu121, its nearest above is cu124 (PyPI's).
  r = Check({"torch==2.5.1+cu121", "torchvision==0.20.1+cu121"}, s);
  EXPECT_EQ(r.install, "pip install torch==2.6.0 torchvision==0.21.0");
  s.python = PyVersion::Parse("3.8").value();
  r = Check({"torch==2.5.1"}, s);
  EXPECT_EQ(r.corrected, (std::vector<std::string>{"torch==2.4.1"}));
}

TEST(Check, GpuNewerThanThePinIsFixedByTheFirstReleaseWithItsCode) {
  MachineSpec s;
  s.driver = DriverVersion::Parse("575.51.03").value();
  s.gpus = {ComputeCapability::Parse("12.0").value()};
  s.has_nvidia_gpu = true;
  CheckResult r = Check({"torch==2.6.0"}, s);
  ASSERT_TRUE(Has(r, "check.machine"));
  EXPECT_EQ(r.install, "pip install torch==2.7.0 --index-url https://download.pytorch.org/whl/cu128");
}

// A CPU pin on Windows (PyPI's default there) with an NVIDIA GPU: the fix is the same release from
// a CUDA index, never the plain pip line that installs the CPU build again.
TEST(Check, CpuPinOnAWindowsGpuMachineMovesToACudaIndex) {
  MachineSpec s;
  s.platform.os = Os::kWindows;
  s.gpus = {ComputeCapability::Parse("8.9").value()};
  s.gpu_names = {"NVIDIA GeForce RTX 4080 Laptop GPU"};
  s.has_nvidia_gpu = true;
  s.python = PyVersion::Parse("3.11").value();
  CheckResult r = Check({"torch==2.2.2", "torchvision==0.17.2", "torchaudio==2.2.2"}, s);
  ASSERT_TRUE(Has(r, "check.cpu_on_gpu"));
  // Labelled: whoever has 2.2.2+cpu installed keeps it for "torch==2.2.2".
  EXPECT_EQ(r.install, "python -m pip install torch==2.2.2+cu121 torchvision==0.17.2+cu121 torchaudio==2.2.2+cu121 --index-url https://download.pytorch.org/whl/cu121");
}

// DeepGraphLearning/ULTRA#8: on a MacBook, `pip install torch==2.1.0 --index-url
// https://download.pytorch.org/whl/cu118` finds no version at all; the answer was PyPI's own
// `pip install torch`. A CUDA pin on macOS is an error, and the fix drops the CUDA index.
TEST(Check, CudaPinOnMacosIsAnError) {
  PinSet pins = ParseRequirements("requirements.txt", "--index-url https://download.pytorch.org/whl/cu118\ntorch==2.1.0\n", nullptr);
  MachineSpec s;
  s.platform = Platform{Os::kMacos, Arch::kAarch64};
  s.python = PyVersion::Parse("3.11").value();
  CheckResult r = CheckPins(TheCatalog(), s, pins);
  ASSERT_TRUE(Has(r, "check.macos_cuda"));
  EXPECT_EQ(r.problems.front().args.front().second.value_or(""), "2.1.0+cu118");
  EXPECT_EQ(r.corrected, (std::vector<std::string>{"torch==2.1.0"}));
  EXPECT_EQ(r.install.find("--index-url"), std::string::npos) << r.install;
  for (const Reason& n : r.notes) EXPECT_NE(n.id, "gap.judged");  // not judged as if it could run
}

// TJU-Aerial-Robotics/YOPO#79: a Jetson Xavier NX on JetPack 5.1.5, `pip install torch==2.4.1
// --index-url https://download.pytorch.org/whl/cu121` left torch.cuda.is_available() False; the
// maintainers' answer: NVIDIA's PyTorch builds for the JetPack. PyTorch's index has no build for a
// Jetson: an error, with where the module's JetPack builds are, and no corrected pins (PyPI's CPU
// build is no fix).
TEST(Check, PytorchCudaPinOnAJetsonIsAnError) {
  PinSet pins = ParseRequirements("requirements.txt", "--index-url https://download.pytorch.org/whl/cu121\ntorch==2.4.1\n", nullptr);
  MachineSpec s;
  s.platform = Platform{Os::kLinux, Arch::kAarch64};
  s.gpus = {ComputeCapability::Parse("7.2").value()};
  s.gpu_names = {"Jetson Xavier NX"};
  s.has_nvidia_gpu = true;
  s.python = PyVersion::Parse("3.8").value();
  s.jetson = true;
  s.jetson_model = "Jetson Xavier NX";
  CheckResult r = CheckPins(TheCatalog(), s, pins);
  ASSERT_TRUE(Has(r, "check.jetson_cuda"));
  EXPECT_TRUE(r.corrected.empty());
  EXPECT_TRUE(r.install.empty());
  bool jetpack51 = false;
  for (const Reason& n : r.notes) {
    for (const auto& [k, v] : n.args) jetpack51 = jetpack51 || (n.id == "caveat.jetson_page" && k == "jetpack" && v == "5.1");
  }
  EXPECT_TRUE(jetpack51);
}

// vllm-project/vllm#34470: on a Jetson AGX Thor (JetPack 7, SBSA user space) torch 2.10.0+cu130
// from PyTorch's index has CUDA available: no Jetson error there.
TEST(Check, PytorchCudaPinOnThorIsNoJetsonError) {
  MachineSpec s;
  s.platform = Platform{Os::kLinux, Arch::kAarch64};
  s.gpus = {ComputeCapability::Parse("11.0").value()};
  s.gpu_names = {"Jetson AGX Thor"};
  s.has_nvidia_gpu = true;
  s.python = PyVersion::Parse("3.12").value();
  s.jetson = true;
  s.jetson_model = "Jetson AGX Thor";
  CheckResult r = Check({"torch==2.10.0+cu130"}, s);
  EXPECT_FALSE(Has(r, "check.jetson_cuda"));
}

// pytorch/pytorch#161614: an Intel Mac, Python 3.11, `pip install torch==2.6.0` finds no matching
// distribution; the maintainer: "last torch release for Intel Mac was 2.2.2". macOS x86_64 wheels
// end at 2.2.2 (catalog/NOTES.md), so the pin has nothing to install, and the fix is 2.2.2; no
// CUDA variant is suggested.
TEST(Check, TorchAfter222OnAnIntelMacHasNoWheelAndNames222) {
  MachineSpec s;
  s.platform = Platform{Os::kMacos, Arch::kX86_64};
  s.python = PyVersion::Parse("3.11").value();
  CheckResult r = Check({"torch==2.6.0"}, s);
  ASSERT_FALSE(r.problems.empty());
  EXPECT_EQ(r.problems.front().id, "check.no_wheels_platform_newest");
  bool newest = false;
  for (const auto& [k, v] : r.problems.front().args) newest = newest || (k == "newest" && v.value_or("") == "2.2.2");
  EXPECT_TRUE(newest);
  for (const Reason& n : r.notes) EXPECT_NE(n.id, "gap.default");
  EXPECT_NE(std::find(r.corrected.begin(), r.corrected.end(), "torch==2.2.2"), r.corrected.end());
  // 2.2.2 itself is PyPI's CPU wheel there.
  CheckResult last = Check({"torch==2.2.2"}, s);
  EXPECT_TRUE(last.ok()) << (last.problems.empty() ? "" : last.problems.front().id);
}

// Where the catalog does not know which wheel plain pip gets on macOS (arm64 before 2.1), the note
// must not send a Mac user to a CUDA variant.
TEST(Check, UnknownMacosDefaultSuggestsNoCudaVariant) {
  MachineSpec s;
  s.platform = Platform{Os::kMacos, Arch::kAarch64};
  s.python = PyVersion::Parse("3.10").value();
  CheckResult r = Check({"torch==2.0.1"}, s);
  bool macos_gap = false;
  for (const Reason& n : r.notes) {
    EXPECT_NE(n.id, "gap.default");
    macos_gap = macos_gap || n.id == "gap.default_macos";
  }
  EXPECT_TRUE(macos_gap);
}

// index-tts/index-tts#556: on a DGX Spark (GB10), uv failed with "torch==2.8.0+cu128 @
// https://download.pytorch.org/whl/cu128 can't be installed because it doesn't have a source
// distribution or wheel for the current platform"; no GPU fix in the thread. PyTorch built 2.8
// for linux-aarch64 as cpu and cu129 only (test-infra release/2.8 CUDA_AARCH64_ARCHES
// ["12.9-aarch64"]; pytorch/pytorch#162364 added aarch64 cu128 after 2.8), and torch_complete.tsv
// says that list is complete: the build does not exist, with the builds that do and an index
// command for the CUDA one, instead of "not in the catalog ... may know it" and "consistent".
MachineSpec DgxSpark() {
  MachineSpec s;
  s.platform = Platform{Os::kLinux, Arch::kAarch64};
  s.gpus = {ComputeCapability::Parse("12.1").value()};
  s.gpu_names = {"NVIDIA GB10"};
  s.has_nvidia_gpu = true;
  s.driver = DriverVersion::Parse("580.95.05").value();
  return s;
}

const Problem* Find(const CheckResult& r, const std::string& id) {
  for (const Problem& p : r.problems) {
    if (p.id == id) return &p;
  }
  return nullptr;
}

std::string Arg(const MessageArgs& args, const std::string& name) {
  for (const auto& [k, v] : args) {
    if (k == name) return v.value_or("");
  }
  return "";
}

TEST(Check, AVariantMissingFromACompleteListDoesNotExist) {
  ASSERT_NE(CompleteVariantList(TheCatalog(), Pep440::Parse("2.8.0").value(), "linux-aarch64"), nullptr);
  PinSet tagged = ParsePinArgs({"torch==2.8.0+cu128"}).value();
  PinSet indexed = ParseRequirements("requirements.txt", "--index-url https://download.pytorch.org/whl/cu128\ntorch==2.8.0\n", nullptr);
  for (const PinSet& pins : {tagged, indexed}) {
    CheckResult r = CheckPins(TheCatalog(), DgxSpark(), pins);
    EXPECT_FALSE(r.ok());
    const Problem* p = Find(r, "check.no_such_build");
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(Arg(p->args, "candidate"), "2.8.0+cu128");
    EXPECT_EQ(Arg(p->args, "list"), "cpu, cu129");
    EXPECT_EQ(Arg(p->args, "variant"), "cu129");
    EXPECT_NE(Arg(p->args, "command").find("torch==2.8.0 --index-url https://download.pytorch.org/whl/cu129"), std::string::npos)
        << Arg(p->args, "command");
    EXPECT_NE(Arg(p->args, "source").find("generate_binary_build_matrix.py"), std::string::npos);
    for (const Reason& n : r.notes) {
      EXPECT_NE(n.id, "gap.variant");  // not "may know it"
      EXPECT_NE(n.id, "gap.judged");   // not judged from CUDA 12.8 as if it could be installed
    }
    for (const std::string& c : r.corrected) EXPECT_EQ(c.find("+cu128"), std::string::npos) << c;
  }
}

// Where no row marks the platform's list complete, a variant missing from it stays unknown:
// 2.9.0's linux-aarch64 list (its cu129 was dropped and brought back around the release) and
// 2.8.0's linux-x86_64 list (its XPU build has no row) are not marked.
TEST(Check, AVariantMissingFromAnUnmarkedListStaysUnknown) {
  ASSERT_EQ(CompleteVariantList(TheCatalog(), Pep440::Parse("2.9.0").value(), "linux-aarch64"), nullptr);
  CheckResult aarch64 = CheckPins(TheCatalog(), DgxSpark(), ParsePinArgs({"torch==2.9.0+cu129"}).value());
  EXPECT_FALSE(Has(aarch64, "check.no_such_build"));
  EXPECT_TRUE(std::any_of(aarch64.notes.begin(), aarch64.notes.end(), [](const Reason& n) { return n.id == "gap.variant"; }));
  MachineSpec x86;
  x86.platform = Platform{Os::kLinux, Arch::kX86_64};
  CheckResult xpu = CheckPins(TheCatalog(), x86, ParsePinArgs({"torch==2.8.0+xpu"}).value());
  EXPECT_FALSE(Has(xpu, "check.no_such_build"));
  EXPECT_TRUE(std::any_of(xpu.notes.begin(), xpu.notes.end(), [](const Reason& n) { return n.id == "gap.variant"; }));
}

}  // namespace
}  // namespace cudamatch
