// Paths of a Windows tree seen from Linux (a mounted C: drive or a captured image under --root).
// Windows matches names case-insensitively; the tree on Linux does not (ntfs-3g, an extracted
// image). Every lookup here therefore walks the path a component at a time through the Fs: an
// exact name first, else the first directory entry equal to it after ASCII case folding (as NTFS
// folds the names Windows ships). The result is the path as stored, for every later read.
// Environment variables are matched case-insensitively too (Path and PATH are one variable).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/fs.h"
#include "probe/context.h"

namespace cudamatch {

// The stored path for "/Windows/System32/nvcuda.dll" in any case; nullopt when absent.
std::optional<std::string> FindCaseless(const Fs& fs, std::string_view path);
// Every stored path equal to `path` after case folding (an image copied from a case-sensitive
// filesystem may hold both /windows/system32/nvcuda.dll and /WINDOWS/SYSTEM32/NVCUDA.DLL), in
// the order of the sorted listings, at most `max`.
std::vector<std::string> FindAllCaseless(const Fs& fs, std::string_view path, size_t max = 8);
// Entries of a directory (found caselessly) whose names start with `prefix`, any case; full paths.
std::vector<std::string> ListCaseless(const Fs& fs, std::string_view dir, std::string_view prefix);

// "C:\Program Files\NVIDIA" -> "/Program Files/NVIDIA" when the drive is the system drive
// (SystemDrive, else C:); nullopt for another drive, a relative path or a UNC path.
std::optional<std::string> WindowsToRootPath(std::string_view win_path, std::string_view system_drive);

// An environment variable by its Windows name, any case; "" when unset.
std::string WinEnv(const ProbeInput& in, std::string_view name);
// Every variable whose upper-cased name starts with `prefix` ("CUDA_PATH_V"), name -> value.
std::vector<std::pair<std::string, std::string>> WinEnvPrefixed(const ProbeInput& in, std::string_view prefix);

// One PATH entry, as written and where it lies in the tree ("" when off the system drive).
struct WinPathDir {
  std::string written;  // C:\Python312\Scripts
  std::string path;     // /Python312/Scripts (as stored, found caselessly), or ""
};
// PATH split at ';', each entry mapped into the tree, in order.
std::vector<WinPathDir> WinPathDirs(const ProbeInput& in);

}  // namespace cudamatch
