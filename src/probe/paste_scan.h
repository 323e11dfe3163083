// What the paste readers share: a pasted line seen without its quote prefixes ("> " of a reply
// or an e-mail) and the list of facts a reader builds. Used by paste_nvidia_smi.cc,
// paste_packages.cc and paste_tools.cc only.
// Layer: probe/ (core/ only); pure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "probe/paste.h"

namespace cudamatch {

// A line without its leading quote marks and without trailing blanks; its indentation is kept.
//   ">  |   0  NVIDIA GeForce RTX 4070   Off |" -> " |   0  NVIDIA GeForce RTX 4070   Off |"
//   "> > Driver Version : 535.104.05"           -> "Driver Version : 535.104.05"
std::string_view PeelQuotes(std::string_view line);
// The line peeled and trimmed on both sides.
std::string_view Bare(std::string_view line);
// "```", "```text", "~~~": a Markdown fence line (it ends any block it is in).
bool IsFence(std::string_view bare);
// Pieces separated by runs of blanks: "torch   2.1.0  pypi" -> {"torch", "2.1.0", "pypi"}.
std::vector<std::string_view> Words(std::string_view s);
// The text after `key` up to the next run of two blanks (or the end), trimmed:
//   After("| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2 |",
//         "Driver Version:") -> "535.104.05"; "" when the key is not there.
std::string_view After(std::string_view line, std::string_view key);
// Columns of the indentation (a tab counts as 4).
size_t Indent(std::string_view line);

// The facts of one reader, in the order they are added (readers add them in line order).
class FactList {
 public:
  explicit FactList(PasteFormat format) : format_(format) {}
  void Block(int line);  // a kFormat fact: a block of the reader's format starts here
  void Add(PasteFactKind kind, int line, std::string_view name, std::string_view value,
           std::string_view extra = "");
  bool Started() const { return !facts_.empty(); }  // a block was found before
  std::vector<PasteFact> Take() { return std::move(facts_); }

 private:
  PasteFormat format_;
  std::vector<PasteFact> facts_;
};

// "NVIDIA GeForce RTX 3060 ...  WDDM" style cells aside, a value of nvidia-smi's memory columns:
// "24576MiB", "24576 MiB" -> "24576"; "" when it is not a number of MiB.
std::string MibValue(std::string_view text);

// "00000000:01:00.0", "0000:03:00.0", "00000001:01:00.0": a PCI bus id as nvidia-smi prints it.
bool IsBusId(std::string_view text);

}  // namespace cudamatch
