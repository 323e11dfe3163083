// The readers of pasted text, in the order they run (probe/paste.h), and ReadPaste over them all.

#include <algorithm>

#include "probe/paste.h"

namespace cudamatch {

const std::vector<PasteReaderRow>& PasteReaders() {
  // One row per format, in the order of PasteFormat; the facts of all are sorted by line after.
  static const std::vector<PasteReaderRow> kReaders = {
      {PasteFormat::kCollectEnv, ReadCollectEnv},
      {PasteFormat::kNvidiaSmi, ReadNvidiaSmi},
      {PasteFormat::kNvidiaSmiQ, ReadNvidiaSmiQ},
      {PasteFormat::kNvidiaSmiXml, ReadNvidiaSmiXml},
      {PasteFormat::kNvidiaSmiCsv, ReadNvidiaSmiCsv},
      {PasteFormat::kPipList, ReadPipList},
      {PasteFormat::kPipFreeze, ReadPipFreeze},
      {PasteFormat::kCondaList, ReadCondaList},
      {PasteFormat::kNvcc, ReadNvcc},
      {PasteFormat::kProcDriver, ReadProcDriver},
      {PasteFormat::kTegraRelease, ReadTegraRelease},
      {PasteFormat::kDoctorJson, ReadDoctorJson},
  };
  return kReaders;
}

std::vector<PasteFact> ReadPaste(const PasteText& text) {
  std::vector<PasteFact> all;
  for (const PasteReaderRow& row : PasteReaders()) {
    std::vector<PasteFact> facts = row.read(text);
    all.insert(all.end(), std::make_move_iterator(facts.begin()), std::make_move_iterator(facts.end()));
  }
  std::stable_sort(all.begin(), all.end(), [](const PasteFact& a, const PasteFact& b) { return a.line < b.line; });
  return all;
}

}  // namespace cudamatch
