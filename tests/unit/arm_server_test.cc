// Grace superchips (GH200, GB200), DGX Spark (GB10) and containers without GPU access: each test
// is built from the public thread cited above it, run through the binary.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "catalog/checks.h"
#include "catalog/query.h"
#include "core/text.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using nlohmann::json;
using testing::RunCudamatch;

std::string Machine(const std::string& m) { return testing::SourceDir() + "/tests/fixtures/machines/" + m; }

std::vector<std::string> MachineEnv(const std::string& m) {
  std::vector<std::string> env;
  std::string text = testing::ReadSource("tests/fixtures/machines/" + m + "/env");
  for (std::string_view line : Split(text, '\n')) {
    if (!line.empty() && line[0] != '#') env.emplace_back(line);
  }
  env.emplace_back(testing::kGoldenNow);
  return env;
}

json Doctor(const std::string& m) {
  testing::RunResult r = RunCudamatch({"doctor", "--root", Machine(m) + "/root", "--json"}, MachineEnv(m));
  return json::parse(r.out);
}

std::vector<std::string> FindingIds(const json& doctor) {
  std::vector<std::string> ids;
  for (const json& f : doctor["findings"]) ids.push_back(f["id"].get<std::string>());
  return ids;
}

json RunJson(std::vector<std::string> args) {
  args.push_back("--json");
  return json::parse(RunCudamatch(args, {"LANG=C.UTF-8", std::string(testing::kGoldenNow)}).out);
}

TEST(GpuHosts, GraceAndJetsonGpusComeOnlyWithAarch64Hosts) {
  const Catalog& c = testing::TheCatalog();
  for (const char* gpu : {"NVIDIA GH200", "NVIDIA GH200 480GB", "NVIDIA GB200", "NVIDIA GB10", "Jetson AGX Orin"}) {
    const GpuHost* h = HostOfGpu(c, gpu);
    ASSERT_NE(h, nullptr) << gpu;
    EXPECT_EQ(h->arch, Arch::kAarch64) << gpu;
  }
  EXPECT_EQ(HostOfGpu(c, "NVIDIA H100 SXM5 80GB"), nullptr);
  EXPECT_TRUE(CheckConsistency(c).empty());
}

// The ids of a check's notes.
std::vector<std::string> NoteIds(const json& check) {
  std::vector<std::string> ids;
  for (const json& n : check["notes"]) ids.push_back(n["id"].get<std::string>());
  return ids;
}

const json* NoteOf(const json& check, const std::string& id) {
  for (const json& n : check["notes"]) {
    if (n["id"] == id) return &n;
  }
  return nullptr;
}

// PyPI's linux-aarch64 wheel of 2.5.0, 2.5.1 and 2.6.0 is the CPU build: the 2.5 promotion script
// (builder main d85ff607) takes the manylinux2014_aarch64 wheel without a local version, which
// only the auditwheel-repaired CPU build has; the 2.6 one (test-infra main 614125ae) takes +cpu
// from whl/test/cpu. Each row cites those scripts; no aarch64 release from 2.2 to 2.11 is unknown.
TEST(GpuHosts, PypiAarch64WheelOf25And26IsTheCpuBuild) {
  const Catalog& c = testing::TheCatalog();
  for (const char* v : {"2.5.0", "2.5.1", "2.6.0"}) {
    const TorchRelease* t = FindTorch(c, *Pep440::Parse(v));
    ASSERT_NE(t, nullptr) << v;
    const TorchVariant* d = PypiDefaultVariant(c, *t, "linux-aarch64");
    ASSERT_NE(d, nullptr) << v;
    EXPECT_EQ(d->variant.tag, "cpu") << v;
    const char* source =
        std::string(v) == "2.6.0" ? "ti-pypi-promote-614125ae" : "pt-builder-pypi-promote-d85ff607";
    std::vector<std::string_view> ids = d->prov.sources();
    EXPECT_NE(std::find(ids.begin(), ids.end(), source), ids.end()) << v;
  }
  for (const TorchRelease& t : c.torch) {
    if (t.torch < *Pep440::Parse("2.2.0") || t.torch >= *Pep440::Parse("2.12.0")) continue;
    EXPECT_NE(PypiDefaultVariant(c, t, "linux-aarch64"), nullptr) << t.torch.Public();
  }
  EXPECT_TRUE(CheckConsistency(c).empty());
}

