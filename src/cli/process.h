// What the command line needs from the process and the system it runs on, one file per system
// (process_posix.cc, process_windows.cc): arguments, environment, stdout, this host's facts.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/fs.h"
#include "core/platform.h"
#include "core/result.h"
#include "probe/context.h"

namespace cudamatch {

// The arguments after the program name, as UTF-8 (on Windows from GetCommandLineW, not the
// code-page argv).
std::vector<std::string> ProcessArguments(int argc, char** argv);
// The environment as UTF-8 (on Windows from GetEnvironmentStringsW; names in upper case, as
// Windows compares them caselessly: "Path" is PATH).
std::map<std::string, std::string> ProcessEnvironment();
// Sets the standard streams up: bytes pass unchanged (no newline translation); on a Windows
// console, output is UTF-8 and colour sequences are switched on. True when stdout is a terminal
// that shows colour sequences (what --color auto asks).
bool PrepareOutput();
// The columns of the terminal stdout is (TIOCGWINSZ; on Windows the console window's width),
// 0 when stdout is not a terminal or the size is unknown.
size_t TerminalColumns();

// The system this binary runs on: what `doctor` inspects without --root.
Os HostOs();

struct HostFacts {
  std::string arch;      // uname's machine: x86_64, aarch64
  std::string libc;      // glibc's version; empty on Windows
  std::string self_exe;  // this executable, as a path under "/" (empty when unknown)
};
HostFacts ThisHost();
// Who runs this and what runs: effective user and groups, and what stat says of this executable
// (device, inode, size, times); "" where the system does not say (Windows).
std::string ProcessIdentity();
// The working directory as a path under "/": PWD when the shell gave it (its logical path).
std::string WorkingDirectory(const std::string& pwd);

// The NVIDIA libraries to ask on this machine, by absolute path, found through `in` (this
// machine's "/" and environment). Linux: the first of each soname in the loader's directories
// (LibraryDirs: absolute LD_LIBRARY_PATH elements, /etc/ld.so.conf, the default directories)
// that may be loaded (core/dynlib.h); when none may, the untrusted one found (its load is refused
// with the reason) or the bare soname (refused as not absolute). Windows: System32 or the driver
// store.
struct NvidiaLibraries {
  std::string nvml;
  std::string cuda;
};
NvidiaLibraries NvidiaLibraryNames(const ProbeInput& in);

// True when `path` (as the user wrote it) is a directory.
bool IsDirectory(const std::string& path);

}  // namespace cudamatch
