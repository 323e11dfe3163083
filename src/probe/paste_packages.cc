// Package lists as pasted: pip list (and uv pip list), pip freeze (and uv pip freeze), conda
// list. Names and versions are kept as written; the snapshot step normalises them.

#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "core/text.h"
#include "probe/paste.h"
#include "probe/paste_scan.h"

namespace cudamatch {

namespace {

using K = PasteFactKind;

bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == '.';
}

// A distribution name as pip and conda print it: "torch", "nvidia-cudnn-cu12", "_libgcc_mutex".
bool IsName(std::string_view s) {
  if (s.empty() || s.size() > 200 || s.front() == '-' || s.front() == '.') return false;
  for (char c : s) {
    if (!IsNameChar(c)) return false;
  }
  return true;
}

// A version as the lists print it starts with a digit: "2.1.0+cu121", "9e", "2020.6.24".
bool IsVersion(std::string_view s) {
  return !s.empty() && s.size() <= 200 && std::isdigit(static_cast<unsigned char>(s.front())) != 0;
}

// collect_env's own package lines ("[pip3] torch==2.1.0", "[conda] pytorch 2.1.0 ...") belong
// to its reader.
bool IsCollectEnvLine(std::string_view bare) {
  return StartsWith(bare, "[pip") || StartsWith(bare, "[conda]");
}

// "Package    Version   Editable project location": pip list's (and uv pip list's) header.
bool IsPipListHeader(std::string_view bare) {
  std::vector<std::string_view> words = Words(bare);
  return words.size() >= 2 && words[0] == "Package" && words[1] == "Version";
}

// "---------- ------- ----": the rule under the header.
bool IsRule(std::string_view bare) {
  if (bare.empty() || bare.front() != '-') return false;
  for (char c : bare) {
    if (c != '-' && c != ' ') return false;
  }
  return true;
}

}  // namespace

// pip list (pip 10 and later; uv pip list prints the same columns):
//   Package                  Version      Editable project location
//   ------------------------ ------------ -------------------------
//   torch                    2.1.0+cu121
//   mypkg                    0.1.0        /home/user/src/mypkg
// (a capture: https://github.com/pytorch/pytorch/issues/167242). extra: "editable" for rows
// with an editable project location.
std::vector<PasteFact> ReadPipList(const PasteText& text) {
  FactList facts(PasteFormat::kPipList);
  enum { kNone, kHeader, kRows } state = kNone;
  bool editable_column = false;  // "Editable project location" (pip list -v prints "Location")
  for (const PasteLine& l : text.lines) {
    std::string_view bare = Bare(l.text);
    if (IsPipListHeader(bare)) {
      facts.Block(l.number);
      state = kHeader;
      editable_column = bare.find("Editable") != std::string_view::npos;
      continue;
    }
    if (state == kHeader) {
      state = IsRule(bare) ? kRows : kNone;
      continue;
    }
    if (state != kRows) continue;
    std::vector<std::string_view> words = Words(bare);
    if (words.size() < 2 || !IsName(words[0]) || !IsVersion(words[1])) {
      state = kNone;  // the list is over
      continue;
    }
    facts.Add(K::kPackage, l.number, words[0], words[1], editable_column && words.size() > 2 ? "editable" : "");
  }
  return facts.Take();
}

