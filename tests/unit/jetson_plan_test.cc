// Plans for a Jetson module named by --gpu (no machine probed): each test is built from the
// public thread cited above it, run through the binary. PyPI's aarch64 CUDA wheels are SBSA's and
// do not run on a Jetson; the answer is NVIDIA's builds for the module's JetPack, and PyPI's CPU
// build is never the fix for the GPU.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "catalog/checks.h"
#include "catalog/jetson.h"
#include "catalog/query.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using nlohmann::json;
using testing::RunCudamatch;

const std::vector<std::string> kEnv = {"LANG=C.UTF-8", std::string(testing::kGoldenNow)};

json RunJson(std::vector<std::string> args) {
  args.push_back("--json");
  return json::parse(RunCudamatch(args, kEnv).out);
}

std::vector<std::string> JetPacks(const json& plan) {
  std::vector<std::string> out;
  for (const json& j : plan["jetpacks"]) out.push_back(j["jetpack"].get<std::string>());
  return out;
}

bool Says(const json& plan, const std::string& text) {
  for (const json& c : plan["caveats"]) {
    if (c.get<std::string>().find(text) != std::string::npos) return true;
  }
  return false;
}

// The text after the line that opens the CPU-only part: a suggestion may stand only there.
void ExpectCpuWheelOnlyAsCpuOnly(const std::string& out) {
  EXPECT_EQ(out.find("What would make a plan fit:"), std::string::npos) << out;
  size_t cpu_only = out.find("CPU only (PyPI's CPU build, without the GPU)");
  ASSERT_NE(cpu_only, std::string::npos) << out;
  size_t cpu_wheel = out.find("+cpu");
  if (cpu_wheel != std::string::npos) EXPECT_GT(cpu_wheel, cpu_only) << out;
  size_t jetpack = out.find("JetPack ");
  ASSERT_NE(jetpack, std::string::npos) << out;
  EXPECT_LT(jetpack, cpu_only) << out;  // NVIDIA's builds are the answer, said first
}

// https://github.com/Lmy0217/PyTorch-aarch64/issues/3: on a Jetson Nano (JetPack 4.4, L4T 32.4.3)
// a generic aarch64 torch wheel installed, but torch.cuda.is_available() was False: "only
// support cpu". https://github.com/cavedweller509/LMDeploy-Jetson/issues/7: the Nano's highest
// JetPack is 4.6, whose NVIDIA wheel is torch 1.10.0 for Python 3.6. The plan for the Nano with
// Python 3.6 names JetPack 4.6's NVIDIA wheels, not "Use Python 3.8: then torch 2.4.1+cpu fits".
TEST(JetsonPlan, NanoWithPython36NamesJetPack46WheelsNotAPypiCpuWheel) {
  std::vector<std::string> args = {"plan", "--no-detect", "--gpu", "Jetson Nano", "--os", "linux", "--arch", "aarch64", "--python", "3.6"};
  json j = RunJson(args);
  EXPECT_TRUE(j["cpu_only"].get<bool>()) << j.dump();
  EXPECT_EQ(JetPacks(j), std::vector<std::string>{"4.6"});
  ASSERT_EQ(j["jetpacks"].size(), 1u);
  EXPECT_EQ(j["jetpacks"][0]["l4t"], "32.7");
  EXPECT_EQ(j["jetpacks"][0]["cuda"], "10.2");
  EXPECT_EQ(j["jetpacks"][0]["python"], "3.6");
  EXPECT_EQ(j["jetpacks"][0]["kind"], "page");
  EXPECT_TRUE(Says(j, "Jetson Nano is a Jetson module")) << j["caveats"].dump();
  EXPECT_TRUE(Says(j, "JetPack 4.6 (L4T 32.7) has NVIDIA's CUDA torch builds")) << j["caveats"].dump();
  EXPECT_FALSE(Says(j, "built for Python")) << j["caveats"].dump();  // 3.6 is the wheels' Python
  ExpectCpuWheelOnlyAsCpuOnly(RunCudamatch(args, kEnv).out);
  // No CPU pins to print for a Jetson's GPU.
  testing::RunResult print = RunCudamatch({"plan", "--no-detect", "--gpu", "Jetson Nano", "--python", "3.6", "--print", "pip-args"}, kEnv);
  EXPECT_EQ(print.exit_code, 1);
  EXPECT_EQ(print.out, "");
  EXPECT_NE(print.err.find("NVIDIA's JetPack wheels"), std::string::npos) << print.err;
}

