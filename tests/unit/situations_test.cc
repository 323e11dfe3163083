// Situations from public threads and documentation: the machine facts a user reported, and what
// cudamatch must answer (a plan, no plan with its blocker and the change that would help, a
// problem in their pins, or pins that are fine). Each row cites its source; the comment after
// the source says how the thread was resolved, which the expected answer agrees with (or where
// it cannot, why).
#include <gtest/gtest.h>

#include <algorithm>

#include "plan/check.h"
#include "plan/plan.h"
#include "report/plan_report.h"
#include "tests/unit/no_placeholder.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TheCatalog;

enum class Want {
  kPlan,       // a plan: `a` = variant tag ("" any), `b` = prefix of the torch version ("" any)
  kNoPlan,     // nothing fits: every wheel rejection has reason `a`; suggestion `b` is offered ("" none needed)
  kProblem,    // check: problem `a`; `b` = text the corrected install command contains ("" any)
  kReason,     // check: a problem whose reasons include `a`
  kOk,         // check: consistent and fits; `a` = variant tag ("" any)
  kNote,       // check: fits, with note `a`
};

struct Situation {
  const char* name;
  const char* source;
  const char* driver;
  std::vector<const char*> ccs;
  const char* python;
  const char* os;    // "linux" or "windows"
  const char* torch;  // plan: the --torch value; "" = any
  std::vector<const char*> pins;  // check when not empty
  Want want;
  const char* a;
  const char* b;
};

