// Single-fact tools as pasted: nvcc --version, /proc/driver/nvidia/version, /etc/nv_tegra_release,
// and cudamatch's own doctor --json. Their lines are read by the probes' own parsers
// (probe/parsers.h, probe/jetson.h), so a paste and a live machine read them alike.

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/text.h"
#include "probe/jetson.h"
#include "probe/parsers.h"
#include "probe/paste.h"
#include "probe/paste_scan.h"

namespace cudamatch {

namespace {

using K = PasteFactKind;

// "Cuda compilation tools, release 12.1, V12.1.105" -> "12.1.105"; "release 9.0, V9.0.176" too;
// "release 12.1" alone -> "12.1".
std::string_view NvccRelease(std::string_view bare) {
  std::string_view rest = Trim(bare.substr(bare.find("release ") + 8));
  size_t comma = rest.find(',');
  std::string_view release = Trim(rest.substr(0, comma));
  if (comma != std::string_view::npos) {
    std::string_view v = Trim(rest.substr(comma + 1));
    std::vector<std::string_view> words = Words(v);
    if (!words.empty() && words[0].size() > 1 && words[0].front() == 'V') return words[0].substr(1);
  }
  return release;
}

}  // namespace

// nvcc --version (CUDA 9 to 13; the "Build" line came with 11.0):
//   nvcc: NVIDIA (R) Cuda compiler driver
//   Copyright (c) 2005-2020 NVIDIA Corporation
//   Built on Mon_Oct_12_20:09:46_PDT_2020
//   Cuda compilation tools, release 11.1, V11.1.105
//   Build cuda_11.1.TC455_06.29190527_0
// (https://github.com/pytorch/builder/pull/580). A release line without the header (the paste
// cut it) starts a block of its own.
std::vector<PasteFact> ReadNvcc(const PasteText& text) {
  FactList facts(PasteFormat::kNvcc);
  bool open = false;  // a header line whose release line has not come yet
  for (const PasteLine& l : text.lines) {
    std::string_view bare = Bare(l.text);
    if (StartsWith(bare, "nvcc: NVIDIA (R) Cuda compiler driver")) {
      facts.Block(l.number);
      open = true;
    } else if (StartsWith(bare, "Cuda compilation tools, release ")) {
      if (!open) facts.Block(l.number);
      std::string_view v = NvccRelease(bare);
      if (v.empty()) {
        facts.Add(K::kUnparsed, l.number, "", bare);
      } else {
        facts.Add(K::kToolkit, l.number, "", v);
      }
      open = false;
    }
  }
  return facts.Take();
}

// cat /proc/driver/nvidia/version (ParseProcDriverVersion reads the line):
//   NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023
//   NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.14  Release Build  (dvs-builder@U16-I3-B03-4-3)  Thu Feb 22 01:25:25 UTC 2024
//   NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  540.4.0  Release Build  (buildbrain@mobile-u64-6336-d8000)  Thu Aug 29 20:31:31 PDT 2024
//   GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)
// (https://github.com/nix-community/nixGL/issues/186). Jetson's L4T 35 writes its L4T release
// there ("... for aarch64  35.3.1  Release Build ...", https://github.com/nix-community/nixGL/issues/139),
// no driver version: the line is kept as kUnparsed.
std::vector<PasteFact> ReadProcDriver(const PasteText& text) {
  FactList facts(PasteFormat::kProcDriver);
  for (const PasteLine& l : text.lines) {
    std::string_view bare = Bare(l.text);
    if (!StartsWith(bare, "NVRM version:")) continue;
    facts.Block(l.number);
    if (auto v = ParseProcDriverVersion(bare)) {
      facts.Add(K::kKernelModule, l.number, v->open ? "open" : "proprietary", v->version.ToString());
    } else {
      facts.Add(K::kUnparsed, l.number, "", bare);
    }
  }
  return facts.Take();
}

// cat /etc/nv_tegra_release (ParseNvTegraRelease reads the line):
//   # R35 (release), REVISION: 4.1, GCID: 33958178, BOARD: t186ref, EABI: aarch64, DATE: Tue Aug  1 19:57:35 UTC 2023
//   # R36 (release), REVISION: 3.0, GCID: 36191598, BOARD: generic, EABI: aarch64, DATE: Mon Jul  1 23:25:14 UTC 2024
// (https://github.com/rt-net/JetsonNano_DT_SPI/issues/9). BOARD is the board configuration the
// release was built for, kept as kJetsonModel. Notes that comment the output out once more read
//   # # R32 (release), REVISION: 5.1, GCID: 26202423, BOARD: t186ref, EABI: aarch64, DATE: Fri Feb 19 16:50:29 UTC 2021
// (https://github.com/pokusew/ros-setup/blob/c758d6f5f7cb863958071fd6920a37d54e8ea950/nvidia-jetson-tx2/L4T.md).
std::vector<PasteFact> ReadTegraRelease(const PasteText& text) {
  FactList facts(PasteFormat::kTegraRelease);
  for (const PasteLine& l : text.lines) {
    std::string_view bare = Bare(l.text);
    while (StartsWith(bare, "# #")) bare = Trim(bare.substr(1));  // the line commented out again
    if (!StartsWith(bare, "# R") || bare.find("REVISION:") == std::string_view::npos) continue;
    facts.Block(l.number);
    if (auto l4t = ParseNvTegraRelease(bare)) {
      facts.Add(K::kL4t, l.number, "", *l4t);
    } else {
      facts.Add(K::kUnparsed, l.number, "", bare);
    }
    std::string_view board = After(bare, "BOARD:");
    board = Trim(board.substr(0, board.find(',')));
    if (!board.empty()) facts.Add(K::kJetsonModel, l.number, "", board);
  }
  return facts.Take();
}

namespace {

// Where a JSON object that starts on line `first` closes: the index of its last line, or
// text.lines.size() when it never closes. Braces inside strings do not count.
size_t ObjectEnd(const PasteText& text, size_t first, std::string& body) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (size_t i = first; i < text.lines.size(); ++i) {
    std::string_view line = PeelQuotes(text.lines[i].text);
    body.append(line).push_back('\n');
    for (char c : line) {
      if (escaped) {
        escaped = false;
      } else if (in_string) {
        escaped = c == '\\';
        in_string = c != '"';
      } else if (c == '"') {
        in_string = true;
      } else if (c == '{') {
        ++depth;
      } else if (c == '}' && --depth == 0) {
        return i;
      }
    }
    if (body.size() > kPasteMaxBytes) break;
  }
  return text.lines.size();
}

// The facts of one doctor --json object, each on the line of its value when found there.
class JsonFacts {
 public:
  JsonFacts(const PasteText& text, size_t first, size_t last, FactList& facts)
      : text_(text), first_(first), last_(last), cursor_(first), facts_(facts) {}

