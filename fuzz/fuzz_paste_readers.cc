// The readers of pasted nvidia-smi (table, -q, XML, csv), pip list, pip freeze, conda list,
// nvcc, /proc/driver/nvidia/version, nv_tegra_release and doctor --json, on lines split from the
// input at '\n'. Each reader must return facts that cite lines of the paste, in line order,
// a block's kFormat fact first.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "probe/paste.h"

using namespace cudamatch;  // NOLINT: fuzz entry point

namespace {

PasteText Lines(std::string_view bytes) {
  PasteText text;
  int number = 0;
  while (true) {
    size_t nl = bytes.find('\n');
    text.lines.push_back(PasteLine{++number, std::string(bytes.substr(0, nl))});
    if (nl == std::string_view::npos) break;
    bytes.remove_prefix(nl + 1);
  }
  return text;
}

void Check(const PasteText& text, const std::vector<PasteFact>& facts) {
  int last = 0;
  for (const PasteFact& f : facts) {
    if (f.line < 1 || f.line > static_cast<int>(text.lines.size()) || f.line < last) std::abort();
    last = f.line;
  }
  if (!facts.empty() && facts.front().kind != PasteFactKind::kFormat) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  PasteText text = Lines(std::string_view(reinterpret_cast<const char*>(data), size));
  for (PasteReader read : {ReadNvidiaSmi, ReadNvidiaSmiQ, ReadNvidiaSmiXml, ReadNvidiaSmiCsv, ReadPipList,
                           ReadPipFreeze, ReadCondaList, ReadNvcc, ReadProcDriver, ReadTegraRelease,
                           ReadDoctorJson}) {
    Check(text, read(text));
  }
  return 0;
}
