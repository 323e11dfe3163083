// Internal to probe/: the pieces of ProbeBinaries (binaries.cc, binaries_ext.cc,
// binaries_runtime.cc).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "probe/context.h"
#include "probe/elf.h"
#include "probe/fatbin.h"
#include "probe/snapshot.h"

namespace cudamatch {

// Caps on what one environment's scan reads.
inline constexpr size_t kRecordCap = 4 * 1024 * 1024;  // a RECORD file
inline constexpr size_t kMaxLibsPerDist = 64;
inline constexpr size_t kMaxLibsPerEnv = 512;

// One shared object: ELF headers, links, fatbin headers. Errors land in BinaryInfo::error.
// `symbols`: read .dynsym's torch symbols even when the file links no torch library (libc10.so).
BinaryInfo ReadBinary(const Fs& fs, const std::string& path, Trail& trail, bool symbols = false);
// Whether it carries GPU code or links the CUDA runtime, cuDNN, cuBLAS or torch's CUDA libraries.
bool LinksCuda(const BinaryInfo& b);
// libtorch_cuda.so and the split libraries of older releases, in the order read.
const std::vector<std::string_view>& TorchCudaLibraries();
// The site-packages directory holding torch/lib, or "".
std::string TorchSite(const Fs& fs, const PythonEnv& env);
// torch's CUDA libraries (TorchCudaLibraries) read into its package's `binaries`.
void ReadTorchLibs(const Fs& fs, PythonEnv& env, Trail& trail);
// torch's libc10.so read into its package's `abi_libs` for the C++ ABI it exports, when one of
// env.extensions needs torch symbols of a known ABI (after ScanExtensions).
void ReadTorchAbi(const Fs& fs, PythonEnv& env, Trail& trail);
// Every torch symbol an extension's library needs (TorchSymbols::needs) looked up in torch's own
// libraries in torch/lib (their GNU hash tables) and in the package's other libraries, into
// BinaryInfo::torch_lookup; the lists are dropped after (after ReadTorchAbi).
void LookUpTorchSymbols(const Fs& fs, PythonEnv& env, Trail& trail);

// Distributions of the environment that ship shared objects linking CUDA or torch (torch itself
// excluded). `plain`, when given, gets the shared objects a dist-info's RECORD listed that link
// neither and carry no GPU code (the environment cache's prune, env_cache.h).
std::vector<ExtensionInfo> ScanExtensions(const Fs& fs, const PythonEnv& env, Trail& trail,
                                          std::vector<std::string>* plain = nullptr);
// Shared-object paths (relative to site-packages) in a RECORD file, inside site-packages only.
// Whether the file name is a shared object's: libfoo.so, _C.cpython-311-x86_64-linux-gnu.so, libfoo.so.1.
bool IsSharedObject(std::string_view path);
std::vector<std::string> SharedObjectsInRecord(std::string_view record);
// The same, read from the file in blocks; an error when it is larger than kRecordCap or unreadable.
Result<std::vector<std::string>> SharedObjectsInRecordFile(const RandomAccessFile& file);

// An editable or develop install found in a site directory (binaries_editable.cc).
struct EditableDist {
  std::string dir;  // its .dist-info (PEP 660) or the project's .egg-info (develop); "" when none
  std::string name;     // normalized
  std::string version;  // from the directory's name, "" when unknown
  EditableInstall install;
  std::vector<std::string> dirs;  // where its shared objects are looked for
};
// `entries`: the names in `site`.
std::vector<EditableDist> FindEditableInstalls(const Fs& fs, const std::string& site,
                                               const std::vector<std::string>& entries, Trail& trail);
// The shared objects in `dirs` and their subdirectories (a bounded depth and count), absolute.
std::vector<std::string> SharedObjectsUnder(const Fs& fs, const std::vector<std::string>& dirs, Trail& trail);

// The CUDA runtime, cuBLAS and cuDNN libraries torch's libraries need, found as ld.so would.
std::vector<RuntimeLib> ResolveTorchRuntime(const ProbeInput& in, const PythonEnv& env, const std::string& site,
                                            const std::vector<BinaryInfo>& torch_libs);
// The CUDA-family libraries an extension's libraries need that torch's own runtime does not map
// before it (no torch library names that soname; another major of libcudart or libcudnn is left to
// the major rules), found as ld.so would from the extension's libraries; ld.so.conf is read only
// when there is one to find.
std::vector<RuntimeLib> ResolveExtensionRuntime(const ProbeInput& in, const PythonEnv& env, const std::string& site,
                                                const ExtensionInfo& ext, const std::vector<RuntimeLib>& torch_runtime);

}  // namespace cudamatch
