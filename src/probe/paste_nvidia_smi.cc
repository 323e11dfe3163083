// nvidia-smi in its four pasted forms: the table, -q, -q -x (XML) and --query-gpu --format=csv.
// Each reader takes only the lines of its own form; names are kept as nvidia-smi shows them (the
// table cuts long ones: "NVIDIA GeForce RTX 3060 ...").

#include <string>
#include <string_view>
#include <vector>

#include "core/text.h"
#include "probe/paste.h"
#include "probe/paste_scan.h"

namespace cudamatch {

namespace {

using K = PasteFactKind;

// The table's header, R384 to R580 and R610+:
//   | NVIDIA-SMI 535.104.05             Driver Version: 535.104.05   CUDA Version: 12.2     |
//   | NVIDIA-SMI 610.43.02              KMD Version: 610.43.02     CUDA UMD Version: 13.3     |
// The header's text is read without its frame too, after other words:
//   "当前环境：NVIDIA-SMI 475.14       Driver Version: 475.14       CUDA Version: 11.4"
// (https://github.com/X-PLUG/MobileAgent/issues/60): "NVIDIA-SMI" then a version number.
bool IsTableHeader(std::string_view bare) {
  constexpr std::string_view kSmi = "NVIDIA-SMI ";
  size_t smi = bare.find(kSmi);
  if (smi == std::string_view::npos || bare.find("Version:", smi) == std::string_view::npos) return false;
  if (StartsWith(bare, "|")) return true;
  size_t digit = smi + kSmi.size();
  return digit < bare.size() && bare[digit] >= '0' && bare[digit] <= '9';
}

// nvidia-smi's own failures, printed instead of the table:
//   NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure ...
//   Failed to initialize NVML: Driver/library version mismatch
//   NVML library version: 580.178     (R535+: the user-space library's version, read as the driver's;
//                                       https://github.com/zzzhouuu/truenas-nvidia-drivers/issues/19)
bool IsFailure(std::string_view bare) {
  return StartsWith(bare, "NVIDIA-SMI has failed") || StartsWith(bare, "Failed to initialize NVML");
}

// The two failures that say what is wrong with the driver; any other is kept as read.
void AddFailure(FactList& facts, int line, std::string_view bare) {
  if (bare.find("communicate with the NVIDIA driver") != std::string_view::npos) {
    facts.Add(K::kDriverFailure, line, "no_driver", bare);
  } else if (bare.find("Driver/library version mismatch") != std::string_view::npos) {
    facts.Add(K::kDriverFailure, line, "version_mismatch", bare);
  } else {
    facts.Add(K::kUnparsed, line, "", bare);
  }
}

void ReadHeader(FactList& facts, int line, std::string_view bare) {
  if (auto v = After(bare, "Driver Version:"); !v.empty()) facts.Add(K::kDriverVersion, line, "", v);
  if (auto v = After(bare, "KMD Version:"); !v.empty()) facts.Add(K::kKernelModule, line, "", v);
  if (auto v = After(bare, "CUDA Version:"); !v.empty()) facts.Add(K::kDriverCuda, line, "", v);
  if (auto v = After(bare, "CUDA UMD Version:"); !v.empty()) facts.Add(K::kDriverCuda, line, "", v);
}

// "|   0  NVIDIA GeForce ...  On   | 00000000:41:00.0 Off |   N/A |" -> the three cells.
std::vector<std::string_view> Cells(std::string_view bare) {
  if (StartsWith(bare, "|")) bare.remove_prefix(1);
  if (EndsWith(bare, "|")) bare.remove_suffix(1);
  return Split(bare, '|');
}

// The first cell of a GPU row without its index and its Persistence-M or TCC/WDDM column:
//   "   0  NVIDIA GeForce RTX 3050 ...  WDDM  " -> "NVIDIA GeForce RTX 3050 ..."
std::string_view RowName(std::string_view rest) {
  rest = Trim(rest);
  size_t space = rest.find_last_of(' ');
  if (space == std::string_view::npos) return rest;
  std::string_view last = rest.substr(space + 1);
  for (std::string_view mode : {"On", "Off", "WDDM", "TCC", "MCDM", "N/A"}) {
    if (last == mode) return Trim(rest.substr(0, space));
  }
  return rest;
}

// A GPU row: "|   0  TITAN Xp            On   | 00000000:17:00.0 Off |                  N/A |".
// A paste cut after the Bus-Id cell ("|   0  NVIDIA GeForce 940MX   WDDM  |   00000000:01:00.0 Off")
// still names the GPU: the cell is whole when its Disp.A word follows the bus id.
bool ReadGpuRow(FactList& facts, int line, const std::vector<std::string_view>& cells,
                std::string& index) {
  if (cells.size() < 2) return false;
  std::vector<std::string_view> bus = Words(cells[1]);
  if (bus.empty() || !IsBusId(bus[0]) || (cells.size() == 2 && bus.size() < 2)) return false;
  std::string_view first = Trim(cells[0]);
  size_t digits = 0;
  while (digits < first.size() && first[digits] >= '0' && first[digits] <= '9') ++digits;
  if (digits == 0 || digits > 4 || digits == first.size() || first[digits] != ' ') return false;
  index = std::string(first.substr(0, digits));
  std::string_view name = RowName(first.substr(digits));
  if (!name.empty()) facts.Add(K::kGpu, line, index, name);
  facts.Add(K::kGpuBusId, line, index, bus[0]);
  return true;
}

// The row under it: "| 23%   39C    P8     9W / 250W |      7MiB / 12196MiB |      0%      Default |".
void ReadMemoryRow(FactList& facts, int line, const std::vector<std::string_view>& cells,
                   std::string& index) {
  if (index.empty() || cells.size() < 3) return;
  std::string_view memory = cells[1];
  size_t slash = memory.find('/');
  if (slash == std::string_view::npos || MibValue(memory.substr(0, slash)).empty()) return;
  std::string total = MibValue(memory.substr(slash + 1));
  if (total.empty()) return;
  facts.Add(K::kGpuMemoryMib, line, index, total);
  index.clear();  // one memory row per GPU row
}

// Where a table block ends: a blank line, a fence, text that is not the table, the processes
// or MIG tables (their rows look like GPU rows).
bool EndsTable(std::string_view bare) {
  return bare.empty() || (bare.front() != '|' && bare.front() != '+') ||
         bare.find("Processes:") != std::string_view::npos ||
         bare.find("MIG devices:") != std::string_view::npos;
}

// " : " of -q: "Driver Version                            : 450.66".
bool KeyValue(std::string_view bare, std::string_view& key, std::string_view& value) {
  size_t colon = bare.find(" :");
  if (colon == std::string_view::npos) return false;
  key = Trim(bare.substr(0, colon));
  value = Trim(bare.substr(colon + 2));
  return !key.empty();
}

// A -q version value without what R610+ may add after it: "13.3 [Deprecated; ...]" -> "13.3".
std::string_view FirstWord(std::string_view value) {
  std::vector<std::string_view> words = Words(value);
  if (words.empty() || StartsWith(words[0], "[")) return "";
  return words[0];
}

struct QState {
  bool open = false;
  size_t base = 0;     // the indentation of the "NVSMI LOG" line
  int ordinal = -1;    // the GPU section being read (-q prints no index: its order)
  std::string section;  // the last heading line ("FB Memory Usage")
};

void ReadQTopLevel(FactList& facts, int line, std::string_view bare, QState& st) {
  std::string_view key, value;
  if (StartsWith(bare, "GPU ") && IsBusId(Trim(bare.substr(4)))) {
    ++st.ordinal;
    st.section.clear();
    facts.Add(K::kGpuBusId, line, std::to_string(st.ordinal), Trim(bare.substr(4)));
  } else if (KeyValue(bare, key, value)) {
    std::string_view v = FirstWord(value);
    if (v.empty()) return;
    if (key == "Driver Version") facts.Add(K::kDriverVersion, line, "", v);
    if (key == "KMD Version") facts.Add(K::kKernelModule, line, "", v);
    if (key == "CUDA Version" || key == "CUDA UMD Version") facts.Add(K::kDriverCuda, line, "", v);
  } else {
    st.open = false;  // not -q's top level: the block is over
  }
}

void ReadQIndented(FactList& facts, int line, std::string_view bare, QState& st) {
  std::string_view key, value;
  if (!KeyValue(bare, key, value)) {
    st.section = std::string(bare);
    return;
  }
  if (st.ordinal < 0 || value.empty()) return;
  std::string gpu = std::to_string(st.ordinal);
  if (key == "Product Name") facts.Add(K::kGpu, line, gpu, value);
  if (key == "Total" && st.section == "FB Memory Usage") {
    if (std::string mib = MibValue(value); !mib.empty()) facts.Add(K::kGpuMemoryMib, line, gpu, mib);
  }
}

// The rows of a table that a Windows console squashed onto one line, each row padded with blanks
// to the console's width (https://github.com/visomaster/VisoMaster/issues/11):
//   "C:\Users\zackc>nvidia-smi      ...   +-----...-----+                 | NVIDIA-SMI 572.16 ..."
// The width is where the row after the first border starts; every piece from the border on must
// start a row ("|" or "+"), or the line is one line as it stands.
std::vector<std::string_view> TableRows(std::string_view bare) {
  size_t border = bare.find("+-");
  if (border == std::string_view::npos || bare.size() < 200) return {bare};
  size_t end = bare.find(' ', border);
  size_t next = end == std::string_view::npos ? end : bare.find_first_not_of(' ', end);
  if (next == std::string_view::npos || next - end < 2) return {bare};
  size_t width = next - border;
  std::vector<std::string_view> rows;
  for (size_t at = border; at < bare.size(); at += width) {
    std::string_view row = Trim(bare.substr(at, width));
    if (row.empty()) break;
    if (row.front() != '|' && row.front() != '+') break;
    rows.push_back(row);
  }
  if (rows.size() < 3) return {bare};
  return rows;
}

// One row of the table (or a line around it): the header opens a block, its end closes it.
void TableLine(FactList& facts, int number, std::string_view bare, bool& open, std::string& index) {
  if (IsTableHeader(bare)) {
    facts.Block(number);
    ReadHeader(facts, number, bare);
    open = true;
    index.clear();
  } else if (IsFailure(bare)) {
    facts.Block(number);
    AddFailure(facts, number, bare);
    open = false;
  } else if (facts.Started() && StartsWith(bare, "NVML library version:")) {  // after the mismatch
    std::string_view v = Trim(bare.substr(bare.find(':') + 1));
    if (!v.empty()) facts.Add(K::kDriverVersion, number, "", v);
  } else if (open && EndsTable(bare)) {
    open = false;
  } else if (open) {
    std::vector<std::string_view> cells = Cells(bare);
    if (!ReadGpuRow(facts, number, cells, index)) ReadMemoryRow(facts, number, cells, index);
  }
}

}  // namespace

// nvidia-smi (R384 to R580; Windows prints "TCC/WDDM" where Linux prints "Persistence-M"):
//   +-----------------------------------------------------------------------------------------+
//   | NVIDIA-SMI 550.40.07              Driver Version: 550.40.07      CUDA Version: 12.4     |
//   |-----------------------------------------+------------------------+----------------------+
//   | GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
//   | Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
//   |=========================================+========================+======================|
//   |   0  NVIDIA GeForce RTX 4070        Off |   00000000:2D:00.0  On |                  N/A |
//   |  0%   36C    P5             17W /  200W |     430MiB /  12282MiB |      1%      Default |
// R610+ says "KMD Version: 610.43.02     CUDA UMD Version: 13.3" in the header (NVIDIA renamed
// both: https://docs.nvidia.com/deploy/nvidia-smi/index.html; a capture:
// https://github.com/sgl-project/sglang/issues/27487). Sample above from
// https://github.com/Frogging-Family/nvidia-all/pull/212; tests/unit/paste_readers_test.cc has
// R331 to R610 from public threads.
std::vector<PasteFact> ReadNvidiaSmi(const PasteText& text) {
  FactList facts(PasteFormat::kNvidiaSmi);
  bool open = false;
  std::string index;  // the GPU row whose memory row comes next
  for (const PasteLine& l : text.lines) {
    for (std::string_view bare : TableRows(Bare(l.text))) TableLine(facts, l.number, bare, open, index);
  }
  return facts.Take();
}

// nvidia-smi -q (sections indented under each "GPU <bus id>" line):
//   ==============NVSMI LOG==============
//   Timestamp                                 : Sat Oct 10 17:02:53 2020
//   Driver Version                            : 450.66
//   CUDA Version                              : 11.0
//   Attached GPUs                             : 1
//   GPU 00000000:01:00.0
//       Product Name                          : GeForce GTX 780
//       FB Memory Usage
//           Total                             : 3018 MiB
// (https://github.com/MatthiasSchinzel/sysmon/issues/12; FB Memory Usage as in
// https://github.com/terminatorul/NvStrapsReBar/issues/89.) R610+ adds "KMD Version" and
// "CUDA UMD Version" and may follow the old values with "[Deprecated; ...]".
std::vector<PasteFact> ReadNvidiaSmiQ(const PasteText& text) {
  FactList facts(PasteFormat::kNvidiaSmiQ);
  QState st;
  for (const PasteLine& l : text.lines) {
    std::string_view peeled = PeelQuotes(l.text);
    std::string_view bare = Trim(peeled);
    if (StartsWith(bare, "=====") && bare.find("NVSMI LOG") != std::string_view::npos) {
      facts.Block(l.number);
      st = QState{true, Indent(peeled), -1, ""};
    } else if (!st.open || bare.empty()) {
      continue;
    } else if (IsFence(bare)) {
      st.open = false;
    } else if (Indent(peeled) <= st.base) {
      ReadQTopLevel(facts, l.number, bare, st);
    } else {
      ReadQIndented(facts, l.number, bare, st);
    }
  }
  return facts.Take();
}

namespace {

// One tag of a line and the text after it up to the next '<'.
struct Tag {
  std::string_view name;
  bool closing = false;
  std::string_view attributes;
  std::string_view text;
};

// "<gpu id=\"00000000:01:00.0\">" and "<total>24576 MiB</total>": a tolerant scan, no XML
// library (nvidia-smi writes one element per line, without entities in these values).
std::vector<Tag> Tags(std::string_view line) {
  std::vector<Tag> tags;
  size_t pos = 0;
  while ((pos = line.find('<', pos)) != std::string_view::npos) {
    size_t end = line.find('>', pos);
    if (end == std::string_view::npos) break;
    std::string_view inner = line.substr(pos + 1, end - pos - 1);
    Tag t;
    t.closing = StartsWith(inner, "/");
    if (t.closing) inner.remove_prefix(1);
    size_t name_end = inner.find_first_of(" \t/");
    t.name = inner.substr(0, name_end);
    if (name_end != std::string_view::npos) t.attributes = inner.substr(name_end);
    size_t next = line.find('<', end + 1);
    t.text = Trim(line.substr(end + 1, next == std::string_view::npos ? next : next - end - 1));
    tags.push_back(t);
    pos = end + 1;
  }
  return tags;
}

// id="00000000:01:00.0" -> 00000000:01:00.0
std::string_view Attribute(std::string_view attributes, std::string_view name) {
  std::string key = std::string(name) + "=\"";
  size_t at = attributes.find(key);
  if (at == std::string_view::npos) return "";
  std::string_view rest = attributes.substr(at + key.size());
  return rest.substr(0, rest.find('"'));
}

struct XmlState {
  bool open = false;
  bool in_fb = false;  // inside <fb_memory_usage>
  int ordinal = -1;
};

void ReadXmlTag(FactList& facts, int line, const Tag& t, XmlState& st) {
  if (t.name == "fb_memory_usage") {
    st.in_fb = !t.closing;
    return;
  }
  if (t.closing) return;
  if (t.name == "gpu") {
    ++st.ordinal;
    std::string_view id = Attribute(t.attributes, "id");
    if (IsBusId(id)) facts.Add(K::kGpuBusId, line, std::to_string(st.ordinal), id);
    return;
  }
  if (t.text.empty()) return;
  std::string gpu = std::to_string(st.ordinal);
  if (t.name == "driver_version") {
    facts.Add(K::kDriverVersion, line, "", t.text);
  } else if (t.name == "cuda_version") {
    facts.Add(K::kDriverCuda, line, "", t.text);
  } else if (st.ordinal >= 0 && t.name == "product_name") {
    facts.Add(K::kGpu, line, gpu, t.text);
  } else if (st.ordinal >= 0 && st.in_fb && t.name == "total") {
    if (std::string mib = MibValue(t.text); !mib.empty()) facts.Add(K::kGpuMemoryMib, line, gpu, mib);
  }
}

}  // namespace

// nvidia-smi -q -x:
//   <?xml version="1.0" ?>
//   <!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v12.dtd">
//   <nvidia_smi_log>
//       <driver_version>535.54.03</driver_version>
//       <cuda_version>12.2</cuda_version>
//       <gpu id="00000000:01:00.0">
//           <product_name>NVIDIA A100-SXM4-80GB</product_name>
//           <fb_memory_usage>
//               <total>81920 MiB</total>
// (https://github.com/influxdata/telegraf/issues/5812; R390 has no <cuda_version>.)
std::vector<PasteFact> ReadNvidiaSmiXml(const PasteText& text) {
  FactList facts(PasteFormat::kNvidiaSmiXml);
  XmlState st;
  for (const PasteLine& l : text.lines) {
    std::string_view bare = Bare(l.text);
    if (st.open && IsFence(bare)) st = XmlState{};
    if (bare.find('<') == std::string_view::npos) continue;
    for (const Tag& t : Tags(bare)) {
      if (t.name == "nvidia_smi_log") {
        if (!t.closing) facts.Block(l.number);
        st = XmlState{!t.closing, false, -1};
      } else if (st.open) {
        ReadXmlTag(facts, l.number, t, st);
      }
    }
  }
  return facts.Take();
}

namespace {

// The --query-gpu fields a reader takes, and what each row's value of it is.
enum class CsvField { kOther, kIndex, kName, kDriver, kCc, kMemory, kBusId };

// "memory.total [MiB]" -> kMemory; the unit in brackets is dropped.
CsvField FieldOf(std::string_view header) {
  std::string_view name = Trim(header.substr(0, header.find(" [")));
  if (name == "index") return CsvField::kIndex;
  if (name == "name" || name == "gpu_name") return CsvField::kName;
  if (name == "driver_version") return CsvField::kDriver;
  if (name == "compute_cap") return CsvField::kCc;
  if (name == "memory.total") return CsvField::kMemory;
  if (name == "pci.bus_id" || name == "gpu_bus_id") return CsvField::kBusId;
  return CsvField::kOther;
}

// A query field as the header prints it: lowercase, digits, '_' and '.', an optional " [unit]".
bool IsFieldName(std::string_view f) {
  std::string_view name = f.substr(0, f.find(" ["));
  if (name.empty() || name.front() < 'a' || name.front() > 'z') return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
    if (!ok) return false;
  }
  return name.size() == f.size() || EndsWith(f, "]");
}

// "name, driver_version, compute_cap, memory.total [MiB]": the fields, or empty when the line is
// not a header; a header names at least one field only nvidia-smi has (a bare "name" is not one).
std::vector<CsvField> CsvHeader(std::string_view bare) {
  std::vector<CsvField> fields;
  bool distinct = false;
  for (std::string_view f : Split(bare, ',')) {
    f = Trim(f);
    if (!IsFieldName(f)) return {};
    CsvField field = FieldOf(f);
    distinct = distinct || (field != CsvField::kOther && field != CsvField::kIndex && field != CsvField::kName);
    fields.push_back(field);
  }
  if (!distinct) return {};
  return fields;
}

// The command, when it asks for no header, names the fields of the rows under it:
//   "nvidia-smi --query-gpu=memory.total,memory.used --format=csv,nounits,noheader"
// (https://github.com/Megvii-BaseDetection/YOLOX/issues/1429).
std::vector<CsvField> CommandFields(std::string_view bare) {
  constexpr std::string_view kQuery = "--query-gpu=";
  size_t query = bare.find(kQuery);
  if (query == std::string_view::npos || bare.find("nvidia-smi") > query ||
      bare.find("noheader") == std::string_view::npos) {
    return {};
  }
  std::string_view list = bare.substr(query + kQuery.size());
  return CsvHeader(list.substr(0, list.find(' ')));
}

void ReadCsvRow(FactList& facts, int line, const std::vector<CsvField>& fields,
                const std::vector<std::string_view>& values, int ordinal, std::string& driver) {
  std::string index = std::to_string(ordinal);
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i] == CsvField::kIndex) index = std::string(Trim(values[i]));
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    std::string_view v = Trim(values[i]);
    if (v.empty() || StartsWith(v, "[")) continue;  // "[N/A]", "[Not Supported]": no value
    switch (fields[i]) {
      case CsvField::kName: facts.Add(K::kGpu, line, index, v); break;
      case CsvField::kCc: facts.Add(K::kGpuCc, line, index, v); break;
      case CsvField::kBusId: facts.Add(K::kGpuBusId, line, index, v); break;
      case CsvField::kMemory: {
        std::string mib = MibValue(v);
        facts.Add(K::kGpuMemoryMib, line, index, mib.empty() ? std::string(v) : mib);
        break;
      }
      case CsvField::kDriver:
        if (v != driver) facts.Add(K::kDriverVersion, line, "", v);  // once per block and value
        driver = std::string(v);
        break;
      default: break;
    }
  }
}

}  // namespace

