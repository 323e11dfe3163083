// The paste readers of nvidia-smi, package lists and single-fact tools, on verbatim captures
// from public threads (each cited above it) and on hostile input.

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "probe/paste.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

// The paste as DecodePaste gives it: lines split on '\n', numbered from 1.
PasteText Paste(std::string_view s) {
  PasteText t;
  t.encoding = "utf-8";
  int n = 0;
  while (true) {
    size_t nl = s.find('\n');
    t.lines.push_back(PasteLine{++n, std::string(s.substr(0, nl))});
    if (nl == std::string_view::npos) break;
    s.remove_prefix(nl + 1);
  }
  return t;
}

// "4 driver_version 550.40.07", "10 gpu [0] NVIDIA GeForce RTX 4070", "7 package [torch] 2.1.0 (pypi_0 pypi)".
std::vector<std::string> Show(const std::vector<PasteFact>& facts) {
  std::vector<std::string> out;
  for (const PasteFact& f : facts) {
    std::string s = std::to_string(f.line) + " " + std::string(PasteFactKindName(f.kind));
    if (!f.name.empty()) s += " [" + f.name + "]";
    s += " " + f.value;
    if (!f.extra.empty()) s += " (" + f.extra + ")";
    out.push_back(s);
  }
  return out;
}

std::vector<std::string> Read(PasteReader read, std::string_view text) { return Show(read(Paste(text))); }

using Lines = std::vector<std::string>;

// ---- nvidia-smi, the table -------------------------------------------------------------------

// R550, Linux: https://github.com/Frogging-Family/nvidia-all/pull/212
TEST(PasteReadersNvidiaSmi, R550Linux) {
  EXPECT_EQ(Read(ReadNvidiaSmi, R"PASTE($ nvidia-smi
Wed Jan 24 15:18:40 2024       
+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 550.40.07              Driver Version: 550.40.07      CUDA Version: 12.4     |
|-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
|                                         |                        |               MIG M. |
|=========================================+========================+======================|
|   0  NVIDIA GeForce RTX 4070        Off |   00000000:2D:00.0  On |                  N/A |
|  0%   36C    P5             17W /  200W |     430MiB /  12282MiB |      1%      Default |
|                                         |                        |                  N/A |
+-----------------------------------------+------------------------+----------------------+)PASTE"),
            (Lines{"4 format nvidia-smi", "4 driver_version 550.40.07", "4 driver_cuda 12.4",
                   "10 gpu [0] NVIDIA GeForce RTX 4070", "10 gpu_bus_id [0] 00000000:2D:00.0",
                   "11 gpu_memory_mib [0] 12282"}));
}

// R610+, "KMD Version" and "CUDA UMD Version", two GPUs: https://github.com/sgl-project/sglang/issues/27487
TEST(PasteReadersNvidiaSmi, R610KmdAndUmdVersions) {
  EXPECT_EQ(Read(ReadNvidiaSmi, R"PASTE(```text
Sun Jun  7 08:16:57 2026
+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 610.43.02              KMD Version: 610.43.02     CUDA UMD Version: 13.3     |
+-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
|                                         |                        |               MIG M. |
|=========================================+========================+======================|
|   0  NVIDIA B200                    On  |   00000000:63:00.0 Off |                    0 |
| N/A   26C    P0            139W / 1000W |       0MiB / 183359MiB |      0%      Default |
|                                         |                        |             Disabled |
+-----------------------------------------+------------------------+----------------------+
|   1  NVIDIA B200                    On  |   00000000:68:00.0 Off |                    0 |
| N/A   30C    P0            142W / 1000W |       0MiB / 183359MiB |      0%      Default |
|                                         |                        |             Disabled |
+----)PASTE"),
            (Lines{"4 format nvidia-smi", "4 kernel_module 610.43.02", "4 driver_cuda 13.3",
                   "10 gpu [0] NVIDIA B200", "10 gpu_bus_id [0] 00000000:63:00.0", "11 gpu_memory_mib [0] 183359",
                   "14 gpu [1] NVIDIA B200", "14 gpu_bus_id [1] 00000000:68:00.0", "15 gpu_memory_mib [1] 183359"}));
}

// R610+ on a GeForce whose name nvidia-smi cuts, and the processes table after it:
// https://github.com/EricLBuehler/mistral.rs/pull/2287
TEST(PasteReadersNvidiaSmi, R610CutNameAndProcessesTable) {
  EXPECT_EQ(Read(ReadNvidiaSmi, R"PASTE(+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 610.43.02              KMD Version: 610.43.02     CUDA UMD Version: 13.3     |
+-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
|                                         |                        |               MIG M. |
|=========================================+========================+======================|
|   0  NVIDIA GeForce RTX 5070 ...    Off |   00000000:02:00.0  On |                  N/A |
| N/A   51C    P8              7W /   70W |     273MiB /  12227MiB |      2%      Default |
|                                         |                        |                  N/A |
+-----------------------------------------+------------------------+----------------------+

+-----------------------------------------------------------------------------------------+
| Processes:                                                                              |
|  GPU   GI   CI              PID   Type   Process name                        GPU Memory |
|        ID)PASTE"),
            (Lines{"2 format nvidia-smi", "2 kernel_module 610.43.02", "2 driver_cuda 13.3",
                   "8 gpu [0] NVIDIA GeForce RTX 5070 ...", "8 gpu_bus_id [0] 00000000:02:00.0",
                   "9 gpu_memory_mib [0] 12227"}));
}

// R580 on a Raspberry Pi CM5 (PCI domain 00000001): https://github.com/geerlingguy/raspberry-pi-pcie-devices/issues/790
TEST(PasteReadersNvidiaSmi, R580OtherPciDomain) {
  EXPECT_EQ(Read(ReadNvidiaSmi, R"PASTE(jgeerling@cm5:~ $ nvidia-smi
Fri Dec  5 17:40:55 2025       
+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 580.95.05              Driver Version: 580.95.05      CUDA Version: 13.0     |
+-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
|                                         |                        |               MIG M. |
|=========================================+========================+======================|
|   0  NVIDIA GeForce RTX 3060        Off |   00000001:01:00.0 Off |                  N/A |
|  0%   26C    P8              4W /  170W |       1MiB /  12288MiB |      0%      Default |
|                                         |                        |                  N/A |
+-----------------------------------------+------------------------+---)PASTE"),
            (Lines{"4 format nvidia-smi", "4 driver_version 580.95.05", "4 driver_cuda 13.0",
                   "10 gpu [0] NVIDIA GeForce RTX 3060", "10 gpu_bus_id [0] 00000001:01:00.0",
                   "11 gpu_memory_mib [0] 12288"}));
}

