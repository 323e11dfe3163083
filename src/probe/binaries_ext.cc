// CUDA extensions: installed distributions whose files include CUDA shared objects.
#include <algorithm>
#include <map>

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

// What conda installed into an environment, by package: a distribution conda put there may have
// no RECORD (setup.py installs, egg-info), but conda-meta lists its files. Read on first need.
class CondaFiles {
 public:
  CondaFiles(const Fs& fs, const PythonEnv& env) : fs_(fs), prefix_(env.prefix) {}

  // Shared objects of the conda package named like `dist`, relative to `site`; nullopt when no
  // conda package has that name.
  std::optional<std::vector<std::string>> SharedObjects(const std::string& dist, const std::string& site, Trail& trail) {
    Load();
    auto it = records_.find(dist);
    if (it == records_.end()) return std::nullopt;
    auto text = fs_.Read(it->second, kRecordCap);
    if (!text) {
      trail.Error(it->second, text.error());
      return std::nullopt;
    }
    auto record = ParseCondaRecord(*text);
    if (!record) {
      trail.Error(it->second, "not a conda package record");
      return std::nullopt;
    }
    std::string under = site.size() > prefix_.size() && StartsWith(site, prefix_ + "/") ? site.substr(prefix_.size() + 1) + "/" : "";
    std::vector<std::string> out;
    for (const std::string& f : record->files) {
      if (under.empty() || !StartsWith(f, under) || !IsSharedObject(f)) continue;
      std::string rel = f.substr(under.size());
      if (!StartsWith(rel, "../") && rel.find("/../") == std::string::npos) out.push_back(rel);
    }
    trail.Found(it->second, std::to_string(out.size()) + " shared objects listed");
    return out;
  }

 private:
  // conda-meta/<name>-<version>-<build>.json: the name is all before the last two dashes.
  void Load() {
    if (loaded_) return;
    loaded_ = true;
    auto names = fs_.List(prefix_ + "/conda-meta");
    if (!names) return;
    for (const std::string& n : *names) {
      if (!EndsWith(n, ".json")) continue;
      size_t build = n.rfind('-');
      size_t version = build == std::string::npos || build == 0 ? std::string::npos : n.rfind('-', build - 1);
      if (version == std::string::npos || version == 0) continue;
      records_.emplace(NormalizeProjectName(n.substr(0, version)), prefix_ + "/conda-meta/" + n);
    }
  }

  const Fs& fs_;
  std::string prefix_;
  bool loaded_ = false;
  std::map<std::string, std::string> records_;  // normalized name -> record path
};

// pip writes direct_url.json for an install from a URL or file (PEP 610): a few hundred bytes.
void ReadDirectUrl(const Fs& fs, const std::string& dist_dir, ExtensionInfo& ext) {
  std::string path = dist_dir + "/direct_url.json";
  auto file = fs.Open(path);
  if (!file || (*file)->size() > 64 * 1024) return;
  auto text = (*file)->ReadAt(0, static_cast<size_t>((*file)->size()));
  if (!text) return;
  ext.wheel_file = WheelFileOfDirectUrl(*text);
  if (ext.wheel_file.empty()) return;
  ext.wheel_source = path;
  ext.wheel_cxx11abi = WheelCxx11Abi(ext.wheel_file);
}

// xformers' setup.py writes the torch and CUDA of the build into cpp_lib.json beside _C.so.
void ReadXformersBuild(const Fs& fs, ExtensionInfo& ext) {
  for (const BinaryInfo& lib : ext.libs) {
    std::string_view dir = Dirname(lib.path);
    if (Basename(dir) != "xformers") continue;
    std::string path = std::string(dir) + "/cpp_lib.json";
    auto text = fs.Read(path, 64 * 1024);
    if (!text) return;
    if (auto build = ParseXformersCppLib(*text)) {
      ext.built_torch = build->torch;
      ext.built_cuda = build->cuda;
      ext.built_source = path;
    }
    return;
  }
}

// The extension of `dist` from its shared objects (absolute paths), when one links CUDA or torch.
// `plain`, when given, gets those that link neither.
std::optional<ExtensionInfo> ExtensionOf(const Fs& fs, const DistFiles& dist, const std::vector<std::string>& objects,
                                         const std::string& listing, size_t& budget, Trail& trail,
                                         std::vector<std::string>* plain) {
  ExtensionInfo ext;
  ext.name = dist.name;
  if (!dist.dir.empty()) ext.metadata_path = dist.dir + (EndsWith(dist.dir, ".egg-info") ? "/PKG-INFO" : "/METADATA");
  CoreMetadata meta;
  if (!ext.metadata_path.empty()) {
    if (auto text = fs.Read(ext.metadata_path, kMetadataCap)) meta = ParseCoreMetadata(*text);
  }
  ext.torch_pins = TorchPins(meta);
  std::string version = meta.version.empty() ? dist.version : meta.version;
  ext.version = Pep440::Parse(version).as_optional();
  size_t taken = 0;
  for (const std::string& path : objects) {
    if (budget == 0 || taken == kMaxLibsPerDist) {
      trail.Skipped(listing, "more shared objects than the scan reads");
      break;
    }
    --budget;
    ++taken;
    BinaryInfo b = ReadBinary(fs, path, trail);
    // A library linking torch's is an extension's with or without CUDA (a CPU build of
    // torch-scatter): its torch symbols and C++ ABI are judged all the same.
    if (LinksCuda(b) || LinksTorch(b.needed)) {
      ext.libs.push_back(std::move(b));
    } else if (plain != nullptr && b.error.empty()) {
      plain->push_back(b.path);
    }
  }
  if (ext.libs.empty()) return std::nullopt;
  if (ext.name == "xformers") ReadXformersBuild(fs, ext);
  // The wheel's name matters only beside torch symbols of a known ABI: read it for those alone.
  if (!dist.dir.empty() && std::any_of(ext.libs.begin(), ext.libs.end(), [](const BinaryInfo& b) {
        return !b.symbols.needs_cxx11.empty() || !b.symbols.needs_old.empty();
      })) {
    ReadDirectUrl(fs, dist.dir, ext);
  }
  return ext;
}

