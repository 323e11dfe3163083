// The doctor summary (diagnose/summary.h) and the text layout it leads: verdicts per environment
// from hand-made snapshots, identical GPUs as one finding and one line, one finding per cause,
// and the wrapping helpers (report/style.h).
#include "diagnose/summary.h"

#include <gtest/gtest.h>

#include "core/text.h"
#include "plan/diagnose.h"
#include "report/doctor.h"
#include "report/i18n.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TheCatalog;

Snapshot Machine(const char* driver, const char* cuda) {
  Snapshot s = testing::MachineWithDriver(driver, cuda);
  s.driver.libcuda_paths = {"/usr/lib/x86_64-linux-gnu/libcuda.so.1"};
  return s;
}

void AddGpus(Snapshot& s, int n, const char* name, const char* cc) {
  for (int i = 0; i < n; ++i) {
    GpuInfo g;
    g.index = static_cast<int>(s.gpus.size());
    g.name = name;
    g.cc = ComputeCapability::Parse(cc).value();
    g.pci_bus_id = "0000:" + std::to_string(10 + g.index) + ":00.0";
    g.source = "NVML";
    s.gpus.push_back(g);
  }
}

void AddTorch(Snapshot& s, const char* version, const char* variant, const char* cuda) {
  PythonEnv env;
  env.prefix = "/opt/env" + std::to_string(s.pythons.size());
  env.kind = PythonKind::kVenv;
  env.version = PyVersion::Parse("3.10").value();
  PackageInfo p;
  p.name = "torch";
  p.version = Pep440::Parse(version).value();
  p.variant = Variant::Parse(variant).value();
  if (cuda) p.cuda = CudaVersion::Parse(cuda).value();
  env.packages["torch"] = p;
  s.pythons.push_back(env);
}

std::vector<const Finding*> WithId(const std::vector<Finding>& fs, std::string_view id) {
  std::vector<const Finding*> out;
  for (const Finding& f : fs) {
    if (f.id == id) out.push_back(&f);
  }
  return out;
}

std::string Arg(const Finding& f, const std::string& key) {
  for (const auto& [k, v] : f.args) {
    if (k == key) return v.value_or("null");
  }
  return "";
}

std::vector<std::string> FirstLines(const std::string& text, size_t n) {
  std::vector<std::string> out;
  for (std::string_view line : Lines(text)) {
    if (out.size() == n) break;
    out.emplace_back(line);
  }
  return out;
}

TEST(Summary, EightIdenticalGpusWithoutCodeAreOneFindingWithTheirCount) {
  Snapshot s = Machine("570.86.10", "12.8");
  AddGpus(s, 8, "NVIDIA GeForce RTX 5090", "12.0");
  AddTorch(s, "2.3.1+cu121", "cu121", "12.1");
  std::vector<Finding> fs = Diagnose(s, TheCatalog());
  auto no_code = WithId(fs, "torch.no_kernels");
  ASSERT_EQ(no_code.size(), 1u);
  EXPECT_EQ(Arg(*no_code[0], "count"), "8");
  EXPECT_EQ(Arg(*no_code[0], "gpus"), "8 x NVIDIA GeForce RTX 5090");
  EXPECT_EQ(Arg(*no_code[0], "gpu"), "NVIDIA GeForce RTX 5090");
  Summary sum = Summarize(s, fs);
  ASSERT_EQ(sum.envs.size(), 1u);
  EXPECT_EQ(sum.envs[0].verdict, TorchVerdict::kCannotRun);
  EXPECT_EQ(fs[static_cast<size_t>(sum.envs[0].reason)].id, "torch.no_kernels");
}

TEST(Summary, SomeGpusWithoutCodeRunOnTheOthers) {
  Snapshot s = Machine("570.86.10", "12.8");
  AddGpus(s, 4, "NVIDIA GeForce RTX 5090", "12.0");
  AddGpus(s, 4, "NVIDIA GeForce RTX 3090", "8.6");
  AddTorch(s, "2.3.1+cu121", "cu121", "12.1");
  std::vector<Finding> fs = Diagnose(s, TheCatalog());
  ASSERT_EQ(WithId(fs, "torch.no_kernels").size(), 1u);
  EXPECT_EQ(Summarize(s, fs).envs[0].verdict, TorchVerdict::kRunsOnSomeGpus);
  ASSERT_EQ(GroupGpus(s.gpus).size(), 2u);
  EXPECT_EQ(GroupGpus(s.gpus)[1].members, (std::vector<size_t>{4, 5, 6, 7}));
}

TEST(Summary, IdenticalGpusAreOneLineInTheSummaryAndInTheDetails) {
  Snapshot s = Machine("550.54.14", "12.4");
  AddGpus(s, 8, "NVIDIA H100 80GB HBM3", "9.0");
  AddTorch(s, "2.3.1+cu121", "cu121", "12.1");
  std::vector<Finding> fs = Diagnose(s, TheCatalog());
  std::string text = RenderDoctor(s, fs, TextOptions{});
  EXPECT_EQ(FirstLines(text, 1)[0], "Machine: driver 550.54.14, CUDA 12.4 · 8 x NVIDIA H100 80GB HBM3, sm_90");
  size_t rows = 0;
  for (std::string_view line : Lines(text)) rows += line.find("NVIDIA H100 80GB HBM3") != std::string_view::npos;
  EXPECT_EQ(rows, 2u) << text;  // the machine line and one GPU row
  EXPECT_NE(text.find("  0,1,2,3,4,5,6,7  8 x NVIDIA H100 80GB HBM3  9.0 (sm_90"), std::string::npos) << text;
}

