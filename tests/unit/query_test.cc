// Catalog questions answered with real values from the sources.
#include "catalog/query.h"

#include <string>

#include <gtest/gtest.h>

#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TheCatalog;

Pep440 V(const char* s) { return Pep440::Parse(s).value(); }
DriverVersion D(const char* s) { return DriverVersion::Parse(s).value(); }
CudaVersion C(const char* s) { return CudaVersion::Parse(s).value(); }
ComputeCapability CC(const char* s) { return ComputeCapability::Parse(s).value(); }

TEST(Query, Torch1130PairsWithVision0140AndAudio0130) {
  const TorchRelease* t = FindTorch(TheCatalog(), V("1.13.0"));
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->torchvision->ToString(), "0.14.0");
  EXPECT_EQ(t->torchaudio->ToString(), "0.13.0");
  EXPECT_EQ(t->python_min->ToString(), "3.7");
  EXPECT_EQ(t->python_max->ToString(), "3.10");
  // PyPI's default on Linux x86_64 (the pytorch.github.io published_versions.json of 2.4.0);
  // no default recorded where no source says (Windows before 2.1); an Intel Mac's is the CPU wheel.
  const TorchVariant* pypi = PypiDefaultVariant(TheCatalog(), *t, "linux-x86_64");
  ASSERT_NE(pypi, nullptr);
  EXPECT_EQ(pypi->variant.tag, "cu117");
  EXPECT_EQ(PypiDefaultVariant(TheCatalog(), *t, "windows-x86_64"), nullptr);
  const TorchVariant* mac = PypiDefaultVariant(TheCatalog(), *t, "macos-x86_64");
  ASSERT_NE(mac, nullptr);
  EXPECT_EQ(mac->variant.tag, "cpu");
  EXPECT_EQ(FindTorch(TheCatalog(), V("1.13.0+cu117")), t);
  EXPECT_EQ(FindTorch(TheCatalog(), V("1.13")), t);
  auto by_vision = TorchForVision(TheCatalog(), V("0.14.0"));
  ASSERT_EQ(by_vision.size(), 1u);
  EXPECT_EQ(by_vision[0], t);
  EXPECT_TRUE(TorchForVision(TheCatalog(), V("1.4.0")).empty());
}

// The 1.7.0 release announcement (googlecolab/colabtools#1676) names torchvision 0.8.1; the
// release row names 0.8.0. Both pair with 1.7.0, and 0.8.2 with 1.7.1.
TEST(Query, VisionPatchReleasesPairWithTheirReleaseLine) {
  const TorchRelease* t170 = FindTorch(TheCatalog(), V("1.7.0"));
  const TorchRelease* t171 = FindTorch(TheCatalog(), V("1.7.1"));
  ASSERT_NE(t170, nullptr);
  ASSERT_NE(t171, nullptr);
  EXPECT_TRUE(CompanionPairs(TheCatalog(), "torchvision", V("0.8.0"), *t170));
  EXPECT_TRUE(CompanionPairs(TheCatalog(), "torchvision", V("0.8.1+cu110"), *t170));
  EXPECT_FALSE(CompanionPairs(TheCatalog(), "torchvision", V("0.8.2"), *t170));
  EXPECT_TRUE(CompanionPairs(TheCatalog(), "torchvision", V("0.8.2"), *t171));
  auto for170 = CompanionsFor(TheCatalog(), "torchvision", V("1.7.0"));
  ASSERT_EQ(for170.size(), 2u);
  EXPECT_EQ(for170[0]->version.ToString(), "0.8.1");  // newest first
  EXPECT_EQ(for170[1]->version.ToString(), "0.8.0");
  auto torch = TorchForVision(TheCatalog(), V("0.8.1"));
  ASSERT_EQ(torch.size(), 1u);
  EXPECT_EQ(torch[0], t170);
  // torchvision 0.11.1 was published for torch 1.10.0 (googlecolab/colabtools#2372).
  const Companion* v0111 = FindCompanion(TheCatalog(), "torchvision", V("0.11.1"));
  ASSERT_NE(v0111, nullptr);
  EXPECT_EQ(v0111->torch.ToString(), "1.10.0");
  EXPECT_EQ(FindCompanion(TheCatalog(), "torchvision", V("1.4.0")), nullptr);
}

