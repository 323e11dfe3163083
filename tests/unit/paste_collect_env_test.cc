// ReadCollectEnv on the layouts of torch/utils/collect_env.py since 2019, from real pastes (each
// capture cites its thread; some threads were cut by the index at the end, so are the captures).
#include <gtest/gtest.h>

#include <algorithm>

#include "probe/paste.h"

namespace cudamatch {
namespace {

std::vector<PasteFact> Read(std::string_view paste) { return ReadCollectEnv(DecodePaste(paste)); }

// The value of the first fact of `kind` (and `name`, when given); "" when there is none.
std::string ValueOf(const std::vector<PasteFact>& facts, PasteFactKind kind, std::string_view name = {}) {
  for (const PasteFact& f : facts) {
    if (f.kind == kind && (name.empty() || f.name == name)) return f.value;
  }
  return "";
}

size_t CountOf(const std::vector<PasteFact>& facts, PasteFactKind kind) {
  return std::count_if(facts.begin(), facts.end(), [&](const PasteFact& f) { return f.kind == kind; });
}

const PasteFact* PackageFact(const std::vector<PasteFact>& facts, std::string_view name) {
  for (const PasteFact& f : facts) {
    if (f.kind == PasteFactKind::kPackage && f.name == name) return &f;
  }
  return nullptr;
}

// https://github.com/pytorch/pytorch/issues/39133 (2020-05, Windows, PowerShell; the layout of
// 2019 to mid-2020: "No"/"Yes", "Python version: 3.7", [pip]).
constexpr std::string_view k2020Windows =
    "Collecting environment information...\n"
    "PyTorch version: 1.5.0+cu101\n"
    "Is debug build: No\n"
    "CUDA used to build PyTorch: 10.1\n"
    "\n"
    "OS: Could not collect\n"
    "GCC version: Could not collect\n"
    "CMake version: version 3.15.3\n"
    "\n"
    "Python version: 3.7\n"
    "Is CUDA available: Yes\n"
    "CUDA runtime version: 10.1.243\n"
    "GPU models and configuration: GPU 0: Quadro P1000\n"
    "Nvidia driver version: 426.25\n"
    "cuDNN version: Could not collect\n"
    "\n"
    "Versions of relevant libraries:\n"
    "[pip] Could not collect\n"
    "[conda] Could not collect\n";

TEST(PasteCollectEnv, Layout2019To2020) {
  std::vector<PasteFact> f = Read(k2020Windows);
  ASSERT_FALSE(f.empty());
  EXPECT_EQ(f.front().kind, PasteFactKind::kFormat);
  EXPECT_EQ(f.front().value, "collect_env");
  EXPECT_EQ(f.front().line, 1);
  EXPECT_EQ(ValueOf(f, PasteFactKind::kTorchVersion), "1.5.0+cu101");
  EXPECT_EQ(ValueOf(f, PasteFactKind::kTorchDebug), "No");
  EXPECT_EQ(ValueOf(f, PasteFactKind::kTorchCuda), "10.1");
  EXPECT_EQ(ValueOf(f, PasteFactKind::kPythonVersion), "3.7");
  EXPECT_EQ(ValueOf(f, PasteFactKind::kCudaAvailable), "Yes");
  EXPECT_EQ(ValueOf(f, PasteFactKind::kToolkit), "10.1.243");
  EXPECT_EQ(ValueOf(f, PasteFactKind::kGpu, "0"), "Quadro P1000");
  EXPECT_EQ(ValueOf(f, PasteFactKind::kDriverVersion), "426.25");
  // "Could not collect" is no value: no OS, GCC, cuDNN or package fact.
  EXPECT_EQ(CountOf(f, PasteFactKind::kOs) + CountOf(f, PasteFactKind::kGcc) + CountOf(f, PasteFactKind::kCudnn) +
                CountOf(f, PasteFactKind::kPackage) + CountOf(f, PasteFactKind::kUnparsed),
            0u);
  for (const PasteFact& fact : f) EXPECT_EQ(fact.format, PasteFormat::kCollectEnv);
}

// https://github.com/pytorch/pytorch/issues/46973 (2020-10, Colab: "False"/"True", ROCM line).
constexpr std::string_view k2020Linux =
    "Collecting environment information...\n"
    "PyTorch version: 1.7.0+cu101\n"
    "Is debug build: True\n"
    "CUDA used to build PyTorch: 10.1\n"
    "ROCM used to build PyTorch: N/A\n"
    "\n"
    "OS: Ubuntu 18.04.5 LTS (x86_64)\n"
    "GCC version: (Ubuntu 7.5.0-3ubuntu1~18.04) 7.5.0\n"
    "Clang version: 6.0.0-1ubuntu2 (tags/RELEASE_600/final)\n"
    "CMake version: version 3.12.0\n"
    "\n"
    "Python version: 3.6 (64-bit runtime)\n"
    "Is CUDA available: True\n"
    "CUDA runtime version: 10.1.243\n"
    "GPU models and configuration: GPU 0: Tesla T4\n"
    "Nvidia driver version: 418.67\n";

TEST(PasteCollectEnv, Layout2020) {
  std::vector<PasteFact> f = Read(k2020Linux);
  EXPECT_EQ(ValueOf(f, PasteFactKind::kOs), "Ubuntu 18.04.5 LTS (x86_64)");
  EXPECT_EQ(ValueOf(f, PasteFactKind::kGcc), "(Ubuntu 7.5.0-3ubuntu1~18.04) 7.5.0");
  EXPECT_EQ(ValueOf(f, PasteFactKind::kPythonVersion), "3.6");
  EXPECT_EQ(CountOf(f, PasteFactKind::kTorchHip), 0u);  // N/A
  EXPECT_EQ(ValueOf(f, PasteFactKind::kGpu, "0"), "Tesla T4");
  const PasteFact* driver = nullptr;
  for (const PasteFact& x : f) {
    if (x.kind == PasteFactKind::kDriverVersion) driver = &x;
  }
  ASSERT_NE(driver, nullptr);
  EXPECT_EQ(driver->line, 16);
}

// https://github.com/pytorch/pytorch/pull/44106 (2020-09, a ROCm build: no CUDA, a HIP version,
// the GPU by its PCI name, the driver not collected; pip and conda lines).
constexpr std::string_view k2020Rocm =
    "Collecting environment information...\n"
    "PyTorch version: 1.7.0a0+9ddd3df\n"
    "Is debug build: False\n"
    "CUDA used to build PyTorch: N/A\n"
    "ROCM used to build PyTorch: 3.7.20315-077bcfa0\n"
    "\n"
    "OS: Ubuntu 18.04.4 LTS (x86_64)\n"
    "GCC version: (Ubuntu 7.5.0-3ubuntu1~18.04) 7.5.0\n"
    "Clang version: 11.0.0 (/src/external/llvm-project/clang ee4e4ebbadcc8ea14ce99e34ed31ab31e94827ac)\n"
    "CMake version: version 3.14.0\n"
    "\n"
    "Python version: 3.6 (64-bit runtime)\n"
    "Is CUDA available: True\n"
    "CUDA runtime version: N/A\n"
    "GPU models and configuration: Device 66a1\n"
    "Nvidia driver version: Could not collect\n"
    "cuDNN version: N/A\n"
    "HIP runtime version: 3.18.2\n"
    "MIOpen runtime version: 2.6.0\n"
    "\n"
    "Versions of relevant libraries:\n"
    "[pip3] numpy==1.18.5\n"
    "[pip3] torch==1.7.0a0+a9603c7\n"
    "[pip3] torchvision==0.8.0a0+a4736ea\n"
    "[conda] blas                      1.0                         mkl\n";

TEST(PasteCollectEnv, RocmBuildAndTheLibraryBlock) {
  std::vector<PasteFact> f = Read(k2020Rocm);
  EXPECT_EQ(ValueOf(f, PasteFactKind::kTorchCuda), "N/A");  // kept: it says "a build without CUDA"
  EXPECT_EQ(ValueOf(f, PasteFactKind::kTorchHip), "3.7.20315-077bcfa0");
  EXPECT_EQ(ValueOf(f, PasteFactKind::kGpu, "0"), "Device 66a1");
  EXPECT_EQ(CountOf(f, PasteFactKind::kDriverVersion), 0u);
  EXPECT_EQ(CountOf(f, PasteFactKind::kToolkit), 0u);
  const PasteFact* vision = PackageFact(f, "torchvision");
  ASSERT_NE(vision, nullptr);
  EXPECT_EQ(vision->value, "0.8.0a0+a4736ea");
  EXPECT_EQ(vision->extra, "pip3");
  EXPECT_EQ(vision->line, 24);
  const PasteFact* blas = PackageFact(f, "blas");
  ASSERT_NE(blas, nullptr);
  EXPECT_EQ(blas->value, "1.0");
  EXPECT_EQ(blas->extra, "conda");
  EXPECT_EQ(CountOf(f, PasteFactKind::kPackage), 4u);
}

// https://github.com/pytorch/pytorch/pull/42887 (2020-08, macOS, torch not importable).
constexpr std::string_view k2020Mac =
    "Collecting environment information...\n"
    "PyTorch version: N/A\n"
    "Is debug build: N/A\n"
    "CUDA used to build PyTorch: N/A\n"
    "\n"
    "OS: Mac OSX 10.15.5 (x86_64)\n"
    "GCC version: Could not collect\n"
    "Clang version: 12.0.0 (clang-1200.0.26.2)\n"
    "CMake version: version 3.17.3\n"
    "\n"
    "Python version: 2.7 (64-bit runtime)\n"
    "Is CUDA available: N/A\n"
    "CUDA runtime version: Could not collect\n"
    "GPU models and configuration: Could not collect\n"
    "Nvidia driver version: Could not collect\n"
    "cuDNN version: Could not collect\n"
    "\n"
    "Versions of relevant libraries:\n"
    "[pip3] numpy==1.19.1\n"
    "[pip3] torch==1.7.0.dev20200803\n"
    "[pip3] torchvision==0.8.0.dev20200804\n"
    "[conda] Could not collect\n";

TEST(PasteCollectEnv, MacWithoutTorchImported) {
  std::vector<PasteFact> f = Read(k2020Mac);
  EXPECT_EQ(CountOf(f, PasteFactKind::kTorchVersion), 0u);
  EXPECT_EQ(CountOf(f, PasteFactKind::kGpu), 0u);
  EXPECT_EQ(ValueOf(f, PasteFactKind::kOs), "Mac OSX 10.15.5 (x86_64)");
  EXPECT_EQ(ValueOf(f, PasteFactKind::kPackage, "torch"), "1.7.0.dev20200803");
  Snapshot s = PasteSnapshot(DecodePaste(k2020Mac), ReadPaste(DecodePaste(k2020Mac)), "mac.txt");
  EXPECT_EQ(s.platform.os, Os::kMacos);
}

// https://github.com/pytorch/pytorch/pull/137846 (2024-10, Windows 11, a CPU build: "None",
// "No CUDA", the long Python version; the Windows CPU table, whose "Architecture: 9" is a code).
constexpr std::string_view k2024WindowsCpu =
    "Collecting environment information...\n"
    "PyTorch version: 2.8.0.dev20250528+cpu\n"
    "Is debug build: False\n"
    "CUDA used to build PyTorch: None\n"
    "ROCM used to build PyTorch: N/A\n"
    "\n"
    "OS: Microsoft Windows 11 Enterprise (10.0.22631 64-bit)\n"
    "GCC version: Could not collect\n"
    "Clang version: Could not collect\n"
    "CMake version: Could not collect\n"
    "Libc version: N/A\n"
    "\n"
    "Python version: 3.10.17 | packaged by conda-forge | (main, Apr 10 2025, 22:06:35) [MSC v.1943 64 bit (AMD64)] (64-bit runtime)\n"
    "Python platform: Windows-10-10.0.22631-SP0\n"
    "Is CUDA available: False\n"
    "CUDA runtime version: No CUDA\n"
    "CUDA_MODULE_LOADING set to: N/A\n"
    "GPU models and configuration: No CUDA\n"
    "Nvidia driver version: No CUDA\n"
    "cuDNN version: No CUDA\n"
    "Is XPU available: False\n"
    "HIP runtime version: N/A\n"
    "MIOpen runtime version: N/A\n"
    "Is XNNPACK available: True\n"
    "\n"
    "CPU:\n"
    "Name: 12th Gen Intel(R) Core(TM) i7-1270P\n"
    "Manufacturer: GenuineIntel\n"
    "Family: 198\n"
    "Architecture: 9\n";

TEST(PasteCollectEnv, Layout2024WindowsCpuBuild) {
  std::vector<PasteFact> f = Read(k2024WindowsCpu);
  EXPECT_EQ(ValueOf(f, PasteFactKind::kTorchCuda), "None");
  EXPECT_EQ(ValueOf(f, PasteFactKind::kPythonVersion), "3.10.17");
  EXPECT_EQ(ValueOf(f, PasteFactKind::kPythonPlatform), "Windows-10-10.0.22631-SP0");
  for (PasteFactKind k : {PasteFactKind::kToolkit, PasteFactKind::kGpu, PasteFactKind::kDriverVersion, PasteFactKind::kCudnn,
                          PasteFactKind::kGlibc, PasteFactKind::kArch, PasteFactKind::kCudaModuleLoading}) {
    EXPECT_EQ(CountOf(f, k), 0u) << PasteFactKindName(k);
  }
  PasteText text = DecodePaste(k2024WindowsCpu);
  Snapshot s = PasteSnapshot(text, ReadPaste(text), "env.txt");
  EXPECT_EQ(s.platform.Name(), "windows-x86_64");
  EXPECT_TRUE(s.pythons.at(0).packages.at("torch").cuda_none);
}

// https://github.com/vllm-project/vllm/pull/9293 (2024-10, WSL 2: the kernel in the platform,
// CUDA_MODULE_LOADING, lscpu's Architecture).
constexpr std::string_view k2024Wsl =
    "Collecting environment information...\n"
    "PyTorch version: 2.4.0+cu121\n"
    "Is debug build: False\n"
    "CUDA used to build PyTorch: 12.1\n"
    "ROCM used to build PyTorch: N/A\n"
    "\n"
    "OS: Ubuntu 22.04.2 LTS (x86_64)\n"
    "GCC version: (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0\n"
    "Clang version: 14.0.0-1ubuntu1.1\n"
    "CMake version: version 3.30.2\n"
    "Libc version: glibc-2.35\n"
    "\n"
    "Python version: 3.12.3 | packaged by Anaconda, Inc. | (main, May  6 2024, 19:46:43) [GCC 11.2.0] (64-bit runtime)\n"
    "Python platform: Linux-5.15.153.1-microsoft-standard-WSL2-x86_64-with-glibc2.35\n"
    "Is CUDA available: True\n"
    "CUDA runtime version: 12.4.131\n"
    "CUDA_MODULE_LOADING set to: LAZY\n"
    "GPU models and configuration: GPU 0: NVIDIA GeForce RTX 4070 Laptop GPU\n"
    "Nvidia driver version: 551.88\n"
    "cuDNN version: Could not collect\n"
    "HIP runtime version: N/A\n"
    "MIOpen runtime version: N/A\n"
    "Is XNNPACK available: True\n"
    "\n"
    "CPU:\n"
    "Architecture:                       x86_64\n"
    "CPU op-mode(s):                     32-bit, 64-bit\n"
    "Address sizes:                      46 bits physical, 48 bits virtual\n"
    "Byte Order:                         Little Endian\n"
    "CPU(s):                             32\n";

TEST(PasteCollectEnv, Layout2024Wsl) {
  std::vector<PasteFact> f = Read(k2024Wsl);
  EXPECT_EQ(ValueOf(f, PasteFactKind::kCudaModuleLoading), "LAZY");
  EXPECT_EQ(ValueOf(f, PasteFactKind::kArch), "x86_64");
  EXPECT_EQ(ValueOf(f, PasteFactKind::kGlibc), "glibc-2.35");
  EXPECT_EQ(CountOf(f, PasteFactKind::kWsl), 1u);
  PasteText text = DecodePaste(k2024Wsl);
  Snapshot s = PasteSnapshot(text, ReadPaste(text), "env.txt");
  EXPECT_TRUE(s.driver.wsl);
  EXPECT_EQ(s.platform.Name(), "linux-x86_64");
  EXPECT_EQ(s.toolkits.at(0).version->MajorMinor(), "12.4");
  EXPECT_EQ(s.driver.userspace_source, "line 19: Nvidia driver version: 551.88");
}

// The layout since 2020 for several GPUs and several cuDNN files (collect_env.py prints the GPU
// list and the cuDNN candidates one per line), quoted in a reply, indented, with the full-width
// colon a Chinese system's nvidia-smi -L gives; conda lines with build and channel.
constexpr std::string_view kListsQuoted =
    "> PyTorch version: 2.0.1\n"
    "> CUDA used to build PyTorch: 11.8\n"
    "> GPU models and configuration:\n"
    "> GPU 0: NVIDIA GeForce RTX 3090\n"
    "> GPU 1\xEF\xBC\x9A NVIDIA GeForce RTX 3090\n"
    ">\n"
    "> Nvidia driver version: 525.105.17\n"
    "> cuDNN version: Probably one of the following:\n"
    "> /usr/lib/x86_64-linux-gnu/libcudnn.so.8.9.0\n"
    "> /usr/lib/x86_64-linux-gnu/libcudnn_adv_infer.so.8.9.0\n"
    "> HIP runtime version: N/A\n"
    ">\n"
    "> Versions of relevant libraries:\n"
    ">     [conda] pytorch                   2.0.1           py3.10_cuda11.8_cudnn8.7.0_0    pytorch\n"
    ">     [conda] pytorch-cuda              11.8                 h7e8429f_5    pytorch\n"
    "> [pip3] triton==2.0.0\n"
    "\n"
    "GPU 2: Tesla K80\n";

TEST(PasteCollectEnv, GpuAndCudnnListsQuotedAndIndented) {
  std::vector<PasteFact> f = Read(kListsQuoted);
  EXPECT_EQ(CountOf(f, PasteFactKind::kGpu), 2u);  // GPU 2 is after the block, not in its list
  EXPECT_EQ(ValueOf(f, PasteFactKind::kGpu, "1"), "NVIDIA GeForce RTX 3090");
  EXPECT_EQ(CountOf(f, PasteFactKind::kCudnn), 2u);
  EXPECT_EQ(ValueOf(f, PasteFactKind::kCudnn), "/usr/lib/x86_64-linux-gnu/libcudnn.so.8.9.0");
  const PasteFact* torch = PackageFact(f, "pytorch");
  ASSERT_NE(torch, nullptr);
  EXPECT_EQ(torch->value, "2.0.1");
  EXPECT_EQ(ValueOf(f, PasteFactKind::kPackage, "triton"), "2.0.0");
  PasteText text = DecodePaste(kListsQuoted);
  Snapshot s = PasteSnapshot(text, ReadPaste(text), "-");
  EXPECT_EQ(s.gpus.size(), 2u);
  ASSERT_EQ(s.cudnn.size(), 1u);  // one cuDNN, several of its files
  EXPECT_EQ(s.cudnn[0].version->ToString(), "8.9.0");
  EXPECT_EQ(s.pythons.at(0).packages.at("torch").version->ToString(), "2.0.1");
  EXPECT_EQ(s.pythons.at(0).packages.count("triton"), 1u);
  EXPECT_EQ(s.pythons.at(0).prefix, "stdin");
}

// Windows prints cuDNN as the DLLs it found, one per line after "Probably one of the following:"
// (the layout of collect_env.py's get_cudnn_version on win32).
TEST(PasteCollectEnv, WindowsCudnnDllsAndPaths) {
  constexpr std::string_view kPaste =
      "PyTorch version: 1.12.1+cu113\r\n"
      "OS: Microsoft Windows 10 Pro\r\n"
      "cuDNN version: Probably one of the following:\r\n"
      "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.3\\bin\\cudnn64_8.dll\r\n"
      "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.3\\bin\\cudnn_ops_train64_8.dll\r\n"
      "HIP runtime version: N/A\r\n";
  std::vector<PasteFact> f = Read(kPaste);
  EXPECT_EQ(CountOf(f, PasteFactKind::kCudnn), 2u);
  PasteText text = DecodePaste(kPaste);
  Snapshot s = PasteSnapshot(text, ReadPaste(text), "env.txt");
  EXPECT_EQ(s.platform.os, Os::kWindows);
  ASSERT_EQ(s.cudnn.size(), 1u);
  EXPECT_EQ(s.cudnn[0].version->ToString(), "8");
  EXPECT_EQ(s.cudnn[0].kind, CudnnKind::kToolkit);
  EXPECT_EQ(s.cudnn[0].source.substr(0, 10), "line 4: C:");
}

// https://github.com/pytorch/pytorch/issues/37320 (2020-04, retyped by hand: no colon after
// "PyTorch version", "Os:", full-width colons on the GPU lines, "Version of relevant libraries").
TEST(PasteCollectEnv, HandEditedOldLayout) {
  std::vector<PasteFact> f = Read(
      "PyTorch version 1.5.0\n"
      "Is debug build: No\n"
      "Os: Ubuntu 18.04.3 LTS\n"
      "GPU models and configuration:\n"
      "GPU 0\xEF\xBC\x9A Tesla P100-PCIE-16GB\n"
      "GPU 1\xEF\xBC\x9A Tesla P100-PCIE-16GB\n"
      "cuDNN version: /usr/lib/x86_64-linux-gnu/libcudnn.so.7.6.5\n"
      "Version of relevant libraries:\n"
      "[pip3] torch==1.5.0\n");
  EXPECT_EQ(CountOf(f, PasteFactKind::kFormat), 1u);
  EXPECT_EQ(ValueOf(f, PasteFactKind::kTorchVersion), "1.5.0");
  EXPECT_EQ(ValueOf(f, PasteFactKind::kTorchDebug), "No");
  EXPECT_EQ(ValueOf(f, PasteFactKind::kOs), "Ubuntu 18.04.3 LTS");
  EXPECT_EQ(ValueOf(f, PasteFactKind::kGpu, "1"), "Tesla P100-PCIE-16GB");
  EXPECT_EQ(ValueOf(f, PasteFactKind::kCudnn), "7.6.5");
  ASSERT_NE(PackageFact(f, "torch"), nullptr);
  EXPECT_EQ(PackageFact(f, "torch")->value, "1.5.0");
  // prose that names the version without a colon starts no block
  EXPECT_TRUE(Read("PyTorch version 1.5.0 is broken for me\nOs: Ubuntu\n").empty());
}

// https://github.com/vllm-project/vllm-omni/issues/241 (2025-12, vLLM's collect_env.py: sections
// under "====" rules, "Key : value", the system part before the PyTorch part).
TEST(PasteCollectEnv, SectionedLayoutReadsTheSystemSection) {
  std::vector<PasteFact> f = Read(
      "==============================\n"
      "        System Info\n"
      "==============================\n"
      "OS                           : Enterprise Linux Server 7.2 (Paladin) (x86_64)\n"
      "Libc version                 : glibc-2.32\n"
      "\n"
      "==============================\n"
      "       PyTorch Info\n"
      "==============================\n"
      "PyTorch version              : 2.8.0+cu128\n"
      "CUDA used to build PyTorch   : 12.8\n");
  EXPECT_EQ(CountOf(f, PasteFactKind::kFormat), 1u);  // one block, though "PyTorch version" comes later
  EXPECT_EQ(ValueOf(f, PasteFactKind::kOs), "Enterprise Linux Server 7.2 (Paladin) (x86_64)");
  EXPECT_EQ(ValueOf(f, PasteFactKind::kGlibc), "glibc-2.32");
  EXPECT_EQ(ValueOf(f, PasteFactKind::kTorchVersion), "2.8.0+cu128");
  // a rule and a heading alone are no report
  EXPECT_TRUE(Read("==============================\nOS : Ubuntu\n").empty());
}

// Windows, torch 2.2.2 from PyPI (the CPU build there): collect_env writes the None of
// torch.version.cuda as "Could not collect" (tests/fixtures/pastes/collect_env/SOURCES.md, ce-07).
TEST(PasteCollectEnv, CouldNotCollectBuildCudaIsACpuBuild) {
  constexpr std::string_view kPaste =
      "PyTorch version: 2.2.2\n"
      "Is debug build: False\n"
      "CUDA used to build PyTorch: Could not collect\n"
      "ROCM used to build PyTorch: N/A\n"
      "Is CUDA available: False\n"
      "GPU models and configuration: GPU 0: NVIDIA GeForce RTX 4080 Laptop GPU\n"
      "Nvidia driver version: 551.86\n";
  EXPECT_EQ(ValueOf(Read(kPaste), PasteFactKind::kTorchCuda), "Could not collect");
  PasteText text = DecodePaste(kPaste);
  Snapshot s = PasteSnapshot(text, ReadPaste(text), "env.txt");
  ASSERT_EQ(s.pythons.size(), 1u);
  ASSERT_TRUE(s.pythons[0].packages.count("torch"));
  EXPECT_TRUE(s.pythons[0].packages.at("torch").cuda_none);
}

TEST(PasteCollectEnv, NothingOutsideABlock) {
  EXPECT_TRUE(Read("Nvidia driver version: 535.1\nOS: Ubuntu\nGPU 0: Tesla T4\n").empty());
  EXPECT_TRUE(Read("").empty());
}

}  // namespace
}  // namespace cudamatch