// https://github.com/nv-morpheus/Morpheus/issues/2095 (2025-01, when 2.5.1 was current): on an
// arm64 machine plain pip, even with the cu124 index as an extra index, installs a CPU-only torch;
// `--index-url https://download.pytorch.org/whl/cu124` gets the CUDA build. `check torch==2.5.1`
// for a GH200 says the pin is PyPI's CPU build there and names the cu124 index, the release's only
// aarch64 CUDA build; the fix moves to a release whose aarch64 architecture list is known.
TEST(GpuHosts, CheckOfPypisCpuTorch251OnGh200NamesTheCu124Index) {
  json j =
      RunJson({"check", "--no-detect", "--gpu", "GH200", "--driver", "570.124.06", "torch==2.5.1"});
  EXPECT_EQ(j["assumed"]["platform"], "linux-aarch64") << j.dump();
  ASSERT_FALSE(j["problems"].empty()) << j.dump();
  EXPECT_EQ(j["problems"][0]["id"], "check.cpu_on_gpu");
  const json* note = NoteOf(j, "check.pypi_cpu");
  ASSERT_NE(note, nullptr) << j.dump();
  std::string message = (*note)["message"].get<std::string>();
  EXPECT_NE(message.find("PyPI's torch 2.5.1 wheel for linux-aarch64"), std::string::npos)
      << message;
  EXPECT_NE(message.find("CPU-only build"), std::string::npos) << message;
  EXPECT_NE(
      message.find("pip install torch==2.5.1 --index-url https://download.pytorch.org/whl/cu124"),
      std::string::npos)
      << message;
  EXPECT_EQ(NoteOf(j, "gap.default"), nullptr) << j.dump();
  std::string zh = RunCudamatch({"check", "--no-detect", "--gpu", "GH200", "--driver", "570.124.06",
                                 "torch==2.5.1", "--lang", "zh"})
                       .out;
  EXPECT_NE(zh.find("PyPI 为 linux-aarch64 提供的 torch 2.5.1 wheel"), std::string::npos) << zh;
  EXPECT_NE(zh.find("--index-url https://download.pytorch.org/whl/cu124"), std::string::npos) << zh;
}

// https://github.com/opendatahub-io/notebooks/pull/2454: a torch==2.6.0+cu126 pin does not resolve
// on aarch64, and the per-architecture pin proposed there, torch==2.6.0 for aarch64, installs the
// CPU wheel. `check torch==2.6.0` for linux-aarch64 (flags, or this machine as aarch64) knows that
// build and names the cu126 index, instead of "which wheel plain pip gets is not in the catalog";
// on linux-x86_64, where PyPI's wheel is a CUDA build, nothing is said.
TEST(GpuHosts, CheckOfTorch260OnAarch64SaysPypiGivesTheCpuBuild) {
  for (std::vector<std::string> flags :
       {std::vector<std::string>{"--os", "linux", "--arch", "aarch64"},
        std::vector<std::string>{"--arch", "aarch64"}}) {
    std::vector<std::string> args = {"check", "torch==2.6.0"};
    args.insert(args.end(), flags.begin(), flags.end());
    json j = RunJson(args);
    EXPECT_EQ(j["assumed"]["platform"], "linux-aarch64") << j.dump();
    EXPECT_EQ(NoteIds(j), std::vector<std::string>{"check.pypi_cpu"}) << j.dump();
    const json* note = NoteOf(j, "check.pypi_cpu");
    ASSERT_NE(note, nullptr) << j.dump();
    EXPECT_NE((*note)["message"].get<std::string>().find(
                  "(cu126) come from download.pytorch.org: pip install torch==2.6.0 --index-url "
                  "https://download.pytorch.org/whl/cu126"),
              std::string::npos)
        << note->dump();
  }
  json x86 = RunJson({"check", "--os", "linux", "--arch", "x86_64", "torch==2.6.0"});
  EXPECT_EQ(NoteOf(x86, "check.pypi_cpu"), nullptr) << x86.dump();
  // A pinned variant is not PyPI's wheel: no note.
  json tagged = RunJson({"check", "--os", "linux", "--arch", "aarch64", "torch==2.6.0+cu126"});
  EXPECT_EQ(NoteOf(tagged, "check.pypi_cpu"), nullptr) << tagged.dump();
}

