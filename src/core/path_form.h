// Paths as the user of the machine writes them. Probes read a Windows tree (a mounted C: drive or
// an image under --root) through POSIX-style paths relative to the tree ("/Users/ann/..."); a
// person on that machine, and the commands they paste, use "C:\Users\ann\...".
#pragma once

#include <string>
#include <string_view>

#include "core/platform.h"

namespace cudamatch {

// "/Users/ann/x/python.exe" -> "C:\Users\ann\x\python.exe" on the system drive `drive` ("" for
// C:); a path already written with a drive ("D:/x") keeps it. Relative paths and names
// ("python") are returned with their slashes turned.
std::string WindowsPathForm(std::string_view path, std::string_view drive = "");

// `path` in the form of `os`: WindowsPathForm on Windows, unchanged elsewhere.
std::string PathForOs(std::string_view path, Os os, std::string_view drive = "");

}  // namespace cudamatch
