// Parsers on verbatim captures from several generations of drivers, toolkits and torch builds.
#include "probe/parsers.h"

#include <gtest/gtest.h>

#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::ReadSource;

TEST(ProcDriverVersion, ProprietaryOpenAndOlderFormats) {
  struct Case {
    const char* text;
    const char* version;
    const char* flavor;
  };
  const Case cases[] = {
      {"NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 01:44:30 UTC 2024\n"
       "GCC version:  gcc version 11.4.0 (Ubuntu 11.4.0-1ubuntu1~22.04) \n",
       "550.54.14", "proprietary"},
      {"NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.14  Release Build  "
       "(dvs-builder@U16-I3-B03-4-3)  Thu Feb 22 01:25:25 UTC 2024\nGCC version:  gcc version 12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04) \n",
       "550.54.14", "open"},
      {"NVRM version: NVIDIA UNIX x86_64 Kernel Module  470.82.01  Wed Oct 27 21:21:55 UTC 2021\n", "470.82.01", "proprietary"},
      {"NVRM version: NVIDIA UNIX aarch64 Kernel Module  535.104.05  Sat Aug 19 00:59:57 UTC 2023\n", "535.104.05", "proprietary"},
  };
  for (const Case& c : cases) {
    auto v = ParseProcDriverVersion(c.text);
    ASSERT_TRUE(v) << c.text;
    EXPECT_EQ(v->version.text, c.version);
    EXPECT_EQ(v->open ? "open" : "proprietary", std::string(c.flavor));
  }
  EXPECT_FALSE(ParseProcDriverVersion("garbage\n"));
  EXPECT_FALSE(ParseProcDriverVersion(""));
  EXPECT_FALSE(ParseProcDriverVersion("NVRM version: nothing here\n"));
}

TEST(ProcDriverVersion, FixtureCaptures) {
  auto v = ParseProcDriverVersion(ReadSource("tests/fixtures/machines/container-nodev/root/proc/driver/nvidia/version"));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->version.text, "535.104.05");
  EXPECT_EQ(ParseSysModuleVersion("550.54.14\n")->text, "550.54.14");
  EXPECT_FALSE(ParseSysModuleVersion("x\n"));
}

TEST(ProcGpuInformation, ReadsModelUuidAndBus) {
  auto info = ParseProcGpuInformation(
      ReadSource("tests/fixtures/machines/gpu-server/root/proc/driver/nvidia/gpus/0000:00:04.0/information"));
  EXPECT_EQ(info.model, "NVIDIA A100-SXM4-80GB");
  EXPECT_EQ(info.uuid, "GPU-54188da3-123f-9d8d-af42-e5616c208a2a");
  EXPECT_EQ(info.bus_location, "0000:00:04.0");
}

TEST(LibraryNames, DriverVersionFromRealFileNames) {
  EXPECT_EQ(LibraryDriverVersion("libcuda.so.550.54.14", "libcuda.so.")->text, "550.54.14");
  EXPECT_EQ(LibraryDriverVersion("libnvidia-ml.so.535.261.03", "libnvidia-ml.so.")->text, "535.261.03");
  EXPECT_FALSE(LibraryDriverVersion("libcuda.so.1", "libcuda.so."));
  EXPECT_FALSE(LibraryDriverVersion("libcuda.so.1.1", "libcuda.so."));  // WSL
  EXPECT_EQ(LibraryVersion("libcudnn.so.9.1.0", "libcudnn.so.")->ToString(), "9.1.0");
  EXPECT_EQ(LibraryVersion("libcudnn.so.8", "libcudnn.so.")->ToString(), "8");
  EXPECT_FALSE(LibraryVersion("libcudnn.so", "libcudnn.so."));
}

TEST(Sysfs, HexAttributes) {
  EXPECT_EQ(ParseSysfsHex("0x10de\n"), 0x10deu);
  EXPECT_EQ(ParseSysfsHex("0x030000\n"), 0x030000u);
  EXPECT_FALSE(ParseSysfsHex("nope"));
}

TEST(OsRelease, QuotedAndBareValues) {
  auto f = ParseOsRelease("PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME=\"Debian GNU/Linux\"\nID=debian\n");
  EXPECT_EQ(f["PRETTY_NAME"], "Debian GNU/Linux 12 (bookworm)");
  EXPECT_EQ(f["ID"], "debian");
  EXPECT_TRUE(IsWslKernel("Linux version 5.15.153.1-microsoft-standard-WSL2 (root@941d701f84f1) (gcc (GCC) 11.2.0"));
  EXPECT_FALSE(IsWslKernel("Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org)"));
  EXPECT_EQ(ContainerFromCgroup("12:devices:/docker/3f4e\n"), "docker");
  EXPECT_EQ(ContainerFromCgroup("0::/\n"), "");
}