  void Add(PasteFactKind kind, const nlohmann::json& value, std::string_view name = "",
           std::string_view extra = "") {
    std::string v = value.is_string() ? value.get<std::string>()
                    : value.is_number() || value.is_boolean() ? value.dump() : "";
    if (v.empty()) return;
    facts_.Add(kind, LineOf(value.is_string() ? "\"" + v + "\"" : v), name, v, extra);
  }
  // A value doctor --json does not write as such (MiB from bytes, "true"): the line of `needle`.
  void AddAt(PasteFactKind kind, std::string_view value, const std::string& needle,
             std::string_view name = "") {
    facts_.Add(kind, LineOf(needle), name, value);
  }

 private:
  // The first line from the cursor on that holds the needle (the values come in the order
  // doctor --json writes them), else the object's first line.
  int LineOf(const std::string& needle) {
    for (size_t i = cursor_; i <= last_ && i < text_.lines.size(); ++i) {
      if (text_.lines[i].text.find(needle) != std::string::npos) {
        cursor_ = i;
        return text_.lines[i].number;
      }
    }
    return text_.lines[first_].number;
  }

  const PasteText& text_;
  size_t first_, last_, cursor_;
  FactList& facts_;
};

const nlohmann::json& Field(const nlohmann::json& j, const char* key) {
  static const nlohmann::json kNull;
  if (!j.is_object()) return kNull;
  auto it = j.find(key);
  return it == j.end() ? kNull : *it;
}

const nlohmann::json& Items(const nlohmann::json& j, const char* key) {
  static const nlohmann::json kEmpty = nlohmann::json::array();
  const nlohmann::json& v = Field(j, key);
  return v.is_array() ? v : kEmpty;
}

void DriverFacts(const nlohmann::json& d, JsonFacts& out) {
  out.Add(K::kDriverVersion, Field(d, "version"));
  // A driver CUDA the catalog filled in from the branch is not what the machine said.
  const nlohmann::json& source = Field(d, "cuda_source");
  if (!(source.is_string() && StartsWith(source.get<std::string>(), "catalog"))) {
    out.Add(K::kDriverCuda, Field(d, "cuda"));
  }
  const nlohmann::json& flavor = Field(d, "kernel_flavor");
  out.Add(K::kKernelModule, Field(d, "kernel_version"), flavor.is_string() ? flavor.get<std::string>() : "");
  if (Field(d, "wsl") == true) out.AddAt(K::kWsl, "doctor --json driver.wsl", "\"wsl\": true");
}

void GpuFacts(const nlohmann::json& gpus, JsonFacts& out) {
  for (const nlohmann::json& g : gpus) {
    const nlohmann::json& index = Field(g, "index");
    if (!index.is_number_unsigned()) continue;
    std::string i = index.dump();
    out.Add(K::kGpu, Field(g, "name"), i);
    out.Add(K::kGpuCc, Field(g, "compute_capability"), i);
    const nlohmann::json& bytes = Field(g, "memory_bytes");
    if (bytes.is_number_unsigned()) {
      out.AddAt(K::kGpuMemoryMib, std::to_string(bytes.get<uint64_t>() / (1024 * 1024)), bytes.dump(), i);
    }
    out.Add(K::kGpuBusId, Field(g, "pci_bus_id"), i);
  }
}

// The active Python environment (else the first), its version and its packages.
void PythonFacts(const nlohmann::json& pythons, JsonFacts& out) {
  const nlohmann::json* chosen = nullptr;
  for (const nlohmann::json& p : pythons) {
    if (!chosen || Field(p, "active") == true) chosen = &p;
    if (Field(p, "active") == true) break;
  }
  if (!chosen) return;
  out.Add(K::kPythonVersion, Field(*chosen, "version"));
  const nlohmann::json& packages = Field(*chosen, "packages");
  if (!packages.is_object()) return;
  for (const auto& [name, p] : packages.items()) {
    out.Add(K::kPackage, Field(p, "version"), name);
    if (name != "torch") continue;
    out.Add(K::kTorchVersion, Field(p, "version"));
    out.Add(K::kTorchCuda, Field(p, "cuda"));
    out.Add(K::kTorchHip, Field(p, "hip"));
  }
}

void DoctorFacts(const nlohmann::json& j, JsonFacts& out) {
  DriverFacts(Field(j, "driver"), out);
  GpuFacts(Items(j, "gpus"), out);
  for (const nlohmann::json& t : Items(j, "toolkits")) {
    const nlohmann::json& path = Field(t, "path");
    out.Add(K::kToolkit, Field(t, "version"), path.is_string() ? path.get<std::string>() : "");
  }
  for (const nlohmann::json& c : Items(j, "cudnn")) out.Add(K::kCudnn, Field(c, "version"));
  PythonFacts(Items(j, "pythons"), out);
  const nlohmann::json& host = Field(j, "host");
  out.Add(K::kOs, Field(host, "os"));
  out.Add(K::kArch, Field(host, "arch"));
  out.Add(K::kGlibc, Field(host, "glibc"));
}

}  // namespace