// https://github.com/pytorch/pytorch/issues/134790: on arm64 the PyPI torch 2.4.0 had no CUDA;
// the answer was the aarch64 CUDA wheels of download.pytorch.org's per-CUDA indexes. `plan --gpu
// GH200` without --arch plans those, and says the architecture came from the GPU.
TEST(GpuHosts, PlanWithoutArchTakesTheGraceHostsArchitecture) {
  json j = RunJson({"plan", "--no-detect", "--gpu", "GH200", "--driver", "570.124.06"});
  EXPECT_EQ(j["machine"]["platform"], "linux-aarch64");
  EXPECT_EQ(j["machine"]["platform_from_gpu"], "NVIDIA GH200");
  EXPECT_EQ(j["variant"], "cu126");
  EXPECT_NE(j["commands"]["pip"].get<std::string>().find("https://download.pytorch.org/whl/cu126"), std::string::npos);
  for (const char* lang : {"en", "zh"}) {
    std::string out = RunCudamatch({"plan", "--no-detect", "--gpu", "GH200", "--driver", "570.124.06", "--lang", lang}).out;
    EXPECT_NE(out.find(std::string(lang) == "en" ? "linux-aarch64, from the GPU NVIDIA GH200" : "linux-aarch64（由 GPU NVIDIA GH200 推定）"),
              std::string::npos) << out;
  }
  // A GPU that goes into any host changes nothing.
  json h100 = RunJson({"plan", "--no-detect", "--gpu", "H100 SXM", "--driver", "570.124.06"});
  EXPECT_EQ(h100["machine"]["platform"], "linux-x86_64");
  EXPECT_TRUE(h100["machine"]["platform_from_gpu"].is_null());
}

// A Grace or Jetson machine runs Linux alone: a plan asked for another system (a Windows laptop
// planning for its GH200 server) keeps what --os says and says where the GPU runs, with the flags.
TEST(GpuHosts, APlanForAnotherSystemThanTheGraceHostsSaysItRunsLinux) {
  json j = RunJson({"plan", "--no-detect", "--gpu", "GH200", "--os", "windows", "--python", "3.12"});
  EXPECT_EQ(j["machine"]["platform"], "windows-x86_64");
  std::string out = RunCudamatch({"plan", "--no-detect", "--gpu", "GH200", "--os", "windows", "--python", "3.12"}).out;
  EXPECT_NE(out.find("comes only in linux-aarch64 machines, but this plan is for windows-x86_64"), std::string::npos) << out;
  EXPECT_NE(out.find("--os linux --arch aarch64"), std::string::npos) << out;
  std::string zh = RunCudamatch({"plan", "--no-detect", "--gpu", "GH200", "--os", "windows", "--python", "3.12", "--lang", "zh"}).out;
  EXPECT_NE(zh.find("请用 --os linux --arch aarch64"), std::string::npos) << zh;
}

