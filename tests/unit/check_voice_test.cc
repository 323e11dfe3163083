// check speaks once: every problem's fix agrees with the corrected pins, problems that share a
// fix say it once, the corrected pins pass check themselves, and the facts checked against
// (which machine, which Python) are said with the verdict.
#include <gtest/gtest.h>

#include <set>

#include "plan/check.h"
#include "plan/check_fix.h"
#include "report/plan_report.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TheCatalog;

MachineSpec Rtx3090(std::string driver, std::string python) {
  MachineSpec s;
  s.driver = DriverVersion::Parse(driver).value();
  s.gpus = {ComputeCapability::Parse("8.6").value()};
  s.gpu_names = {"GeForce RTX 3090"};
  s.has_nvidia_gpu = true;
  if (!python.empty()) s.python = PyVersion::Parse(python).value();
  return s;
}

CheckResult Check(std::vector<std::string> pins, const MachineSpec& spec) {
  return CheckPins(TheCatalog(), spec, ParsePinArgs(pins).value());
}

bool InCorrected(const CheckResult& r, const std::string& fix) {
  return fix == r.install || std::find(r.corrected.begin(), r.corrected.end(), fix) != r.corrected.end();
}

std::vector<std::string> SaidFixes(const CheckResult& r) {
  std::vector<std::string> out;
  for (size_t i = 0; i < r.problems.size(); ++i) {
    if (SaysFix(r, i)) out.push_back(r.problems[i].fix);
  }
  return out;
}

// torchvision 0.20.1+cu124 beside torch 2.4.0+cu121 is two problems (the pair, the tag) about
// one pin: once fixed by "0.19.0" and once by "0.20.1+cu121", each undoing the other.
TEST(CheckVoice, LabelAndPairProblemsOnOnePinShareTheCorrectedPin) {
  CheckResult r = Check({"torch==2.4.0+cu121", "torchvision==0.20.1+cu124"}, Rtx3090("550.54.14", "3.11"));
  ASSERT_EQ(r.problems.size(), 2u);
  ASSERT_FALSE(r.corrected.empty());
  for (const Problem& p : r.problems) EXPECT_TRUE(InCorrected(r, p.fix)) << p.id << ": " << p.fix;
  EXPECT_EQ(SaidFixes(r), std::vector<std::string>{"torchvision==0.19.0"});
}

// Every fix said is one of the corrected pins or their install, and each is said once, across
// pin sets that mix missing, unpaired, mislabelled and unfit pins.
TEST(CheckVoice, NoFixContradictsTheCorrectedPins) {
  std::vector<std::vector<std::string>> sets = {
      {"torch==2.4.0+cu121", "torchvision==0.20.1+cu124"},
      {"torch==1.13.0+cu117", "torchvision==1.4.0"},
      {"torch==2.3.1+cu121", "torchvision==0.17.0+cu118", "torchaudio==2.1.0"},
      {"torch==2.99.0", "torchvision==0.18.1"},
      {"torch==2.0.0+cu117", "torchvision==0.16.0+cu121"},
  };
  for (const MachineSpec& spec : {Rtx3090("470.82.01", "3.10"), Rtx3090("550.54.14", "3.11"), Rtx3090("535.104.05", "3.8")}) {
    for (const auto& pins : sets) {
      CheckResult r = Check(pins, spec);
      std::vector<std::string> said = SaidFixes(r);
      EXPECT_EQ(std::set<std::string>(said.begin(), said.end()).size(), said.size()) << pins.front();
      if (r.corrected.empty()) continue;
      for (const Problem& p : r.problems) EXPECT_TRUE(InCorrected(r, p.fix)) << pins.front() << " " << p.id << ": " << p.fix;
    }
  }
}