// nvidia-smi --query-gpu=... --format=csv (the fields in the order asked, any subset):
//   compute_cap, compute_mode, driver_version, name, index
//   7.0, Default, 570.86.15, NVIDIA TITAN V, 0
//   8.9, Default, 570.86.15, NVIDIA RTX 5880 Ada Generation, 1
// (https://github.com/triton-inference-server/server/pull/8070). "memory.total [MiB]" rows read
// "24576 MiB" ("24576" with nounits). Without its header (noheader) a row is recognised only under
// the command that asked for it.
std::vector<PasteFact> ReadNvidiaSmiCsv(const PasteText& text) {
  FactList facts(PasteFormat::kNvidiaSmiCsv);
  std::vector<CsvField> fields;
  int ordinal = 0;
  std::string driver;
  for (const PasteLine& l : text.lines) {
    std::string_view bare = Bare(l.text);
    if (!fields.empty()) {
      std::vector<std::string_view> values = Split(bare, ',');
      if (values.size() == fields.size() && !bare.empty()) {
        ReadCsvRow(facts, l.number, fields, values, ordinal++, driver);
        continue;
      }
      fields.clear();
    }
    if (bare.find(',') == std::string_view::npos && bare.find('_') == std::string_view::npos) continue;
    fields = CsvHeader(bare);
    if (fields.empty()) fields = CommandFields(bare);
    if (!fields.empty()) {
      facts.Block(l.number);
      ordinal = 0;
      driver.clear();
    }
  }
  return facts.Take();
}

}  // namespace cudamatch