// R525, the older layout, a Tesla name cut, and the processes table: https://github.com/Wan-Video/Wan2.1/issues/5
TEST(PasteReadersNvidiaSmi, R525CutTeslaName) {
  EXPECT_EQ(Read(ReadNvidiaSmi, R"PASTE(```log
+-----------------------------------------------------------------------------+
| NVIDIA-SMI 525.105.17   Driver Version: 525.105.17   CUDA Version: 12.0     |
|-------------------------------+----------------------+----------------------+
| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |
| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |
|                               |                      |               MIG M. |
|===============================+======================+======================|
|   0  Tesla V100-SXM2...  On   | 00000000:00:09.0 Off |                    0 |
| N/A   38C    P0    38W / 300W |    308MiB / 32768MiB |      0%      Default |
|                               |                      |                  N/A |
+-------------------------------+----------------------+----------------------+

+-----------------------------------------------------------------------------+
| Processes:                                                                  |
|  GPU   GI   CI        PID   Type   Process name                  GPU Memory |
|        ID   ID                                                   Usage      |
|=============================================================================|
+-----------------------------------------------------------------------------+
```)PASTE"),
            (Lines{"3 format nvidia-smi", "3 driver_version 525.105.17", "3 driver_cuda 12.0",
                   "9 gpu [0] Tesla V100-SXM2...", "9 gpu_bus_id [0] 00000000:00:09.0", "10 gpu_memory_mib [0] 32768"}));
}

// R470, "NVIDIA GeForce ..." cut to nothing of the model: https://github.com/filecoin-project/bellperson/issues/227
TEST(PasteReadersNvidiaSmi, R470NameCutToTheBrand) {
  EXPECT_EQ(Read(ReadNvidiaSmi, R"PASTE(meawoppl@meawoppl-fc:~/repos/lotus$ nvidia-smi 
Thu Sep 23 12:42:56 2021       
+-----------------------------------------------------------------------------+
| NVIDIA-SMI 470.57.02    Driver Version: 470.57.02    CUDA Version: 11.4     |
|-------------------------------+----------------------+----------------------+
| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |
| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |
|                               |                      |               MIG M. |
|===============================+======================+======================|
|   0  NVIDIA GeForce ...  On   | 00000000:41:00.0 Off |                  N/A |
|  0%   42C    P8    24W / 280W |     15MiB /  7979MiB |      0%      Default |
|                               |                      |                  N/A |
+-------------------------------+----------------------+----------------------+)PASTE"),
            (Lines{"4 format nvidia-smi", "4 driver_version 470.57.02", "4 driver_cuda 11.4",
                   "10 gpu [0] NVIDIA GeForce ...", "10 gpu_bus_id [0] 00000000:41:00.0", "11 gpu_memory_mib [0] 7979"}));
}

// R450 (CUDA 11.0): https://github.com/rossumai/nvgpu/pull/15
TEST(PasteReadersNvidiaSmi, R450) {
  EXPECT_EQ(Read(ReadNvidiaSmi, R"PASTE(Wed Jul 29 21:51:11 2020
+-----------------------------------------------------------------------------+
| NVIDIA-SMI 450.57       Driver Version: 450.57       CUDA Version: 11.0     |
|-------------------------------+----------------------+----------------------+
| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |
| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |
|                               |                      |               MIG M. |
|===============================+======================+======================|
|   0  TITAN Xp            On   | 00000000:17:00.0 Off |                  N/A |
| 23%   39C    P8     9W / 250W |      7MiB / 12196MiB |      0%      Default |
|                               |                      |                  N/A |
+-------------------------------+----------------------+----------------------+)PASTE"),
            (Lines{"3 format nvidia-smi", "3 driver_version 450.57", "3 driver_cuda 11.0", "9 gpu [0] TITAN Xp",
                   "9 gpu_bus_id [0] 00000000:17:00.0", "10 gpu_memory_mib [0] 12196"}));
}

// R331: no CUDA Version in the header yet, a four-digit PCI domain, three GPUs:
// https://github.com/cBio/cbio-cluster/issues/38
TEST(PasteReadersNvidiaSmi, R331WithoutCudaVersion) {
  EXPECT_EQ(Read(ReadNvidiaSmi, R"PASTE([chodera@gpu-1-12 ~]$ nvidia-smi
Fri Apr 18 12:26:18 2014       
+------------------------------------------------------+                       
| NVIDIA-SMI 331.62     Driver Version: 331.62         |                       
|-------------------------------+----------------------+----------------------+
| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |
| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |
|===============================+======================+======================|
|   0  GeForce GTX 680     Off  | 0000:03:00.0     N/A |                  N/A |
| 30%   35C  N/A     N/A /  N/A |      9MiB /  4095MiB |     N/A      Default |
+-------------------------------+----------------------+----------------------+
|   1  GeForce GTX 680     Off  | 0000:04:00.0     N/A |                  N/A |
| 30%   35C  N/A     N/A /  N/A |      9MiB /  4095MiB |     N/A      Default |
+-------------------------------+----------------------+----------------------+
|   2  GeForce GTX 680     Off  | 0000:83:00.0     N/A |                  N/A |
| 30%   34C  N/A     N/A /  N/A |      9MiB /  4095MiB |     N/A      Default |
+-)PASTE"),
            (Lines{"4 format nvidia-smi", "4 driver_version 331.62", "9 gpu [0] GeForce GTX 680",
                   "9 gpu_bus_id [0] 0000:03:00.0", "10 gpu_memory_mib [0] 4095", "12 gpu [1] GeForce GTX 680",
                   "12 gpu_bus_id [1] 0000:04:00.0", "13 gpu_memory_mib [1] 4095", "15 gpu [2] GeForce GTX 680",
                   "15 gpu_bus_id [2] 0000:83:00.0", "16 gpu_memory_mib [2] 4095"}));
}

// Windows R546, "TCC/WDDM" and a cut name: https://github.com/NVIDIAGameWorks/rtx-remix/issues/453
TEST(PasteReadersNvidiaSmi, WindowsWddm) {
  EXPECT_EQ(Read(ReadNvidiaSmi, R"PASTE(| NVIDIA-SMI 546.12                 Driver Version: 546.12       CUDA Version: 12.3     |
|-----------------------------------------+----------------------+----------------------+
| GPU  Name                     TCC/WDDM  | Bus-Id        Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |         Memory-Usage | GPU-Util  Compute M. |
|                                         |                      |               MIG M. |
|=========================================+======================+======================|
|   0  NVIDIA GeForce RTX 3050 ...  WDDM  | 00000000:01:00.0 Off |                  N/A |
| N/A   52C    P0               7W /  60W |      0MiB /  4096MiB |      0%      Default |
|                                         |                      |                  N/A |
+-----------------------------------------+----------------------+----------------------+)PASTE"),
            (Lines{"1 format nvidia-smi", "1 driver_version 546.12", "1 driver_cuda 12.3",
                   "7 gpu [0] NVIDIA GeForce RTX 3050 ...", "7 gpu_bus_id [0] 00000000:01:00.0", "8 gpu_memory_mib [0] 4096"}));
}

// A Windows console copy that joined the whole table into one line, each row padded to the
// console's 120 columns, cut after the bus id: https://github.com/visomaster/VisoMaster/issues/11
TEST(PasteReadersNvidiaSmi, WindowsTableOnOneLine) {
  const std::string line =
      "C:\\Users\\zackc>nvidia-smi                                                                                               "
      "Tue Feb  4 22:41:50 2025                                                                                                "
      "+-----------------------------------------------------------------------------------------+                             "
      "| NVIDIA-SMI 572.16                 Driver Version: 572.16         CUDA Version: 12.8     |                             "
      "|-----------------------------------------+------------------------+----------------------+                             "
      "| GPU  Name                  Driver-Model | Bus-Id          Disp.A | Volatile Uncorr. ECC |                             "
      "|=========================================+========================+======================|                             "
      "|   0  NVIDIA GeForce 940MX         WDDM  |   00000000:01:00.0 Off";
  EXPECT_EQ(Read(ReadNvidiaSmi, line),
            (Lines{"1 format nvidia-smi", "1 driver_version 572.16", "1 driver_cuda 12.8",
                   "1 gpu [0] NVIDIA GeForce 940MX", "1 gpu_bus_id [0] 00000000:01:00.0"}));
  // long lines that are no table, or a table row cut before its Disp.A word, give nothing
  EXPECT_TRUE(Read(ReadNvidiaSmi, std::string(300, ' ') + "+-- x " + std::string(300, 'y')).empty());
  EXPECT_EQ(Read(ReadNvidiaSmi, line.substr(0, line.size() - 4)).size(), 3u);
}

// nvidia-smi.exe from WSL, R460, whose processes table follows without a blank line:
// https://github.com/microsoft/WSL/issues/6014
TEST(PasteReadersNvidiaSmi, WslProcessRowsAreNotGpus) {
  EXPECT_EQ(Read(ReadNvidiaSmi, R"PASTE(`$ nvidia-smi.exe
Fri Oct  2 23:54:29 2020
+-----------------------------------------------------------------------------+
| NVIDIA-SMI 460.15       Driver Version: 460.15       CUDA Version: 11.1     |
|-------------------------------+----------------------+----------------------+
| GPU  Name            TCC/WDDM | Bus-Id        Disp.A | Volatile Uncorr. ECC |
| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |
|===============================+======================+======================|
|   0  GeForce RTX 207... WDDM  | 00000000:01:00.0 Off |                  N/A |
| N/A   45C    P5    12W /  N/A |    176MiB /  8192MiB |      0%      Default |
+-------------------------------+----------------------+----------------------+
+-----------------------------------------------------------------------------+
| Processes:                                                                  |
|  GPU   GI   CI        PID   Type   Process name                  GPU Memory |
|        ID   ID                                                   Usage      |
|=============================================================================|
|    0   N/A  N/A      1752    C+G   Insufficient Permissions        N/A      |
|    0   N/A  N/A      2424    C+G   ...b3d8bbwe\WinStore.App.exe    N/A      |)PASTE"),
            (Lines{"4 format nvidia-smi", "4 driver_version 460.15", "4 driver_cuda 11.1",
                   "9 gpu [0] GeForce RTX 207...", "9 gpu_bus_id [0] 00000000:01:00.0", "10 gpu_memory_mib [0] 8192"}));
}

