// doctor --from, step by step: DecodePaste on what arrives (CRLF, UTF-16 with and without a BOM,
// quotes, a cut, 10 MB), PasteSnapshot's citations and conflicts, and the rules on a paste: the
// same findings a machine gets, none that reason from what a paste cannot show.
#include <gtest/gtest.h>

#include <algorithm>

#include "derive/derive.h"
#include "plan/diagnose.h"
#include "probe/paste.h"
#include "test_util.h"

namespace cudamatch {
namespace {

std::string Utf16Le(std::string_view ascii) {
  std::string out;
  for (char c : ascii) {
    out += c;
    out += '\0';
  }
  return out;
}

std::vector<std::string> Texts(const PasteText& t) {
  std::vector<std::string> out;
  for (const PasteLine& l : t.lines) out.push_back(l.text);
  return out;
}

TEST(PasteDecode, LineEndingsOfEverySystemNumberLinesAsAnEditorDoes) {
  PasteText t = DecodePaste("a\r\nb\rc\nd\r\n\r\ne");
  EXPECT_EQ(Texts(t), (std::vector<std::string>{"a", "b", "c", "d", "", "e"}));
  EXPECT_EQ(t.lines[5].number, 6);
  EXPECT_EQ(t.encoding, "utf-8");
  EXPECT_FALSE(t.truncated);
  EXPECT_EQ(DecodePaste("one\n").lines.size(), 1u);  // a final line break adds no line
  EXPECT_TRUE(DecodePaste("").lines.empty());
}

TEST(PasteDecode, Utf16WithABomAndPowerShellsWithout) {
  PasteText le = DecodePaste("\xFF\xFE" + Utf16Le("PyTorch version: 2.1.0\r\nOS: x\r\n"));
  EXPECT_EQ(le.encoding, "utf-16le");
  EXPECT_EQ(Texts(le), (std::vector<std::string>{"PyTorch version: 2.1.0", "OS: x"}));
  PasteText bare = DecodePaste(Utf16Le("PyTorch version: 2.1.0\r\nIs CUDA available: True\r\n"));
  EXPECT_EQ(bare.encoding, "utf-16le");
  EXPECT_EQ(Texts(bare), (std::vector<std::string>{"PyTorch version: 2.1.0", "Is CUDA available: True"}));
  // UTF-16BE with its BOM; U+FF1A (the full-width colon) comes out as UTF-8.
  PasteText be = DecodePaste(std::string("\xFE\xFF\0G\0P\0U\xFF\x1A\0x", 12));
  EXPECT_EQ(be.encoding, "utf-16be");
  EXPECT_EQ(Texts(be), (std::vector<std::string>{"GPU\xEF\xBC\x9Ax"}));
}

TEST(PasteDecode, ControlBytesGoInvalidUtf8IsReplacedTabsStay) {
  PasteText t = DecodePaste(std::string("a\0b\x1b[31mc\td\xC3(\xEF\xBB\xBF", 16));  // a BOM inside the text is dropped too
  ASSERT_EQ(t.lines.size(), 1u);
  EXPECT_EQ(t.lines[0].text, "ab[31mc\td\xEF\xBF\xBD(");
  EXPECT_EQ(DecodePaste("\xEF\xBB\xBFx").lines[0].text, "x");  // the UTF-8 BOM
}

TEST(PasteDecode, QuoteMarkersOfRepliesAreDropped) {
  PasteText t = DecodePaste("> PyTorch version: 2.1.0\n>> > OS: Ubuntu\n  > \nx > y\n```\n");
  EXPECT_EQ(Texts(t), (std::vector<std::string>{"PyTorch version: 2.1.0", "OS: Ubuntu", "", "x > y", "```"}));
}

TEST(PasteDecode, TenMegabytesAreReadAndLongerPastesAreCut) {
  std::string line = "[pip3] numpy==1.26.4\n";
  std::string big;
  while (big.size() < 10u * 1024 * 1024) big += line;
  PasteText ten = DecodePaste(big);
  EXPECT_FALSE(ten.truncated);
  EXPECT_EQ(ten.lines.size(), big.size() / line.size());
  std::string huge(kPasteMaxBytes + 10, 'x');
  PasteText cut = DecodePaste(huge);
  EXPECT_TRUE(cut.truncated);
  ASSERT_EQ(cut.lines.size(), 1u);
  EXPECT_EQ(cut.lines[0].text.size(), kPasteMaxBytes);
}

// A collect_env of a CUDA 12.1 build on a machine with a 470 driver, as pasted.
constexpr std::string_view kCu121On470 =
    "Collecting environment information...\n"
    "PyTorch version: 2.3.1+cu121\n"
    "Is debug build: False\n"
    "CUDA used to build PyTorch: 12.1\n"
    "ROCM used to build PyTorch: N/A\n"
    "\n"
    "OS: Ubuntu 20.04.6 LTS (x86_64)\n"
    "GCC version: (Ubuntu 9.4.0-1ubuntu1~20.04.2) 9.4.0\n"
    "Libc version: glibc-2.31\n"
    "\n"
    "Python version: 3.10.14 (main, May  6 2024, 19:42:50) [GCC 11.2.0] (64-bit runtime)\n"
    "Python platform: Linux-5.4.0-182-generic-x86_64-with-glibc2.31\n"
    "Is CUDA available: False\n"
    "CUDA runtime version: Could not collect\n"
    "GPU models and configuration: GPU 0: Tesla V100-SXM2-32GB\n"
    "Nvidia driver version: 470.239.06\n"
    "cuDNN version: Could not collect\n"
    "\n"
    "Versions of relevant libraries:\n"
    "[pip3] torch==2.3.1\n"
    "[conda] Could not collect\n";

Snapshot SnapshotOf(std::string_view paste) {
  PasteText text = DecodePaste(paste);
  Snapshot snap = PasteSnapshot(text, ReadPaste(text), "env.txt");
  Derive(testing::TheCatalog(), snap);
  return snap;
}

std::vector<std::string> Ids(const std::vector<Finding>& findings) {
  std::vector<std::string> ids;
  for (const Finding& f : findings) ids.push_back(f.id);
  return ids;
}

bool Has(const std::vector<std::string>& ids, std::string_view id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); }

TEST(PasteSnapshot, EveryValueCitesItsLine) {
  Snapshot s = SnapshotOf(kCu121On470);
  ASSERT_TRUE(s.driver.userspace_version);
  EXPECT_EQ(s.driver.userspace_version->text, "470.239.06");
  EXPECT_EQ(s.driver.userspace_source, "line 16: Nvidia driver version: 470.239.06");
  EXPECT_FALSE(s.driver.kernel_module_loaded);
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].name, "Tesla V100-SXM2-32GB");
  ASSERT_TRUE(s.gpus[0].cc);  // Derive: by name
  EXPECT_EQ(s.gpus[0].cc->ToString(), "7.0");
  ASSERT_EQ(s.pythons.size(), 1u);
  const PythonEnv& env = s.pythons[0];
  EXPECT_EQ(env.version->ToString(), "3.10");
  const PackageInfo& torch = env.packages.at("torch");
  EXPECT_EQ(torch.version->ToString(), "2.3.1+cu121");  // line 2 is first; line 20 agrees
  EXPECT_EQ(torch.version_source, "line 2: PyTorch version: 2.3.1+cu121");
  EXPECT_EQ(torch.cuda->MajorMinor(), "12.1");
  EXPECT_EQ(torch.cuda_source, "line 4: CUDA used to build PyTorch: 12.1");
  EXPECT_EQ(s.host.os_id, "ubuntu");
  EXPECT_EQ(s.host.glibc, "2.31");
  EXPECT_EQ(s.host.gcc_major, 9);
  EXPECT_EQ(s.platform.Name(), "linux-x86_64");
  EXPECT_TRUE(s.toolkits.empty());
  ASSERT_TRUE(s.paste);
  EXPECT_EQ(s.paste->formats, std::vector<PasteFormat>{PasteFormat::kCollectEnv});
  EXPECT_EQ(s.paste->lines, 21);
  EXPECT_TRUE(s.paste->conflicts.empty());
  auto gaps = s.paste->not_checked;
  EXPECT_NE(std::find(gaps.begin(), gaps.end(), PasteGap::kToolkits), gaps.end());
  EXPECT_EQ(std::find(gaps.begin(), gaps.end(), PasteGap::kDriver), gaps.end());
  EXPECT_NE(std::find(gaps.begin(), gaps.end(), PasteGap::kLibraries), gaps.end());
}

