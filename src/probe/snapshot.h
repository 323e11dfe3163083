// One Snapshot of a machine's GPU stack: what each probe found, where it found it, and what it
// tried. Plain data: probes fill it, diagnose and plan read it, report renders it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/fs.h"
#include "core/platform.h"
#include "core/version.h"
#include "probe/elf.h"
#include "probe/fatbin.h"
#include "probe/paste_info.h"

namespace cudamatch {

// One attempt by a probe: which source it read and what came of it.
struct Evidence {
  enum class Outcome { kFound, kMissing, kError, kSkipped };
  std::string probe;   // "driver", "gpus", "toolkits", "cudnn", "python", "host"
  std::string source;  // a path, "nvml:nvmlSystemGetDriverVersion", "env:CUDA_HOME", ...
  Outcome outcome = Outcome::kMissing;
  std::string detail;  // the value found, or the error
};

// Where a value in the snapshot came from: read from the machine by a probe, or derived by
// derive/ (the one step that joins observations with the catalog). The *_source strings beside
// these name the file, library call or catalog row for the reader.
enum class Origin {
  kNone,                   // no value
  kObserved,               // read by a probe: NVML, libcuda, a file
  kDriverBranchTable,      // catalog driver_branches.tsv, from the driver version
  kToolkitDriverMinimums,  // catalog cuda_toolkits.tsv Windows driver minimums
  kGpuByName,              // catalog gpus.tsv, matched by the GPU's name
  kGpuByPciId,             // catalog gpus.tsv, matched by its PCI device id
  kArchitectureTable,      // catalog architectures, from the compute capability
  kNvidiaRequirement,      // the nvidia-cuda-runtime wheel a build requires (torch's METADATA)
  kLocalLabel,             // the version's local label: 2.4.1+cu121
  kHipVersion,             // version.py's hip
  kBuildCuda,              // the build's CUDA (version.py cuda or an nvidia-cuda-runtime requirement)
  kNoCuda,                 // version.py's cuda = None: a CPU build
  kTegraSoc,               // catalog tegra_socs.tsv, from the device tree's Tegra SoC
};
std::string_view OriginName(Origin o);  // "observed", "catalog:driver_branches.tsv", ...

// A call into an NVIDIA library that did not answer: it hung, crashed or exited.
struct LibraryFault {
  enum class Kind { kTimedOut, kCrashed, kExited, kNotStarted };
  std::string library;  // "NVML", "libcuda"
  Kind kind = Kind::kNotStarted;
  std::string signal;   // kCrashed: "SIGSEGV"
  int exit_status = 0;  // kExited
  int timeout_ms = 0;   // the bound it was given
};

// A value a source gave that cannot be true (a driver CUDA of 999.99, compute capability -15):
// reported, never used.
struct ImplausibleValue {
  std::string source;    // "NVML nvmlSystemGetCudaDriverVersion_v2"
  std::string value;     // as given, escaped and cut
  std::string expected;  // what a real value looks like
};

// The kernel module /proc/driver/nvidia/version names.
enum class KernelFlavor { kUnknown, kOpen, kProprietary };
std::string_view KernelFlavorName(KernelFlavor f);  // "open", "proprietary"; "" when unknown

// What kind of Python environment a prefix is.
enum class PythonKind { kSystem, kVenv, kConda, kPyenv, kUv, kGiven, kStore };
std::string_view PythonKindName(PythonKind k);  // "system", "venv", "conda", "pyenv", "uv", "given", "store"

// The named ways a Python environment is found (PythonEnv::found_by also holds directories
// searched, written as they are): written by the probes and matched by plan/ through one table.
enum class FoundBy { kGivenPython, kVirtualEnv, kCondaPrefix, kDotVenv, kPath, kOwnEnv };
// "--python", "env:VIRTUAL_ENV", "env:CONDA_PREFIX", "./.venv", "PATH", "cudamatch's own environment"
std::string_view FoundByName(FoundBy f);

// Where a CUDA toolkit comes from.
enum class ToolkitKind { kSystem, kDebian, kConda, kPip };
std::string_view ToolkitKindName(ToolkitKind k);  // "system", "debian", "conda", "pip"

// Where a cuDNN comes from.
enum class CudnnKind { kSystem, kToolkit, kPip };
std::string_view CudnnKindName(CudnnKind k);  // "system", "toolkit", "pip"

// How far the driver probe got with NVML.
enum class NvmlState {
  kNotTried,
  kOk,
  kSkippedRoot,       // --root: no library of this host is loaded
  kSkippedPaste,      // doctor --from: a paste is read, nothing of this host is asked
  kSkippedNoModule,   // the kernel module is not loaded
  kSkippedNoLibrary,  // no libnvidia-ml.so.1
  kFailed,            // nvmlInit_v2 or dlopen failed: DriverInfo::nvml_error says why
};
// "ok", "skipped.root", "skipped.paste", "skipped.no_module", "skipped.no_library"; "" for kNotTried and kFailed.
std::string_view NvmlStateName(NvmlState s);
std::optional<NvmlState> ParseNvmlState(std::string_view name);

struct ForwardCompat {
  std::string path;  // /usr/local/cuda-12.2/compat
  std::optional<DriverVersion> version;
  // Where the dynamic loader is told to search it, so libcuda.so.1 resolves to it before the
  // driver's: "LD_LIBRARY_PATH" or "ld.so.conf" and the directory as written there
  // ("/usr/local/cuda/compat"); both empty when neither names it.
  std::string loader_source, loader_dir;
};

struct DriverInfo {
  // Kernel module (from /proc/driver/nvidia/version or /sys/module/nvidia/version).
  bool kernel_module_loaded = false;
  std::optional<DriverVersion> kernel_version;
  KernelFlavor kernel_flavor = KernelFlavor::kUnknown;
  std::string kernel_source;
  // User space (NVML, or the real names of libcuda.so.* / libnvidia-ml.so.*).
  std::optional<DriverVersion> userspace_version;
  std::string userspace_source;
  std::vector<std::string> libcuda_paths;
  std::vector<std::string> nvml_paths;
  // The newest CUDA the driver serves (NVML, libcuda, or the catalog's branch table).
  std::optional<CudaVersion> cuda;
  std::string cuda_source;
  Origin cuda_origin = Origin::kNone;
  NvmlState nvml = NvmlState::kNotTried;
  std::string nvml_error;  // kFailed: the NVML or dlopen error
  // As JSON writes it: the state's name, or the error when NVML failed; "" when not tried.
  std::string nvml_status() const {
    return nvml == NvmlState::kFailed ? nvml_error : std::string(NvmlStateName(nvml));
  }
  // Where it runs.
  bool wsl = false;
  bool container = false;
  std::string container_source;
  bool device_nodes = false;  // /dev/nvidia0.. or /dev/dxg
  std::vector<std::string> device_node_paths;
  std::optional<std::string> cuda_visible_devices;
  std::optional<std::string> nvidia_visible_devices;
  // The NVIDIA Container Toolkit's other variables, as the process environment has them.
  std::optional<std::string> nvidia_driver_capabilities;  // "compute,utility"
  std::optional<std::string> nvidia_require_cuda;         // "cuda>=12.4 brand=tesla,driver>=470,driver<471 ..."
  std::vector<ForwardCompat> forward_compat;
  std::vector<LibraryFault> library_faults;
  // A container under WSL 2: the driver store package its libcuda.so.1.1 was mounted from
  // (/usr/lib/wsl/drivers/nv*), and whether libnvdxgdmal.so.1 (Windows drivers 555 and newer) was
  // mounted beside it; "" when none was found or outside such a container.
  std::string wsl_store_package;
  bool wsl_dxgdmal = false;

