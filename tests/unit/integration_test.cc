// This real machine, cross-checked against independent sources: dpkg-query, the headers and
// the files themselves. CI installs Debian's libcuda1, libnvidia-ml1, nvidia-smi and
// python3-torch{,vision,audio}; where they are absent the checks that need them are skipped.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <fstream>
#include <sstream>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

std::string Shell(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return out;
  std::array<char, 4096> buf;
  while (size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  pclose(p);
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

std::string DpkgVersion(const std::string& pkg) {
  return Shell("dpkg-query -W -f='${Status}|${Version}' " + pkg + " 2>/dev/null | grep '^install ok installed' | cut -d'|' -f2");
}

nlohmann::json Doctor() {
  std::vector<std::string> env = {"LANG=C.UTF-8", "PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/nonexistent"};
  auto r = testing::RunCudamatch({"doctor", "--json"}, env);
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  return nlohmann::json::parse(r.out);
}

std::string Define(const std::string& header, const std::string& name) {
  std::regex re("#define " + name + " ([0-9]+)");
  std::smatch m;
  std::ifstream in(header);
  std::stringstream buf;
  buf << in.rdbuf();
  std::string text = buf.str();
  return std::regex_search(text, m, re) ? m[1].str() : "";
}

TEST(Integration, DriverUserSpaceFromDebianPackages) {
  std::string version = DpkgVersion("libcuda1");
  if (version.empty()) GTEST_SKIP() << "libcuda1 not installed (setup: scripts/setup.sh --testbed)";
  std::string upstream = version.substr(0, version.find('-'));  // 535.261.03-1 -> 535.261.03
  nlohmann::json j = Doctor();
  EXPECT_EQ(j["driver"]["userspace_version"], upstream);
  bool module = std::filesystem::exists("/proc/driver/nvidia/version");
  EXPECT_EQ(j["driver"]["kernel_module_loaded"], module);
  if (!module) {
    // cuDriverGetVersion answers without a kernel module: 535 serves CUDA 12.2.
    EXPECT_EQ(j["driver"]["cuda"], "12.2");
    // Inside a container the module is the host's, and the finding says so.
    bool container = std::filesystem::exists("/.dockerenv") || std::filesystem::exists("/run/.containerenv");
    std::string id = container ? "container.module_not_loaded" : "driver.module_not_loaded";
    bool finding = false;
    for (const auto& f : j["findings"]) finding = finding || f["id"] == id;
    EXPECT_TRUE(finding) << id << " in " << j["findings"].dump();
  }
}

// Every toolkit doctor reports is a real one: its version is the CUDA_VERSION of its own cuda.h
// (where it has one) and its GCC limit the "__GNUC__ >" check of its own crt/host_config.h.
// Whatever toolkits this machine has are checked; none is assumed.
TEST(Integration, ToolkitsAgreeWithTheirOwnHeaders) {
  nlohmann::json j = Doctor();
  if (j["toolkits"].empty()) GTEST_SKIP() << "no CUDA toolkit on this machine (scripts/setup.sh installs none)";
  size_t checked = 0;
  for (const auto& t : j["toolkits"]) {
    std::string root = t["path"];
    std::string header = root + "/include/cuda.h";
    EXPECT_TRUE(std::filesystem::exists(header) || std::filesystem::exists(root + "/version.json") ||
                std::filesystem::exists(root + "/bin/nvcc"))
        << "doctor lists " << root << ", which holds no toolkit";
    if (!std::filesystem::exists(header)) continue;
    int cuda = std::stoi(Define(header, "CUDA_VERSION"));
    std::string expected = std::to_string(cuda / 1000) + "." + std::to_string((cuda % 1000) / 10);
    EXPECT_EQ(t["version"].get<std::string>().substr(0, expected.size()), expected) << root;
    std::ifstream in(root + "/include/crt/host_config.h");
    std::stringstream buf;
    buf << in.rdbuf();
    std::string text = buf.str();
    std::smatch m;
    if (std::regex_search(text, m, std::regex("#if __GNUC__ > ([0-9]+)"))) {
      EXPECT_EQ(t["max_gcc"], std::stoi(m[1])) << root;
    }
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no reported toolkit has include/cuda.h";
}

// An nvcc on PATH that is a script leads to the toolkit it runs, never to a toolkit at the
// script's own directory.
TEST(Integration, NvccWrapperOnPathIsFollowed) {
  std::ifstream in("/usr/local/bin/nvcc");
  std::string first;
  std::getline(in, first);
  if (first.rfind("#!", 0) != 0) GTEST_SKIP() << "/usr/local/bin/nvcc is not a script on this machine";
  nlohmann::json j = Doctor();
  for (const auto& t : j["toolkits"]) EXPECT_NE(t["path"], "/usr/local") << j["toolkits"].dump();
}

// cuDNN of every toolkit that has a cudnn_version.h.
TEST(Integration, CudnnFromToolkitHeaders) {
  nlohmann::json j = Doctor();
  size_t checked = 0;
  for (const auto& t : j["toolkits"]) {
    std::string header = t["path"].get<std::string>() + "/include/cudnn_version.h";
    if (!std::filesystem::exists(header)) continue;
    std::string cudnn = Define(header, "CUDNN_MAJOR") + "." + Define(header, "CUDNN_MINOR") + "." + Define(header, "CUDNN_PATCHLEVEL");
    bool found = false;
    for (const auto& c : j["cudnn"]) found = found || c["version"] == cudnn;
    EXPECT_TRUE(found) << cudnn;
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no toolkit with include/cudnn_version.h on this machine";
}

TEST(Integration, DebianTorchIsACpuBuildInTheSystemPython) {
  if (DpkgVersion("python3-torch").empty()) GTEST_SKIP() << "python3-torch not installed (setup: scripts/setup.sh --testbed)";
  std::ifstream in("/usr/lib/python3/dist-packages/torch/version.py");
  std::stringstream buf;
  buf << in.rdbuf();
  std::smatch m;
  std::string text = buf.str();
  ASSERT_TRUE(std::regex_search(text, m, std::regex("__version__ = '([^']+)'")));
  std::string version = m[1];  // 1.13.0a0 on Debian 12
  std::string python = Shell("readlink -f /usr/bin/python3 | sed 's|.*/python||'");
  nlohmann::json j = Doctor();
  bool found = false;
  for (const auto& p : j["pythons"]) {
    if (p["prefix"] != "/usr" || p["version"] != python || !p["packages"].contains("torch")) continue;
    found = true;
    EXPECT_EQ(p["packages"]["torch"]["version"], version);
    EXPECT_EQ(p["packages"]["torch"]["variant"], "cpu");
    EXPECT_TRUE(p["packages"]["torch"]["cuda"].is_null());
    std::string vision = DpkgVersion("python3-torchvision");
    if (!vision.empty()) {
      EXPECT_TRUE(p["packages"].contains("torchvision"));
    }
  }
  EXPECT_TRUE(found) << j["pythons"].dump();
}

TEST(Integration, PyenvInterpretersBesideDebians) {
  std::string home = std::getenv("HOME") ? std::getenv("HOME") : "";
  if (home.empty() || !std::filesystem::exists(home + "/.pyenv/versions")) GTEST_SKIP() << "no pyenv";
  size_t expected = 0;
  for (const auto& e : std::filesystem::directory_iterator(home + "/.pyenv/versions")) expected += e.is_directory();
  auto r = testing::RunCudamatch({"doctor", "--json"}, {"LANG=C.UTF-8", "PATH=/usr/bin:/bin", "HOME=" + home});
  nlohmann::json j = nlohmann::json::parse(r.out);
  size_t pyenv = 0;
  for (const auto& p : j["pythons"]) pyenv += p["kind"] == "pyenv";
  EXPECT_EQ(pyenv, expected);
}

}  // namespace
}  // namespace cudamatch