const std::vector<Situation>& Situations() {
  static const std::vector<Situation> kRows = {
      // ---- Blackwell ----
      {"Rtx5090OnDriver535", "https://github.com/pytorch/pytorch/issues/149845",
       // resolved by installing the driver of CUDA 12.8.1 and cu128 wheels
       "535.104.05", {"12.0"}, nullptr, "linux", "", {}, Want::kNoPlan, "reject.driver_below_arch", "suggest.driver_upgrade"},
      {"Rtx5090OnDriver565", "https://github.com/HaoKang-Timmy/LatencySensitiveBench/issues/19",
       // the maintainer's first question is the driver: Blackwell needs the 570 branch
       "565.57.01", {"12.0"}, nullptr, "linux", "", {}, Want::kNoPlan, "reject.driver_below_arch", "suggest.driver_upgrade"},
      {"Rtx5090OnDriver570GetsCu128OrNewer", "https://github.com/pytorch/pytorch/issues/150733",
       // malfet: CUDA 12.8 is needed for the 5090; 2.7 wheels for cu128
       "570.124.06", {"12.0"}, nullptr, "linux", "", {}, Want::kPlan, "", ""},
      {"Rtx5090WithoutDriverInfoGetsABlackwellWheel", "https://github.com/Hellod035/LeggedLab/issues/26",
       // resolved with cu128 wheels (then nightly)
       nullptr, {"12.0"}, nullptr, "linux", "", {}, Want::kPlan, "", ""},
      {"Rtx5090BeforeAnyBlackwellWheel", "https://github.com/lllyasviel/FramePack/issues/550",
       // no release before 2.7 carries sm_120: wait for one, or build from source
       nullptr, {"12.0"}, nullptr, "linux", "<2.6,>=1.9", {}, Want::kNoPlan, "reject.no_kernels", "suggest.any_torch"},
      {"Rtx5090WithTorch201Cu118", "https://github.com/pBFSLab/DeepPrep/issues/233",
       // torch 2.0.1 cu118 lists up to sm_90: the 5090 has no kernels
       "570.124.06", {"12.0"}, nullptr, "linux", "", {"torch==2.0.1+cu118"}, Want::kReason, "reject.no_kernels", ""},
      {"NightlyForCuda121OnSm120", "https://github.com/pytorch/pytorch/issues/167244",
       // a nightly built for an older CUDA cannot carry sm_120; nightlies for cu128 can
       "570.124.06", {"12.0"}, nullptr, "linux", "", {"torch==2.6.0.dev20241112+cu121"}, Want::kReason,
       "reject.cuda_cannot_target", ""},
      {"Rtx5080WithTorch26Cu126", "https://github.com/lllyasviel/FramePack/issues/702",
       // cu126 wheels stop at sm_90
       "575.64.03", {"12.0"}, nullptr, "linux", "", {"torch==2.8.0+cu126"}, Want::kReason, "reject.no_kernels", ""},
      // ---- Legacy architectures and driver windows ----
      {"Gtx1080TiOnDriver590", "https://github.com/NixOS/nixos-hardware/pull/1843",
       // drivers 590+ dropped Pascal: use the legacy 580 branch
       "590.44.01", {"6.1"}, nullptr, "linux", "", {}, Want::kNoPlan, "reject.driver_past_arch", "suggest.driver_downgrade"},
      {"Gtx1050OnDriver595", "https://github.com/NixOS/nixos-hardware/issues/1828",
       // "supported through the NVIDIA 580.xx Legacy drivers"; fixed with legacy_580
       "595.58.03", {"6.1"}, nullptr, "linux", "", {}, Want::kNoPlan, "reject.driver_past_arch", "suggest.driver_downgrade"},
      {"TeslaK80OnDriver580", "https://github.com/arutar/FrankenDriver/issues/30",
       // the K80's last driver is of the 470 branch (477.44 on Windows)
       "580.95.05", {"3.7"}, nullptr, "linux", "", {}, Want::kNoPlan, "reject.driver_past_arch", "suggest.driver_downgrade"},
      {"TeslaK80OnDriver470GetsSm37Wheels", "https://github.com/googlecolab/colabtools/issues/2377",
       // a K80 needs code built for sm_37
       "470.82.01", {"3.7"}, nullptr, "linux", "", {}, Want::kPlan, "", ""},
      {"P100WithCu128Torch", "https://github.com/Kaggle/kaggle-cli/issues/1151",
       // cu128 2.8 wheels no longer carry sm_60; a Pascal build (cu126) or another GPU
       "570.124.06", {"6.0"}, nullptr, "linux", "", {"torch==2.8.0+cu128"}, Want::kReason, "reject.no_kernels", "cu126"},
      {"Gtx1080OnCu130", "https://github.com/Comfy-Org/ComfyUI/pull/16438",
       // cu130 covers 7.5 and newer; GTX 10 cards need cu126 or cu128
       "580.95.05", {"6.1"}, nullptr, "linux", "", {"torch==2.9.0+cu130"}, Want::kReason, "reject.no_kernels", "cu126"},
      {"Gtx1080OnDriver580PlansCu126", "https://github.com/Comfy-Org/ComfyUI/pull/16438",
       // same thread: the plan for a GTX 10 card is a cu126 build
       "580.95.05", {"6.1"}, nullptr, "linux", "", {}, Want::kPlan, "cu126", ""},
      {"V100OnCu130", "https://github.com/Comfy-Org/ComfyUI/pull/16438",
       // a V100 needs cu126 or cu128
       "580.95.05", {"7.0"}, nullptr, "linux", "==2.9.0+cu130", {}, Want::kNoPlan, "reject.no_kernels", "suggest.any_torch"},
      {"V100AndH100InOneMachine", "https://github.com/pytorch/pytorch/issues/144071",
       // V100 works with wheels that list sm_70 (cu126 of 2.6 lists sm_70 and sm_90)
       "580.95.05", {"7.0", "9.0"}, nullptr, "linux", ">=2.9", {}, Want::kPlan, "cu126", ""},
      {"V100AndH100WithACu130Pin", "https://github.com/Comfy-Org/ComfyUI/pull/16438",
       // cu130 has no sm_70: leave the V100 out or use cu126
       "580.95.05", {"7.0", "9.0"}, nullptr, "linux", "==2.9.0+cu130", {}, Want::kNoPlan, "reject.no_kernels",
       "suggest.leave_out_gpu"},
      {"P100NextToRtx5090OnDriver595", "https://github.com/dartraiden/NVIDIA-patcher/issues/536",
       // 595+ dropped Pascal; the P100 blocks a driver the 5090 likes
       "595.58.03", {"6.0", "12.0"}, nullptr, "linux", "", {}, Want::kNoPlan, "reject.driver_past_arch",
       "suggest.leave_out_gpu"},
      // ---- Hopper, Ampere, Ada ----
      {"H100OnDriver525", "https://github.com/rcgsheffield/sheffield_hpc/issues/1890",
       // H100 needs torch >= 2.0 with cu118 or newer
       "525.60.13", {"9.0"}, nullptr, "linux", "", {}, Want::kPlan, "", ""},
      {"H100WithTorch113", "https://github.com/pytorch/pytorch/issues/90761",
       // the last 1.x build was cu117 only, without sm_90
       "525.60.13", {"9.0"}, nullptr, "linux", "==1.13.1", {}, Want::kNoPlan, "reject.no_kernels", "suggest.any_torch"},
      {"Rtx3090WithTorch171Cu101", "https://github.com/MRzzm/DINet/issues/100",
       // resolved with torch==1.7.1+cu110: the same release from the CUDA 11.0 index
       "470.82.01", {"8.6"}, nullptr, "linux", "", {"torch==1.7.1+cu101"}, Want::kReason, "reject.no_kernels", "1.7.1+cu110"},
      {"A100WithTorch1101Cu102", "https://github.com/andreimargeloiu/WPFS/issues/3",
       // resolved with torch==1.10.1+cu111 / torchvision==0.11.2+cu111
       "470.82.01", {"8.0"}, nullptr, "linux", "", {"torch==1.10.1+cu102", "torchvision==0.11.2+cu102"}, Want::kReason,
       "reject.no_kernels", "torch==1.10.1+cu11"},
      {"Rtx3060WithTorch170Default", "https://github.com/bismex/MetaBIN/issues/15",
       // sm_86 needs a CUDA 11 build
       "470.82.01", {"8.6"}, nullptr, "linux", "", {"torch==1.7.0+cu102"}, Want::kReason, "reject.no_kernels", ""},
      {"Rtx3090OnDriver470Python310", "https://github.com/pytorch/pytorch/issues/85332",
       // a 450/470-era driver: a CUDA 11 build runs
       "470.82.01", {"8.6"}, "3.10", "linux", "", {}, Want::kPlan, "cu118", ""},
      {"Rtx3080On1_7_1Cu102", "https://github.com/BindsNET/bindsnet/issues/468",
       // sm_86 is not in the cu102 list
       "470.82.01", {"8.6"}, nullptr, "linux", "", {"torch==1.7.1"}, Want::kReason, "reject.no_kernels", "1.7.1"},
      // ---- Python ----
      {"Python312WithTorch21", "https://github.com/pytorch/pytorch/issues/112478",
       // no 3.12 builds until 2.2
       nullptr, {}, "3.12", "linux", "==2.1.0", {}, Want::kNoPlan, "reject.python", "suggest.python"},
      {"Python310WithTorch19", "https://github.com/Kav-K/GPTDiscord/pull/228",
       // "no 1.9 wheel exists for py-3.10": upgrade torch
       nullptr, {}, "3.10", "linux", "==1.9.0", {}, Want::kNoPlan, "reject.python", "suggest.any_torch"},
      {"Python312WithTorch112", "https://github.com/memgraph/memgraph/issues/3687",
       // torch 1.12.0 is not installable on Python >= 3.12
       nullptr, {}, "3.12", "linux", "==1.12.0", {}, Want::kNoPlan, "reject.python", "suggest.python"},
      {"Python312WithTorch201Cu117Pin", "https://github.com/LibreTranslate/Locomotive/issues/32",
       // pip offered only 2.2.0+ for that Python
       nullptr, {}, "3.12", "linux", "", {"torch==2.0.1+cu117"}, Want::kReason, "reject.python", ""},
      // ---- Pins: pairing, sets, local versions, conflicts ----
      {"Torchvision081WithTorch170", "https://github.com/Yunfan-Li/Contrastive-Clustering/issues/54",
       // "I have installed PyTorch 1.7.0 and torchvision 0.8.1. It works now"
       nullptr, {}, nullptr, "linux", "", {"torch==1.7.0", "torchvision==0.8.1"}, Want::kOk, "", ""},
      {"Torchvision0111WithTorch1100", "https://github.com/pytorch/pytorch/issues/87267",
       // the working command is torch==1.10.0 torchvision==0.11.1
       nullptr, {}, nullptr, "linux", "", {"torch==1.10.0", "torchvision==0.11.1"}, Want::kOk, "", ""},
      {"NmsDoesNotExistTorch23Vision019", "https://github.com/vllm-project/vllm/issues/5736",
       // torchvision::nms missing: the torchvision does not pair with torch
       nullptr, {}, nullptr, "linux", "", {"torch==2.3.0", "torchvision==0.19.0"}, Want::kProblem, "check.unpaired", ""},
      {"Torch1101WithVision0100", "https://github.com/pmj110119/RenderOcc/issues/46",
       // resolved with torchvision 0.11.2 for torch 1.10.1
       nullptr, {}, nullptr, "linux", "", {"torch==1.10.1+cu111", "torchvision==0.10.0+cu111"}, Want::kProblem, "check.unpaired",
       "torchvision==0.11.2"},
      {"Cu118PinsKeptWithTheirIndex", "https://github.com/THU-MIG/yolov10/issues/218",
       // the thread's command: torch 2.0.1 / 0.15.2 / 2.0.2 from the cu118 index
       nullptr, {}, nullptr, "linux", "", {"torch==2.0.1+cu118", "torchvision==0.15.2+cu118", "torchaudio==2.0.1"}, Want::kProblem,
       "check.unpaired", "download.pytorch.org/whl/cu118"},
      {"Cu118PinsThatPair", "https://github.com/THU-MIG/yolov10/issues/218",
       nullptr, {}, nullptr, "linux", "", {"torch==2.0.1+cu118", "torchvision==0.15.2+cu118", "torchaudio==2.0.2"}, Want::kOk,
       "cu118", ""},
      {"CpuPinOnWindowsGpuMachine", "https://github.com/THU-MIG/yolov10/issues/218",
       // on Windows plain pip gets the CPU build: torch.cuda.is_available() is False
       nullptr, {"8.9"}, nullptr, "windows", "", {"torch==2.2.2", "torchvision==0.17.2"}, Want::kProblem, "check.cpu_on_gpu", ""},
      {"CpuLabelOnLinuxGpuMachine", "https://github.com/pytorch/pytorch/issues/122494",
       // a +cpu build next to an NVIDIA GPU
       "535.104.05", {"8.6"}, nullptr, "linux", "", {"torch==2.2.1+cpu"}, Want::kProblem, "check.cpu_on_gpu", "2.2.1"},
      {"TwoTorchPinsConflict", "https://pip.pypa.io/en/stable/topics/dependency-resolution/",
       // pip reports ResolutionImpossible for two different == pins of one package
       nullptr, {}, nullptr, "linux", "", {"torch==2.1.0", "torch==2.2.0"}, Want::kProblem, "check.pins_conflict", ""},
      {"TorchaudioRangePairs", "https://peps.python.org/pep-0440/#inclusive-ordered-comparison",
       // >= is a set: torchaudio 2.0.2 (torch 2.0.1's pair) is in it
       nullptr, {}, nullptr, "linux", "", {"torch==2.0.1", "torchaudio>=2.0"}, Want::kOk, "", ""},
      {"TorchvisionRangeThatCannotPair", "https://peps.python.org/pep-0440/#version-exclusion",
       // no member of <0.15 pairs with torch 2.0.1
       nullptr, {}, nullptr, "linux", "", {"torch==2.0.1", "torchvision<0.15"}, Want::kProblem, "check.unpaired_set", ""},
      {"LocalSourceBuildIsJudgedNotDismissed", "https://github.com/juntaoJianggavin/RWKV-UNet/issues/6",
       // torch==1.11.0a0+gitbc2c6ed is a local build: no CUDA in its version
       nullptr, {}, nullptr, "linux", "", {"torch==1.11.0a0+gitbc2c6ed"}, Want::kNote, "check.build_undeclared", ""},
      {"NightlyCu111OnGtx1070Ti", "https://github.com/pytorch/pytorch/issues/53164",
       // the thread's nightly dropped sm_61 although CUDA 11.1 can target it; a version tag
       // cannot show which architectures a nightly was built for, so cudamatch judges only the CUDA
       "460.32.03", {"6.1"}, nullptr, "linux", "", {"torch==1.9.0.dev20210303+cu111"}, Want::kNote, "check.build_judged", ""},
  };
  return kRows;
}

