// Pasted text as a source of facts: what people paste into issues and forums
// (`python -m torch.utils.collect_env`, `nvidia-smi` in its four forms, `pip list`, `pip freeze`,
// `uv pip list`, `conda list`, `nvcc --version`, `/proc/driver/nvidia/version`,
// `/etc/nv_tegra_release`, cudamatch's own `doctor --json`), several of them concatenated in one
// paste. Three steps, each pure:
//   1. DecodePaste: bytes to lines (UTF-8 or UTF-16 with a BOM, CRLF or CR, NULs and control
//      bytes dropped, capped), each line numbered from 1 as the user's editor shows it;
//   2. the readers, one per format (kPasteReaders): each scans every line, takes the lines of its
//      own format and turns them into facts, each fact citing its line; a reader never guesses
//      from lines it does not recognise;
//   3. PasteSnapshot: the facts to one Snapshot (what the paste says, and what it cannot say),
//      which then goes through Derive and the rules like a live machine's.
// Sources: the formats' real outputs, quoted above each reader; tests/fixtures/pastes/ holds the
// corpus of real pastes with their URLs.
// Layer: probe/ (core/ only); no I/O: the caller reads the file through the capped file layer.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "probe/paste_info.h"
#include "probe/snapshot.h"

namespace cudamatch {

// The most of a paste that is read; the rest is cut (and the cut is said).
inline constexpr size_t kPasteMaxBytes = 16 * 1024 * 1024;

struct PasteLine {
  int number = 0;    // 1-based, as an editor numbers the paste
  std::string text;  // without its line ending; valid UTF-8, control bytes dropped
};

struct PasteText {
  std::vector<PasteLine> lines;
  bool truncated = false;  // longer than kPasteMaxBytes: the rest was not read
  std::string encoding;    // "utf-8", "utf-16le", "utf-16be"
};

// Bytes as given to lines.
PasteText DecodePaste(std::string_view bytes);

// One reader per format, in the order of PasteReaders(). A reader returns its facts in line order,
// starting with one kFormat fact per block of its format it found (a paste may hold several).
using PasteReader = std::vector<PasteFact> (*)(const PasteText& text);
struct PasteReaderRow {
  PasteFormat format;
  PasteReader read;
};
const std::vector<PasteReaderRow>& PasteReaders();

std::vector<PasteFact> ReadCollectEnv(const PasteText& text);    // paste_collect_env.cc
std::vector<PasteFact> ReadNvidiaSmi(const PasteText& text);     // paste_nvidia_smi.cc: the table
std::vector<PasteFact> ReadNvidiaSmiQ(const PasteText& text);    // paste_nvidia_smi.cc: -q
std::vector<PasteFact> ReadNvidiaSmiXml(const PasteText& text);  // paste_nvidia_smi.cc: -q -x
std::vector<PasteFact> ReadNvidiaSmiCsv(const PasteText& text);  // paste_nvidia_smi.cc: --format=csv
std::vector<PasteFact> ReadPipList(const PasteText& text);       // paste_packages.cc
std::vector<PasteFact> ReadPipFreeze(const PasteText& text);     // paste_packages.cc
std::vector<PasteFact> ReadCondaList(const PasteText& text);     // paste_packages.cc
std::vector<PasteFact> ReadNvcc(const PasteText& text);          // paste_tools.cc
std::vector<PasteFact> ReadProcDriver(const PasteText& text);    // paste_tools.cc
std::vector<PasteFact> ReadTegraRelease(const PasteText& text);  // paste_tools.cc
std::vector<PasteFact> ReadDoctorJson(const PasteText& text);    // paste_tools.cc

// Every reader over the text: all facts, sorted by line (stable within a line).
std::vector<PasteFact> ReadPaste(const PasteText& text);

// What a conda build string says of torch's build: py3.8_cpu_0 is a CPU build,
// py3.10_cuda12.1_cudnn8.9.2_0 (pytorch channel) and cuda118_py311h4ee7bbc_300 (conda-forge) the
// CUDA 12.1 and 11.8 builds; neither when the string says nothing of it.
struct CondaBuild {
  std::optional<CudaVersion> cuda;
  bool cpu = false;
};
CondaBuild CondaBuildOf(std::string_view build);

// The facts to a snapshot: one Python environment (the one the paste came from) when the paste
// names torch or packages; sources read "line 14: CUDA used to build PyTorch: 12.1". Derive runs
// after this, as for every snapshot.
Snapshot PasteSnapshot(const PasteText& text, const std::vector<PasteFact>& facts, std::string path);

}  // namespace cudamatch
