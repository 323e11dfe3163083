// Python environment files: version.py, METADATA / PKG-INFO, requirement lines, dist-info
// names, pyvenv.cfg, conda's environments.txt, pip.conf.
#include <cstdint>
#include <string>

#include "probe/parsers.h"

using namespace cudamatch;  // NOLINT: fuzz entry point

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  VersionPy v = ParseVersionPy(text);
  if (v.version) (void)Pep440::Parse(*v.version);
  CoreMetadata m = ParseCoreMetadata(text);
  for (const std::string& r : m.requires_dist) ParseRequirement(r);
  ParseRequirement(text);
  ParseDistDirName(text);
  ParsePyvenvCfg(text);
  ParseEnvironmentsTxt(text);
  ParsePipConf(text);
  return 0;
}
