// The paste readers of nvidia-smi, package lists and single-fact tools, on verbatim captures
// from public threads (each cited above it) and on hostile input.

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "probe/paste.h"

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
                   "3 unparsed NVIDIA-SMI has failed because it couldn‘t communicate with the NVIDIA driver."}));
  EXPECT_EQ(Read(ReadNvcc, kPaste), (Lines{"8 format nvcc", "11 toolkit 10.0.130"}));
}

// The same failure on one line: https://github.com/ci-for-research/self-hosted-runners/issues/40
TEST(PasteReadersNvidiaSmi, FailureOnOneLine) {
  EXPECT_EQ(Read(ReadNvidiaSmi, "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. "
                                "Make sure that the latest NVIDIA driver is installed and running."),
            (Lines{"1 format nvidia-smi",
                   "1 unparsed NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. "
                   "Make sure that the latest NVIDIA driver is installed and running."}));
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
                   "3 gpu_memory_mib [1] [N/A]"}));
  // Without a header that only nvidia-smi writes, nothing is read.
  EXPECT_EQ(Read(ReadNvidiaSmiCsv, "name, version\ntorch, 2.1.0\n"), Lines{});
  EXPECT_EQ(Read(ReadNvidiaSmiCsv, "NVIDIA GeForce RTX 3090, 535.104.05, 8.6\n"), Lines{});
  EXPECT_EQ(Read(ReadNvidiaSmiCsv, "Name, Driver_Version\nx, y\n"), Lines{});
}

}  // namespace
}  // namespace cudamatch
