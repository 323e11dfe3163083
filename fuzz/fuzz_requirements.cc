// requirements.txt for `cudamatch check -r`, checked against a fixed machine.
#include <cstdint>
#include <string>

#include "plan/check.h"

using namespace cudamatch;  // NOLINT: fuzz entry point

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Catalog catalog = ParseCatalog(EmbeddedCatalogFiles()).value();
  std::string text(reinterpret_cast<const char*>(data), size);
  auto pins = ParseRequirements("requirements.txt", text);
  if (!pins) return 0;
  MachineSpec spec;
  spec.driver = DriverVersion::Parse("535.104.05").value();
  spec.gpus = {ComputeCapability{8, 6, 0}};
  spec.has_nvidia_gpu = true;
  CheckPins(catalog, spec, *pins);
  return 0;
}
