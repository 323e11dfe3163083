// ReadCollectEnv: `python -m torch.utils.collect_env` (torch/utils/collect_env.py), every layout
// since 2019. A real sample of each age (https://github.com/pytorch/pytorch/issues/39133, 2020,
// Windows; https://github.com/pytorch/pytorch/issues/46973, 2020; #137846, 2024):
//   Collecting environment information...
//   PyTorch version: 1.5.0+cu101               (later: 2.8.0.dev20250528+cpu)
//   Is debug build: No                         (later: False)
//   CUDA used to build PyTorch: 10.1           (N/A, None: a CPU build)
//   ROCM used to build PyTorch: N/A            (since 1.7)
//   OS: Ubuntu 18.04.5 LTS (x86_64)            (Microsoft Windows 11 Enterprise (10.0.22631 64-bit))
//   GCC version: (Ubuntu 7.5.0-3ubuntu1~18.04) 7.5.0
//   Libc version: glibc-2.31                   (since 1.10; N/A on Windows)
//   Python version: 3.7                        (later: 3.10.17 | packaged by conda-forge | (main, ...) [MSC v.1943 64 bit (AMD64)] (64-bit runtime))
//   Python platform: Linux-5.13.0-52-generic-x86_64-with-glibc2.29   (since 1.10)
//   Is CUDA available: Yes                     (later: True)
//   CUDA runtime version: 10.1.243             (Could not collect, No CUDA)
//   CUDA_MODULE_LOADING set to: LAZY           (since 1.13)
//   GPU models and configuration: GPU 0: Quadro P1000
//     or "GPU models and configuration: " followed by "GPU 0: ..." lines, one per GPU
//   Nvidia driver version: 426.25
//   cuDNN version: /usr/lib/x86_64-linux-gnu/libcudnn.so.7.6.5
//     or "cuDNN version: Probably one of the following:" followed by one path per line
//   HIP runtime version: N/A
//   CPU: ... (lscpu, or the Windows CPU table: "Architecture: x86_64")
//   Versions of relevant libraries:
//   [pip3] torch==1.7.0a0+a9603c7
//   [conda] pytorch                   1.1.0    py3.7_cuda10.0.130_cudnn7.5.1_0    pytorch
// "Could not collect", "N/A" and "No CUDA" are no value: such a line gives no fact, except "CUDA used
// to build PyTorch", where each means torch.version.cuda is None (a build without CUDA).

#include <array>
#include <utility>

#include "core/text.h"
#include "probe/paste.h"