TEST(CudaToolkitVersion, JsonTxtAndHeader) {
  EXPECT_EQ(ParseCudaVersionJson(ReadSource("tests/fixtures/machines/gpu-server/root/usr/local/cuda-12.4/version.json"))->ToString(),
            "12.4.1");
  EXPECT_FALSE(ParseCudaVersionJson("{\"cuda\": 5}"));
  EXPECT_FALSE(ParseCudaVersionJson("not json"));
  EXPECT_FALSE(ParseCudaVersionJson("[1,2]"));
  EXPECT_EQ(ParseCudaVersionTxt("CUDA Version 10.2.89\n")->ToString(), "10.2.89");
  EXPECT_EQ(ParseCudaHeader("/* comment */\n#define CUDA_VERSION 13000\n")->ToString(), "13.0");
  EXPECT_EQ(ParseCudaHeader("#  define CUDA_VERSION 12040\n")->ToString(), "12.4");
  EXPECT_FALSE(ParseCudaHeader("#define CUDA_VERSION_MAJOR 12\n"));
}

TEST(Cudnn, HeaderDefines) {
  auto v = ParseCudnnHeader("#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n#define CUDNN_PATCHLEVEL 0\n"
                            "#define CUDNN_VERSION (CUDNN_MAJOR * 10000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->ToString(), "9.19.0");
  EXPECT_FALSE(ParseCudnnHeader("#define CUDNN_MAJOR 9\n"));
}

TEST(VersionPy, EveryGeneration) {
  // torch 1.13 / 2.1 style
  VersionPy a = ParseVersionPy("__version__ = '1.13.1+cu117'\ndebug = False\ncuda = '11.7'\n"
                               "git_version = '49444c3e546bf240bed24a101e747422d1f8a0ee'\nhip = None\n");
  EXPECT_EQ(*a.version, "1.13.1+cu117");
  EXPECT_EQ(*a.cuda, "11.7");
  EXPECT_EQ(*a.hip, "");
  // 2.2+ annotated style
  VersionPy b = ParseVersionPy("from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n"
                               "__version__ = '2.3.1+cu121'\ndebug = False\ncuda: Optional[str] = '12.1'\n"
                               "git_version = '63d5e9221bedd1546b7d364b5ce4171547db12a9'\nhip: Optional[str] = None\n");
  EXPECT_EQ(*b.version, "2.3.1+cu121");
  EXPECT_EQ(*b.cuda, "12.1");
  // CPU build: cuda None
  VersionPy c = ParseVersionPy("__version__ = '1.13.0a0'\ndebug = False\ncuda = None\ngit_version = 'Unknown'\nhip = None\n");
  EXPECT_EQ(*c.cuda, "");
  // Computed values are never evaluated.
  VersionPy d = ParseVersionPy("import os\n__version__ = os.environ['X']\ncuda = get_cuda()\n");
  EXPECT_FALSE(d.version);
  EXPECT_FALSE(d.cuda);
}

TEST(CoreMetadata, HeaderBlockOnly) {
  CoreMetadata m = ParseCoreMetadata(
      "Metadata-Version: 2.1\nName: torch\nVersion: 2.4.0\nRequires-Dist: filelock\n"
      "Requires-Dist: nvidia-cuda-runtime-cu12==12.1.105; platform_system == \"Linux\" and platform_machine == \"x86_64\"\n"
      "\nRequires-Dist: not-a-header\n");
  EXPECT_EQ(m.name, "torch");
  EXPECT_EQ(m.version, "2.4.0");
  ASSERT_EQ(m.requires_dist.size(), 2u);
  auto r = ParseRequirement(m.requires_dist[1]);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->name, "nvidia-cuda-runtime-cu12");
  EXPECT_EQ(r->specifier, "==12.1.105");
}

TEST(Requirement, NamesExtrasAndMarkers) {
  EXPECT_EQ(ParseRequirement("Torch_Vision >= 0.18 ; python_version < '3.12'")->name, "torch-vision");
  EXPECT_EQ(ParseRequirement("torch[opt-einsum]==2.3.1")->specifier, "==2.3.1");
  EXPECT_FALSE(ParseRequirement("==1.0"));
  EXPECT_EQ(NormalizeProjectName("nvidia_cudnn_cu12"), "nvidia-cudnn-cu12");
}

