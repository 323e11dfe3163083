// Windows PE files' version resources and Windows paths: never crash, never read without bound,
// and a version that is found maps to a driver number or to none. The whole input is a PE file;
// it is also read as a VS_VERSIONINFO block and as a Windows path.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "probe/pe.h"
#include "probe/win_paths.h"

using namespace cudamatch;  // NOLINT: fuzz entry point

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  if (auto v = ReadPeFileVersion(*MakeStringFile(bytes))) {
    if (auto d = WindowsDriverFromFileVersion(*v); d && d->parts.size() != 2) std::abort();
  }
  (void)ParseVersionInfo(bytes);
  if (auto p = WindowsToRootPath(bytes, "C:")) {
    if (p->empty() || (*p)[0] != '/' || p->find("/../") != std::string::npos) std::abort();
  }
  return 0;
}
