// Driver, sysfs, OS and toolkit files: /proc/driver/nvidia/version, .../gpus/*/information,
// sysfs hex attributes, /etc/os-release, /proc/version, /proc/1/cgroup, version.json,
// version.txt, cuda.h, cudnn_version.h and library file names.
#include <cstdint>
#include <string>

#include "probe/parsers.h"

using namespace cudamatch;  // NOLINT: fuzz entry point

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  ParseProcDriverVersion(text);
  ParseSysModuleVersion(text);
  ParseProcGpuInformation(text);
  ParseSysfsHex(text);
  ParseOsRelease(text);
  IsWslKernel(text);
  ContainerFromCgroup(text);
  ParseCudaVersionJson(text);
  ParseCudaVersionTxt(text);
  ParseCudaHeader(text);
  ParseCudnnHeader(text);
  LibraryDriverVersion(text, "libcuda.so.");
  LibraryVersion(text, "libcudnn.so.");
  return 0;
}