// WSL with "CUDA Version: ERR!", kept as written (the snapshot says it does not parse), and the
// NVIDIA-SMI version differing from the driver's: https://github.com/microsoft/WSL/issues/11589
TEST(PasteReadersNvidiaSmi, WslCudaVersionErr) {
  EXPECT_EQ(Read(ReadNvidiaSmi, R"PASTE(nvidia-smi
output:
Wed May 15 21:49:41 2024       
+---------------------------------------------------------------------------------------+
| NVIDIA-SMI 545.46                 Driver Version: 546.80       CUDA Version: ERR!     |
|-----------------------------------------+----------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id        Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |         Memory-Usage | GPU-Util  Compute M. |
|                                         |                      |               MIG M. |
|=========================================+======================+======================|
|   0  NVIDIA GeForce RTX 3060 ...    On  | 00000000:01:00.0  On |                  N/A |
| N/A   54C    P8              16W /  80W |    816MiB /  6144MiB |      3%      Default |)PASTE"),
            (Lines{"5 format nvidia-smi", "5 driver_version 546.80", "5 driver_cuda ERR!",
                   "11 gpu [0] NVIDIA GeForce RTX 3060 ...", "11 gpu_bus_id [0] 00000000:01:00.0",
                   "12 gpu_memory_mib [0] 6144"}));
}

// "CUDA Version: N/A" (R575 on FreeBSD's Linux layer): https://github.com/shkhln/libc6-shim/issues/14
TEST(PasteReadersNvidiaSmi, CudaVersionNotAvailable) {
  EXPECT_EQ(Read(ReadNvidiaSmi, R"PASTE(| NVIDIA-SMI 575.64.03              Driver Version: 575.64.03      CUDA Version: N/A      |)PASTE"),
            (Lines{"1 format nvidia-smi", "1 driver_version 575.64.03", "1 driver_cuda N/A"}));
}

// nvidia-smi's failure, then nvcc -V: https://github.com/qixuema/envs/issues/4
TEST(PasteReadersNvidiaSmi, FailureIsUnparsedNotAbsence) {
  constexpr std::string_view kPaste = R"PASTE(第一步，打开终端，先用 nvidia-smi 查看一下，发现如下错误：
```JavaScript
NVIDIA-SMI has failed because it couldn‘t communicate with the NVIDIA driver.
Make sure that the latest NVIDIA driver is installed and running.
```
第二步，使用 nvcc -V 检查驱动和 cuda
```JavaScript
nvcc: NVIDIA (R) Cuda compiler driver
Copyright (c) 2005-2018 NVIDIA Corporation
Built on Sat_Aug_25_21:08:01_CDT_2018
Cuda compilation tools, release 10.0, V10.0.130
```)PASTE";
  EXPECT_EQ(Read(ReadNvidiaSmi, kPaste),
            (Lines{"3 format nvidia-smi",
                   "3 driver_failure [no_driver] NVIDIA-SMI has failed because it couldn‘t communicate with the NVIDIA driver."}));
  EXPECT_EQ(Read(ReadNvcc, kPaste), (Lines{"8 format nvcc", "11 toolkit 10.0.130"}));
}

// The same failure on one line: https://github.com/ci-for-research/self-hosted-runners/issues/40
TEST(PasteReadersNvidiaSmi, FailureOnOneLine) {
  EXPECT_EQ(Read(ReadNvidiaSmi, "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. "
                                "Make sure that the latest NVIDIA driver is installed and running."),
            (Lines{"1 format nvidia-smi",
                   "1 driver_failure [no_driver] NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. "
                   "Make sure that the latest NVIDIA driver is installed and running."}));
}

TEST(PasteReadersNvidiaSmi, NvmlMismatch) {
  // What nvidia-smi prints after a driver update without a reboot.
  EXPECT_EQ(Read(ReadNvidiaSmi, "$ nvidia-smi\nFailed to initialize NVML: Driver/library version mismatch\nNVML library version: 535.183\n"),
            (Lines{"2 format nvidia-smi", "2 driver_failure [version_mismatch] Failed to initialize NVML: Driver/library version mismatch",
                   "3 driver_version 535.183"}));
  // https://github.com/zzzhouuu/truenas-nvidia-drivers/issues/19: the library and the loaded module differ
  PasteText text = Paste("root@truenas[/]# nvidia-smi\nFailed to initialize NVML: Driver/library version mismatch\n"
                         "NVML library version: 580.178\nroot@truenas[/]# cat /proc/driver/nvidia/version\n"
                         "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.173.02  Tue Jun 23 08:38:17 UTC 2026\n");
  Snapshot s = PasteSnapshot(text, ReadPaste(text), "smi.txt");
  ASSERT_TRUE(s.driver.userspace_version && s.driver.kernel_version);
  EXPECT_EQ(s.driver.userspace_version->text, "580.178");
  EXPECT_TRUE(s.driver.mismatch());
}

// A table quoted in a reply ("> ") and indented is the same table.
TEST(PasteReadersNvidiaSmi, QuotedAndIndented) {
  EXPECT_EQ(Read(ReadNvidiaSmi, "> > | NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2 |\n"
                                ">     |   0  NVIDIA A10G   On  | 00000000:00:1E.0 Off |    0 |\n"
                                ">     | 0%   23C    P8    9W / 300W |      0MiB / 23028MiB |  0%  Default |"),
            (Lines{"1 format nvidia-smi", "1 driver_version 535.104.05", "1 driver_cuda 12.2", "2 gpu [0] NVIDIA A10G",
                   "2 gpu_bus_id [0] 00000000:00:1E.0", "3 gpu_memory_mib [0] 23028"}));
}

TEST(PasteReadersNvidiaSmi, TruncatedAndGarbage) {
  // Cut inside the header: no version, still the table's start.
  EXPECT_EQ(Read(ReadNvidiaSmi, "| NVIDIA-SMI 535.104.05   Driver Version: 535.1"),
            (Lines{"1 format nvidia-smi", "1 driver_version 535.1"}));
  // Rows without a header are not read: nothing says they are nvidia-smi's.
  EXPECT_EQ(Read(ReadNvidiaSmi, "|   0  NVIDIA A10G   On  | 00000000:00:1E.0 Off |    0 |"), Lines{});
  EXPECT_EQ(Read(ReadNvidiaSmi, "| NVIDIA-SMI 1 Version:\n|||||\n| x | y | z |\n|   9999999  | :: | |\n"),
            (Lines{"1 format nvidia-smi"}));
  EXPECT_EQ(Read(ReadNvidiaSmi, ""), Lines{});
}


// R418 (CUDA 10.1), lspci lines before it: https://github.com/openmm/openmm/issues/2386
TEST(PasteReadersNvidiaSmi, R418) {
  EXPECT_EQ(Read(ReadNvidiaSmi, R"PASTE(```
02:00.0 VGA compatible controller: NVIDIA Corporation GP102 [TITAN X] (rev a1)
82:00.1 Audio device: NVIDIA Corporation GP102 HDMI Audio Controller (rev a1)
Sun Sep 15 17:18:47 2019       
+-----------------------------------------------------------------------------+
| NVIDIA-SMI 418.39       Driver Version: 418.39       CUDA Version: 10.1     |
|-------------------------------+----------------------+----------------------+
| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |
| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |
|===============================+======================+======================|
|   0  TITAN X (Pascal)    On   | 00000000:02:00.0 Off |                  N/A |
| 23%   27C    P8     9W / 250W |      1MiB / 12196MiB |      0%      Default |
+-------------------------------+--------------------)PASTE"),
            (Lines{"6 format nvidia-smi", "6 driver_version 418.39", "6 driver_cuda 10.1", "11 gpu [0] TITAN X (Pascal)",
                   "11 gpu_bus_id [0] 00000000:02:00.0", "12 gpu_memory_mib [0] 12196"}));
}

// R535 on an A10G, the processes table after a line of blanks: https://github.com/NVIDIA/DCGM/issues/232
TEST(PasteReadersNvidiaSmi, R535) {
  EXPECT_EQ(Read(ReadNvidiaSmi, R"PASTE(```
nvidia-smi
Thu May 22 04:11:56 2025       
+---------------------------------------------------------------------------------------+
| NVIDIA-SMI 535.247.01             Driver Version: 535.247.01   CUDA Version: 12.2     |
|-----------------------------------------+----------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id        Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |         Memory-Usage | GPU-Util  Compute M. |
|                                         |                      |               MIG M. |
|=========================================+======================+======================|
|   0  NVIDIA A10G                    Off | 00000000:00:1E.0 Off |                    0 |
|  0%   26C    P0              60W / 300W |   8722MiB / 23028MiB |      0%      Default |
|                                         |                      |                  N/A |
+-----------------------------------------+----------------------+----------------------+
                                                                                         
+---------------------------------------------------------------------------------------+
| Processes:                                                                            |
|  GPU   GI   CI        PID   Type   Process name)PASTE"),
            (Lines{"5 format nvidia-smi", "5 driver_version 535.247.01", "5 driver_cuda 12.2", "11 gpu [0] NVIDIA A10G",
                   "11 gpu_bus_id [0] 00000000:00:1E.0", "12 gpu_memory_mib [0] 23028"}));
}

