// Shared helpers for the unit tests: the source tree, the embedded catalog, running the binary.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"
#include "core/fs.h"
#include "diagnose/finding.h"
#include "probe/snapshot.h"

namespace cudamatch::testing {

// The Windows build (run under wine in CI). Linux fixture trees rely on symbolic links, which the
// Windows file layer does not follow, and some tests read /proc or run shell scripts: those are
// skipped there, with the reason.
#ifdef _WIN32
inline constexpr bool kWindowsBuild = true;
#else
inline constexpr bool kWindowsBuild = false;
#endif
inline constexpr const char* kLinuxTreeSkip = "a Linux tree: its symbolic links are not followed by the Windows file layer";

// The repository root (CUDAMATCH_SOURCE_DIR at build time).
std::string SourceDir();
// The embedded catalog, parsed once.
const Catalog& TheCatalog();
// Reads a file of the source tree ("tests/fixtures/...").
std::string ReadSource(const std::string& relative);

// The time of every stored run (JSON's meta.run_time "2026-01-01T00:00:00Z").
inline constexpr std::string_view kGoldenNow = "CUDAMATCH_NOW=1767225600";

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};
// The command that runs a target binary: empty natively, qemu-user under a cross build.
std::vector<std::string> EmulatorCommand();
// The cudamatch binary as words for a shell command line, quoted: behind the emulator under a
// cross build ("'qemu-aarch64-static' ... '/build/cudamatch'"), else the binary alone.
std::string BinaryForShell();
// The findings of `all` with id `id`, in order.
std::vector<Finding> WithId(const std::vector<Finding>& all, std::string_view id);
// A finding's message argument `key` ("" when absent or unknown).
std::string Arg(const Finding& f, std::string_view key);
// A finding's evidence, one line each: its id and argument values.
std::string EvidenceText(const Finding& f);
// The hash of `file` as pip writes it in a RECORD line: "sha256=" and the digest in URL-safe
// base64 without padding (sha256sum, xxd and base64 through a shell).
std::string RecordHash(const std::string& file);
// Runs the cudamatch binary with exactly these environment variables (and CUDAMATCH_NO_OPENAT2,
// CUDAMATCH_CACHE_DIR and CUDAMATCH_CACHE when the test itself runs with them). With
// `stdout_fd` >= 0, the binary's stdout is that descriptor and `out` stays empty.
RunResult RunCudamatch(const std::vector<std::string>& args, const std::vector<std::string>& env = {"LANG=C.UTF-8"},
                       int stdout_fd = -1);
// The real filesystem under `root`, with openat2 off when the test runs with CUDAMATCH_NO_OPENAT2.
std::unique_ptr<Fs> MakeTestFs(const std::string& root);

// Runs `body` in a child process for which permission bits apply: as root, the child gives up
// CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH (also for programs it starts). Returns the child's exit
// status: 0 when `body` recorded no test failure, kCannotEnforcePermissions when root may not give
// them up (no CAP_SETPCAP).
constexpr int kCannotEnforcePermissions = 77;
int WithPermissionsEnforced(const std::function<void()>& body);

// An Ubuntu machine whose NVIDIA driver `version` is loaded (kernel module and user space, with
// device nodes) and serves CUDA `cuda`; no GPU and no Python yet.
Snapshot MachineWithDriver(std::string_view version, std::string_view cuda);
// Adds `env` to `s` with `torch` in it, and its extensions as the probe scans them from the real
// tree at `root` (the environment's paths are read under it).
void AddScannedEnv(Snapshot& s, PythonEnv env, PackageInfo torch, const std::string& root);

// `machine` with one environment at `prefix` whose site directory /site (under `root`) holds torch
// `torch_version` built with CUDA `torch_cuda`, probed as the binaries probe reads it: torch's
// libraries, the extensions, torch's C++ ABI and the torch symbols the extensions need.
Snapshot ProbedSite(const std::string& root, Snapshot machine, const std::string& prefix, PythonKind kind,
                    std::string_view python, std::string_view torch_version, std::string_view torch_cuda);

// A fresh empty directory under the system temp dir, removed by the caller's TempDir guard.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }
  std::string Write(const std::string& rel, const std::string& content) const;
  std::string Mkdir(const std::string& rel) const;
  void Symlink(const std::string& target, const std::string& rel) const;

 private:
  std::string path_;
};

}  // namespace cudamatch::testing