TEST(DistDir, DistInfoAndEggInfo) {
  EXPECT_EQ(ParseDistDirName("torch-2.3.1+cu121.dist-info")->version, "2.3.1+cu121");
  EXPECT_EQ(ParseDistDirName("nvidia_cudnn_cu12-8.9.2.26.dist-info")->name, "nvidia-cudnn-cu12");
  EXPECT_EQ(ParseDistDirName("torch-1.13.0a0+gitunknown.egg-info")->version, "1.13.0a0+gitunknown");
  EXPECT_EQ(ParseDistDirName("torchaudio-0.13.1-py3.11.egg-info")->version, "0.13.1");
  EXPECT_FALSE(ParseDistDirName("torch"));
}

TEST(Pyvenv, VenvAndUv) {
  auto cfg = ParsePyvenvCfg("home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.7\n");
  EXPECT_EQ(cfg["version"], "3.11.7");
  auto uv = ParsePyvenvCfg("home = /root/.local/share/uv/python/cpython-3.12.1-linux-x86_64-gnu/bin\nimplementation = CPython\n"
                           "uv = 0.4.0\nversion_info = 3.12.1\ninclude-system-site-packages = false\n");
  EXPECT_EQ(uv["version_info"], "3.12.1");
}

TEST(CondaAndPip, EnvironmentsTxtAndPipConf) {
  auto envs = ParseEnvironmentsTxt("/home/a/miniconda3\n/home/a/miniconda3/envs/x\n\n/home/a/miniconda3/envs/x\nrelative\n");
  EXPECT_EQ(envs.size(), 2u);
  PipConfig p = ParsePipConf("[global]\nindex-url = https://pypi.tuna.tsinghua.edu.cn/simple\n"
                             "extra-index-url =\n    https://a.example/simple\n    https://b.example/simple\n[install]\ntrusted-host = x\n");
  EXPECT_EQ(p.index_url, "https://pypi.tuna.tsinghua.edu.cn/simple");
  EXPECT_EQ(p.extra_index_urls.size(), 2u);
  EXPECT_EQ(ParsePipConf("[freeze]\nindex-url = x\n").index_url, "");
}

}  // namespace
}  // namespace cudamatch

namespace cudamatch {
namespace {

// Wrapper scripts as found on PATH: Debian 12 testbed's /usr/local/bin/nvcc (verbatim), a
// quoted variant and scripts that name no fixed nvcc.
TEST(Parsers, NvccWrapperNamesTheNvccItRuns) {
  EXPECT_EQ(ParseNvccWrapper("#!/bin/sh\nexec /usr/local/cuda-13.0/bin/nvcc \"$@\"\n"), "/usr/local/cuda-13.0/bin/nvcc");
  EXPECT_EQ(ParseNvccWrapper("#!/bin/bash\n# CUDA 12.4\nexec \"/opt/cuda-12.4/bin/nvcc\" \"$@\"\n"), "/opt/cuda-12.4/bin/nvcc");
  EXPECT_EQ(ParseNvccWrapper("#!/bin/sh\nexec $CUDA_HOME/bin/nvcc \"$@\"\n"), std::nullopt);
  EXPECT_EQ(ParseNvccWrapper("#!/bin/sh\necho hello\n"), std::nullopt);
  EXPECT_EQ(ParseNvccWrapper(std::string("\x7f" "ELF\x02\x01\x01", 7) + "/usr/local/cuda/bin/nvcc"), std::nullopt);
  EXPECT_EQ(ParseNvccWrapper(""), std::nullopt);
}

}  // namespace
}  // namespace cudamatch

namespace cudamatch {
namespace {

// The GCC check of crt/host_config.h: CUDA 13.0's file on the build machine (lines 133-139,
// verbatim) and the one-line form of older releases; clang-only checks and other files give none.
TEST(Parsers, HostConfigMaxGcc) {
  EXPECT_EQ(ParseHostConfigMaxGcc("#if defined(__GNUC__)\n\n#if __GNUC__ > 15\n\n#error -- unsupported GNU version! gcc "
                                  "versions later than 15 are not supported!\n\n#endif /* __GNUC__ > 15 */\n"),
            15);
  EXPECT_EQ(ParseHostConfigMaxGcc("#if __GNUC__ > 8\n#error -- unsupported GNU version!\n#endif\n"), 8);
  EXPECT_EQ(ParseHostConfigMaxGcc("#if (__clang_major__ >= 21) || (__clang_major__ < 3)\n"), std::nullopt);
  EXPECT_EQ(ParseHostConfigMaxGcc("/* __GNUC__ > 15 */\n"), std::nullopt);
  EXPECT_EQ(ParseHostConfigMaxGcc(""), std::nullopt);
}

}  // namespace
}  // namespace cudamatch