namespace cudamatch {

namespace {

enum class Key {
  kNone,
  kFact,       // the value is one fact of the row's kind
  kGpuModels,  // "GPU models and configuration": a value, or GPU lines after it
  kCudnn,      // "cuDNN version": a value, or path lines after "Probably one of the following:"
  kLibraries,  // "Versions of relevant libraries": [pip3]/[conda] lines after it
};

struct KeyRow {
  std::string_view key;
  Key what;
  PasteFactKind kind;
};

constexpr std::array<KeyRow, 19> kKeys = {{
    {"PyTorch version", Key::kFact, PasteFactKind::kTorchVersion},
    {"Is debug build", Key::kFact, PasteFactKind::kTorchDebug},
    {"CUDA used to build PyTorch", Key::kFact, PasteFactKind::kTorchCuda},
    {"ROCM used to build PyTorch", Key::kFact, PasteFactKind::kTorchHip},
    {"OS", Key::kFact, PasteFactKind::kOs},
    {"GCC version", Key::kFact, PasteFactKind::kGcc},
    {"Libc version", Key::kFact, PasteFactKind::kGlibc},
    {"Python version", Key::kFact, PasteFactKind::kPythonVersion},
    {"Python platform", Key::kFact, PasteFactKind::kPythonPlatform},
    {"Is CUDA available", Key::kFact, PasteFactKind::kCudaAvailable},
    {"CUDA runtime version", Key::kFact, PasteFactKind::kToolkit},
    {"CUDA_MODULE_LOADING set to", Key::kFact, PasteFactKind::kCudaModuleLoading},
    {"Nvidia driver version", Key::kFact, PasteFactKind::kDriverVersion},
    {"Architecture", Key::kFact, PasteFactKind::kArch},
    {"GPU models and configuration", Key::kGpuModels, PasteFactKind::kGpu},
    {"cuDNN version", Key::kCudnn, PasteFactKind::kCudnn},
    {"Versions of relevant libraries", Key::kLibraries, PasteFactKind::kPackage},
    {"Version of relevant libraries", Key::kLibraries, PasteFactKind::kPackage},  // 1.5's wording
    {"", Key::kNone, PasteFactKind::kUnparsed},
}};

constexpr std::string_view kFullWidthColon = "\xEF\xBC\x9A";  // U+FF1A, in pastes of Chinese systems

// "Key: value" (or "Key：value"): the key and the trimmed value; nullopt without a colon.
std::optional<std::pair<std::string_view, std::string_view>> SplitKey(std::string_view line) {
  size_t colon = line.find(':');
  size_t wide = line.find(kFullWidthColon);
  size_t width = 1;
  if (wide != std::string_view::npos && (colon == std::string_view::npos || wide < colon)) {
    colon = wide;
    width = kFullWidthColon.size();
  }
  if (colon == std::string_view::npos) return std::nullopt;
  return std::make_pair(Trim(line.substr(0, colon)), Trim(line.substr(colon + width)));
}

// Keys as typed by hand are matched without case ("Os: Ubuntu 18.04.3 LTS").
const KeyRow* FindKey(std::string_view key) {
  const std::string lower = ToLower(key);
  for (const KeyRow& row : kKeys) {
    if (!row.key.empty() && ToLower(row.key) == lower) return &row;
  }
  return nullptr;
}

// "PyTorch version 1.5.0": the first line retyped without its colon (pytorch/pytorch#39133).
std::optional<std::pair<std::string_view, std::string_view>> TorchLineWithoutColon(std::string_view line) {
  constexpr std::string_view kKey = "PyTorch version ";
  if (!StartsWith(line, kKey)) return std::nullopt;
  std::string_view value = Trim(line.substr(kKey.size()));
  if (value.empty() || value.find(' ') != std::string_view::npos || !ParseUint(value.substr(0, 1))) return std::nullopt;
  return std::make_pair(kKey.substr(0, kKey.size() - 1), value);
}

// The sectioned layout's rule line "==============================" (vLLM's collect_env, torch 2.8).
bool RuleLine(std::string_view line) {
  return line.size() >= 10 && line.find_first_not_of('=') == std::string_view::npos;
}

// "/usr/lib/x86_64-linux-gnu/libcudnn.so.7.6.5" -> "7.6.5"; any other value as written.
std::string CudnnValue(std::string_view value) {
  size_t slash = value.find_last_of('/');
  std::string_view file = slash == std::string_view::npos ? value : value.substr(slash + 1);
  constexpr std::string_view kSo = "libcudnn.so.";
  if (StartsWith(file, kSo) && file.size() > kSo.size() && ParseUint(file.substr(kSo.size(), 1))) {
    return std::string(file.substr(kSo.size()));
  }
  return std::string(value);
}

bool NoValue(std::string_view v) {
  return v.empty() || v == "Could not collect" || v == "N/A" || v == "No CUDA" || v == "None";
}

// "3.8.10 (default, Mar 15 2022, 12:22:08)  [GCC 9.4.0] (64-bit runtime)" -> "3.8.10".
std::string_view FirstWord(std::string_view v) {
  size_t end = v.find_first_of(" \t|");
  return Trim(v.substr(0, end));
}

// "GPU 0: NVIDIA GeForce RTX 3090 (UUID: GPU-5a...)" -> {"0", "NVIDIA GeForce RTX 3090"}.
std::optional<std::pair<std::string, std::string>> GpuLine(std::string_view line) {
  if (!StartsWith(line, "GPU ")) return std::nullopt;
  auto kv = SplitKey(line.substr(4));
  if (!kv || !ParseUint(kv->first) || kv->second.empty()) return std::nullopt;
  std::string_view model = kv->second;
  if (size_t uuid = model.find(" (UUID:"); uuid != std::string_view::npos) model = Trim(model.substr(0, uuid));
  return std::make_pair(std::string(kv->first), std::string(model));
}

class CollectEnvReader {
 public:
  std::vector<PasteFact> Read(const PasteText& text) {
    for (const PasteLine& line : text.lines) Line(line);
    return std::move(facts_);
  }

 private:
  enum class After { kNothing, kGpus, kCudnnList, kLibraries };

  void Add(PasteFactKind kind, int line, std::string name, std::string value, std::string extra = "") {
    facts_.push_back(PasteFact{kind, PasteFormat::kCollectEnv, line, std::move(name), std::move(value), std::move(extra)});
  }

  void Line(const PasteLine& pl) {
    std::string_view line = Trim(pl.text);
    if (line == "Collecting environment information...") {
      pending_start_ = pl.number;
      return;
    }
    if (RuleLine(line)) {  // the sectioned layout: a rule, a heading, a rule
      if (pending_start_ == 0 && !in_block_) pending_start_ = pl.number;
      return;
    }
    if (line == "System Info" && pending_start_ != 0) {  // its first section: the block starts
      Start(pending_start_);
      return;
    }
    auto kv = SplitKey(line);
    if (!kv) kv = TorchLineWithoutColon(line);
    if (kv && kv->first == "PyTorch version") {
      if (!in_block_ || torch_seen_) Start(pending_start_ ? pending_start_ : pl.number);  // a block starts
      torch_seen_ = true;
      after_ = After::kNothing;
    }
    pending_start_ = 0;
    if (!in_block_) return;
    if (Continuation(pl, line)) return;
    after_ = After::kNothing;
    if (!kv) return;
    const KeyRow* row = FindKey(kv->first);
    if (row == nullptr) return;
    KeyLine(*row, pl.number, kv->second);
  }