TEST(Summary, DriverTooOldSaysWhatTheDriverServesAndWhatTheBuildNeeds) {
  Snapshot s = Machine("470.82.01", "11.4");
  AddGpus(s, 1, "NVIDIA GeForce RTX 3090", "8.6");
  AddTorch(s, "2.3.1+cu121", "cu121", "12.1");
  std::vector<Finding> fs = Diagnose(s, TheCatalog());
  TextOptions wide;
  wide.width = 200;
  std::vector<std::string> top = FirstLines(RenderDoctor(s, fs, wide), 3);
  EXPECT_EQ(top[1], "torch 2.3.1+cu121 in /opt/env0: cannot run: driver serves CUDA 11.4, this build needs 12.1 (1 error below)");
  EXPECT_EQ(top[2], "1 error, 0 warnings.");
}

TEST(Summary, CpuBuildOnAGpuMachineAndNoGpuToRunOn) {
  Snapshot s = Machine("550.54.14", "12.4");
  AddGpus(s, 1, "NVIDIA GeForce RTX 4090", "8.9");
  AddTorch(s, "2.3.1+cpu", "cpu", nullptr);
  EXPECT_EQ(Summarize(s, Diagnose(s, TheCatalog())).envs[0].verdict, TorchVerdict::kCpuBuildOnGpuMachine);
  Snapshot bare;
  AddTorch(bare, "2.3.1+cu121", "cu121", "12.1");
  AddTorch(bare, "2.3.1+cpu", "cpu", nullptr);
  Summary sum = Summarize(bare, Diagnose(bare, TheCatalog()));
  EXPECT_EQ(sum.driver, DriverState::kNone);
  EXPECT_EQ(sum.envs[0].verdict, TorchVerdict::kNoGpu);
  EXPECT_EQ(sum.envs[1].verdict, TorchVerdict::kCpuBuild);
}

TEST(Summary, AContainerWithoutTheHostsModuleIsOneFinding) {
  Snapshot s;
  s.driver.container = true;
  s.driver.container_source = "/.dockerenv";
  s.driver.userspace_version = DriverVersion::Parse("535.104.05").value();
  s.driver.libcuda_paths = {"/usr/lib/x86_64-linux-gnu/libcuda.so.1"};
  std::vector<Finding> fs = Diagnose(s, TheCatalog());
  ASSERT_EQ(WithId(fs, "container.no_devices").size(), 0u);
  auto cause = WithId(fs, "container.module_not_loaded");
  ASSERT_EQ(cause.size(), 1u);
  EXPECT_EQ(cause[0]->merged, (std::vector<std::string>{"container.no_devices"}));
  bool also = false;
  for (const EvidenceItem& e : cause[0]->evidence) also |= e.id == "evidence.no_device_nodes" && !e.args.empty();
  EXPECT_TRUE(also);
  EXPECT_NE(RenderFinding(*cause[0], TextOptions{}).find("    also: no /dev/nvidia* device nodes\n"), std::string::npos);
}

TEST(Summary, EveryFindingThatStopsTorchIsDeclaredAndHasAShortReason) {
  for (std::string_view id : BlockingFindingIds()) {
    const FindingDecl* decl = FindFinding(id);
    ASSERT_NE(decl, nullptr) << id;
    EXPECT_EQ(decl->severity, Severity::kError) << id;
    for (Lang lang : {Lang::kEn, Lang::kZh}) {
      EXPECT_NE(Tr(lang, "summary.reason." + std::string(id)), "[summary.reason." + std::string(id) + "]") << id;
    }
  }
}

TEST(Wrap, BreaksAtSpacesAndKeepsLongWordsWhole) {
  EXPECT_EQ(WrapLine("  why: one two three four", 14, "    "), "  why: one two\n    three four\n");
  EXPECT_EQ(WrapLine("  a /a/very/long/path/that/does/not/fit b", 12, "    "), "  a\n    /a/very/long/path/that/does/not/fit\n    b\n");
  EXPECT_EQ(WrapLine("  message  [id]", 100, "    "), "  message  [id]\n");  // spacing kept when it fits
}

TEST(Wrap, ChineseBreaksBetweenCharactersButNeverBeforeAClosingMark) {
  // 10 wide characters = 20 columns, then a comma that must stay on its line.
  std::string text = "原因：容器使用宿主机的内核，容器内无法加载它。";
  std::string out = WrapLine(text, 14, "  ");
  for (std::string_view line : Lines(out)) {
    EXPECT_LE(DisplayWidth(line), 14u) << out;
    EXPECT_FALSE(StartsWith(Trim(line), "，") || StartsWith(Trim(line), "。")) << out;
  }
  std::string joined;
  for (std::string_view line : Lines(out)) joined += std::string(Trim(line));
  EXPECT_EQ(joined, text);
}

TEST(Wrap, ColumnsMoveTheirLastCellUnderTheRowWhenTooWide) {
  std::vector<std::vector<std::string>> rows = {{"cuDNN", "9.1.0", "/a/long/source/path/file.h"}, {"NVML", "a long last cell"}};
  EXPECT_EQ(RenderColumnsFit(rows, "  ", 30), "  cuDNN  9.1.0\n      /a/long/source/path/file.h\n  NVML   a long last cell\n");
  EXPECT_EQ(RenderColumnsFit(rows, "  ", 100), "  cuDNN  9.1.0  /a/long/source/path/file.h\n  NVML   a long last cell\n");
}

}  // namespace
}  // namespace cudamatch