TEST(PasteSnapshot, ACutCitationEndsOnACharacterBoundary) {
  std::string gpu = "GPU models and configuration: GPU 0: " + std::string(60, 'x');
  for (int i = 0; i < 20; ++i) gpu += "\xE6\x98\xBE";  // 显
  Snapshot s = SnapshotOf("PyTorch version: 2.1.0\n" + gpu + "\n");
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_LE(s.gpus[0].source.size(), 120u);
  EXPECT_TRUE(s.gpus[0].source.ends_with("..."));
  EXPECT_EQ(DecodePaste(s.gpus[0].source).lines[0].text, s.gpus[0].source);  // still valid UTF-8
}

TEST(PasteRules, TheSameFindingsAMachineGets) {
  Snapshot s = SnapshotOf(kCu121On470);
  std::vector<std::string> ids = Ids(Diagnose(s, testing::TheCatalog()));
  EXPECT_TRUE(Has(ids, "torch.driver_too_old")) << ::testing::PrintToString(ids);
  // Absence a paste cannot show is never a finding: no kernel-module line is no unloaded module.
  EXPECT_FALSE(Has(ids, "driver.module_not_loaded"));
  EXPECT_FALSE(Has(ids, "driver.missing"));
}

TEST(PasteRules, ACpuBuildWithAGpuListed) {
  std::string paste(kCu121On470);
  for (auto [from, to] : {std::pair<std::string, std::string>{"2.3.1+cu121", "2.3.1+cpu"}, {"build PyTorch: 12.1", "build PyTorch: None"}}) {
    paste.replace(paste.find(from), from.size(), to);
  }
  Snapshot s = SnapshotOf(paste);
  EXPECT_TRUE(s.pythons[0].packages.at("torch").cuda_none);
  std::vector<std::string> ids = Ids(Diagnose(s, testing::TheCatalog()));
  EXPECT_TRUE(Has(ids, "torch.cpu_build")) << ::testing::PrintToString(ids);
  EXPECT_FALSE(Has(ids, "torch.driver_too_old"));
}