TEST(Query, TorchAudio2110PairsWithSeveralReleases) {
  auto ts = TorchForAudio(TheCatalog(), V("2.11.0"));
  EXPECT_GE(ts.size(), 3u);  // 2.11, 2.12.x, 2.13 ...
}

TEST(Query, Cuda124NeedsLinuxDriver5505414) {
  DriverRequirement req = MinDriverFor(TheCatalog(), C("12.4"), Os::kLinux);
  EXPECT_EQ(req.toolkit_min->text, "550.54.14");
  EXPECT_EQ(req.minor_compat->text, "525.60.13");
  DriverRequirement win = MinDriverFor(TheCatalog(), C("12.4"), Os::kWindows);
  EXPECT_EQ(win.toolkit_min->text, "551.61");
  EXPECT_EQ(win.minor_compat->text, "527.41");
  EXPECT_EQ(ToolkitReleases(TheCatalog(), C("12.4")).size(), 2u);
}

TEST(Query, Driver4708201ServesCuda114) {
  DriverCuda d = MaxCudaForDriver(TheCatalog(), D("470.82.01"), Os::kLinux);
  ASSERT_TRUE(d.cuda);
  EXPECT_EQ(d.cuda->MajorMinor(), "11.4");
  EXPECT_TRUE(d.from_branch_table);
  EXPECT_EQ(MaxCudaForDriver(TheCatalog(), D("535.104.05"), Os::kLinux).cuda->MajorMinor(), "12.2");
}

// What Windows nvidia-smi printed as "CUDA Version" for these drivers, in public reports
// (catalog/NOTES.md, "Windows driver numbers", lists them with their addresses).
TEST(Query, WindowsDriverNumbersMapToTheirBranch) {
  const std::vector<std::pair<const char*, const char*>> seen = {
      {"451.48", "11.0"},  // NVIDIA data center release notes 450.51.05 (Windows 451.48), CUDA 11.0
      {"461.72", "11.2"},  // pytorch/pytorch#68611
      {"517.48", "11.7"},  // microsoft/WSL#9134
      {"537.70", "12.2"},  // ollama/ollama#4270
      {"546.33", "12.3"},  // ollama/ollama#1929
      {"555.85", "12.5"},  // ollama/ollama#4726
      {"565.90", "12.7"},  // ollama/ollama#4726
      {"572.70", "12.8"},  // Dao-AILab/flash-attention#1563
      {"576.80", "12.9"},  // ollama/ollama#16957
      {"582.08", "13.0"},  // ollama/ollama#13593
      {"591.59", "13.1"},  // ollama/ollama#13536
      {"616.92", "13.4"},  // ollama/ollama#18581
  };
  for (const auto& [driver, cuda] : seen) {
    DriverCuda d = MaxCudaForDriver(TheCatalog(), D(driver), Os::kWindows);
    ASSERT_TRUE(d.cuda) << driver;
    EXPECT_EQ(d.cuda->MajorMinor(), cuda) << driver;
    EXPECT_TRUE(d.from_branch_table) << driver;
  }
  EXPECT_EQ(WindowsDriverBranch(TheCatalog(), D("566.36"))->branch, 565);
  EXPECT_EQ(WindowsDriverBranch(TheCatalog(), D("475.14"))->branch, 470) << "no R475: still R470";
}

