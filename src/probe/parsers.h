// Pure parsers for every file format the probes read. No I/O: each takes the text (already read
// with a size cap) and returns a value or nullopt/error. Samples of the real formats sit above
// each function; tests run them on verbatim captures.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "core/version.h"

namespace cudamatch {

// /proc/driver/nvidia/version:
//   NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 01:44:30 UTC 2024
//   NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.14  Release Build  (dvs-builder@U16-I3-B03-4-3)  Thu Feb 22 01:25:25 UTC 2024
//   GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)
struct KernelModuleVersion {
  DriverVersion version;
  bool open = false;  // the open kernel module (else the proprietary one)
};
std::optional<KernelModuleVersion> ParseProcDriverVersion(std::string_view text);

// /sys/module/nvidia/version: "550.54.14\n"
std::optional<DriverVersion> ParseSysModuleVersion(std::string_view text);

// /proc/driver/nvidia/gpus/0000:01:00.0/information:
//   Model: 		 NVIDIA GeForce RTX 4090
//   IRQ:   		 186
//   GPU UUID: 	 GPU-4f1d3c55-...
//   Bus Location: 	 0000:01:00.0
struct ProcGpuInformation {
  std::string model;
  std::string uuid;
  std::string bus_location;
};
ProcGpuInformation ParseProcGpuInformation(std::string_view text);

// Sysfs hex attributes: "0x10de\n", "0x030000\n".
std::optional<uint32_t> ParseSysfsHex(std::string_view text);

// The version in a driver library's real file name: "libcuda.so.550.54.14" -> 550.54.14.
// "libcuda.so.1" and WSL's "libcuda.so.1.1" carry no driver version.
std::optional<DriverVersion> LibraryDriverVersion(std::string_view file_name, std::string_view stem);

// /etc/os-release: KEY=value or KEY="value" lines.
std::map<std::string, std::string> ParseOsRelease(std::string_view text);

// /proc/version: "Linux version 5.15.153.1-microsoft-standard-WSL2 (root@...) ..."
bool IsWslKernel(std::string_view proc_version);

// /proc/1/cgroup: "0::/docker/3f4e...", "12:devices:/kubepods/..." -> "docker", "kubepods", ...
std::string ContainerFromCgroup(std::string_view text);

// CUDA toolkit version.json (11.1 and later):
//   { "cuda" : { "name" : "CUDA SDK", "version" : "12.4.1" }, "cuda_cudart" : { ... } }
std::optional<CudaVersion> ParseCudaVersionJson(std::string_view text);
// A conda package record (<prefix>/conda-meta/<name>-<version>-<build>.json): its "name" and the
// "files" it installed, relative to the environment's prefix. nullopt when it is not one.
struct CondaRecord {
  std::string name;
  std::vector<std::string> files;
};
std::optional<CondaRecord> ParseCondaRecord(std::string_view text);
// version.txt (up to 11.0): "CUDA Version 10.2.89"
std::optional<CudaVersion> ParseCudaVersionTxt(std::string_view text);
// The release line every CUDA compiler tool carries in its read-only data (what --version prints):
//   "Cuda compilation tools, release 12.8, V12.8.93"
// found anywhere in `bytes` (a binary's section); the version is the V... one, the line as found.
struct ToolRelease {
  CudaVersion version;
  std::string line;
};
std::optional<ToolRelease> ParseToolRelease(std::string_view bytes);
// cuda.h: "#define CUDA_VERSION 12040"
std::optional<CudaVersion> ParseCudaHeader(std::string_view text);
// crt/host_config.h: the newest GCC major nvcc accepts, from the check it makes:
//   #if __GNUC__ > 15
//   #error -- unsupported GNU version! gcc versions later than 15 are not supported! ...
// nullopt when the file has no such check.
std::optional<int> ParseHostConfigMaxGcc(std::string_view text);
// An nvcc that is a shell script: the absolute .../bin/nvcc it runs, read, never executed.
//   #!/bin/sh
//   exec /usr/local/cuda-13.0/bin/nvcc "$@"
// nullopt for a binary, or a script that names no absolute nvcc.
std::optional<std::string> ParseNvccWrapper(std::string_view text);

// cudnn_version.h (8+) or cudnn.h (7):
//   #define CUDNN_MAJOR 9
//   #define CUDNN_MINOR 1
//   #define CUDNN_PATCHLEVEL 0
std::optional<Pep440> ParseCudnnHeader(std::string_view text);
// "libcudnn.so.9.1.0" -> 9.1.0; "libcudnn.so.8" -> 8 (major only).
std::optional<Pep440> LibraryVersion(std::string_view file_name, std::string_view stem);

// torch/version.py (also torchvision, torchaudio):
//   __version__ = '2.3.1+cu121'
//   cuda: Optional[str] = '12.1'
//   hip: Optional[str] = None
struct VersionPy {
  std::optional<std::string> version;
  std::optional<std::string> cuda;  // present and None -> ""
  std::optional<std::string> hip;   // present and None -> ""
  std::optional<std::string> git_version;
};
VersionPy ParseVersionPy(std::string_view text);

// Core metadata (dist-info METADATA, egg-info PKG-INFO): RFC 822 header block.
//   Name: torch
//   Version: 2.3.1+cu121
//   Requires-Dist: nvidia-cudnn-cu12==8.9.2.26; platform_system == "Linux"
struct CoreMetadata {
  std::string name;
  std::string version;
  std::vector<std::string> requires_dist;
};
CoreMetadata ParseCoreMetadata(std::string_view text);

// A requirement line: "nvidia-cudnn-cu12==8.9.2.26 ; platform_system == \"Linux\"".
struct Requirement {
  std::string name;       // normalised (lowercase, '-' for runs of -_.)
  std::string specifier;  // "==8.9.2.26"
  std::string marker;     // text after ';'
  std::optional<SpecifierSet> spec;  // `specifier` parsed; nullopt when it is not PEP 440 ("@ URL")
};
std::optional<Requirement> ParseRequirement(std::string_view line);
std::string NormalizeProjectName(std::string_view name);

// PEP 610 direct_url.json: the url and, for a directory, whether pip installed it editable:
//   {"dir_info": {"editable": true}, "url": "file:///home/user/mmcv"}
struct DirectUrl {
  std::string url;
  bool editable = false;
};
std::optional<DirectUrl> ParseDirectUrl(std::string_view text);
// "file:///home/user/my%20proj/" -> "/home/user/my proj"; nullopt for another scheme or a host.
std::optional<std::string> FileUrlPath(std::string_view url);
// setuptools' PEP 660 finder (__editable___mmcv_1_7_1_finder.py), its MAPPING literal read as
// text, never run: the absolute directories it maps packages to.
//   MAPPING: dict[str, str] = {'mmcv': '/home/user/mmcv/mmcv'}
std::vector<std::string> ParseEditableFinderMapping(std::string_view text);
// A .pth file's directory lines (easy-install.pth, __editable__.mmcv-1.7.1.pth): "/home/user/mmcv";
// "import ..." lines, comments and relative lines are left out.
std::vector<std::string> ParsePthPaths(std::string_view text);
// A .egg-link (setup.py develop): its first line, the project directory; "" when not absolute.
//   /home/user/mmcv
//   .
std::string EggLinkProject(std::string_view text);

// The wheel file a PEP 610 direct_url.json names, "" when its url is no wheel:
//   {"url": "https://github.com/Dao-AILab/flash-attention/releases/download/v2.7.4.post1/flash_attn-2.7.4.post1+cu12torch2.6cxx11abiFALSE-cp311-cp311-linux_x86_64.whl", "archive_info": {...}}
std::string WheelFileOfDirectUrl(std::string_view text);
// What xformers' setup.py writes beside its library (xformers/cpp_lib.json) about the build:
//   {"version": {"cuda": 1208, "hip": null, "torch": "2.10.0+cu128", "python": "3.10.11"},
//    "env": {"TORCH_CUDA_ARCH_LIST": "...", "XFORMERS_PACKAGE_FROM": "wheel-v0.0.34"}}
// nullopt unless it is JSON with a torch version string.
struct XformersBuild {
  std::string torch;                 // "2.10.0+cu128"
  std::optional<CudaVersion> cuda;   // 1208 -> 12.8; none for a build without CUDA
  std::string arch_list;             // TORCH_CUDA_ARCH_LIST at build time, when recorded
};
std::optional<XformersBuild> ParseXformersCppLib(std::string_view text);
// The C++ ABI a wheel's name states (flash-attn's "cxx11abiTRUE" / "cxx11abiFALSE"), else nullopt.
std::optional<bool> WheelCxx11Abi(std::string_view wheel_file);
// The torch line a wheel's local version names (flash-attn's "+cu122torch2.2cxx11abiFALSE" -> "2.2"),
// else "".
std::string WheelTorchLine(std::string_view wheel_file);

// "torch-2.3.1+cu121.dist-info" -> {"torch", "2.3.1+cu121"}; also ".egg-info".
struct DistDir {
  std::string name;
  std::string version;
};
std::optional<DistDir> ParseDistDirName(std::string_view dir_name);

// pyvenv.cfg:
//   home = /usr/bin
//   include-system-site-packages = false
//   version = 3.11.7          (uv writes version_info = 3.12.1)
std::map<std::string, std::string> ParsePyvenvCfg(std::string_view text);

// ~/.conda/environments.txt: one environment prefix per line.
std::vector<std::string> ParseEnvironmentsTxt(std::string_view text);

// pip.conf / pip.ini: [global] / [install] sections with index-url and extra-index-url.
struct PipConfig {
  std::string index_url;
  std::vector<std::string> extra_index_urls;
};
PipConfig ParsePipConf(std::string_view text);

}  // namespace cudamatch