// cudamatch doctor --json (schema_version 2; docs/json.md has the fields):
//   {
//     "schema_version": 2,
//     "kind": "doctor",
//     "driver": {"version": "550.54.14", "cuda": "12.4", "kernel_version": "550.54.14", ...},
//     "gpus": [{"index": 0, "name": "NVIDIA A100-SXM4-80GB", "compute_capability": "8.0", ...}],
//     "pythons": [{"version": "3.10", "active": true, "packages": {"torch": {"version": ...}}}],
//     "host": {"os": "Ubuntu 22.04.5 LTS", "arch": "x86_64", ...}
//   }
// The object is found by its braces (it may sit among other pastes) and read by nlohmann-json.
std::vector<PasteFact> ReadDoctorJson(const PasteText& text) {
  FactList facts(PasteFormat::kDoctorJson);
  int unclosed = 0;  // objects that never close: a few are tried past, not every line of a long paste
  for (size_t i = 0; i < text.lines.size(); ++i) {
    if (!StartsWith(Bare(text.lines[i].text), "{")) continue;
    std::string body;
    size_t last = ObjectEnd(text, i, body);
    if (last >= text.lines.size()) {
      if (++unclosed > 8) break;
      continue;
    }
    auto j = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (j.is_object() && j.contains("schema_version") && Field(j, "kind") == "doctor") {
      facts.Block(text.lines[i].number);
      JsonFacts out(text, i, last, facts);
      DoctorFacts(j, out);
    }
    i = last;
  }
  std::vector<PasteFact> all = facts.Take();
  std::stable_sort(all.begin(), all.end(), [](const PasteFact& a, const PasteFact& b) {
    return a.line < b.line;
  });
  return all;
}

}  // namespace cudamatch