// ---- nvidia-smi -q ---------------------------------------------------------------------------

// R560 on Windows, -q -d MEMORY (FB and BAR1 both have a Total; only FB's is the GPU's memory):
// https://github.com/terminatorul/NvStrapsReBar/issues/89
TEST(PasteReadersNvidiaSmiQ, R560FbMemoryNotBar1) {
  EXPECT_EQ(Read(ReadNvidiaSmiQ, R"PASTE(```
==============NVSMI LOG==============

Timestamp                                 : Tue Jul 23 12:34:41 2024
Driver Version                            : 560.70
CUDA Version                              : 12.6

Attached GPUs                             : 1
GPU 00000000:01:00.0
    FB Memory Usage
        Total                             : 8192 MiB
        Reserved                          : 203 MiB
        Used                              : 659 MiB
        Free                              : 7331 MiB
    BAR1 Memory Usage
        Total)PASTE"),
            (Lines{"2 format nvidia-smi -q", "5 driver_version 560.70", "6 driver_cuda 12.6",
                   "9 gpu_bus_id [0] 00000000:01:00.0", "11 gpu_memory_mib [0] 8192"}));
}

// R450 on Ubuntu 20.04: https://github.com/MatthiasSchinzel/sysmon/issues/12
TEST(PasteReadersNvidiaSmiQ, R450Linux) {
  EXPECT_EQ(Read(ReadNvidiaSmiQ, R"PASTE(```
~$ nvidia-smi -q

==============NVSMI LOG==============

Timestamp                                 : Sat Oct 10 17:02:53 2020
Driver Version                            : 450.66
CUDA Version                              : 11.0

Attached GPUs                             : 1
GPU 00000000:01:00.0
    Product Name                          : GeForce GTX 780
    Product Brand                         : GeForce
    Display Mode                          : N/A
    Display Active                        : N/A
    Persistence Mode                      : Disabled
    MIG Mode
        Current                           : N/A
        Pending                           : N/A
    Accounting Mode                       : N/A)PASTE"),
            (Lines{"4 format nvidia-smi -q", "7 driver_version 450.66", "8 driver_cuda 11.0",
                   "11 gpu_bus_id [0] 00000000:01:00.0", "12 gpu [0] GeForce GTX 780"}));
}

// R390, before -q said a CUDA version: https://github.com/NVIDIA/nvidia-docker/issues/756
TEST(PasteReadersNvidiaSmiQ, R390WithoutCudaVersion) {
  EXPECT_EQ(Read(ReadNvidiaSmiQ, R"PASTE(```
==============NVSMI LOG==============

Timestamp                           : Thu Jun  7 10:21:52 2018
Driver Version                      : 390.48

Attached GPUs                       : 8
GPU 00000000:04:00.0
    Product Name                    : GeForce GTX 1080 Ti
    Product Brand                   : GeForce)PASTE"),
            (Lines{"2 format nvidia-smi -q", "5 driver_version 390.48", "8 gpu_bus_id [0] 00000000:04:00.0",
                   "9 gpu [0] GeForce GTX 1080 Ti"}));
}

// Windows R442, nvidia-smi.exe -q -i 0: https://github.com/anderskm/gputil/issues/38
TEST(PasteReadersNvidiaSmiQ, WindowsR442) {
  EXPECT_EQ(Read(ReadNvidiaSmiQ, R"PASTE(nvidia-smi.exe -q -i 0                                                                 
==============NVSMI LOG==============

Timestamp                           : Wed Aug 12 20:36:37 2020
Driver Version                      : 442.92
CUDA Version                        : 10.2

Attached GPUs                       : 4
GPU 00000000:18:00.0
    Product Name                    : GeForce GTX 1080 Ti
    Product Brand                   : GeForce
    Display Mode                    : Enabled
    Driver Model
        Current                     : WDDM
        Pending                     : WDDM)PASTE"),
            (Lines{"2 format nvidia-smi -q", "5 driver_version 442.92", "6 driver_cuda 10.2",
                   "9 gpu_bus_id [0] 00000000:18:00.0", "10 gpu [0] GeForce GTX 1080 Ti"}));
}

// WSL 2, R510, nvidia-smi -a (the same layout): https://github.com/NVIDIA/nvidia-docker/issues/1604
TEST(PasteReadersNvidiaSmiQ, WslR510) {
  EXPECT_EQ(Read(ReadNvidiaSmiQ, R"PASTE( ```
$ nvidia-smi -a

==============NVSMI LOG==============

Timestamp                                 : Thu Feb  3 13:18:48 2022
Driver Version                            : 510.06
CUDA Version                              : 11.6

Attached GPUs                             : 1
GPU 00000000:01:00.0
    Product Name                          : NVIDIA GeForce GTX 1650 Ti with Max-Q Design
    Product Brand                         : GeForce
    Product Architecture                  : Turing)PASTE"),
            (Lines{"4 format nvidia-smi -q", "7 driver_version 510.06", "8 driver_cuda 11.6",
                   "11 gpu_bus_id [0] 00000000:01:00.0", "12 gpu [0] NVIDIA GeForce GTX 1650 Ti with Max-Q Design"}));
}

TEST(PasteReadersNvidiaSmiQ, SecondGpuAndEndOfBlock) {
  // Two GPU sections (the second's lines from https://github.com/NVIDIA/nvidia-docker/issues/1146),
  // then text at the top level ends the block: its "Total : 1 MiB" is not a GPU's.
  EXPECT_EQ(Read(ReadNvidiaSmiQ, "==============NVSMI LOG==============\n"
                                 "Driver Version                      : 418.67\n"
                                 "GPU 00000000:1A:00.0\n"
                                 "    Product Name                    : GeForce RTX 2080 Ti\n"
                                 "    Processes                       : None\n"
                                 "\n"
                                 "GPU 00000000:3B:00.0\n"
                                 "    Product Name                    : GeForce RTX 2080 Ti\n"
                                 "    FB Memory Usage\n"
                                 "        Total                       : 11019 MiB\n"
                                 "and then I ran\n"
                                 "    FB Memory Usage\n"
                                 "        Total                       : 1 MiB\n"),
            (Lines{"1 format nvidia-smi -q", "2 driver_version 418.67", "3 gpu_bus_id [0] 00000000:1A:00.0",
                   "4 gpu [0] GeForce RTX 2080 Ti", "7 gpu_bus_id [1] 00000000:3B:00.0", "8 gpu [1] GeForce RTX 2080 Ti",
                   "10 gpu_memory_mib [1] 11019"}));
  // Lines of -q without its header are not read.
  EXPECT_EQ(Read(ReadNvidiaSmiQ, "Driver Version : 535.104.05\nGPU 00000000:01:00.0\n    Product Name : X\n"), Lines{});
}

// R418 in a container, nvidia-smi -a: https://github.com/NVIDIA/nvidia-docker/issues/1001
TEST(PasteReadersNvidiaSmiQ, R418) {
  EXPECT_EQ(Read(ReadNvidiaSmiQ, R"PASTE(```
root@5ab363ee00c7:/opt/RealNetworks/virgo# nvidia-smi -a

==============NVSMI LOG==============

Timestamp                           : Tue Jun 25 17:14:36 2019
Driver Version                      : 418.67
CUDA Version                        : 10.1

Attached GPUs                       : 1
GPU 00000000:41:00.0
    Product Name                    : GeForce GTX 1080 Ti
    Product Brand                   : GeForce)PASTE"),
            (Lines{"4 format nvidia-smi -q", "7 driver_version 418.67", "8 driver_cuda 10.1",
                   "11 gpu_bus_id [0] 00000000:41:00.0", "12 gpu [0] GeForce GTX 1080 Ti"}));
}