  // The version to judge by: user space (what CUDA programs load) before the kernel module.
  std::optional<DriverVersion> version() const {
    return userspace_version ? userspace_version : kernel_version;
  }
  bool installed() const {
    return kernel_version || userspace_version || !libcuda_paths.empty() || wsl;
  }
  bool mismatch() const {
    return kernel_version && userspace_version && !(*kernel_version == *userspace_version);
  }
};

struct GpuInfo {
  int index = 0;
  std::string name;
  Origin name_origin = Origin::kNone;  // kGpuByPciId: the catalog's names for its PCI id
  std::optional<ComputeCapability> cc;
  std::string cc_source;  // "NVML" or "catalog: <model>"
  Origin cc_origin = Origin::kNone;
  std::string architecture;
  Origin architecture_origin = Origin::kNone;
  std::string uuid;
  std::string pci_bus_id;
  std::optional<uint32_t> pci_device_id;
  std::optional<uint64_t> memory_bytes;
  std::string source;  // "nvml", "/proc/driver/nvidia/gpus/...", "/sys/bus/pci/devices/..."
};

struct ToolkitInfo {
  std::string path;  // the toolkit root, resolved
  std::vector<std::string> found_by;  // "/usr/local/cuda-12.4", "PATH", "CUDA_HOME", ...
  std::optional<CudaVersion> version;
  std::string version_source;
  ToolkitKind kind = ToolkitKind::kSystem;
  bool has_nvcc = false;
  bool active = false;
  std::string active_reason;  // "PATH", "CUDA_HOME", "/usr/local/cuda"
  std::optional<int> max_gcc;  // the newest GCC major its crt/host_config.h accepts
  std::string max_gcc_source;
  std::string ptxas;  // <path>/bin/ptxas when that file exists (probe/triton.cc), else ""
};

// A ptxas triton runs: one its wheel bundles (triton/backends/nvidia/bin/ptxas, ptxas-blackwell,
// ptxas-thor) or the one a TRITON_PTXAS*_PATH variable names; its CUDA release read from the
// binary's own version text, never by running it (probe/triton.cc).
struct PtxasInfo {
  std::string tool;  // "ptxas", "ptxas-blackwell", "ptxas-thor"
  std::string path;
  std::optional<CudaVersion> version;  // 12.8.93
  std::string version_line;            // "Cuda compilation tools, release 12.8, V12.8.93"
  std::string env_var;                 // set for a TRITON_PTXAS*_PATH override: its name; "" when bundled
};

struct CudnnInfo {
  std::string path;
  std::optional<Pep440> version;
  std::string source;
  CudnnKind kind = CudnnKind::kSystem;
};

// One shared object read for the GPU code it carries and what it links (probe/binaries.cc).
// The torch symbols a file needs against those torch's libraries define: the loader's
// "undefined symbol" before it happens.
struct SymbolLookup {
  uint32_t looked_up = 0;     // symbols looked up
  uint32_t missing = 0;       // of those, defined by none of the libraries
  std::string first_missing;  // the first missing, as mangled in .dynsym
  std::string torch_lib;      // the directory of torch's libraries: <site>/torch/lib
};

struct BinaryInfo {
  std::string path;
  std::optional<FatbinCode> code;     // nullopt: no fatbin section (no GPU code)
  std::vector<std::string> needed;    // DT_NEEDED: libcudart.so.12, libcudnn.so.9, ...
  std::vector<std::string> rpath;     // DT_RPATH
  std::vector<std::string> runpath;   // DT_RUNPATH
  std::string error;                  // why it could not be read; "" when it was
  // torch API symbols spelling std::string, by C++ ABI (.dynsym): read for an extension's files
  // that link torch (libc10.so, libtorch*.so) and for torch's own libc10.so; empty otherwise.
  // Its `needs` list is dropped once looked up (below): not kept in the environment cache.
  TorchSymbols symbols;
  // An extension's file: the torch API symbols it needs looked up in torch's own libraries of
  // the same environment (and its package's other files); nullopt when not looked up (no torch
  // library of the environment, or one without a GNU hash table).
  std::optional<SymbolLookup> torch_lookup;
};

// Where the dynamic loader finds a library, in its order of search.
enum class LibOrigin { kRpath, kLdLibraryPath, kRunpath, kLdSoConf, kDefault };
std::string_view LibOriginName(LibOrigin o);  // "DT_RPATH", "LD_LIBRARY_PATH", ...

// A CUDA library torch links (libcudart, libcublas, libcudnn) and the copy the loader picks.
struct RuntimeLib {
  std::string soname;   // libcudnn.so.9
  std::string needed_by;  // the first of torch's libraries whose DT_NEEDED names it
  std::string path;     // the file the loader opens; "" when none is found
  std::string target;   // its real name after symbolic links: libcudnn.so.9.1.0
  std::optional<LibOrigin> origin;
  std::optional<Pep440> version;  // from the real name or the nvidia-* wheel's metadata
  std::string version_source;
  std::string wheel_path;  // the copy in the environment's nvidia-* wheel or torch/lib, when one exists
  std::optional<Pep440> wheel_version;
  bool shadowed() const { return !path.empty() && !wheel_path.empty() && path != wheel_path; }
};

// Whether DT_NEEDED names one of torch's libraries (libc10*.so, libtorch*.so).
bool LinksTorch(const std::vector<std::string>& needed);

// How a distribution was installed in editable or develop mode, its files left in the project.
enum class EditableMode {
  kPep660,   // pip install -e with setuptools >= 64: direct_url.json's dir_info.editable
  kDevelop,  // setup.py develop (or pip install -e with older setuptools): a .egg-link
};
std::string_view EditableModeName(EditableMode m);  // "pep660", "develop"

struct EditableInstall {
  EditableMode mode = EditableMode::kPep660;
  std::string project;  // the project directory: /home/user/mmcv
  std::string source;   // the site-packages file that named it (direct_url.json, the .egg-link)
};

// An installed distribution that ships shared objects linking CUDA or torch (torchvision, xformers,
// flash_attn, a CPU build of torch-scatter, ...). One whose libraries link torch's (LinksTorch) is a
// torch extension, built against one torch, with or without CUDA; one that links CUDA only
// (cupy-cuda12x, bitsandbytes' libraries loaded with ctypes) is a CUDA package.
struct ExtensionInfo {
  std::string name;  // normalized distribution name
  std::optional<Pep440> version;
  std::string metadata_path;             // its METADATA
  std::vector<std::string> torch_pins;  // Requires-Dist on torch/torchvision/torchaudio: "torch==2.4.1"
  std::vector<BinaryInfo> libs;          // the shared objects among its files linking CUDA or torch
  // The wheel pip installed it from, when direct_url.json names one (flash_attn-2.7.4.post1+
  // cu12torch2.6cxx11abiFALSE-cp311-cp311-linux_x86_64.whl), and the C++ ABI its name states.
  std::string wheel_file;
  std::string wheel_source;  // the direct_url.json
  std::optional<bool> wheel_cxx11abi;
  // An editable or develop install: its shared objects were found in the project directory.
  std::optional<EditableInstall> editable;
  // What the package wrote beside its library about its own build (xformers/cpp_lib.json): the
  // torch it was built against ("2.2.0+cu121"), the CUDA it was compiled with, and that file.
  // For a build from source it is the one record of the torch it needs.
  std::string built_torch;
  std::optional<CudaVersion> built_cuda;
  std::string built_source;
  // The CUDA-family libraries its libraries need beyond those torch maps, as the loader finds
  // them (worked out after the environment cache, every run); only for a torch extension.
  std::vector<RuntimeLib> runtime;