TEST(Query, WindowsDriversOutsideTheBranchRuleUseToolkitMinima) {
  EXPECT_EQ(WindowsDriverBranch(TheCatalog(), D("442.50")), nullptr) << "before R450 the rule is not established";
  DriverCuda old = MaxCudaForDriver(TheCatalog(), D("442.50"), Os::kWindows);
  ASSERT_TRUE(old.cuda);
  EXPECT_FALSE(old.from_branch_table);
  EXPECT_EQ(old.cuda->MajorMinor(), "10.2");
  EXPECT_EQ(WindowsDriverBranch(TheCatalog(), D("700.10")), nullptr) << "far past the newest branch";
}

TEST(Query, DriverFitDistinguishesFullMinorCompatAndTooOld) {
  const Catalog& c = TheCatalog();
  EXPECT_EQ(FitDriver(c, D("535.104.05"), C("12.1"), Os::kLinux), DriverFit::kFull);
  EXPECT_EQ(FitDriver(c, D("525.60.13"), C("12.4"), Os::kLinux), DriverFit::kMinorCompat);
  EXPECT_EQ(FitDriver(c, D("470.82.01"), C("12.1"), Os::kLinux), DriverFit::kTooOld);
  EXPECT_EQ(FitDriver(c, D("470.82.01"), C("11.8"), Os::kLinux), DriverFit::kMinorCompat);
  EXPECT_EQ(FitDriver(c, D("450.36.06"), C("11.1"), Os::kLinux), DriverFit::kTooOld);  // below 450.80.02
  EXPECT_EQ(FitDriver(c, D("580.65.06"), C("11.8"), Os::kLinux), DriverFit::kFull);
  EXPECT_EQ(FitDriver(c, D("418.39"), C("10.2"), Os::kLinux), DriverFit::kTooOld);  // no minor compat before 11
}

TEST(Query, Rtx3090Is86) {
  GpuMatch m = MatchGpuName(TheCatalog(), "RTX 3090");
  ASSERT_FALSE(m.models.empty());
  EXPECT_EQ(m.models.front()->cc.ToString(), "8.6");
  for (const char* q : {"3090", "rtx3090", "GeForce RTX 3090", "geforce rtx 3090"}) {
    GpuMatch x = MatchGpuName(TheCatalog(), q);
    ASSERT_FALSE(x.models.empty()) << q;
    EXPECT_EQ(x.models.front()->cc.ToString(), "8.6") << q;
  }
  auto by_pci = GpusByPciId(TheCatalog(), 0x2204);
  ASSERT_FALSE(by_pci.empty());
  EXPECT_EQ(by_pci.front()->cc.ToString(), "8.6");
}

TEST(Query, UnknownGpuGetsSuggestions) {
  GpuMatch m = MatchGpuName(TheCatalog(), "RTX 3099 Tii");
  EXPECT_TRUE(m.models.empty());
  EXPECT_FALSE(m.suggestions.empty());
  EXPECT_TRUE(MatchGpuName(TheCatalog(), "RTX 3099 Tii", /*suggest=*/false).suggestions.empty());
}

TEST(Query, GarbageGpuNameOfMegabytesGetsNoSuggestion) {
  // Every catalog name used to be scored by edit distance against the whole garbage.
  std::string garbage(1 << 20, 'x');
  GpuMatch m = MatchGpuName(TheCatalog(), garbage);
  EXPECT_TRUE(m.models.empty());
  EXPECT_TRUE(m.suggestions.empty());
  GpuMatch near = MatchGpuName(TheCatalog(), "RTX 309");  // one letter short still suggests
  EXPECT_FALSE(near.models.empty() && near.suggestions.empty());
}

TEST(Query, ArchitecturesAndFirstCuda) {
  const Catalog& c = TheCatalog();
  EXPECT_EQ(ArchitectureFor(c, CC("8.6"))->name, "Ampere");
  EXPECT_EQ(FirstCudaFor(c, CC("8.6"))->MajorMinor(), "11.1");
  EXPECT_EQ(FirstCudaFor(c, CC("8.9"))->MajorMinor(), "11.8");
  EXPECT_EQ(FirstCudaFor(c, CC("12.0"))->MajorMinor(), "12.8");
  EXPECT_EQ(LastCudaFor(c, CC("6.1"))->MajorMinor(), "12.9");  // Pascal dropped in 13.0
}