namespace {

// "%2B" -> "+": wheel names in URLs are percent-encoded.
std::string PercentDecoded(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      if (auto v = ParseHex(s.substr(i + 1, 2)); v && *v >= 0x20 && *v < 0x7f) {
        out += static_cast<char>(*v);
        i += 2;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

// The version in a wheel file's name (PEP 427: name-version[-build]-python-abi-platform.whl):
//   ".../torch-2.1.0%2Bcu121-cp310-cp310-linux_x86_64.whl" -> "2.1.0+cu121"; "" for other URLs.
std::string WheelVersion(std::string_view url) {
  std::string_view file = url.substr(url.find_last_of('/') + 1);
  if (!EndsWith(file, ".whl")) return "";
  std::string name = PercentDecoded(file.substr(0, file.size() - 4));
  std::vector<std::string_view> parts = Split(name, '-');
  if (parts.size() < 5 || !IsVersion(parts[1])) return "";
  return std::string(parts[1]);
}

// One line of pip freeze, read into a package fact; false when it is not one.
//   torch==2.1.0+cu121
//   torch @ https://download.pytorch.org/whl/cu121/torch-2.1.0%2Bcu121-cp310-cp310-linux_x86_64.whl
//   numpy @ file:///home/conda/feedstock_root/build_artifacts/numpy_1707225342954/work   (no version: "")
//   -e git+https://github.com/org/proj.git@3f2a1b#egg=proj                               (no version: "")
//   # Editable install with no version control (proj==0.1.0)
// "-e git+https://github.com/org/proj.git@3f2a1b#egg=proj": the name when the line gives one.
void ReadEditableLine(FactList& facts, int line, std::string_view bare) {
  size_t egg = bare.find("#egg=");
  std::string_view name = egg == std::string_view::npos ? "" : bare.substr(egg + 5);
  name = name.substr(0, name.find('&'));
  if (IsName(name)) facts.Add(K::kPackage, line, name, "", "editable");
}

bool ReadFreezeLine(FactList& facts, int line, std::string_view bare) {
  if (StartsWith(bare, "-e ") || StartsWith(bare, "--editable ")) {
    ReadEditableLine(facts, line, bare);
    return true;
  }
  std::string_view extra;
  if (StartsWith(bare, "# Editable") && EndsWith(bare, ")") && bare.find(" (") != std::string_view::npos) {
    bare = bare.substr(bare.rfind(" (") + 2);
    bare.remove_suffix(1);
    extra = "editable";
  }
  size_t end = 0;
  while (end < bare.size() && IsNameChar(bare[end])) ++end;
  std::string_view name = bare.substr(0, end), rest = bare.substr(end);
  if (!IsName(name)) return false;
  if (StartsWith(rest, " @ ")) {
    std::string_view url = Trim(rest.substr(3));
    if (url.find("://") == std::string_view::npos || url.find(' ') != std::string_view::npos) return false;
    facts.Add(K::kPackage, line, name, WheelVersion(url), extra);
    return true;
  }
  size_t eq = StartsWith(rest, "===") ? 3 : StartsWith(rest, "==") ? 2 : 0;
  std::string_view version = rest.substr(eq);
  if (eq == 0 || version.empty() || version.find_first_of(" \t=") != std::string_view::npos) return false;
  facts.Add(K::kPackage, line, name, version, extra);
  return true;
}

}  // namespace

// pip freeze (and uv pip freeze, pip list --format=freeze): one requirement a line, see
// ReadFreezeLine (a direct reference: https://github.com/horovod/horovod/pull/2019). A block is
// a run of such lines; anything else ends it. extra: "editable" for editable installs.
std::vector<PasteFact> ReadPipFreeze(const PasteText& text) {
  FactList facts(PasteFormat::kPipFreeze);
  bool open = false;
  for (const PasteLine& l : text.lines) {
    std::string_view bare = Bare(l.text);
    if (IsCollectEnvLine(bare) || bare.empty()) {
      open = false;
      continue;
    }
    FactList line_facts(PasteFormat::kPipFreeze);
    if (!ReadFreezeLine(line_facts, l.number, bare)) {
      open = false;
      continue;
    }
    if (!open) facts.Block(l.number);
    open = true;
    for (PasteFact& f : line_facts.Take()) facts.Add(f.kind, f.line, f.name, f.value, f.extra);
  }
  return facts.Take();
}

namespace {

// "# packages in environment at /home/u/miniconda3/envs/torch:" and "# Name  Version  Build  Channel".
bool IsCondaEnvironmentLine(std::string_view bare) { return StartsWith(bare, "# packages in environment at "); }
bool IsCondaColumns(std::string_view bare) {
  std::vector<std::string_view> words = Words(bare);
  return words.size() >= 4 && words[0] == "#" && words[1] == "Name" && words[2] == "Version" &&
         words[3] == "Build";
}

// The command typed before a listing, its header often cut by a filter:
//   "❯ conda list | grep pytorch", "(base) $ mamba list torch"
// (https://github.com/meta-pytorch/data/issues/315): "conda list" or "mamba list" as words.
bool IsCondaCommand(std::string_view bare) {
  for (std::string_view command : {"conda list", "mamba list"}) {
    size_t at = bare.find(command);
    if (at == std::string_view::npos) continue;
    char before = at == 0 ? ' ' : bare[at - 1];
    size_t end = at + command.size();
    if ((before != ' ' && before != '>' && before != '$' && before != '#') || (end < bare.size() && bare[end] != ' ')) {
      continue;
    }
    std::string_view rest = bare.substr(end);
    int arguments = 0;  // words that are no option: a command names one package at most
    for (std::string_view w : Words(rest.substr(0, rest.find('|')))) arguments += w.front() == '-' ? 0 : 1;
    return arguments <= 1;
  }
  return false;
}

}  // namespace

// conda list (mamba list prints the same columns):
//   # packages in environment at /home/seita/miniconda3/envs/seuss:
//   #
//   # Name                    Version                   Build  Channel
//   cudatoolkit               10.2.89              hfd86e86_1
//   ffmpeg                    4.3                  hf484d3e_0    pytorch
//   pytorch                   2.1.0           py3.10_cuda12.1_cudnn8.9.2_0    pytorch
//   torch                     2.1.0                    pypi_0    pypi
// (https://github.com/facebookresearch/pytorch3d/issues/183 and /1538.) extra: the build string,
// then the channel when the row names one ("py3.10_cuda12.1_cudnn8.9.2_0 pytorch"). Rows without
// the header are read only right under the command that printed them (IsCondaCommand).
std::vector<PasteFact> ReadCondaList(const PasteText& text) {
  FactList facts(PasteFormat::kCondaList);
  bool open = false, headed = false;  // headed: the environment line opened this block
  int command = 0;                    // the line of a "conda list" command just above
  for (const PasteLine& l : text.lines) {
    std::string_view bare = Bare(l.text);
    if (IsCondaEnvironmentLine(bare) || (IsCondaColumns(bare) && !headed)) {
      facts.Block(l.number);
      open = true;
      headed = IsCondaEnvironmentLine(bare);
      command = 0;
      continue;
    }
    if (IsCondaCommand(bare)) {  // the rows right under it open a block; prose after it opens none
      open = headed = false;
      command = l.number;
      continue;
    }
    if ((!open && command == 0) || StartsWith(bare, "#")) continue;
    std::vector<std::string_view> words = Words(bare);
    if (words.size() < 3 || words.size() > 4 || !IsName(words[0]) || !IsVersion(words[1])) {
      open = headed = false;
      command = 0;
      continue;
    }
    if (!open) facts.Block(command);
    open = true;
    command = 0;
    std::string extra(words[2]);
    if (words.size() == 4) extra += " " + std::string(words[3]);
    facts.Add(K::kPackage, l.number, words[0], words[1], extra);
  }
  return facts.Take();
}

}  // namespace cudamatch