TEST(PasteRules, GpusWithoutADriverLineAreNoMissingDriver) {
  Snapshot s = SnapshotOf("PyTorch version: 2.3.1+cu121\nGPU models and configuration: GPU 0: NVIDIA A100-SXM4-80GB\n"
                          "Nvidia driver version: Could not collect\n");
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_FALSE(s.driver.installed());
  std::vector<std::string> ids = Ids(Diagnose(s, testing::TheCatalog()));
  EXPECT_FALSE(Has(ids, "driver.missing")) << ::testing::PrintToString(ids);
  auto gaps = s.paste->not_checked;
  EXPECT_NE(std::find(gaps.begin(), gaps.end(), PasteGap::kDriver), gaps.end());
  // The same snapshot read from a machine: the driver is missing.
  s.paste.reset();
  EXPECT_TRUE(Has(Ids(Diagnose(s, testing::TheCatalog())), "driver.missing"));
}

TEST(PasteRules, TwoDriverVersionsAreAConflictNotAPick) {
  Snapshot s = SnapshotOf(std::string(kCu121On470) +
                          "\nCollecting environment information...\nPyTorch version: 2.3.1+cu121\n"
                          "Nvidia driver version: 550.54.15\n");
  ASSERT_TRUE(s.paste);
  ASSERT_EQ(s.paste->conflicts.size(), 1u);
  const PasteConflict& c = s.paste->conflicts[0];
  EXPECT_EQ(c.kind, PasteFactKind::kDriverVersion);
  EXPECT_EQ(c.first.line, 16);
  EXPECT_EQ(c.second.value, "550.54.15");
  EXPECT_EQ(s.driver.userspace_version->text, "470.239.06");  // the first is kept
  EXPECT_EQ(s.paste->formats.size(), 1u);                        // two blocks of one format
  std::vector<Finding> findings = Diagnose(s, testing::TheCatalog());
  auto it = std::find_if(findings.begin(), findings.end(), [](const Finding& f) { return f.id == "paste.conflicting_facts"; });
  ASSERT_NE(it, findings.end());
  EXPECT_EQ(it->severity, Severity::kWarning);
  ASSERT_EQ(it->evidence.size(), 2u);
  // The same torch said twice (2.3.1+cu121 and "[pip3] torch==2.3.1") is no conflict.
  EXPECT_EQ(std::count_if(findings.begin(), findings.end(), [](const Finding& f) { return f.id == "paste.conflicting_facts"; }), 1);
}