MachineSpec SpecOf(const Situation& s) {
  MachineSpec spec;
  if (s.driver) spec.driver = DriverVersion::Parse(s.driver).value();
  for (const char* cc : s.ccs) spec.gpus.push_back(ComputeCapability::Parse(cc).value());
  spec.has_nvidia_gpu = !s.ccs.empty();
  if (s.python) spec.python = PyVersion::Parse(s.python).value();
  spec.platform.os = std::string_view(s.os) == "windows" ? Os::kWindows : Os::kLinux;
  spec.platform.arch = Arch::kX86_64;
  std::string torch = s.torch;
  if (size_t plus = torch.find('+'); plus != std::string::npos) {
    spec.variant = VariantOrNone(torch.substr(plus + 1));
    torch = torch.substr(0, plus);
  }
  if (!torch.empty()) spec.torch = SpecifierSet::Parse(torch).value();
  return spec;
}

bool HasReason(const std::vector<Reason>& reasons, std::string_view id) {
  return std::any_of(reasons.begin(), reasons.end(), [&](const Reason& r) { return r.id == id; });
}

void ExpectPlan(const Situation& s, const Plan& p) {
  switch (s.want) {
    case Want::kPlan:
      ASSERT_NE(p.release, nullptr);
      if (*s.a) {
        EXPECT_EQ(p.variant->variant.tag, s.a);
      }
      if (*s.b) {
        EXPECT_EQ(p.release->torch.Public().rfind(s.b, 0), 0u) << p.release->torch.Public();
      }
      break;
    case Want::kNoPlan: {
      ASSERT_EQ(p.release, nullptr);
      size_t wheels = 0;
      for (const Rejection& r : p.rejected) {
        if (r.candidate.find('+') == std::string::npos) continue;
        ++wheels;
        EXPECT_TRUE(HasReason(r.reasons, s.a)) << r.candidate;
      }
      EXPECT_GT(wheels, 0u);
      if (*s.b) {
        EXPECT_TRUE(HasReason(p.suggestions, s.b));
      }
      break;
    }
    default:
      FAIL() << "not a plan expectation";
  }
}