// https://github.com/pinokiocomputer/pinokio/issues/1027: on an AGX Orin, `pip install torch`
// from PyPI gave a build without CUDA for the Jetson. A plan for `--gpu "Jetson AGX Orin"` (no
// machine probed) is a Jetson's: never PyPI's SBSA CUDA wheel, which does not run there, but the
// CPU wheel with the notes that say why and where NVIDIA's builds are. Thor runs JetPack 7 alone,
// whose CUDA is SBSA's (https://github.com/pollen-robotics/microduck_rl/issues/38 moved its torch
// to the sbsa/cu130 index): planned as a server, with a build that has sm_110 code.
TEST(GpuHosts, AJetsonGpuGivenByFlagIsPlannedAsAJetsonNotAnSbsaServer) {
  for (std::vector<std::string> args : {std::vector<std::string>{"plan", "--no-detect", "--gpu", "Jetson AGX Orin"},
                                        std::vector<std::string>{"plan", "--no-detect", "--arch", "aarch64", "--gpu", "Jetson AGX Orin"}}) {
    json j = RunJson(args);
    EXPECT_EQ(j["machine"]["platform"], "linux-aarch64");
    EXPECT_EQ(j["variant"], "cpu") << j.dump();
    bool not_pypi = false;
    for (const json& c : j["caveats"]) not_pypi |= c.get<std::string>().find("is a Jetson module") != std::string::npos;
    EXPECT_TRUE(not_pypi) << j["caveats"].dump();
  }
  json thor = RunJson({"plan", "--no-detect", "--gpu", "Jetson AGX Thor", "--driver", "580.00"});
  EXPECT_EQ(thor["machine"]["platform"], "linux-aarch64");
  EXPECT_EQ(thor["variant"], "cu130") << thor.dump();
}

// Same thread: an explicit --arch x86_64 for a GH200 plans what was asked, with the caveat that
// no GH200 machine is x86_64.
TEST(GpuHosts, ExplicitX86ArchForAGraceGpuSaysNoSuchMachineExists) {
  json j = RunJson({"plan", "--no-detect", "--arch", "x86_64", "--gpu", "GH200", "--driver", "570.124.06"});
  EXPECT_EQ(j["machine"]["platform"], "linux-x86_64");
  EXPECT_TRUE(j["machine"]["platform_from_gpu"].is_null());
  bool said = false;
  for (const json& c : j["caveats"]) said |= c.get<std::string>().find("comes only in linux-aarch64 machines") != std::string::npos;
  EXPECT_TRUE(said) << j["caveats"].dump();
  json aarch64 = RunJson({"plan", "--no-detect", "--arch", "aarch64", "--gpu", "GH200", "--driver", "570.124.06"});
  for (const json& c : aarch64["caveats"]) EXPECT_EQ(c.get<std::string>().find("comes only in"), std::string::npos);
}

// https://github.com/pytorch/test-infra/pull/7652: the Start Locally page gained a separate
// "Linux Aarch64" command with --index-url .../cu128 for GB200-class machines. `lookup gpu GB200`
// answers for linux-aarch64 without --arch.
TEST(GpuHosts, LookupGpuAnswersForTheGpusHost) {
  // --os linux: the answer is the same on any host (on an aarch64 host the GPU changes nothing).
  json j = RunJson({"lookup", "gpu", "GB200", "--os", "linux", "--driver", "570.124.06"});
  EXPECT_EQ(j["answer"]["platform"], "linux-aarch64");
  EXPECT_EQ(j["answer"]["platform_from_gpu"], "NVIDIA GB200");
  EXPECT_EQ(j["answer"]["newest"]["variant"], "cu128");
}