// https://github.com/pytorch/pytorch/issues/67997: a Jetson Xavier NX (conda's __cuda=10.2, glibc
// 2.27: JetPack 4) in a Python 3.7.1 environment; torch from pip gave torch.cuda.is_available()
// False. The Xavier NX runs JetPack 4.6 and 5.1; NVIDIA's wheels are for Python 3.6 and 3.8, and
// the plan says Python 3.7 has none.
TEST(JetsonPlan, XavierNxWithPython37NamesJetPack4And5AndTheirPythons) {
  std::vector<std::string> args = {"plan", "--no-detect", "--gpu", "Jetson Xavier NX", "--os", "linux", "--arch", "aarch64", "--python", "3.7"};
  json j = RunJson(args);
  EXPECT_TRUE(j["cpu_only"].get<bool>());
  EXPECT_EQ(JetPacks(j), (std::vector<std::string>{"4.6", "5.1"}));
  EXPECT_TRUE(Says(j, "JetPack 4.6 are built for Python 3.6 only: Python 3.7 has none there")) << j["caveats"].dump();
  EXPECT_TRUE(Says(j, "JetPack 5.1 are built for Python 3.8 only: Python 3.7 has none there")) << j["caveats"].dump();
  EXPECT_TRUE(Says(j, "Jetson Xavier NX runs JetPack 4.6, 5.1")) << j["caveats"].dump();
  ExpectCpuWheelOnlyAsCpuOnly(RunCudamatch(args, kEnv).out);
  std::string zh = RunCudamatch({"plan", "--no-detect", "--gpu", "Jetson Xavier NX", "--python", "3.7", "--lang", "zh"}, kEnv).out;
  EXPECT_NE(zh.find("仅 CPU（PyPI 的 CPU 版本，不使用 GPU）"), std::string::npos) << zh;
  EXPECT_NE(zh.find("NVIDIA 为 JetPack 4.6 提供的 wheel 包只面向 Python 3.6"), std::string::npos) << zh;
}

// https://github.com/pinokiocomputer/pinokio/issues/1027 (AGX Orin: PyPI's torch had no CUDA) and
// https://github.com/pollen-robotics/microduck_rl/issues/38 (AGX Thor: JetPack 7's torch from the
// sbsa/cu130 index): every Jetson module of gpus.tsv is planned as a Jetson with the JetPack
// lines it runs; a module whose JetPack runs PyPI's SBSA builds (Thor) gets PyPI's CUDA build and
// the JetPack index, every other one PyPI's CPU build as "CPU only" and NVIDIA's builds beside it.
TEST(JetsonPlan, EveryJetsonModulePlansAsAJetsonWithItsJetPacks) {
  const Catalog& c = testing::TheCatalog();
  EXPECT_TRUE(CheckConsistency(c).empty());
  int modules = 0;
  for (const GpuModel& g : c.gpus) {
    if (!IsJetson(g)) continue;
    ++modules;
    std::string name(g.name);
    json j = RunJson({"plan", "--no-detect", "--gpu", name, "--driver", "580.65.06"});
    EXPECT_EQ(j["machine"]["platform"], "linux-aarch64") << name;
    ASSERT_FALSE(j["jetpacks"].empty()) << name;
    bool sbsa = j["jetpacks"][0]["sbsa"].get<bool>();
    EXPECT_EQ(j["cpu_only"].get<bool>(), !sbsa) << name;
    if (sbsa) {
      EXPECT_EQ(j["variant"], "cu130") << name;
      EXPECT_TRUE(Says(j, "https://pypi.jetson-ai-lab.io/sbsa/cu130")) << name;
    } else {
      EXPECT_TRUE(j["variant"].is_null() || j["variant"] == "cpu") << name;
      EXPECT_TRUE(Says(j, name + " is a Jetson module")) << name << j["caveats"].dump();
      ExpectCpuWheelOnlyAsCpuOnly(RunCudamatch({"plan", "--no-detect", "--gpu", name}, kEnv).out);
    }
  }
  EXPECT_GE(modules, 10);
  // The catalog's lines per module: the Nano and TX2 stop at JetPack 4, the Xaviers at 5, the
  // Orins run 5 and 6, the Thor modules 7 (7.0 is L4T 38.2, 7.1 is 38.4).
  EXPECT_EQ(JetPacksOfModule(c, "Jetson TX2").size(), 1u);
  EXPECT_EQ(JetPacksOfModule(c, "Jetson AGX Xavier").back()->jetpack, "5.1");
  EXPECT_EQ(JetPacksOfModule(c, "Jetson Orin Nano").front()->jetpack, "5.1");
  EXPECT_EQ(JetPacksOfModule(c, "Jetson Orin Nano").back()->jetpack, "6.1 / 6.2");
  EXPECT_EQ(JetPacksOfModule(c, "Jetson T4000").back()->jetpack, "7.1");  // the newest of the L4T 38 line
  EXPECT_EQ(JetPackFor(c, "38.2.1")->jetpack, "7.0");
  EXPECT_EQ(JetPackFor(c, "38.4.0")->jetpack, "7.1");  // NVIDIA: JetPack 7.1 with Jetson Linux 38.4
  EXPECT_TRUE(JetPacksOfModule(c, "NVIDIA GH200").empty());
}

}  // namespace
}  // namespace cudamatch