// R470 on an A100, in a Markdown fence with a prompt: https://github.com/NVIDIA/CUDALibrarySamples/issues/104
TEST(PasteReadersNvidiaSmiQ, R470) {
  EXPECT_EQ(Read(ReadNvidiaSmiQ, R"PASTE(```markdown
[root@set-zw04-mtcv-serving-img2text01 build]# nvidia-smi -a

==============NVSMI LOG==============

Timestamp                                 : Wed Jan  4 19:10:30 2023
Driver Version                            : 470.103.01
CUDA Version                              : 11.4

Attached GPUs                             : 1
GPU 00000000:94:00.0
    Product Name                          : NVIDIA A100-SXM4-80GB
    Product Brand                         : NVIDIA
```
and the table:)PASTE"),
            (Lines{"4 format nvidia-smi -q", "7 driver_version 470.103.01", "8 driver_cuda 11.4",
                   "11 gpu_bus_id [0] 00000000:94:00.0", "12 gpu [0] NVIDIA A100-SXM4-80GB"}));
}

// ---- nvidia-smi -q -x ------------------------------------------------------------------------

// R418, nvsmi_device_v10.dtd: https://github.com/a0s/nvidia-smi-exporter/issues/1
TEST(PasteReadersNvidiaSmiXml, R418) {
  EXPECT_EQ(Read(ReadNvidiaSmiXml, R"PASTE(```xml
<?xml version="1.0" ?>
<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v10.dtd">
<nvidia_smi_log>
        <timestamp>Fri Sep 27 11:00:44 2019</timestamp>
        <driver_version>418.56</driver_version>
        <cuda_version>10.1</cuda_version>
        <attached_gpus>1</attached_gpus>
        <gpu id="00000000:04:00.0">
                <product_name>Quadro P2000</product_name>
                <product_brand>Quadro</product_brand>
                <display_mode>Disabled</display_mode>)PASTE"),
            (Lines{"4 format nvidia-smi -q -x", "6 driver_version 418.56", "7 driver_cuda 10.1",
                   "9 gpu_bus_id [0] 00000000:04:00.0", "10 gpu [0] Quadro P2000"}));
}

// R531 on Windows, nvsmi_device_v12.dtd, tab-indented: https://github.com/influxdata/telegraf/issues/12996
TEST(PasteReadersNvidiaSmiXml, WindowsR531) {
  EXPECT_EQ(Read(ReadNvidiaSmiXml, "```text\n<?xml version=\"1.0\" ?>\n"
                                   "<!DOCTYPE nvidia_smi_log SYSTEM \"nvsmi_device_v12.dtd\">\n<nvidia_smi_log>\n"
                                   "\t<timestamp>Fri Mar 31 17:30:28 2023</timestamp>\n"
                                   "\t<driver_version>531.41</driver_version>\n\t<cuda_version>12.1</cuda_version>\n"
                                   "\t<attached_gpus>1</attached_gpus>\n\t<gpu id=\"00000000:01:00.0\">\n"
                                   "\t\t<product_name>NVIDIA GeForce RTX 3080 Ti</product_name>\n"
                                   "\t\t<product_brand>GeForce</product_brand>\n"),
            (Lines{"4 format nvidia-smi -q -x", "6 driver_version 531.41", "7 driver_cuda 12.1",
                   "9 gpu_bus_id [0] 00000000:01:00.0", "10 gpu [0] NVIDIA GeForce RTX 3080 Ti"}));
}