  // Whether one of its libraries names torch's (libc10*.so, libtorch*.so) in DT_NEEDED.
  bool LinksTorch() const;
};

struct PackageInfo {
  std::string name;  // "torch"
  std::optional<Pep440> version;
  std::string version_source;
  std::string metadata_version;     // the Version: field of its metadata, when read
  std::optional<CudaVersion> cuda;  // the CUDA runtime the build uses
  std::string cuda_source;
  Origin cuda_origin = Origin::kNone;  // kObserved (version.py) or kNvidiaRequirement
  bool cuda_none = false;          // version.py says cuda = None
  std::optional<std::string> hip;  // ROCm builds
  std::optional<Variant> variant;  // cu121, cpu, rocm6.2 (derive/); nullopt when unknown
  Origin variant_origin = Origin::kNone;
  std::string location;            // the package directory or metadata path
  std::vector<std::string> nvidia_requirements;  // "nvidia-cudnn-cu12==8.9.2.26"
  std::vector<std::string> bundled_libs;         // torch/lib/libcudnn.so.8 ...
  std::vector<BinaryInfo> binaries;              // torch: libtorch_cuda*.so read for GPU code
  std::vector<BinaryInfo> abi_libs;              // torch: libc10.so read for the C++ ABI it exports
  std::vector<RuntimeLib> runtime;               // torch: the CUDA libraries it will load
};

// A build's variant tag as JSON and messages write it ("cu121", "cpu", "rocm6.2"); "" when unknown.
inline std::string VariantTag(const PackageInfo& p) { return p.variant ? p.variant->tag : ""; }
inline bool IsCpuBuild(const PackageInfo& p) { return p.variant && p.variant->kind == Variant::Kind::kCpu; }
inline bool IsRocmBuild(const PackageInfo& p) { return p.variant && p.variant->kind == Variant::Kind::kRocm; }

struct PythonEnv {
  std::string executable;
  std::string prefix;
  std::optional<PyVersion> version;
  std::string version_source;
  PythonKind kind = PythonKind::kSystem;
  std::string name;  // conda env name, pyenv version
  bool active = false;        // the environment a bare `python` in this shell runs
  std::string active_reason;  // "VIRTUAL_ENV", "CONDA_PREFIX", "PYENV_VERSION", "pyenv version", "PATH"
  std::vector<std::string> found_by;
  bool cudamatch_own = false;  // the environment the running cudamatch is installed in
  std::vector<std::string> site_packages;  // every site directory (lib and lib64), one environment
  std::map<std::string, PackageInfo> packages;  // torch, torchvision, torchaudio, triton, nvidia-*
  std::vector<ExtensionInfo> extensions;         // distributions shipping CUDA shared objects
  std::vector<PtxasInfo> triton_ptxas;           // the ptxas binaries its triton wheel bundles
  // PEP 668: the EXTERNALLY-MANAGED file in the interpreter's stdlib directory
  // (/usr/lib/python3.11/EXTERNALLY-MANAGED on Debian), "" when there is none. pip refuses to
  // install into such a Python; venvs and conda environments are never marked.
  std::string externally_managed;
};

inline bool WasFoundBy(const PythonEnv& env, FoundBy how) {
  std::string_view name = FoundByName(how);
  for (const std::string& f : env.found_by) {
    if (f == name) return true;
  }
  return false;
}

struct LibraryPathEntry {
  std::string dir;
  std::vector<std::string> cuda_libs;  // file names: libcudart.so.11.0, libcudnn.so.8.6.0, ...
  std::optional<Pep440> cudnn_version;
  std::optional<int> cuda_major;
};

// An NVIDIA Jetson module (Tegra SoC): PyPI's CUDA wheels do not run on it.
struct JetsonInfo {
  bool detected = false;
  std::string model;  // "NVIDIA Jetson AGX Orin Developer Kit", or "" when only the L4T file said so
  std::string l4t;    // "36.3.0" from /etc/nv_tegra_release (or nvidia-l4t-core's version), or ""
  std::string l4t_source;  // "/etc/nv_tegra_release", "/var/lib/dpkg/status (nvidia-l4t-core)"
  std::string soc;         // "tegra234", the nvidia,tegra* entry of /proc/device-tree/compatible
  std::string soc_source;  // "/proc/device-tree/compatible"
  // The Tegra GPU module's own version line in /proc/driver/nvidia/version ("35.3.1" on Orin,
  // numbered as the L4T release, not a desktop driver branch); "" when the file is absent.
  std::string gpu_module;
  // Derived from the catalog (derive/): the JetPack line of `l4t` and where its torch is.
  std::string jetpack;                 // "6.1 / 6.2"
  std::optional<CudaVersion> cuda;     // the CUDA that JetPack ships
  std::string wheels;                  // https://pypi.jetson-ai-lab.io/jp6/cu126
  bool wheels_index = false;           // `wheels` is a pip index (else a page of wheel files)
  std::optional<bool> sbsa;            // its CUDA user space is SBSA's (PyPI's aarch64 CUDA builds run); nullopt unknown
};

// The first python.exe or pip.exe on PATH (Windows trees): the file, its install, the PATH entry.
struct PathTool {
  std::string path;     // /Users/ann/AppData/Local/Programs/Python/Python312/Scripts/pip.exe
  std::string prefix;   // the install it belongs to (Scripts\ counts as its parent)
  std::string written;  // the PATH entry as written: C:\Users\ann\...\Scripts
  bool empty() const { return path.empty(); }
};

struct HostInfo {
  std::string os_name;  // PRETTY_NAME from /etc/os-release
  std::string os_id;    // ID
  std::string arch;     // uname machine
  std::string glibc;
  std::optional<int> gcc_major;
  std::string gcc_source;
  std::vector<LibraryPathEntry> ld_library_path;
  std::string pip_index_url;
  std::string pip_index_source;  // "env:PIP_INDEX_URL", "/etc/pip.conf", ...
  std::vector<std::string> pip_extra_index_urls;
  std::optional<JetsonInfo> jetson;
  PathTool path_python;  // Windows trees only
  PathTool path_pip;
  std::string system_drive;  // Windows trees: SystemDrive ("C:" when unset); "" elsewhere
  // TRITON_PTXAS_PATH, TRITON_PTXAS_BLACKWELL_PATH, TRITON_PTXAS_THOR_PATH as the process
  // environment sets them (env_var, path, and the version read from that file when it is one).
  std::vector<PtxasInfo> triton_ptxas_env;
};

struct Snapshot {
  std::string root = "/";
  Platform platform;
  DriverInfo driver;
  std::vector<GpuInfo> gpus;
  std::vector<ToolkitInfo> toolkits;
  std::vector<CudnnInfo> cudnn;
  std::vector<PythonEnv> pythons;
  HostInfo host;
  std::vector<ImplausibleValue> implausible;
  std::vector<Unreadable> unreadable;  // sorted by path, each once
  std::vector<Evidence> trail;
  // doctor --from: the paste this snapshot was read from (what it held, what it cannot show);
  // nullopt for a machine or an image.
  std::optional<PasteInfo> paste;

  const ToolkitInfo* ActiveToolkit() const {
    for (const ToolkitInfo& t : toolkits) {
      if (t.active) return &t;
    }
    return nullptr;
  }
};

}  // namespace cudamatch