// https://github.com/transformerlab/transformerlab-app/issues/1330: a DGX Spark (GB10) ended up
// with torch 2.9.1+cpu. 2.9.1 has CUDA builds for linux-aarch64, so the fix keeps the pin and
// only adds the CUDA index. torch 2.7.1's aarch64 cu128 build is kept too: the catalog lacks its
// architecture list, which rules nothing out, and a note says so (vllm-project/vllm#16502: a
// pinned torch moved for an unknown list breaks what pins it). torch 2.4.0 has no aarch64 CUDA
// build at all: that pin moves, and check says from which release to which.
TEST(GpuHosts, CheckKeepsAPinWithAnAarch64CudaBuildAndNamesTheMoveOtherwise) {
  json keep = RunJson({"check", "--no-detect", "--gpu", "GB10", "--driver", "580.95.05", "torch==2.9.1"});
  ASSERT_EQ(keep["corrected"].size(), 1u) << keep.dump();
  EXPECT_EQ(keep["corrected"][0], "torch==2.9.1+cu130");
  std::string keep_text = RunCudamatch({"check", "--no-detect", "--gpu", "GB10", "--driver", "580.95.05", "torch==2.9.1"}).out;
  EXPECT_EQ(keep_text.find("These move the torch pin"), std::string::npos) << keep_text;

  json unconfirmed = RunJson({"check", "--no-detect", "--gpu", "GH200", "--driver", "570.124.06", "torch==2.7.1"});
  ASSERT_EQ(unconfirmed["corrected"].size(), 1u) << unconfirmed.dump();
  EXPECT_EQ(unconfirmed["corrected"][0], "torch==2.7.1+cu128");
  bool gap = false;
  for (const json& n : unconfirmed["notes"]) gap = gap || n["id"] == "gap.arch";
  EXPECT_TRUE(gap) << unconfirmed["notes"].dump();

  std::string moved = RunCudamatch({"check", "--no-detect", "--gpu", "GH200", "--driver", "570.124.06", "torch==2.4.0"}).out;
  EXPECT_NE(moved.find("linux-aarch64, from the GPU NVIDIA GH200"), std::string::npos) << moved;
  EXPECT_NE(moved.find("These move the torch pin from 2.4.0 to 2.9.0."), std::string::npos) << moved;
}

// https://github.com/pytorch/pytorch.github.io/issues/1687: on an aarch64 host `pip3 install
// torch` downloaded torch-2.4.0-…-manylinux2014_aarch64.whl, the CPU build; the user asked for
// the host architecture on the install matrix. The GH200 machine with PyPI's CPU 2.6.0 gets one
// finding that says so, and a fix from a CUDA index into its venv.
TEST(GpuHosts, PypiCpuTorchOnAGraceMachineIsNamedAsPypisAarch64Build) {
  json j = Doctor("gh200-pypi-cpu");
  ASSERT_EQ(FindingIds(j), std::vector<std::string>{"torch.cpu_build_pypi_aarch64"}) << j.dump().substr(0, 3000);
  const json& f = j["findings"][0];
  EXPECT_EQ(f["args"]["platform"], "linux-aarch64");
  EXPECT_EQ(f["args"]["first"], "2.12.0");
  std::string fix = f["fix"].dump();
  EXPECT_NE(fix.find("/home/erin/venv/bin/python3.10 -m pip install torch=="), std::string::npos) << fix;
  EXPECT_NE(fix.find("https://download.pytorch.org/whl/cu12"), std::string::npos) << fix;
}

// https://github.com/pytorch/pytorch/issues/160162: a GH200 user wants torch 2.8 with CUDA on
// linux-aarch64 (the workaround: torch 2.8 from download.pytorch.org's CUDA index). The
// 2.8 release's only aarch64 CUDA build is cu129 (test-infra release/2.8 CUDA_AARCH64_ARCHES), whose
// architecture list the catalog has no source for: the plan says that build is unknown, not ruled
// out, with its commands, instead of "no release fits".
TEST(GpuHosts, Torch28OnGh200IsAnUnknownNotANoFit) {
  std::vector<std::string> args = {"plan", "--no-detect", "--gpu", "GH200", "--os", "linux", "--arch", "aarch64",
                                   "--python", "3.12", "--torch", "==2.8.*"};
  json j = RunJson(args);
  EXPECT_TRUE(j["torch"].is_null());  // nothing is confirmed
  ASSERT_TRUE(j["unconfirmed"].is_object()) << j.dump();
  EXPECT_EQ(j["unconfirmed"]["torch"], "2.8.0");
  EXPECT_EQ(j["unconfirmed"]["variant"], "cu129");
  EXPECT_NE(j["unconfirmed"]["commands"]["pip"].get<std::string>().find("--index-url https://download.pytorch.org/whl/cu129"),
            std::string::npos);
  std::string out = RunCudamatch(args).out;
  EXPECT_EQ(out.find("No torch release fits this machine"), std::string::npos) << out;
  EXPECT_NE(out.find("No torch release is confirmed to fit this machine"), std::string::npos) << out;
  EXPECT_NE(out.find("Unknown, not ruled out: torch 2.8.0"), std::string::npos) << out;
  EXPECT_NE(out.find("whether it has code for NVIDIA GH200 (sm_90) is unknown"), std::string::npos) << out;
  testing::RunResult print = RunCudamatch({"plan", "--no-detect", "--gpu", "GH200", "--python", "3.12", "--torch", "==2.8.*",
                                           "--print", "pip-args"});
  EXPECT_EQ(print.exit_code, 1);  // an unknown is no answer to print
  EXPECT_EQ(print.out, "");
}