TEST(Query, BinaryCompatibilityRules) {
  ArchList list = ParseArchList("5.0;6.0;7.0;7.5;8.0;8.6;9.0+PTX").value();
  EXPECT_EQ(FitArch(list, CC("8.9")).fit, KernelFit::kSass);  // sm_86 runs on 8.9
  EXPECT_EQ(FitArch(list, CC("8.9")).via.ToString(), "8.6");
  EXPECT_EQ(FitArch(list, CC("6.1")).fit, KernelFit::kSass);  // sm_60 runs on 6.1
  EXPECT_EQ(FitArch(list, CC("12.0")).fit, KernelFit::kPtx);  // compute_90 JIT-compiles forward
  EXPECT_EQ(FitArch(list, CC("3.7")).fit, KernelFit::kNone);
  ArchList no_ptx = ParseArchList("7.5;8.0;8.6;9.0;10.0;12.0").value();
  EXPECT_EQ(FitArch(no_ptx, CC("6.1")).fit, KernelFit::kNone);  // old GPU, new wheel
  EXPECT_EQ(FitArch(no_ptx, CC("12.1")).fit, KernelFit::kSass);
  EXPECT_EQ(FitArch(no_ptx, CC("11.0")).fit, KernelFit::kNone);  // SASS never crosses majors
  ArchList arch_specific = ParseArchList("9.0a").value();
  EXPECT_EQ(FitArch(arch_specific, CC("9.0")).fit, KernelFit::kSass);
}

TEST(Query, PtxFromACudaThatPredatesTheGpuDoesNotCount) {
  ArchList list = ParseArchList("3.7+PTX").value();
  EXPECT_EQ(FitArch(list, CC("12.0")).fit, KernelFit::kPtx);
  EXPECT_EQ(FitWheel(TheCatalog(), list, C("9.2"), CC("12.0")).fit, KernelFit::kNone);
  EXPECT_EQ(FitWheel(TheCatalog(), ParseArchList("9.0+PTX").value(), C("12.8"), CC("12.0")).fit, KernelFit::kPtx);
}

// Regression (fuzz_requirements): huge release numbers overflowed the nearness score.
TEST(Query, NearestTorchWithHugeVersionNumbers) {
  auto near = NearestTorch(TheCatalog(), V("37777777777777.3.1"), 3);
  EXPECT_EQ(near.size(), 3u);
}

TEST(Query, NearestTorchFollowsReleaseOrder) {
  auto names = [](const Pep440& v) {
    std::vector<std::string> out;
    for (const TorchRelease* t : NearestTorch(TheCatalog(), v, 3)) out.push_back(t->torch.Public());
    return out;
  };
  const auto& all = TheCatalog().torch;
  EXPECT_EQ(names(V("9.9.9")), (std::vector<std::string>{all[all.size() - 1].torch.Public(),
                                                          all[all.size() - 2].torch.Public(),
                                                          all[all.size() - 3].torch.Public()}));
  EXPECT_EQ(names(V("2.3.3")), (std::vector<std::string>{"2.3.1", "2.3.0", "2.4.0"}));
  EXPECT_EQ(names(V("2.5.1")), (std::vector<std::string>{"2.5.1", "2.5.0", "2.6.0"}));
  EXPECT_EQ(names(V("1.14.0")), (std::vector<std::string>{"1.13.1", "2.0.0", "1.13.0"}));  // its major first
}

TEST(Query, PythonFit) {
  const TorchRelease* t = FindTorch(TheCatalog(), V("2.5.1"));
  EXPECT_EQ(FitPython(*t, PyVersion::Parse("3.12").value()), PythonFit::kSupported);
  EXPECT_EQ(FitPython(*t, PyVersion::Parse("3.13").value()), PythonFit::kExperimental);
  EXPECT_EQ(FitPython(*t, PyVersion::Parse("3.8").value()), PythonFit::kUnsupported);
}

