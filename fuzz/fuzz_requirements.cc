// requirements.txt for `cudamatch check -r` (decoded as pip does, includes capped), checked against
// a fixed machine.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "plan/check.h"
#include "plan/requirements.h"

using namespace cudamatch;  // NOLINT: fuzz entry point

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Catalog catalog = ParseCatalog(EmbeddedCatalogFiles()).value();
  std::string text(reinterpret_cast<const char*>(data), size);
  // Decoding: BOMs and UTF-16 turned into UTF-8 and every line end made LF, so no CR is left.
  std::string decoded = DecodeRequirementsText(text);
  if (decoded.find('\r') != std::string::npos) std::abort();
  // Every -r/-c include reads the same input again, which exercises the cycle detection.
  PinSet pins = ParseRequirements("requirements.txt", text, [&text](const std::string&) -> Result<std::string> { return text; });
  MachineSpec spec;
  spec.driver = DriverVersion::Parse("535.104.05").value();
  spec.gpus = {ComputeCapability{8, 6, 0}};
  spec.has_nvidia_gpu = true;
  CheckPins(catalog, spec, pins);
  return 0;
}
