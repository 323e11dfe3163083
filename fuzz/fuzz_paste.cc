// doctor --from on arbitrary bytes: DecodePaste, every reader, PasteSnapshot, Derive, the rules
// and both reports. Nothing may crash or hang; every line a fact cites exists.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "derive/derive.h"
#include "plan/diagnose.h"
#include "probe/paste.h"
#include "report/doctor.h"

using namespace cudamatch;  // NOLINT: fuzz entry point

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Catalog catalog = ParseCatalog(EmbeddedCatalogFiles()).value();
  PasteText text = DecodePaste(std::string_view(reinterpret_cast<const char*>(data), size));
  std::vector<PasteFact> facts = ReadPaste(text);
  for (const PasteFact& f : facts) {
    if (f.line < 1 || f.line > static_cast<int>(text.lines.size())) std::abort();
  }
  Snapshot snap = PasteSnapshot(text, facts, "paste.txt");
  Derive(catalog, snap);
  std::vector<Finding> findings = Diagnose(snap, catalog);
  (void)JsonText(DoctorJson(snap, findings));
  (void)RenderDoctor(snap, findings, TextOptions{Lang::kZh, Style{}, true});
  return 0;
}
