// CUDA extensions: installed distributions whose files include CUDA shared objects.
#include <algorithm>

#include "core/text.h"
#include "probe/binaries.h"
#include "probe/parsers.h"

namespace cudamatch {

namespace {

bool IsTorchFamily(std::string_view name) { return name == "torch" || name == "torchvision" || name == "torchaudio"; }

// Distributions read elsewhere: torch by its own probe, the CUDA libraries themselves, triton.
bool Skipped(std::string_view name) {
  return name == "torch" || StartsWith(name, "nvidia-") || name == "triton" || StartsWith(name, "pytorch-triton");
}

bool IsSharedObject(std::string_view path) {
  std::string_view base = Basename(path);
  return EndsWith(base, ".so") || base.find(".so.") != std::string_view::npos;
}

// Requires-Dist lines naming torch, torchvision or torchaudio, without extras-only markers.
std::vector<std::string> TorchPins(const CoreMetadata& meta) {
  std::vector<std::string> out;
  for (const std::string& line : meta.requires_dist) {
    auto r = ParseRequirement(line);
    if (!r || !IsTorchFamily(r->name) || r->marker.find("extra") != std::string::npos) continue;
    out.push_back(r->name + r->specifier);
  }
  return out;
}

struct DistFiles {
  std::string dir;  // the .dist-info directory
  std::string name;
  std::string version;
};

std::optional<ExtensionInfo> ReadExtension(const Fs& fs, const std::string& site, const DistFiles& dist,
                                           size_t& budget, Trail& trail) {
  auto record = fs.Open(dist.dir + "/RECORD");
  if (!record) return std::nullopt;
  auto listed = SharedObjectsInRecordFile(**record);
  if (!listed) {
    trail.Error(dist.dir + "/RECORD", listed.error());
    return std::nullopt;
  }
  std::vector<std::string> objects = std::move(*listed);
  if (objects.empty()) return std::nullopt;
  ExtensionInfo ext;
  ext.name = dist.name;
  ext.metadata_path = dist.dir + "/METADATA";
  auto meta_text = fs.Read(ext.metadata_path, kMetadataCap);
  CoreMetadata meta = meta_text ? ParseCoreMetadata(*meta_text) : CoreMetadata{};
  ext.torch_pins = TorchPins(meta);
  std::string version = meta.version.empty() ? dist.version : meta.version;
  ext.version = Pep440::Parse(version).as_optional();
  size_t taken = 0;
  for (const std::string& rel : objects) {
    if (budget == 0 || taken == kMaxLibsPerDist) {
      trail.Skipped(dist.dir + "/RECORD", "more shared objects than the scan reads");
      break;
    }
    --budget;
    ++taken;
    BinaryInfo b = ReadBinary(fs, site + "/" + rel, trail);
    if (LinksCuda(b)) ext.libs.push_back(std::move(b));
  }
  if (ext.libs.empty()) return std::nullopt;
  return ext;
}

}  // namespace

// A RECORD line: path,hash,size (CSV; a path with a comma is quoted):
//   xformers/_C.so,sha256=1dpn...,40201688
std::vector<std::string> SharedObjectsInRecord(std::string_view record) {
  std::vector<std::string> out;
  for (std::string_view line : Lines(record)) {
    if (line.find(".so") == std::string_view::npos) continue;
    std::string path;
    if (StartsWith(line, "\"")) {
      size_t close = line.find('"', 1);
      if (close == std::string_view::npos) continue;
      path = std::string(line.substr(1, close - 1));
    } else {
      path = std::string(line.substr(0, line.find(',')));
    }
    if (path.empty() || path[0] == '/' || StartsWith(path, "../") || path.find("/../") != std::string::npos) continue;
    if (IsSharedObject(path)) out.push_back(std::move(path));
  }
  return out;
}

// Most RECORD files list no shared object at all (pure-Python distributions; some list thousands
// of files), so the file is read in blocks of whole lines and only a block holding ".so" is parsed.
Result<std::vector<std::string>> SharedObjectsInRecordFile(const RandomAccessFile& file) {
  if (file.size() > kRecordCap) return Err("larger than " + std::to_string(kRecordCap >> 20) + " MiB");
  constexpr size_t kBlock = 64 * 1024;
  std::vector<std::string> out;
  std::string pending;  // the bytes after the last line end read so far
  auto take = [&](std::string_view lines) {
    if (lines.find(".so") == std::string_view::npos) return;
    for (std::string& path : SharedObjectsInRecord(lines)) out.push_back(std::move(path));
  };
  for (uint64_t offset = 0; offset < file.size(); offset += kBlock) {
    auto block = file.ReadAt(offset, kBlock);
    if (!block) return Err(block.error());
    if (block->empty()) break;  // the file shrank
    pending += *block;
    size_t end = pending.rfind('\n');
    if (end == std::string::npos) continue;
    take(std::string_view(pending).substr(0, end + 1));
    pending.erase(0, end + 1);
  }
  take(pending);
  return out;
}

std::vector<ExtensionInfo> ScanExtensions(const Fs& fs, const PythonEnv& env, Trail& trail) {
  std::vector<ExtensionInfo> out;
  size_t budget = kMaxLibsPerEnv;
  for (const std::string& site : env.site_packages) {
    auto names = fs.List(site);
    if (!names) continue;  // the package scan has recorded it
    for (const std::string& entry : *names) {
      if (!EndsWith(entry, ".dist-info")) continue;
      auto dist = ParseDistDirName(entry);
      if (!dist || Skipped(dist->name)) continue;
      if (std::any_of(out.begin(), out.end(), [&](const ExtensionInfo& e) { return e.name == dist->name; })) continue;
      DistFiles files{site + "/" + entry, dist->name, dist->version};
      if (auto ext = ReadExtension(fs, site, files, budget, trail)) out.push_back(std::move(*ext));
    }
  }
  return out;
}

}  // namespace cudamatch