// R390, nvsmi_device_v9.dtd, no <cuda_version> yet: https://github.com/1Panel-dev/1Panel/issues/9504
TEST(PasteReadersNvidiaSmiXml, R390WithoutCudaVersion) {
  EXPECT_EQ(Read(ReadNvidiaSmiXml, R"PASTE(orange25@XOServer:~$ nvidia-smi -q -x
```
<?xml version="1.0" ?>
<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v9.dtd">
<nvidia_smi_log>
        <timestamp>Mon Jul 14 12:44:52 2025</timestamp>
        <driver_version>390.157</driver_version>
        <attached_gpus>1</attached_gpus>
        <gpu id="00000000:01:00.0">
                <product_name>GeForce 410M</product_name>)PASTE"),
            (Lines{"5 format nvidia-smi -q -x", "7 driver_version 390.157", "9 gpu_bus_id [0] 00000000:01:00.0",
                   "10 gpu [0] GeForce 410M"}));
}

TEST(PasteReadersNvidiaSmiXml, FbMemoryTotalOnly) {
  // The elements as nvsmi_device_v12.dtd nests them; <bar1_memory_usage> has a <total> too.
  EXPECT_EQ(Read(ReadNvidiaSmiXml, "<nvidia_smi_log>\n<gpu id=\"00000000:01:00.0\">\n<product_name>NVIDIA A100-SXM4-80GB</product_name>\n"
                                   "<fb_memory_usage>\n<total>81920 MiB</total>\n<used>0 MiB</used>\n</fb_memory_usage>\n"
                                   "<bar1_memory_usage>\n<total>131072 MiB</total>\n</bar1_memory_usage>\n</gpu>\n"
                                   "<gpu id=\"00000000:02:00.0\"><product_name>NVIDIA A100-SXM4-80GB</product_name></gpu>\n"
                                   "</nvidia_smi_log>\n<driver_version>1.0</driver_version>"),
            (Lines{"1 format nvidia-smi -q -x", "2 gpu_bus_id [0] 00000000:01:00.0", "3 gpu [0] NVIDIA A100-SXM4-80GB",
                   "5 gpu_memory_mib [0] 81920", "12 gpu_bus_id [1] 00000000:02:00.0", "12 gpu [1] NVIDIA A100-SXM4-80GB"}));
  // A fragment without <nvidia_smi_log> is not read: https://github.com/netdata/netdata/issues/2922
  EXPECT_EQ(Read(ReadNvidiaSmiXml, "                <fb_memory_usage>\n                        <total>6064 MiB</total>\n"),
            Lines{});
  EXPECT_EQ(Read(ReadNvidiaSmiXml, "<nvidia_smi_log><<<>>></<driver_version>\n<gpu id=\"x\"><total>"),
            (Lines{"1 format nvidia-smi -q -x"}));
}

// ---- nvidia-smi --format=csv -----------------------------------------------------------------

// R570, fields in the order asked: https://github.com/triton-inference-server/server/pull/8070
TEST(PasteReadersNvidiaSmiCsv, R570AnyOrder) {
  EXPECT_EQ(Read(ReadNvidiaSmiCsv, R"PASTE(After: 
```
$ nvidia-smi --query-gpu=compute_cap,compute_mode,driver_version,name,index --format=csv
compute_cap, compute_mode, driver_version, name, index
7.0, Default, 570.86.15, NVIDIA TITAN V, 0
8.9, Default, 570.86.15, NVIDIA RTX 5880 Ada Generation, 1
```)PASTE"),
            (Lines{"4 format nvidia-smi csv", "5 gpu_cc [0] 7.0", "5 driver_version 570.86.15", "5 gpu [0] NVIDIA TITAN V",
                   "6 gpu_cc [1] 8.9", "6 gpu [1] NVIDIA RTX 5880 Ada Generation"}));
}

TEST(PasteReadersNvidiaSmiCsv, MemoryAndBusId) {
  // The header nvidia-smi prints for --query-gpu=name,pci.bus_id,memory.total --format=csv.
  EXPECT_EQ(Read(ReadNvidiaSmiCsv, "name, pci.bus_id, memory.total [MiB]\n"
                                   "NVIDIA GeForce RTX 3090, 00000000:01:00.0, 24576 MiB\n"
                                   "NVIDIA GeForce RTX 3090, 00000000:02:00.0, [N/A]\n"
                                   "\n"
                                   "NVIDIA GeForce RTX 3090, 00000000:03:00.0, 24576 MiB\n"),
            (Lines{"1 format nvidia-smi csv", "2 gpu [0] NVIDIA GeForce RTX 3090", "2 gpu_bus_id [0] 00000000:01:00.0",
                   "2 gpu_memory_mib [0] 24576", "3 gpu [1] NVIDIA GeForce RTX 3090", "3 gpu_bus_id [1] 00000000:02:00.0",
                   }));  // "[N/A]" is no value
  // Without a header that only nvidia-smi writes, nothing is read.
  EXPECT_EQ(Read(ReadNvidiaSmiCsv, "name, version\ntorch, 2.1.0\n"), Lines{});
  EXPECT_EQ(Read(ReadNvidiaSmiCsv, "NVIDIA GeForce RTX 3090, 535.104.05, 8.6\n"), Lines{});
  EXPECT_EQ(Read(ReadNvidiaSmiCsv, "Name, Driver_Version\nx, y\n"), Lines{});
  // noheader: the command above the rows names their fields
  // (https://github.com/Megvii-BaseDetection/YOLOX/issues/1429)
  EXPECT_EQ(Read(ReadNvidiaSmiCsv, "nvidia-smi --query-gpu=name,memory.total --format=csv,nounits,noheader\n"
                                   "Quadro RTX 5000, 16384\n[N/A], [N/A]\n"),
            (Lines{"1 format nvidia-smi csv", "2 gpu [0] Quadro RTX 5000", "2 gpu_memory_mib [0] 16384"}));
  EXPECT_EQ(Read(ReadNvidiaSmiCsv, "nvidia-smi --query-gpu=name,memory.total --format=csv\n"), Lines{});
}


// ---- pip list, uv pip list -------------------------------------------------------------------

// pip on Windows, torch nightly with cu13 wheels: https://github.com/pytorch/pytorch/issues/167242
TEST(PasteReadersPipList, WindowsPipList) {
  EXPECT_EQ(Read(ReadPipList, R"PASTE(```
Microsoft Windows [Version 10.0.26200.7171]
(c) Microsoft Corporation. All rights reserved.

C:\Users\Sidef>pip list
Package                    Version
-------------------------- ------------------------
accelerate                 1.12.0.dev0
aiofiles                   25.1.0
networkx                   3.6rc0
nvidia-cublas              13.1.0.3
nvidia-cudnn-cu13          9.15.1.9
```)PASTE"),
            (Lines{"6 format pip list", "8 package [accelerate] 1.12.0.dev0", "9 package [aiofiles] 25.1.0",
                   "10 package [networkx] 3.6rc0", "11 package [nvidia-cublas] 13.1.0.3",
                   "12 package [nvidia-cudnn-cu13] 9.15.1.9"}));
  // The rest of that list, pasted in a later comment without its header, is not read.
  EXPECT_EQ(Read(ReadPipList, "MarkupSafe                 3.0.3\nnumpy                      2.3.4\n"), Lines{});
}

TEST(PasteReadersPipList, EditableColumnAndEnd) {
  // pip 21.2+ and uv pip list print "Editable project location" for editable installs.
  EXPECT_EQ(Read(ReadPipList, "Package           Version      Editable project location\n"
                              "----------------- ------------ -------------------------\n"
                              "torch             2.1.0+cu121\n"
                              "mypkg             0.1.0        /home/user/src/mypkg\n"
                              "\n"
                              "[notice] A new release of pip is available: 23.2.1 -> 24.0\n"
                              "later         1.0\n"),
            (Lines{"1 format pip list", "3 package [torch] 2.1.0+cu121", "4 package [mypkg] 0.1.0 (editable)"}));
  // A header without its rule is some other table.
  EXPECT_EQ(Read(ReadPipList, "Package Version\ntorch 2.1.0\n"), (Lines{"1 format pip list"}));
}

// ---- pip freeze ------------------------------------------------------------------------------

// A direct reference to a PyTorch wheel: https://github.com/horovod/horovod/pull/2019
TEST(PasteReadersPipFreeze, DirectReferenceToAWheel) {
  EXPECT_EQ(Read(ReadPipFreeze, R"PASTE(```
$ pip freeze | grep torch
torch @ https://download.pytorch.org/whl/cu101/torch-1.4.0-cp36-cp36m-linux_x86_64.whl
```)PASTE"),
            (Lines{"3 format pip freeze", "3 package [torch] 1.4.0"}));
}

TEST(PasteReadersPipFreeze, EveryLineForm) {
  EXPECT_EQ(Read(ReadPipFreeze,
                 "numpy==1.26.4\n"
                 "torch==2.1.0+cu121\n"
                 "torchvision @ https://download.pytorch.org/whl/cu121/torchvision-0.16.0%2Bcu121-cp310-cp310-linux_x86_64.whl\n"
                 "certifi @ file:///croot/certifi_1700501669400/work/certifi\n"
                 "-e git+https://github.com/org/proj.git@3f2a1b#egg=proj\n"
                 "# Editable install with no version control (mypkg==0.1.0)\n"
                 "-e /home/user/src/mypkg\n"
                 "weird===1.0-legacy\n"
                 "\n"
                 "[pip3] torch==2.1.0\n"
                 "I installed torch==2.1.0 yesterday\n"
                 "torch == 2.1.0 \n"),
            (Lines{"1 format pip freeze", "1 package [numpy] 1.26.4", "2 package [torch] 2.1.0+cu121",
                   "3 package [torchvision] 0.16.0+cu121", "4 package [certifi] ", "5 package [proj]  (editable)",
                   "6 package [mypkg] 0.1.0 (editable)", "8 package [weird] 1.0-legacy"}));
}

// collect_env's package lines are its own: https://github.com/pytorch/pytorch/issues/27745
TEST(PasteReadersPipFreeze, CollectEnvLinesAreNotFreeze) {
  constexpr std::string_view kPaste = R"PASTE(Versions of relevant libraries:
[pip] numpy==1.16.5
[pip] torch==1.0.0
[pip] torchvision==0.2.2
[conda] blas                      1.0                         mkl
[conda] pytorch                   1.0.0           py3.7_cuda90_cudnn7_1    pytorch
[conda] torchvision               0.2.2                      py_3    pytorch)PASTE";
  EXPECT_EQ(Read(ReadPipFreeze, kPaste), Lines{});
  EXPECT_EQ(Read(ReadCondaList, kPaste), Lines{});
  EXPECT_EQ(Read(ReadPipList, kPaste), Lines{});
}

// ---- conda list ------------------------------------------------------------------------------

// conda 4.8, 2020, rows with and without a channel: https://github.com/facebookresearch/pytorch3d/issues/183
TEST(PasteReadersCondaList, Conda2020) {
  EXPECT_EQ(Read(ReadCondaList, R"PASTE(```
$ conda list
# packages in environment at /disk/ocean/yichao-liang/miniconda3/envs/pytorch3d:
#
# Name                    Version                   Build  Channel
_libgcc_mutex             0.1                        main
_pytorch_select           0.1                       cpu_0
cudatoolkit               10.2.89              hfd86e86_1
fvcore                    0.1.1.post20200716            py_0    conda-forge
```)PASTE"),
            (Lines{"3 format conda list", "6 package [_libgcc_mutex] 0.1 (main)", "7 package [_pytorch_select] 0.1 (cpu_0)",
                   "8 package [cudatoolkit] 10.2.89 (hfd86e86_1)",
                   "9 package [fvcore] 0.1.1.post20200716 (py_0 conda-forge)"}));
}

// conda 2023, the pytorch channel and a prompt before it: https://github.com/facebookresearch/pytorch3d/issues/1538
TEST(PasteReadersCondaList, Conda2023PytorchChannel) {
  EXPECT_EQ(Read(ReadCondaList, R"PASTE((seuss) seita@marvin:~ $ conda list
# packages in environment at /home/seita/miniconda3/envs/seuss:
#
# Name                    Version                   Build  Channel
_libgcc_mutex             0.1                        main  
_openmp_mutex             5.1                       1_gnu  
ca-certificates           2023.5.7             hbcca054_0    conda-forge
cudatoolkit               10.2.89              hfd86e86_1  
ffmpeg                    4.3                  hf484d3e_0    pytorch
jpeg                      9e                   h5eee18b_1  )PASTE"),
            (Lines{"2 format conda list", "5 package [_libgcc_mutex] 0.1 (main)", "6 package [_openmp_mutex] 5.1 (1_gnu)",
                   "7 package [ca-certificates] 2023.5.7 (hbcca054_0 conda-forge)",
                   "8 package [cudatoolkit] 10.2.89 (hfd86e86_1)", "9 package [ffmpeg] 4.3 (hf484d3e_0 pytorch)",
                   "10 package [jpeg] 9e (h5eee18b_1)"}));
}

TEST(PasteReadersCondaList, BuildStringAndPypiRows) {
  // The rows conda prints for pytorch from its channel and for wheels pip installed; the
  // nvidia and pypi rows are from https://github.com/conda-forge/cudatoolkit-dev-feedstock/issues/66
  EXPECT_EQ(Read(ReadCondaList, "# Name                    Version                   Build  Channel\n"
                                "pytorch                   2.1.0           py3.10_cuda12.1_cudnn8.9.2_0    pytorch\n"
                                "nsight-compute            2022.4.0.15                   0    nvidia\n"
                                "nvidia-cudnn-cu11         8.7.0.84                 pypi_0    pypi\n"
                                "Preparing transaction: done\n"
                                "pip                       22.3.1             pyhd8ed1ab_0    conda-forge\n"),
            (Lines{"1 format conda list", "2 package [pytorch] 2.1.0 (py3.10_cuda12.1_cudnn8.9.2_0 pytorch)",
                   "3 package [nsight-compute] 2022.4.0.15 (0 nvidia)", "4 package [nvidia-cudnn-cu11] 8.7.0.84 (pypi_0 pypi)"}));
  // Rows without a header are not read (the same thread pastes them so).
  EXPECT_EQ(Read(ReadCondaList, "numpy                     1.23.0                   pypi_0    pypi\n"), Lines{});
}

// ---- nvcc --version --------------------------------------------------------------------------

// CUDA 11.1 and 11.0, with their "Build" lines: https://github.com/pytorch/builder/pull/580
// conda list filtered by grep: no header, the command right above the rows
// (https://github.com/meta-pytorch/data/issues/315).
TEST(PasteReadersCondaList, RowsUnderTheCommandWithoutHeader) {
  EXPECT_EQ(Read(ReadCondaList, "\xE2\x9D\xAF conda list | grep pytorch\n"
                                "cpuonly                   2.0                           0    pytorch\n"
                                "pytorch                   1.11.0              py3.8_cpu_0    pytorch\n"
                                "```\n"
                                "torchvision               0.12.0                 py38_cpu    pytorch\n"),
            (Lines{"1 format conda list", "2 package [cpuonly] 2.0 (0 pytorch)",
                   "3 package [pytorch] 1.11.0 (py3.8_cpu_0 pytorch)"}));
  // the command named in a sentence, then prose: nothing; rows with no command or header: nothing
  EXPECT_EQ(Read(ReadCondaList, "I ran conda list and it shows\npytorch 1.11.0 py3.8_cpu_0 pytorch\n"), Lines{});
  EXPECT_EQ(Read(ReadCondaList, "$ conda list -n base torch\nno rows match\npytorch 1.11.0 py3.8_cpu_0 pytorch\n"), Lines{});
  EXPECT_EQ(Read(ReadCondaList, "pytorch                   1.11.0              py3.8_cpu_0    pytorch\n"), Lines{});
}