// The corrected pins are verified: checked again on the same machine, they pass.
TEST(CheckVoice, CorrectedPinsPassCheck) {
  for (const auto& pins : std::vector<std::vector<std::string>>{{"torch==2.3.1+cu121", "torchvision==0.18.1+cu121"},
                                                                {"torch==2.6.0"}, {"torch==2.4.0+cu121", "torchvision==0.20.1+cu124"}}) {
    MachineSpec spec = Rtx3090("470.82.01", "3.10");
    CheckResult r = Check(pins, spec);
    ASSERT_FALSE(r.corrected.empty()) << pins.front();
    std::vector<std::string> named = r.corrected;
    // The install's index serves the variant: name it where the pins leave it to the index.
    size_t at = r.install.find("/whl/");
    for (std::string& p : named) {
      if (at != std::string::npos && p.find('+') == std::string::npos && p.rfind("torchaudio", 0) != 0) p += "+" + r.install.substr(at + 5);
    }
    EXPECT_TRUE(Check(named, spec).ok()) << pins.front();
  }
}

// The seed example on Python 3.11: torch moves to 2.0.0, and keeping 1.13.0 with Python 3.10 is
// offered, as `plan` offers it.
TEST(CheckVoice, SeedOnPython311OffersPython310) {
  MachineSpec spec;
  spec.python = PyVersion::Parse("3.11").value();
  CheckResult r = Check({"torch==1.13.0+cu117", "torchvision==1.4.0"}, spec);
  ASSERT_EQ(r.alternatives.size(), 1u);
  EXPECT_EQ(r.alternatives[0].id, "suggest.python");
  std::string text = ReasonText(r.alternatives[0], Lang::kEn);
  EXPECT_NE(text.find("Python 3.10"), std::string::npos) << text;
  EXPECT_NE(text.find("1.13.0+cu117"), std::string::npos) << text;
}

// Which machine and which interpreter's Python the verdict is for comes first.
TEST(CheckVoice, VerdictSaysTheFactsAssumed) {
  MachineSpec spec;
  spec.python = PyVersion::Parse("3.11").value();
  spec.python_from = "/usr/bin/python3.11";
  spec.probed = true;
  CheckResult r = Check({"torch==1.13.0+cu117", "torchvision==1.4.0"}, spec);
  TextOptions o{Lang::kEn, Style{}, false};
  std::string text = RenderCheck(r, o);
  EXPECT_EQ(text.substr(0, text.find('\n')), "For: this machine, driver unknown, no GPU, Python 3.11 (/usr/bin/python3.11), linux-x86_64");
  o.lang = Lang::kZh;
  text = RenderCheck(r, o);
  EXPECT_EQ(text.substr(0, text.find('\n')), "适用于：本机，驱动未知，无 GPU，Python 3.11（/usr/bin/python3.11），linux-x86_64");
}

// github.com/torch/torch7/issues/1249: "torchvision 0.18.0 requires torch==2.3.0, but you have
// torch 2.2.1 ... but i require torch 2.2.1": one fix, the companion, and torch stays.
TEST(CheckVoice, ThreadTorchvisionNewerThanTheTorchItMustKeep) {
  CheckResult r = Check({"torch==2.2.1", "torchvision==0.18.0"}, MachineSpec{});
  EXPECT_EQ(SaidFixes(r), std::vector<std::string>{"torchvision==0.17.1"});
  EXPECT_EQ(r.corrected, (std::vector<std::string>{"torch==2.2.1", "torchvision==0.17.1"}));
}

// github.com/zeyad-mansour/lunar/issues/212: torch==1.11.0+cu113 finds no distribution on
// Windows; the thread's answer was "downgrade your python to 3.10". check moves torch and
// offers that Python, which keeps the pinned build.
TEST(CheckVoice, ThreadOldPinOnPython311OffersTheThreadsPython) {
  MachineSpec spec;
  spec.platform.os = Os::kWindows;
  spec.python = PyVersion::Parse("3.11").value();
  CheckResult r = Check({"torch==1.11.0+cu113", "torchvision==0.12.0+cu113"}, spec);
  ASSERT_EQ(r.alternatives.size(), 1u);
  EXPECT_EQ(ReasonText(r.alternatives[0], Lang::kEn), "Use Python 3.10: then torch 1.11.0+cu113 fits.");
  EXPECT_EQ(SaidFixes(r).size(), 1u);
}

}  // namespace
}  // namespace cudamatch