// Same GPU, torch 2.9.1: its cu129 aarch64 build has no sourced architecture list, but cu128 and
// cu130 do (RELEASE.md's aarch64 table), and both carry 9.0. The unknown one hides neither: the
// plan is a confirmed CUDA build.
TEST(GpuHosts, AnUnknownArchListHidesNoVariantWhoseListIsKnownAndFits) {
  json j = RunJson({"plan", "--no-detect", "--gpu", "GH200", "--python", "3.12", "--torch", "==2.9.1", "--driver", "580.65.06"});
  EXPECT_EQ(j["torch"], "2.9.1");
  EXPECT_TRUE(j["variant"] == "cu130" || j["variant"] == "cu128") << j.dump();
  EXPECT_TRUE(j["unconfirmed"].is_null());
  // With the driver of CUDA 12.8 (570), cu130 is out and cu128 is chosen over the unknown cu129.
  json older = RunJson({"plan", "--no-detect", "--gpu", "GH200", "--python", "3.12", "--torch", "==2.9.1", "--driver", "570.124.06"});
  EXPECT_EQ(older["variant"], "cu128") << older.dump();
}

// https://github.com/mllam/neural-lam/issues/163 (and pytorch/pytorch#172629): torch
// 2.9.0+cu130 on a DGX Spark finds the GB10 but warns "(8.0) - (12.0)". sm_120 code runs on
// 12.1, so doctor reports no finding and the environment runs on the GPU.
TEST(GpuHosts, Cu130TorchOnDgxSparkRunsThoughItsListStopsAt120) {
  json j = Doctor("dgx-spark");
  EXPECT_TRUE(FindingIds(j).empty()) << j["findings"].dump();
  EXPECT_EQ(j["summary"]["environments"][0]["verdict"], "runs_on_all_gpus");
  EXPECT_EQ(j["platform"], "linux-aarch64");
}

// https://github.com/maciej-sypetkowski/kaggle-rcic-1st/issues/5: `docker run -t -i --privileged
// testimage bash` (no --gpus) and torch says "Found no NVIDIA driver on your system". One cause,
// one finding, whose fix names Docker's, Compose's and Kubernetes' GPU settings.
TEST(Containers, ContainerWithoutGpuAccessIsOneFindingNamingEachRuntimesSetting) {
  for (const char* m : {"container-nodev", "container-nomodule"}) {
    json j = Doctor(m);
    std::vector<std::string> errors;
    for (const json& f : j["findings"]) {
      if (f["severity"] == "error") errors.push_back(f["id"].get<std::string>());
    }
    ASSERT_EQ(errors.size(), 1u) << m << " " << j["findings"].dump();
    std::string why;
    for (const json& f : j["findings"]) {
      if (f["severity"] == "error") why = f["why"].get<std::string>();
    }
    for (const char* setting : {"docker run --gpus all", "deploy.resources.reservations.devices", "nvidia.com/gpu"}) {
      EXPECT_NE(why.find(setting), std::string::npos) << m << ": " << why;
    }
  }
}

}  // namespace
}  // namespace cudamatch