void ExpectCheck(const Situation& s, const CheckResult& r) {
  auto has_problem = [&](std::string_view id) {
    return std::any_of(r.problems.begin(), r.problems.end(), [&](const Problem& p) { return p.id == id; });
  };
  auto has_reason = [&](std::string_view id) {
    return std::any_of(r.problems.begin(), r.problems.end(), [&](const Problem& p) { return HasReason(p.reasons, id); });
  };
  switch (s.want) {
    case Want::kProblem:
      EXPECT_TRUE(has_problem(s.a));
      if (*s.b) {
        EXPECT_NE(r.install.find(s.b), std::string::npos) << r.install;
      }
      break;
    case Want::kReason:
      EXPECT_TRUE(has_reason(s.a));
      if (*s.b) {
        EXPECT_NE(r.install.find(s.b), std::string::npos) << r.install;
      }
      break;
    case Want::kOk:
      EXPECT_TRUE(r.ok()) << (r.problems.empty() ? "" : r.problems.front().id);
      if (*s.a) {
        ASSERT_NE(r.variant, nullptr);
        EXPECT_EQ(r.variant->variant.tag, s.a);
      }
      break;
    case Want::kNote:
      EXPECT_TRUE(r.ok()) << (r.problems.empty() ? "" : r.problems.front().id);
      EXPECT_TRUE(HasReason(r.notes, s.a));
      break;
    default:
      FAIL() << "not a check expectation";
  }
}