  void Start(int line) {
    Add(PasteFactKind::kFormat, line, "", "collect_env");
    in_block_ = true;
    torch_seen_ = false;
    after_ = After::kNothing;
    pending_start_ = 0;
  }

  // A line that belongs to the key before it: a GPU, a cuDNN path, a library.
  bool Continuation(const PasteLine& pl, std::string_view line) {
    switch (after_) {
      case After::kNothing:
        return false;
      case After::kGpus:
        if (auto gpu = GpuLine(line)) {
          Add(PasteFactKind::kGpu, pl.number, gpu->first, gpu->second);
          return true;
        }
        return StartsWith(line, "MIG ");  // MIG devices under their GPU
      case After::kCudnnList:
        if (!line.empty() && line.find(": ") == std::string_view::npos && line.find("cudnn") != std::string_view::npos) {
          Add(PasteFactKind::kCudnn, pl.number, "", std::string(line));
          return true;
        }
        return false;
      case After::kLibraries:
        if (StartsWith(line, "[")) {
          Library(pl.number, line);
          return true;
        }
        in_block_ = false;  // the library list is the report's last part
        return false;
    }
    return false;
  }

  void KeyLine(const KeyRow& row, int number, std::string_view value) {
    switch (row.what) {
      case Key::kNone:
        return;
      case Key::kFact:
        if (row.kind == PasteFactKind::kTorchCuda && (value == "N/A" || value == "None" || value == "Could not collect")) {
          // a CPU build says so: collect_env writes torch.version.cuda's None as "Could not collect"
          Add(row.kind, number, "", std::string(value));
        } else if (row.kind == PasteFactKind::kArch && ParseUint(value)) {
          // the Windows CPU table's "Architecture: 9" is a number code, not a machine name
        } else if (!NoValue(value)) {
          bool first_word = row.kind == PasteFactKind::kPythonVersion;
          Add(row.kind, number, "", std::string(first_word ? FirstWord(value) : value));
        }
        if (row.kind == PasteFactKind::kPythonPlatform && ToLower(value).find("microsoft") != std::string::npos) {
          Add(PasteFactKind::kWsl, number, "", std::string(value));
        }
        return;
      case Key::kGpuModels:
        after_ = After::kGpus;
        if (auto gpu = GpuLine(value)) {
          Add(PasteFactKind::kGpu, number, gpu->first, gpu->second);
        } else if (!NoValue(value)) {
          Add(PasteFactKind::kGpu, number, "0", std::string(value));
        }
        return;
      case Key::kCudnn:
        if (StartsWith(value, "Probably one of the following")) {
          after_ = After::kCudnnList;
        } else if (!NoValue(value)) {
          Add(PasteFactKind::kCudnn, number, "", CudnnValue(value));
        }
        return;
      case Key::kLibraries:
        after_ = After::kLibraries;
        return;
    }
  }

  // "[pip3] torch==2.1.0+cu121", "[conda] pytorch  2.1.0  py3.10_cuda12.1_cudnn8.9.2_0  pytorch".
  void Library(int number, std::string_view line) {
    size_t close = line.find(']');
    if (close == std::string_view::npos) return Add(PasteFactKind::kUnparsed, number, "", std::string(line));
    std::string source(line.substr(1, close - 1));
    std::string_view rest = Trim(line.substr(close + 1));
    if (NoValue(rest)) return;
    if (source == "conda") {
      std::vector<std::string> words = SplitNonEmpty(rest, ' ');
      if (words.size() >= 2) return Add(PasteFactKind::kPackage, number, words[0], words[1], source);
    } else if (size_t eq = rest.find("=="); eq != std::string_view::npos) {
      return Add(PasteFactKind::kPackage, number, std::string(Trim(rest.substr(0, eq))),
                 std::string(Trim(rest.substr(eq + 2))), source);
    }
    Add(PasteFactKind::kUnparsed, number, "", std::string(line));
  }

  std::vector<PasteFact> facts_;
  int pending_start_ = 0;
  bool in_block_ = false;
  bool torch_seen_ = false;  // the block's "PyTorch version" line was read: another one starts a block
  After after_ = After::kNothing;
};

}  // namespace

std::vector<PasteFact> ReadCollectEnv(const PasteText& text) { return CollectEnvReader().Read(text); }

}  // namespace cudamatch