// The header's text alone, after words in Chinese (https://github.com/X-PLUG/MobileAgent/issues/60).
TEST(PasteReadersNvidiaSmi, HeaderTextWithoutTheTable) {
  EXPECT_EQ(Read(ReadNvidiaSmi, "\xE5\xBD\x93\xE5\x89\x8D\xE7\x8E\xAF\xE5\xA2\x83\xEF\xBC\x9A"
                                "NVIDIA-SMI 475.14       Driver Version: 475.14       CUDA Version: 11.4  \n"),
            (Lines{"1 format nvidia-smi", "1 driver_version 475.14", "1 driver_cuda 11.4"}));
  EXPECT_EQ(Read(ReadNvidiaSmi, "Which NVIDIA-SMI Version: do I need?\n"), Lines{});
}

TEST(PasteReadersNvcc, Cuda11) {
  EXPECT_EQ(Read(ReadNvcc, R"PASTE(Output of `nvcc --version` on CUDA 11.1:

```
nvcc: NVIDIA (R) Cuda compiler driver
Copyright (c) 2005-2020 NVIDIA Corporation
Built on Mon_Oct_12_20:09:46_PDT_2020
Cuda compilation tools, release 11.1, V11.1.105
Build cuda_11.1.TC455_06.29190527_0
```

Output of `nvcc --version` on CUDA 11.0:
```
nvcc: NVIDIA (R) Cuda compiler driver
Copyright (c) 2005-2020 NVIDIA Corporation
Built on Wed_Jul_22_19:09:09_PDT_2020
Cuda compilation tools, release 11.0, V11.0.221
Build cuda_11.0_bu.TC445_37.28845127_0
```)PASTE"),
            (Lines{"4 format nvcc", "7 toolkit 11.1.105", "13 format nvcc", "16 toolkit 11.0.221"}));
}

// CUDA 10.1 (no Build line) and 11.5 (Ubuntu's): https://github.com/k2-fsa/k2/pull/584,
// https://github.com/ggml-org/llama.cpp/issues/11696
TEST(PasteReadersNvcc, Cuda10AndUbuntu) {
  EXPECT_EQ(Read(ReadNvcc, "$ nvcc --version\nnvcc: NVIDIA (R) Cuda compiler driver\n"
                           "Copyright (c) 2005-2019 NVIDIA Corporation\nBuilt on Sun_Jul_28_19:07:16_PDT_2019\n"
                           "Cuda compilation tools, release 10.1, V10.1.243\n"),
            (Lines{"2 format nvcc", "5 toolkit 10.1.243"}));
  EXPECT_EQ(Read(ReadNvcc, "Built on Thu_Nov_18_09:45:30_PST_2021\nCuda compilation tools, release 11.5, V11.5.119\n"
                           "Build cuda_11.5.r11.5/compiler.30672275_0\n"),
            (Lines{"2 format nvcc", "2 toolkit 11.5.119"}));
  EXPECT_EQ(Read(ReadNvcc, "Cuda compilation tools, release 12.4\n"), (Lines{"1 format nvcc", "1 toolkit 12.4"}));
  EXPECT_EQ(Read(ReadNvcc, "Cuda compilation tools, release , \n"),
            (Lines{"1 format nvcc", "1 unparsed Cuda compilation tools, release ,"}));
}

// ---- /proc/driver/nvidia/version -------------------------------------------------------------

