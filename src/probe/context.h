// What every probe gets: the filesystem under the root, the environment variables (read once by
// cli/, never with getenv here), the NVIDIA library interfaces (null under --root, where nothing
// of this host is loaded) and the evidence trail it appends to.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"
#include "core/fs.h"
#include "probe/nvidia_api.h"
#include "probe/snapshot.h"

namespace cudamatch {

// Read caps: nothing a probe reads is unbounded.
inline constexpr size_t kSmallFileCap = 64 * 1024;
inline constexpr size_t kHeaderHeadCap = 16 * 1024;  // the head of a header, read before the rest

// `text` read with a cap of `cap` bytes, without its last line when the cap may have cut it.
inline std::string_view WholeLines(std::string_view text, size_t cap) {
  if (text.size() < cap) return text;
  size_t nl = text.rfind('\n');
  return nl == std::string_view::npos ? std::string_view() : text.substr(0, nl + 1);
}
inline constexpr size_t kMetadataCap = 256 * 1024;

class EnvCache;  // env_cache.h

struct ProbeInput {
  const Fs* fs = nullptr;
  std::map<std::string, std::string> env;
  std::string cwd = "/";
  NvmlApi* nvml = nullptr;  // null: do not load NVML
  CudaApi* cuda = nullptr;  // null: do not load libcuda
  std::vector<std::string> extra_pythons;  // --python PATH, resolved inside the root
  // Only to reject a driver CUDA no driver of its branch gives (driver.cc); every value derived
  // from the catalog is filled by derive/ after the probes.
  const Catalog* catalog = nullptr;
  std::string host_arch;   // uname machine when root is "/"
  std::string host_glibc;  // gnu_get_libc_version() when root is "/"
  std::string self_exe;    // this program's own file when root is "/" (a venv, pipx or uv tool env)
  Os os = Os::kLinux;      // the tree's system: kWindows reads a Windows tree (doctor --os windows)
  EnvCache* env_cache = nullptr;  // null: every environment is read (--no-cache, --root, Windows trees)

  std::string Env(std::string_view name) const {
    auto it = env.find(std::string(name));
    return it == env.end() ? "" : it->second;
  }
  bool HasEnv(std::string_view name) const { return env.count(std::string(name)) > 0; }
  std::string Home() const { return Env("HOME"); }
};

// Appends attempts to the snapshot's evidence trail.
class Trail {
 public:
  Trail(Snapshot& snap, std::string probe) : snap_(snap), probe_(std::move(probe)) {}
  void Found(std::string source, std::string detail) { Add(Evidence::Outcome::kFound, source, detail); }
  void Missing(std::string source, std::string detail = "") {
    Add(Evidence::Outcome::kMissing, source, detail);
  }
  void Error(std::string source, std::string detail) { Add(Evidence::Outcome::kError, source, detail); }
  void Skipped(std::string source, std::string detail) { Add(Evidence::Outcome::kSkipped, source, detail); }

 private:
  void Add(Evidence::Outcome outcome, std::string& source, std::string& detail) {
    snap_.trail.push_back(Evidence{probe_, std::move(source), outcome, std::move(detail)});
  }
  Snapshot& snap_;
  std::string probe_;
};

// Reads a small text file, recording the attempt. nullopt when absent or unreadable.
std::optional<std::string> ReadRecorded(const Fs& fs, Trail& trail, const std::string& path,
                                        size_t cap = kSmallFileCap);

// The whole machine. Probes run in order: host, driver, gpus, python, binaries, toolkits, cudnn;
// the driver's CUDA from libcuda is collected last (FinishDriver).
Snapshot TakeSnapshot(const ProbeInput& in);

void ProbeHost(const ProbeInput& in, Snapshot& snap);
// The driver up to NVML; when libcuda is to be asked, its child starts here and works while the
// other probes run. FinishDriver collects the driver's CUDA (libcuda, else the catalog's branch
// table) and puts its trail entries at `trail_at`, where ProbeDriver's ended.
void ProbeDriver(const ProbeInput& in, Snapshot& snap);
void FinishDriver(const ProbeInput& in, Snapshot& snap, size_t trail_at);
// Shared by the Linux and the Windows driver probes (driver.cc). A value a library gave that
// cannot be right: recorded in the trail and in snap.implausible, never used.
void RecordImplausible(Snapshot& snap, Trail& trail, std::string source, std::string value, std::string expected);
// nvmlInit_v2; on failure its status and the library's fault (a crash, a hang) are recorded.
bool InitNvml(NvmlApi& nvml, DriverInfo& d, Trail& trail);
// nvmlSystemGetDriverVersion as the user-space driver version; `example` names a right value.
void ReadNvmlDriverVersion(NvmlApi& nvml, Snapshot& snap, Trail& trail, const std::string& example);
void ProbeGpus(const ProbeInput& in, Snapshot& snap);
// The GPUs NVML lists, when NVML answered (snap.driver.nvml kOk); the Windows machine's.
void ProbeGpusFromNvml(const ProbeInput& in, Snapshot& snap, Trail& trail);
void ProbePythons(const ProbeInput& in, Snapshot& snap);
void ProbeToolkits(const ProbeInput& in, Snapshot& snap);
void ProbeCudnn(const ProbeInput& in, Snapshot& snap);
// The ptxas binaries of every environment's triton, the TRITON_PTXAS*_PATH overrides and each
// toolkit's bin/ptxas (triton.cc); after the python and toolkit probes.
void ProbeTriton(const ProbeInput& in, Snapshot& snap);
// GPU code and links of torch's libraries and of every CUDA extension (binaries.cc).
void ProbeBinaries(const ProbeInput& in, Snapshot& snap);

// A Windows tree (windows.cc, windows_toolkits.cc, windows_python.cc): file-based probes only.
void ProbeWindowsHost(const ProbeInput& in, Snapshot& snap);
void ProbeWindowsDriver(const ProbeInput& in, Snapshot& snap);
// This Windows machine's driver, asked live: NVML (nvml.dll), then nvcuda.dll's cuDriverGetVersion.
void AskWindowsDriver(const ProbeInput& in, Snapshot& snap, Trail& trail);
void ProbeWindowsGpus(const ProbeInput& in, Snapshot& snap);
void ProbeWindowsPythons(const ProbeInput& in, Snapshot& snap);
void ProbeWindowsPathTools(const ProbeInput& in, Snapshot& snap);
void ProbeWindowsToolkits(const ProbeInput& in, Snapshot& snap);
void ProbeWindowsCudnn(const ProbeInput& in, Snapshot& snap);

// Library directories searched for driver and CUDA libraries, in the dynamic loader's order:
// LD_LIBRARY_PATH's absolute elements, /etc/ld.so.conf(.d), then the default multiarch directories.
std::vector<std::string> LibraryDirs(const ProbeInput& in);
// The LD_LIBRARY_PATH elements LibraryDirs leaves out, in order: empty and relative ones (the
// loader takes them from the working directory; no library is searched or loaded there).
std::vector<std::string> IgnoredLibraryPathElements(const ProbeInput& in);
// The directories /etc/ld.so.conf names (with its includes), in order.
std::vector<std::string> LdSoConfDirs(const Fs& fs);
// PATH entries, each resolved inside the root.
std::vector<std::string> PathDirs(const ProbeInput& in);

}  // namespace cudamatch