TEST(Query, CudnnAndCompilers) {
  const Catalog& c = TheCatalog();
  const CudnnRelease* d = CudnnFor(c, V("8.9.6"));
  ASSERT_NE(d, nullptr);
  EXPECT_TRUE(d->Supports(C("12.2")));
  EXPECT_FALSE(d->Supports(C("12.3")));
  EXPECT_EQ(HostCompilerFor(c, C("12.4"))->max_gcc, 13);
  EXPECT_EQ(CudnnFor(c, V("9.2.0")), nullptr);  // a gap stays a gap
}

TEST(Query, Mirrors) {
  EXPECT_EQ(FindMirror(TheCatalog(), "tuna")->kind, "pypi");
  EXPECT_EQ(FindMirror(TheCatalog(), "https://pypi.tuna.tsinghua.edu.cn/simple/")->name, "tuna");
  EXPECT_EQ(FindMirror(TheCatalog(), "https://example.com/simple"), nullptr);
}

// The variants of one release, read from the unparsed table (only that release's rows) and from
// the parsed table, are the same rows in the same order, for every release and platform, for
// version texts written otherwise (1.13 for 1.13.0) and with a local label.
TEST(Query, VariantsOfOneReleaseReadInPartsAreTheParsedTablesRows) {
  std::vector<Pep440> asked;
  for (const TorchRelease& t : TheCatalog().torch) asked.push_back(t.torch);
  asked.push_back(V("1.13"));
  asked.push_back(V("2.3.1+cu121"));
  asked.push_back(V("2.3.1.post1"));
  asked.push_back(V("9.9.9"));
  size_t compared = 0;
  for (const Pep440& v : asked) {
    for (std::string_view platform : CatalogPlatforms()) {
      Catalog fresh = ParseCatalog(EmbeddedCatalogFiles()).value();
      std::vector<const TorchVariant*> parts = VariantsOf(fresh, v, platform);
      EXPECT_FALSE(fresh.torch_variants.parsed()) << v.ToString();
      std::vector<const TorchVariant*> whole = VariantsOf(TheCatalog(), v, platform);
      ASSERT_EQ(parts.size(), whole.size()) << v.ToString() << " " << platform;
      for (size_t i = 0; i < parts.size(); ++i) {
        EXPECT_EQ(parts[i]->variant.tag, whole[i]->variant.tag);
        EXPECT_EQ(parts[i]->torch, whole[i]->torch);
        EXPECT_EQ(parts[i]->prov.line, whole[i]->prov.line);
        EXPECT_EQ(parts[i]->cudnn, whole[i]->cudnn);
        EXPECT_EQ(parts[i]->arch_list.has_value(), whole[i]->arch_list.has_value());
        if (parts[i]->arch_list && whole[i]->arch_list) EXPECT_EQ(parts[i]->arch_list->size(), whole[i]->arch_list->size());
        EXPECT_EQ(parts[i]->pypi_default, whole[i]->pypi_default);
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 400u);  // every row of the table is some release's
  EXPECT_EQ(VariantsOf(TheCatalog(), V("1.13"), "linux-x86_64").size(),
            VariantsOf(TheCatalog(), V("1.13.0"), "linux-x86_64").size());
}

// After a few releases read in parts, the next question parses the whole table once.
TEST(Query, ManyReleasesAskedParseTheWholeTableOnce) {
  Catalog fresh = ParseCatalog(EmbeddedCatalogFiles()).value();
  size_t asked = 0;
  for (const TorchRelease& t : TheCatalog().torch) {
    VariantsOf(fresh, t.torch, "linux-x86_64");
    if (++asked == 10) break;
  }
  EXPECT_TRUE(fresh.torch_variants.parsed());
}

}  // namespace
}  // namespace cudamatch
