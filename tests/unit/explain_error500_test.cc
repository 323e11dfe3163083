// `cudamatch explain 500`: CUDA error 500, "named symbol not found", from cudaGetDeviceCount() in a
// container under Docker Desktop's WSL 2 backend. jhj0517/Whisper-WebUI#279 ("Unexpected error from
// cudaGetDeviceCount() ... Error 500: named symbol not found" building and running its image on
// Windows; "Updating Docker Desktop to latest version solved the problem", pointing at
// AbdBarho/stable-diffusion-webui-docker#694, Windows driver 555.85). NVIDIA's statement of the
// cause, NVIDIA/nvidia-container-toolkit#520: drivers 555.xx and newer for Windows added
// libnvdxgdmal.so.1, which the container toolkit must map into the container; fixed in
// nvidia-container-toolkit 1.14.4 / 1.15.0 and Docker Desktop 4.31.0.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::RunCudamatch;

TEST(ExplainError500, TheNumberAnswersWithTheWslContainersTopic) {
  testing::RunResult r = RunCudamatch({"explain", "500"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, RunCudamatch({"explain", "wsl-containers"}).out);
  for (const char* said : {"named symbol not found", "cudaErrorSymbolNotFound", "libnvdxgdmal.so.1", "Docker Desktop to 4.31.0",
                           "1.14.4", "NVIDIA/nvidia-container-toolkit#520", "jhj0517/Whisper-WebUI#279",
                           "AbdBarho/stable-diffusion-webui-docker#694"}) {
    EXPECT_NE(r.out.find(said), std::string::npos) << said << "\n" << r.out;
  }
}

TEST(ExplainError500, ChineseTextAndJsonCarryTheFixAndItsSources) {
  testing::RunResult zh = RunCudamatch({"explain", "500", "--lang", "zh"});
  EXPECT_EQ(zh.exit_code, 0) << zh.err;
  EXPECT_NE(zh.out.find("CUDA 错误 500"), std::string::npos) << zh.out;
  EXPECT_NE(zh.out.find("Docker Desktop 更新到 4.31.0"), std::string::npos) << zh.out;
  testing::RunResult js = RunCudamatch({"explain", "500", "--json"});
  ASSERT_EQ(js.exit_code, 0) << js.err;
  nlohmann::json j = nlohmann::json::parse(js.out);
  ASSERT_EQ(j["topics"].size(), 1u);
  EXPECT_EQ(j["topics"][0]["id"], "wsl-containers");
  EXPECT_NE(j["topics"][0]["sources"].get<std::string>().find("NVIDIA/nvidia-container-toolkit#520"), std::string::npos);
}

}  // namespace
}  // namespace cudamatch