TEST(Situations, AtLeastFortyEachWithASource) {
  EXPECT_GE(Situations().size(), 40u);
  for (const Situation& s : Situations()) EXPECT_EQ(std::string_view(s.source).rfind("https://", 0), 0u) << s.name;
}

TEST(Situations, EachGetsTheAnswerItsThreadReached) {
  for (const Situation& s : Situations()) {
    SCOPED_TRACE(std::string(s.name) + " (" + s.source + ")");
    MachineSpec spec = SpecOf(s);
    if (s.pins.empty()) {
      ExpectPlan(s, MakePlan(TheCatalog(), spec));
      continue;
    }
    std::vector<std::string> pins(s.pins.begin(), s.pins.end());
    ExpectCheck(s, CheckPins(TheCatalog(), spec, ParsePinArgs(pins).value()));
  }
}

TEST(Situations, EveryAnswerRendersInBothLanguagesWithoutPlaceholders) {
  for (const Situation& s : Situations()) {
    MachineSpec spec = SpecOf(s);
    for (Lang lang : {Lang::kEn, Lang::kZh}) {
      for (bool verbose : {false, true}) {
        TextOptions o{lang, Style{}, verbose};
        std::string where = std::string(s.name) + (lang == Lang::kZh ? " zh" : " en") + (verbose ? " -v" : "");
        if (s.pins.empty()) {
          Plan p = MakePlan(TheCatalog(), spec);
          testing::ExpectNoPlaceholders(RenderPlan(p, spec, o), where);
          continue;
        }
        std::vector<std::string> pins(s.pins.begin(), s.pins.end());
        CheckResult r = CheckPins(TheCatalog(), spec, ParsePinArgs(pins).value());
        testing::ExpectNoPlaceholders(RenderCheck(r, o), where);
      }
    }
  }
}

}  // namespace
}  // namespace cudamatch
