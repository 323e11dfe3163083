// CUDA error 804, "forward compatibility was attempted on non supported HW": an image's
// forward-compatibility libcuda on a card that cannot use it. Each test is built from the public
// threads cited above it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/text.h"
#include "diagnose/rules.h"
#include "plan/diagnose.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using nlohmann::json;
using testing::RunCudamatch;

std::vector<std::string> MachineEnv(const std::string& m) {
  std::vector<std::string> env;
  const std::string text = testing::ReadSource("tests/fixtures/machines/" + m + "/env");  // outlives the views
  for (std::string_view line : Split(text, '\n')) {
    if (!line.empty() && line[0] != '#') env.emplace_back(line);
  }
  env.emplace_back(testing::kGoldenNow);
  return env;
}

json Doctor(const std::string& m) {
  std::string root = testing::SourceDir() + "/tests/fixtures/machines/" + m + "/root";
  return json::parse(RunCudamatch({"doctor", "--root", root, "--json"}, MachineEnv(m)).out);
}

std::vector<std::string> FindingIds(const json& doctor) {
  std::vector<std::string> ids;
  for (const json& f : doctor["findings"]) ids.push_back(f["id"].get<std::string>());
  return ids;
}

// https://github.com/QuipNetwork/quip-miner/issues/24: an image bundles
// /usr/local/cuda/compat/libcuda.so... and the loader takes it "instead of the host's real driver"
// on a GeForce RTX 3060: cudaErrorCompatNotSupportedOnDevice (804); the workaround is an
// LD_LIBRARY_PATH without the compat directory. oobabooga/textgen#4407 and
// mistralai/mistral-inference#144 hit the same error 804 from Docker images. On the
// container-compat-ldpath machine (the image's LD_LIBRARY_PATH starts with /usr/local/cuda/compat,
// a GeForce RTX 3090 host on driver 525.89.02) doctor reports that one cause, with the fix that
// takes the directory off the loader's path, and no driver mismatch: the compat libcuda is not the
// driver's user space.
TEST(ForwardCompat, CompatLibcudaOnLdLibraryPathOnAGeForceIsOneError804Finding) {
  if (testing::kWindowsBuild) GTEST_SKIP() << "a Linux tree: its symbolic links are not followed by the Windows file layer";
  json j = Doctor("container-compat-ldpath");
  EXPECT_EQ(FindingIds(j), (std::vector<std::string>{"driver.forward_compat_loaded", "torch.driver_minor_compat"}))
      << j["findings"].dump();
  const json& f = j["findings"][0];
  EXPECT_EQ(f["args"]["source"], "LD_LIBRARY_PATH");
  EXPECT_EQ(f["args"]["dir"], "/usr/local/cuda/compat");
  EXPECT_EQ(f["args"]["version"], "550.54.15");
  EXPECT_NE(f["why"].get<std::string>().find("error 804"), std::string::npos);
  EXPECT_NE(f["why"].get<std::string>().find("Take /usr/local/cuda/compat out of LD_LIBRARY_PATH"), std::string::npos);
  EXPECT_EQ(j["driver"]["userspace_version"], "525.89.02") << j["driver"].dump();
  const json& fc = j["driver"]["forward_compat"][0];
  EXPECT_EQ(fc["loader"]["source"], "LD_LIBRARY_PATH");
  EXPECT_EQ(fc["loader"]["dir"], "/usr/local/cuda/compat");
  // The same image without the LD_LIBRARY_PATH entry: the toolkit's mount of a newer compat
  // libcuda is the cause (container.forward_compat_unsupported), and the loader names nothing.
  json mounted = Doctor("container-cu124-geforce");
  EXPECT_EQ(FindingIds(mounted)[0], "container.forward_compat_unsupported");
  EXPECT_TRUE(mounted["driver"]["forward_compat"][0]["loader"].is_null());
}

Snapshot LoadedCompat(const char* gpu, const char* source) {
  Snapshot s;
  s.host.os_id = "ubuntu";
  s.driver.kernel_module_loaded = true;
  s.driver.kernel_version = DriverVersion::Parse("570.211.01").value();
  s.driver.kernel_source = "/proc/driver/nvidia/version";
  s.driver.userspace_version = s.driver.kernel_version;
  s.driver.libcuda_paths = {"/usr/lib/x86_64-linux-gnu/libcuda.so.1"};
  s.driver.device_nodes = true;
  ForwardCompat fc{"/usr/local/cuda-12.9/compat", DriverVersion::Parse("575.51.03").value(), source, "/usr/local/cuda/compat"};
  s.driver.forward_compat.push_back(fc);
  GpuInfo g;
  g.name = gpu;
  g.cc = ComputeCapability::Parse("8.6").value();
  g.source = "NVML";
  s.gpus.push_back(g);
  return s;
}

bool Has(const std::vector<Finding>& findings, std::string_view id) {
  return std::any_of(findings.begin(), findings.end(), [&](const Finding& f) { return f.id == id; });
}

// Same thread's machine (RTX 3060, host driver 570.211.01, an image whose compat libcuda is of
// branch 575), outside a container and through /etc/ld.so.conf.d: the loader's setting is the
// cause wherever it is. A data-center GPU (NVIDIA's CUDA Compatibility guide: forward
// compatibility is for data-center GPUs) gets no such finding.
TEST(ForwardCompat, LoaderPathCompatIsAFindingOnGeForceOnlyInOrOutOfAContainer) {
  std::vector<Finding> geforce = Diagnose(LoadedCompat("NVIDIA GeForce RTX 3060", "ld.so.conf"), testing::TheCatalog());
  ASSERT_TRUE(Has(geforce, "driver.forward_compat_loaded"));
  std::vector<Finding> datacenter = Diagnose(LoadedCompat("NVIDIA A100-SXM4-80GB", "ld.so.conf"), testing::TheCatalog());
  EXPECT_FALSE(Has(datacenter, "driver.forward_compat_loaded"));
  Snapshot off_path = LoadedCompat("NVIDIA GeForce RTX 3060", "");
  off_path.driver.forward_compat[0].loader_dir.clear();
  EXPECT_FALSE(Has(Diagnose(off_path, testing::TheCatalog()), "driver.forward_compat_loaded"));
}

// The error text users paste names the number: `cudamatch explain 804` is the forward-compat topic.
TEST(ForwardCompat, ExplainAnswers804WithTheForwardCompatTopic) {
  testing::RunResult r = RunCudamatch({"explain", "804"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, RunCudamatch({"explain", "forward-compat"}).out);
  EXPECT_NE(r.out.find("error 804"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("https://docs.nvidia.com/deploy/cuda-compatibility/"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace cudamatch