std::optional<ExtensionInfo> ReadExtension(const Fs& fs, const std::string& site, const DistFiles& dist,
                                           size_t& budget, CondaFiles& conda, Trail& trail,
                                           std::vector<std::string>* plain) {
  std::vector<std::string> objects;
  // RECORD is a dist-info file (PEP 376, PEP 627): setuptools and dpkg write none into an
  // egg-info, so it is not asked for there (on Debian's dist-packages, one stat per distribution).
  std::optional<Result<std::unique_ptr<RandomAccessFile>>> record;
  if (EndsWith(dist.dir, ".dist-info")) record.emplace(fs.Open(dist.dir + "/RECORD"));
  bool from_record = record && *record;
  if (from_record) {
    auto listed = SharedObjectsInRecordFile(***record);
    if (!listed) {
      trail.Error(dist.dir + "/RECORD", listed.error());
      return std::nullopt;
    }
    objects = std::move(*listed);
  } else if (auto listed = conda.SharedObjects(dist.name, site, trail)) {
    objects = std::move(*listed);
  }
  if (objects.empty()) return std::nullopt;
  for (std::string& rel : objects) rel = site + "/" + rel;
  // Only the objects a finished RECORD lists are replaced with their dist-info alone (env_cache.h).
  return ExtensionOf(fs, dist, objects, dist.dir + "/RECORD", budget, trail, from_record ? plain : nullptr);
}

bool Listed(const std::vector<ExtensionInfo>& out, std::string_view name) {
  return std::any_of(out.begin(), out.end(), [&](const ExtensionInfo& e) { return e.name == name; });
}

// Editable and develop installs: their shared objects are in the project directory. Those that
// link no CUDA stay dependencies of the environment cache (an in-place rebuild replaces them).
void ScanEditable(const Fs& fs, const std::string& site, const std::vector<std::string>& entries, size_t& budget,
                  std::vector<ExtensionInfo>& out, Trail& trail) {
  for (EditableDist& e : FindEditableInstalls(fs, site, entries, trail)) {
    if (Skipped(e.name) || Listed(out, e.name)) continue;
    DistFiles dist{e.dir, e.name, e.version};
    std::vector<std::string> objects = SharedObjectsUnder(fs, e.dirs, trail);
    auto ext = ExtensionOf(fs, dist, objects, e.install.source, budget, trail, nullptr);
    if (!ext) continue;
    ext->editable = std::move(e.install);
    out.push_back(std::move(*ext));
  }
}

}  // namespace

bool IsSharedObject(std::string_view path) {
  std::string_view base = Basename(path);
  return EndsWith(base, ".so") || base.find(".so.") != std::string_view::npos;
}

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
  std::string carry;  // a line cut by the end of the last block
  auto take = [&](std::string_view lines) {
    if (lines.find(".so") == std::string_view::npos) return;
    for (std::string& path : SharedObjectsInRecord(lines)) out.push_back(std::move(path));
  };
  for (uint64_t offset = 0; offset < file.size(); offset += kBlock) {
    auto block = file.ReadAt(offset, kBlock);
    if (!block) return Err(block.error());
    if (block->empty()) break;  // the file shrank
    std::string_view data = *block;
    if (!carry.empty()) {
      size_t end = data.find('\n');
      carry.append(data.substr(0, end == std::string_view::npos ? data.size() : end + 1));
      if (end == std::string_view::npos) continue;
      take(carry);
      carry.clear();
      data.remove_prefix(end + 1);
    }
    size_t last = data.rfind('\n');
    take(data.substr(0, last == std::string_view::npos ? 0 : last + 1));
    carry.assign(data.substr(last == std::string_view::npos ? 0 : last + 1));
  }
  take(carry);
  return out;
}

std::vector<ExtensionInfo> ScanExtensions(const Fs& fs, const PythonEnv& env, Trail& trail,
                                          std::vector<std::string>* plain) {
  std::vector<ExtensionInfo> out;
  size_t budget = kMaxLibsPerEnv;
  CondaFiles conda(fs, env);
  for (const std::string& site : env.site_packages) {
    auto names = fs.List(site);
    if (!names) continue;  // the package scan has recorded it
    for (const std::string& entry : *names) {
      if (!EndsWith(entry, ".dist-info") && !EndsWith(entry, ".egg-info")) continue;
      auto dist = ParseDistDirName(entry);
      if (!dist || Skipped(dist->name)) continue;
      if (Listed(out, dist->name)) continue;
      DistFiles files{site + "/" + entry, dist->name, dist->version};
      if (auto ext = ReadExtension(fs, site, files, budget, conda, trail, plain)) out.push_back(std::move(*ext));
    }
    ScanEditable(fs, site, *names, budget, out, trail);
  }
  return out;
}

}  // namespace cudamatch