// Proprietary R384 (https://github.com/dylanaraps/neofetch/issues/876), open R565
// (https://github.com/nix-community/nixGL/issues/186), open R525 with a trailing blank
// (https://github.com/nix-community/nixGL/issues/121).
TEST(PasteReadersProcDriver, ProprietaryAndOpen) {
  EXPECT_EQ(Read(ReadProcDriver, R"PASTE($ cat /proc/driver/nvidia/version
NVRM version: NVIDIA UNIX x86_64 Kernel Module  384.98  Thu Oct 26 15:16:01 PDT 2017
GCC version:  gcc version 7.2.0 (Ubuntu 7.2.0-8ubuntu3) 
```)PASTE"),
            (Lines{"2 format /proc/driver/nvidia/version", "2 kernel_module [proprietary] 384.98"}));
  EXPECT_EQ(Read(ReadProcDriver, R"PASTE(``` 
NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  565.57.01  Release Build  (dvs-builder@U16-A24-9-2)  Thu Oct 10 12:15:00 UTC 2024
GCC version:  gcc version 13.3.0 (Ubuntu 13.3.0-6ubuntu2~24.04)
```)PASTE"),
            (Lines{"2 format /proc/driver/nvidia/version", "2 kernel_module [open] 565.57.01"}));
  EXPECT_EQ(Read(ReadProcDriver, "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  525.60.11  Release Build  "
                                 "(archlinux-builder@localhost)  \nGCC version:  gcc version 12.2.0 (GCC) \n"),
            (Lines{"1 format /proc/driver/nvidia/version", "1 kernel_module [open] 525.60.11"}));
}

// Jetson Orin NX (L4T 35.3.1) writes the L4T release where the driver version goes, which is no
// driver version: the line is kept as unparsed. https://github.com/nix-community/nixGL/issues/139
TEST(PasteReadersProcDriver, JetsonL4tNumberIsNotADriver) {
  EXPECT_EQ(Read(ReadProcDriver, "NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  35.3.1  Release Build  "
                                 "(buildbrain@mobile-u64-6289-d7000)  Sun Mar 19 08:09:33 PDT 2023\n"),
            (Lines{"1 format /proc/driver/nvidia/version",
                   "1 unparsed NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  35.3.1  Release Build  "
                   "(buildbrain@mobile-u64-6289-d7000)  Sun Mar 19 08:09:33 PDT 2023"}));
  // A dmesg line names the module but is not the file.
  EXPECT_EQ(Read(ReadProcDriver, "[    5.1] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.104.05\n"), Lines{});
}

// ---- /etc/nv_tegra_release -------------------------------------------------------------------

// L4T R32.3.1 on a Jetson Nano: https://github.com/rt-net/JetsonNano_DT_SPI/issues/9
TEST(PasteReadersTegraRelease, R32) {
  EXPECT_EQ(Read(ReadTegraRelease, R"PASTE(ubuntu@JETBOT:~$ head -n1 /etc/nv_tegra_release
# R32 (release), REVISION: 3.1, GCID: 18186506, BOARD: t210ref, EABI: aarch64, DATE: Tue Dec 10 06:58:34 UTC 2019
ubuntu@JETBOT:~$ sudo cat /sys/kernel/debug/tegra_gpio)PASTE"),
            (Lines{"2 format nv_tegra_release", "2 l4t 32.3.1", "2 jetson_model t210ref"}));
  // commented out once more in setup notes (tests/fixtures/pastes/tools/SOURCES.md, tl-18)
  EXPECT_EQ(Read(ReadTegraRelease, "# # R32 (release), REVISION: 5.1, GCID: 26202423, BOARD: t186ref, EABI: aarch64, "
                                   "DATE: Fri Feb 19 16:50:29 UTC 2021\n"),
            (Lines{"1 format nv_tegra_release", "1 l4t 32.5.1", "1 jetson_model t186ref"}));
}

TEST(PasteReadersTegraRelease, R35AndR36) {
  // The lines of L4T 35.4.1 and 36.3 as nvidia-l4t-core writes them (probe/jetson.h).
  EXPECT_EQ(Read(ReadTegraRelease, "# R35 (release), REVISION: 4.1, GCID: 33958178, BOARD: t186ref, EABI: aarch64, DATE: Tue Aug  1 19:57:35 UTC 2023\n"
                                   "# KERNEL_VARIANT: oot\n"
                                   "> # R36 (release), REVISION: 3.0, GCID: 36191598, BOARD: generic, EABI: aarch64, DATE: Mon Jul  1 23:25:14 UTC 2024\n"
                                   "# R (release), REVISION: x\n"),
            (Lines{"1 format nv_tegra_release", "1 l4t 35.4.1", "1 jetson_model t186ref", "3 format nv_tegra_release",
                   "3 l4t 36.3.0", "3 jetson_model generic", "4 format nv_tegra_release",
                   "4 unparsed # R (release), REVISION: x"}));
}

// ---- cudamatch doctor --json -----------------------------------------------------------------

// Our own report, as the gpu-server golden has it, pasted after some text.
TEST(PasteReadersDoctorJson, GpuServerGolden) {
  std::string json = testing::ReadSource("tests/golden/doctor-gpu-server-json.out");
  ASSERT_FALSE(json.empty());
  std::vector<PasteFact> facts = ReadDoctorJson(Paste("Here is my report:\n```json\n" + json));
  ASSERT_FALSE(facts.empty());
  EXPECT_EQ(Show({facts[0]}), (Lines{"3 format doctor --json"}));
  auto has = [&](const std::string& fact) {
    for (const std::string& s : Show(facts)) {
      if (s.substr(s.find(' ') + 1) == fact) return true;
    }
    return false;
  };
  EXPECT_TRUE(has("driver_version 550.54.14"));
  EXPECT_TRUE(has("kernel_module [proprietary] 550.54.14"));
  EXPECT_FALSE(has("driver_cuda 12.4"));  // the catalog's, not the machine's
  EXPECT_TRUE(has("gpu [0] NVIDIA A100-SXM4-80GB"));
  EXPECT_TRUE(has("gpu_cc [0] 8.0"));
  EXPECT_TRUE(has("gpu_bus_id [0] 0000:00:04.0"));
  EXPECT_TRUE(has("toolkit [/usr/local/cuda-12.4] 12.4.1"));
  EXPECT_TRUE(has("cudnn 9.1.0"));
  EXPECT_TRUE(has("python_version 3.10"));
  EXPECT_TRUE(has("torch_version 2.3.1+cu121"));
  EXPECT_TRUE(has("torch_cuda 12.1"));
  EXPECT_TRUE(has("package [nvidia-cudnn-cu12] 8.9.2.26"));
  EXPECT_TRUE(has("os Ubuntu 22.04.5 LTS"));
  EXPECT_TRUE(has("arch x86_64"));
  // Facts cite the line of their value, in line order.
  for (size_t i = 1; i < facts.size(); ++i) EXPECT_LE(facts[i - 1].line, facts[i].line);
  for (const PasteFact& f : facts) {
    if (f.kind != PasteFactKind::kDriverVersion) continue;
    EXPECT_NE(Paste("Here is my report:\n```json\n" + json).lines[f.line - 1].text.find("\"550.54.14\""), std::string::npos);
  }
}

TEST(PasteReadersDoctorJson, OnlyDoctorReports) {
  EXPECT_EQ(Read(ReadDoctorJson, "{\"schema_version\": 2, \"kind\": \"lookup\", \"driver\": {\"version\": \"1.2\"}}"), Lines{});
  EXPECT_EQ(Read(ReadDoctorJson, "{\"kind\": \"doctor\", \"driver\": {\"version\": \"550.54.14\"}}"), Lines{});
  EXPECT_EQ(Read(ReadDoctorJson, "{ \"a\": \"}\" \n"), Lines{});
  // A stray brace before the report does not hide it.
  EXPECT_EQ(Read(ReadDoctorJson, "{ not json\n{\n  \"schema_version\": 2,\n  \"kind\": \"doctor\",\n"
                                 "  \"driver\": {\"version\": \"535.104.05\", \"wsl\": true},\n"
                                 "  \"gpus\": [{\"index\": 0, \"name\": \"NVIDIA GeForce RTX 3090\", \"memory_bytes\": 25769803776}]\n}\n"),
            (Lines{"2 format doctor --json", "5 driver_version 535.104.05", "5 wsl doctor --json driver.wsl",
                   "6 gpu [0] NVIDIA GeForce RTX 3090", "6 gpu_memory_mib [0] 24576"}));
}

// ---- every reader: hostile input -------------------------------------------------------------

const PasteReader kReaders[] = {ReadNvidiaSmi, ReadNvidiaSmiQ, ReadNvidiaSmiXml, ReadNvidiaSmiCsv,
                                ReadPipList,   ReadPipFreeze,  ReadCondaList,    ReadNvcc,
                                ReadProcDriver, ReadTegraRelease, ReadDoctorJson};

TEST(PasteReadersHostile, GarbageGivesNoFacts) {
  std::string garbage;
  for (int i = 0; i < 4096; ++i) garbage += static_cast<char>((i * 7919) % 94 + 32);
  for (PasteReader read : kReaders) {
    EXPECT_EQ(Show(read(Paste(garbage))), Lines{});
    EXPECT_EQ(Show(read(Paste("\n\n\n"))), Lines{});
    EXPECT_EQ(Show(read(PasteText{})), Lines{});
  }
}

TEST(PasteReadersHostile, HundredThousandLinesAreFast) {
  // Every format's opening line, many times over, and lines that look like each one's rows.
  std::string text;
  for (int i = 0; i < 10000; ++i) {
    text += "| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2 |\n"
            "|   0  NVIDIA A10G   On  | 00000000:00:1E.0 Off |    0 |\n"
            "==============NVSMI LOG==============\n"
            "<nvidia_smi_log><gpu id=\"00000000:00:1E.0\">\n"
            "name, driver_version\n"
            "Package Version\n"
            "torch==2.1.0\n"
            "# Name Version Build Channel\n"
            "{ \"kind\": \"doctor\",\n"
            "Cuda compilation tools, release 12.1, V12.1.105\n";
  }
  PasteText paste = Paste(text);
  ASSERT_GE(paste.lines.size(), 100000u);
  auto start = std::chrono::steady_clock::now();
  for (PasteReader read : kReaders) read(paste);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 20.0);  // linear: well under a second on a desktop, slack for emulators
  EXPECT_EQ(ReadNvcc(paste).size(), 20000u);
}

TEST(PasteReadersHostile, OneLineOfAMegabyte) {
  for (char c : {'|', ' ', '{', '<', ',', '=', '-', 'a', '"'}) {
    std::string line(1 << 20, c);
    for (PasteReader read : kReaders) read(Paste(line));
  }
  std::string header = "| NVIDIA-SMI 1   Driver Version: " + std::string(1 << 20, '9') + " |";
  std::vector<PasteFact> facts = ReadNvidiaSmi(Paste(header));
  ASSERT_EQ(facts.size(), 2u);
  EXPECT_EQ(facts[1].value.size(), 1u << 20);
  std::string freeze = "torch==" + std::string(1 << 20, '1');
  EXPECT_EQ(ReadPipFreeze(Paste(freeze)).size(), 2u);
  EXPECT_EQ(ReadPipList(Paste("Package Version\n---- ----\ntorch " + std::string(1 << 20, '1'))).size(), 1u);
}

}  // namespace
}  // namespace cudamatch

namespace cudamatch {
namespace {

// The NVML line belongs to nvidia-smi's mismatch message: alone, before any nvidia-smi block, it
// is no fact (a fact never comes before its block's format fact; found by fuzz_paste_readers).
TEST(PasteReadersNvidiaSmi, AnNvmlLineBeforeAnyBlockIsNoFact) {
  EXPECT_TRUE(ReadNvidiaSmi(Paste("NVML library version: 535.183\n")).empty());
}

}  // namespace
}  // namespace cudamatch
