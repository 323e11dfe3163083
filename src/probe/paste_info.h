// The vocabulary of pasted facts (probe/paste.h reads them): kept apart so that Snapshot can
// hold what a paste was (Snapshot::paste) without knowing the readers.
// Layer: probe/ (core/ only).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cudamatch {

// The formats a reader recognises. One name each, as JSON and `not checked` notes write it.
enum class PasteFormat {
  kCollectEnv,     // python -m torch.utils.collect_env (2019 to today, Linux, Windows, macOS)
  kNvidiaSmi,      // nvidia-smi (the table, R384 to R610+)
  kNvidiaSmiQ,     // nvidia-smi -q
  kNvidiaSmiXml,   // nvidia-smi -q -x
  kNvidiaSmiCsv,   // nvidia-smi --query-gpu=... --format=csv
  kPipList,        // pip list, uv pip list
  kPipFreeze,      // pip freeze, uv pip freeze
  kCondaList,      // conda list
  kNvcc,           // nvcc --version
  kProcDriver,     // cat /proc/driver/nvidia/version
  kTegraRelease,   // cat /etc/nv_tegra_release
  kDoctorJson,     // cudamatch doctor --json
};
// "collect_env", "nvidia-smi", "nvidia-smi -q", "nvidia-smi -q -x", "nvidia-smi csv", "pip list",
// "pip freeze", "conda list", "nvcc", "/proc/driver/nvidia/version", "nv_tegra_release", "doctor --json"
std::string_view PasteFormatName(PasteFormat f);

// What one line says. The value is as written in the paste (trimmed), never normalized: the
// snapshot step parses it and reports what does not parse.
enum class PasteFactKind {
  kFormat,             // value: PasteFormatName; line: where that format's output starts
  kDriverVersion,      // 535.104.05 (nvidia-smi, collect_env "Nvidia driver version", -q, XML, csv)
  kDriverCuda,         // 12.2: the newest CUDA the driver serves (nvidia-smi "CUDA Version", R610+ "CUDA UMD Version")
  kKernelModule,       // 535.104.05: /proc/driver/nvidia/version, nvidia-smi R610+ "KMD Version"; name: "open" or "proprietary" when said
  kGpu,                // name: the GPU's index ("0"); value: its model, "NVIDIA GeForce RTX 3090"
  kGpuCc,              // name: the GPU's index; value: "8.6" (csv compute_cap, doctor --json)
  kGpuMemoryMib,       // name: the GPU's index; value: "24576"
  kGpuBusId,           // name: the GPU's index; value: "00000000:01:00.0"
  kToolkit,            // 12.1.105 or 12.1: nvcc's release ("Cuda compilation tools, release 12.1, V12.1.105"), collect_env "CUDA runtime version"; name: the path when said
  kCudnn,              // 8.9.2 (collect_env "cuDNN version", conda/pip nvidia-cudnn lines are kPackage)
  kPythonVersion,      // 3.10.12
  kPythonPlatform,     // Linux-5.15.0-88-generic-x86_64-with-glibc2.35, Windows-10-10.0.19045-SP0
  kOs,                 // Ubuntu 22.04.3 LTS (x86_64), Microsoft Windows 11 Pro
  kArch,               // x86_64, aarch64, AMD64
  kGcc,                // (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0
  kGlibc,              // glibc-2.35
  kPackage,            // name: the distribution as written ("torch", "pytorch-cuda"); value: its version ("2.1.0+cu121");
                       // extra: the channel or build string (conda), "pip3"/"conda" (collect_env), ""
  kTorchVersion,       // collect_env "PyTorch version": 2.1.0+cu121
  kTorchCuda,          // collect_env "CUDA used to build PyTorch": 12.1, or "N/A" / "None"
  kTorchHip,           // collect_env "ROCM used to build PyTorch": 6.0.32830
  kTorchDebug,         // collect_env "Is debug build": False
  kCudaAvailable,      // collect_env "Is CUDA available": True / False
  kCudaModuleLoading,  // collect_env "CUDA_MODULE_LOADING set to": LAZY
  kL4t,                // 35.4.1: /etc/nv_tegra_release "# R35 (release), REVISION: 4.1"
  kJetsonModel,        // NVIDIA Jetson AGX Orin (nv_tegra_release BOARD, doctor --json)
  kWsl,                // value: what said so (collect_env's OS or kernel "microsoft-standard-WSL2")
  kDriverFailure,      // nvidia-smi's failure instead of its table; name: "no_driver" ("couldn't communicate
                       // with the NVIDIA driver") or "version_mismatch" ("Driver/library version mismatch");
                       // value: the line
  kUnparsed,           // a line of a recognised format the reader could not read: value is the line
};
// The kind without its k, in snake case: "format", "driver_version", "driver_cuda", "kernel_module",
// "gpu", "gpu_cc", "gpu_memory_mib", "gpu_bus_id", "toolkit", "cudnn", "python_version",
// "python_platform", "os", "arch", "gcc", "glibc", "package", "torch_version", "torch_cuda",
// "torch_hip", "torch_debug", "cuda_available", "cuda_module_loading", "l4t", "jetson_model",
// "wsl", "driver_failure", "unparsed" (tests/fixtures/pastes/expected.tsv uses these names)
std::string_view PasteFactKindName(PasteFactKind k);

struct PasteFact {
  PasteFactKind kind = PasteFactKind::kUnparsed;
  PasteFormat format = PasteFormat::kCollectEnv;  // the reader that read it
  int line = 0;        // PasteLine::number
  std::string name;    // see the kinds
  std::string value;
  std::string extra;
};

// What a paste cannot show, or the paste did not hold: said as "not checked", never assumed absent.
enum class PasteGap {
  kDriver,             // no driver version in the paste
  kGpus,               // no GPU list
  kToolkits,           // no nvcc / CUDA runtime version
  kPythonPackages,     // no package list (torchvision, nvidia-* wheels)
  kOtherEnvironments,  // always: only the environment the paste came from
  kLibraries,          // always: which shared objects the loader picks (DT_NEEDED, LD_LIBRARY_PATH)
  kBinaries,           // always: the GPU code inside torch's and extensions' binaries
  kFiles,              // always: files on the machine (pip.conf, ld.so.conf, EXTERNALLY-MANAGED)
};
// "driver", "gpus", "toolkits", "python_packages", "other_environments", "libraries", "binaries",
// "files", as JSON writes it
std::string_view PasteGapName(PasteGap g);

// Two lines of one paste that say different things about one fact.
struct PasteConflict {
  PasteFactKind kind = PasteFactKind::kUnparsed;
  std::string name;  // the GPU index, the package, or ""
  PasteFact first;
  PasteFact second;
};

// What the paste was, kept in the Snapshot (Snapshot::paste) for the report and the rules.
struct PasteInfo {
  std::string path;                  // the file as given, "-" for stdin
  std::vector<PasteFormat> formats;  // recognised, in order of first appearance
  int lines = 0;
  bool truncated = false;
  std::string encoding;
  std::vector<PasteGap> not_checked;
  std::vector<PasteConflict> conflicts;
  std::vector<PasteFact> unparsed;   // kUnparsed facts, and values that did not parse
  std::vector<PasteFact> driver_failures;  // kDriverFailure facts: nvidia-smi could not use the driver
};

}  // namespace cudamatch