TEST(PasteRules, ACutPasteIsSaid) {
  std::string paste(kCu121On470);
  paste += std::string(kPasteMaxBytes, '#');
  Snapshot s = SnapshotOf(paste);
  EXPECT_TRUE(s.paste->truncated);
  EXPECT_TRUE(Has(Ids(Diagnose(s, testing::TheCatalog())), "paste.truncated"));
  EXPECT_FALSE(Has(Ids(Diagnose(SnapshotOf(kCu121On470), testing::TheCatalog())), "paste.truncated"));
}

// collect_env with nvidia-smi's table after it, as pasted into one issue: the collect_env reader
// takes its own lines only; the table's "Driver Version" and "CUDA Version" are not its keys.
TEST(PasteReaders, MixedWithNvidiaSmiTheTableIsNotMisread) {
  std::string paste = "PyTorch version: 2.1.0+cu121\nNvidia driver version: 535.104.05\n\n"
                      "Wed Jan 10 10:00:00 2024\n"
                      "+---------------------------------------------------------------------------------------+\n"
                      "| NVIDIA-SMI 535.104.05             Driver Version: 535.104.05   CUDA Version: 12.2     |\n"
                      "|-----------------------------------------+----------------------+----------------------+\n"
                      "| GPU  Name                 Persistence-M | Bus-Id        Disp.A | Volatile Uncorr. ECC |\n"
                      "|   0  NVIDIA GeForce RTX 3090        Off | 00000000:01:00.0 Off |                  N/A |\n"
                      "OS: Ubuntu 22.04.3 LTS (x86_64)\n";  // the block has not ended: a key of it is read
  std::vector<PasteFact> facts = ReadCollectEnv(DecodePaste(paste));
  std::vector<PasteFactKind> kinds;
  for (const PasteFact& f : facts) kinds.push_back(f.kind);
  EXPECT_EQ(kinds, (std::vector<PasteFactKind>{PasteFactKind::kFormat, PasteFactKind::kTorchVersion, PasteFactKind::kDriverVersion,
                                               PasteFactKind::kOs}));
  for (const PasteFact& f : facts) EXPECT_LE(f.line, 10);
  Snapshot s = SnapshotOf(paste);
  ASSERT_EQ(s.gpus.size(), 1u);  // from the table, which is nvidia-smi's reader's
  EXPECT_EQ(s.gpus[0].name, "NVIDIA GeForce RTX 3090");
  EXPECT_EQ(s.driver.userspace_version->text, "535.104.05");
  ASSERT_TRUE(s.driver.cuda);
  EXPECT_EQ(s.driver.cuda->ToString(), "12.2");
}

TEST(PasteSnapshot, ACutGpuNameIsTheSameGpu) {
  PasteText text = DecodePaste("a\nb\nc\n");
  std::vector<PasteFact> facts = {
      {PasteFactKind::kGpu, PasteFormat::kCollectEnv, 1, "0", "NVIDIA GeForce RTX 4090 Laptop GPU", ""},
      {PasteFactKind::kGpu, PasteFormat::kNvidiaSmi, 2, "0", "NVIDIA GeForce RTX 4090 ...", ""},
      {PasteFactKind::kGpu, PasteFormat::kNvidiaSmi, 3, "0", "Tesla T4", ""},
  };
  Snapshot s = PasteSnapshot(text, facts, "x");
  ASSERT_EQ(s.paste->conflicts.size(), 1u);
  EXPECT_EQ(s.paste->conflicts[0].second.value, "Tesla T4");
  EXPECT_EQ(s.gpus.at(0).name, "NVIDIA GeForce RTX 4090 Laptop GPU");
  EXPECT_EQ(s.gpus.at(0).source, "line 1: a");
}

TEST(PasteReaders, TheTableRunsInFormatOrderAndFactsComeSortedByLine) {
  const auto& readers = PasteReaders();
  ASSERT_FALSE(readers.empty());
  for (size_t i = 1; i < readers.size(); ++i) EXPECT_LT(readers[i - 1].format, readers[i].format);
  std::vector<PasteFact> facts = ReadPaste(DecodePaste(kCu121On470));
  ASSERT_FALSE(facts.empty());
  EXPECT_TRUE(std::is_sorted(facts.begin(), facts.end(), [](const PasteFact& a, const PasteFact& b) { return a.line < b.line; }));
  EXPECT_EQ(facts.front().kind, PasteFactKind::kFormat);
  EXPECT_EQ(facts.front().line, 1);  // "Collecting environment information..."
}

}  // namespace
}  // namespace cudamatch

namespace cudamatch {
namespace {

TEST(PasteConda, TheBuildStringSaysTheBuild) {
  EXPECT_TRUE(CondaBuildOf("py3.8_cpu_0").cpu);
  EXPECT_FALSE(CondaBuildOf("py3.8_cpu_0").cuda);
  EXPECT_EQ(CondaBuildOf("py3.10_cuda12.1_cudnn8.9.2_0").cuda->MajorMinor(), "12.1");
  EXPECT_FALSE(CondaBuildOf("py3.10_cuda12.1_cudnn8.9.2_0").cpu);
  EXPECT_EQ(CondaBuildOf("cuda118_py311h4ee7bbc_300").cuda->MajorMinor(), "11.8");
  EXPECT_TRUE(CondaBuildOf("cpu_generic_py312h1b2c3d4_0").cpu);
  CondaBuild none = CondaBuildOf("py38");
  EXPECT_FALSE(none.cpu);
  EXPECT_FALSE(none.cuda);
  EXPECT_FALSE(CondaBuildOf("cudatoolkit").cuda);
}

// conda list of a CPU pytorch (https://github.com/meta-pytorch/data/issues/315): torch is the CPU
// build, said by its own line.
TEST(PasteConda, APytorchChannelCpuBuildIsACpuTorch) {
  PasteText text = DecodePaste(
      "\xE2\x9D\xAF conda list | grep pytorch\n"
      "cpuonly                   2.0                           0    pytorch\n"
      "pytorch                   1.11.0              py3.8_cpu_0    pytorch\n"
      "torchvision               0.12.0                 py38_cpu    pytorch\n");
  Snapshot s = PasteSnapshot(text, ReadPaste(text), "conda.txt");
  ASSERT_EQ(s.pythons.size(), 1u);
  const PackageInfo& torch = s.pythons[0].packages.at("torch");
  EXPECT_EQ(torch.version->ToString(), "1.11.0");
  EXPECT_TRUE(torch.cuda_none);
  EXPECT_EQ(torch.cuda_source, "line 3: pytorch                   1.11.0              py3.8_cpu_0    pytorch");
}

}  // namespace
}  // namespace cudamatch
