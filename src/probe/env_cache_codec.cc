// The environment cache's file: "cudamatch-env-cache 8\n", the checksum of the rest and "\n",
// then the entry as a sequence of values (core/value_codec.h) in this order: key, deps, packages,
// extensions, and the python, torch and extension trails. Read back value by value; anything else
// where a value is expected makes the entry unreadable.
#include <cstdint>

#include "core/value_codec.h"
#include "probe/env_cache.h"

namespace cudamatch {

namespace {

constexpr std::string_view kMagic = "cudamatch-env-cache 8\n";

void OptInt(Writer& w, const std::optional<int64_t>& v) {
  if (v) w.Int(*v);
  else w.None();
}
std::optional<int64_t> OptInt(Reader& r) {
  if (r.None()) return std::nullopt;
  return r.Int();
}

void Put(Writer& w, const std::optional<Pep440>& v) {
  if (!v) return w.None();
  w.Int(v->epoch);
  w.List(v->release.size());
  for (int64_t n : v->release) w.Int(n);
  w.Int(static_cast<int>(v->pre));
  w.Int(v->pre_number);
  OptInt(w, v->post);
  OptInt(w, v->dev);
  w.Strs(v->local);
}
std::optional<Pep440> GetPep(Reader& r) {
  if (r.None()) return std::nullopt;
  Pep440 v;
  v.epoch = r.Int();
  v.release.resize(r.List());
  for (int64_t& n : v.release) n = r.Int();
  v.pre = static_cast<Pep440::Pre>(r.IntIn(0, static_cast<int>(Pep440::Pre::kRc)));
  v.pre_number = r.Int();
  v.post = OptInt(r);
  v.dev = OptInt(r);
  v.local = r.Strs();
  return v;
}

void Put(Writer& w, const std::optional<CudaVersion>& v) {
  if (!v) return w.None();
  w.Int(v->major);
  w.Int(v->minor);
  if (v->patch) w.Int(*v->patch);
  else w.None();
}
std::optional<CudaVersion> GetCuda(Reader& r) {
  if (r.None()) return std::nullopt;
  CudaVersion v;
  v.major = r.IntIn(0, INT32_MAX);
  v.minor = r.IntIn(0, INT32_MAX);
  if (!r.None()) v.patch = r.IntIn(0, INT32_MAX);
  return v;
}

void Put(Writer& w, const std::optional<FatbinCode>& c) {
  if (!c) return w.None();
  for (const std::vector<int>* list : {&c->sass, &c->ptx, &c->sass_a, &c->ptx_a, &c->sass_f, &c->ptx_f}) w.Ints(*list);
  for (uint64_t n : {c->containers, c->entries, c->compressed, c->other, c->sampled}) w.Int(static_cast<int64_t>(n));
  w.Bool(c->partial);
}
std::optional<FatbinCode> GetCode(Reader& r) {
  if (r.None()) return std::nullopt;
  FatbinCode c;
  for (std::vector<int>* list : {&c.sass, &c.ptx, &c.sass_a, &c.ptx_a, &c.sass_f, &c.ptx_f}) *list = r.Ints();
  for (uint64_t* n : {&c.containers, &c.entries, &c.compressed, &c.other, &c.sampled}) *n = r.Unsigned();
  c.partial = r.Bool();
  return c;
}

void Put(Writer& w, const std::vector<BinaryInfo>& list) {
  w.List(list.size());
  for (const BinaryInfo& b : list) {
    w.Str(b.path);
    Put(w, b.code);
    w.Strs(b.needed);
    w.Strs(b.rpath);
    w.Strs(b.runpath);
    for (const std::string* t : {&b.symbols.needs_cxx11, &b.symbols.needs_old, &b.symbols.defines_cxx11, &b.symbols.defines_old}) w.Str(*t);
    if (b.torch_lookup) {
      w.Int(b.torch_lookup->looked_up);
      w.Int(b.torch_lookup->missing);
      w.Str(b.torch_lookup->first_missing);
      w.Str(b.torch_lookup->torch_lib);
    } else {
      w.None();
    }
    w.Str(b.error);
  }
}
std::vector<BinaryInfo> GetBinaries(Reader& r) {
  std::vector<BinaryInfo> out(r.List());
  for (BinaryInfo& b : out) {
    b.path = r.Str();
    b.code = GetCode(r);
    b.needed = r.Strs();
    b.rpath = r.Strs();
    b.runpath = r.Strs();
    for (std::string* t : {&b.symbols.needs_cxx11, &b.symbols.needs_old, &b.symbols.defines_cxx11, &b.symbols.defines_old}) *t = r.Str();
    if (!r.None()) {
      SymbolLookup l;
      l.looked_up = static_cast<uint32_t>(r.IntIn(0, INT32_MAX));
      l.missing = static_cast<uint32_t>(r.IntIn(0, INT32_MAX));
      l.first_missing = r.Str();
      l.torch_lib = r.Str();
      b.torch_lookup = std::move(l);
    }
    b.error = r.Str();
  }
  return out;
}

// Only what the probes fill: variants and the runtime are worked out after the cache.
void Put(Writer& w, const PackageInfo& p) {
  w.Str(p.name);
  Put(w, p.version);
  w.Str(p.version_source);
  w.Str(p.metadata_version);
  Put(w, p.cuda);
  w.Str(p.cuda_source);
  w.Int(static_cast<int>(p.cuda_origin));
  w.Bool(p.cuda_none);
  if (p.hip) w.Str(*p.hip);
  else w.None();
  w.Str(p.location);
  w.Strs(p.nvidia_requirements);
  w.Strs(p.bundled_libs);
  Put(w, p.binaries);
  Put(w, p.abi_libs);
}
PackageInfo GetPackage(Reader& r) {
  PackageInfo p;
  p.name = r.Str();
  p.version = GetPep(r);
  p.version_source = r.Str();
  p.metadata_version = r.Str();
  p.cuda = GetCuda(r);
  p.cuda_source = r.Str();
  int origin = r.IntIn(0, INT32_MAX);
  if (origin != static_cast<int>(Origin::kNone) && origin != static_cast<int>(Origin::kObserved) &&
      origin != static_cast<int>(Origin::kNvidiaRequirement)) {
    throw BadEntry();
  }
  p.cuda_origin = static_cast<Origin>(origin);
  p.cuda_none = r.Bool();
  if (!r.None()) p.hip = r.Str();
  p.location = r.Str();
  p.nvidia_requirements = r.Strs();
  p.bundled_libs = r.Strs();
  p.binaries = GetBinaries(r);
  p.abi_libs = GetBinaries(r);
  return p;
}

void Put(Writer& w, const ExtensionInfo& e) {
  w.Str(e.name);
  Put(w, e.version);
  w.Str(e.metadata_path);
  w.Strs(e.torch_pins);
  Put(w, e.libs);
  w.Str(e.wheel_file);
  w.Str(e.wheel_source);
  if (e.wheel_cxx11abi) w.Bool(*e.wheel_cxx11abi);
  else w.None();
  w.Str(e.built_torch);
  Put(w, e.built_cuda);
  w.Str(e.built_source);
  if (!e.editable) {
    w.None();
    return;
  }
  w.Bool(e.editable->mode == EditableMode::kDevelop);
  w.Str(e.editable->project);
  w.Str(e.editable->source);
}
ExtensionInfo GetExtension(Reader& r) {
  ExtensionInfo e;
  e.name = r.Str();
  e.version = GetPep(r);
  e.metadata_path = r.Str();
  e.torch_pins = r.Strs();
  e.libs = GetBinaries(r);
  e.wheel_file = r.Str();
  e.wheel_source = r.Str();
  if (!r.None()) e.wheel_cxx11abi = r.Bool();
  e.built_torch = r.Str();
  e.built_cuda = GetCuda(r);
  e.built_source = r.Str();
  if (!r.None()) {
    EditableInstall install;
    install.mode = r.Bool() ? EditableMode::kDevelop : EditableMode::kPep660;
    install.project = r.Str();
    install.source = r.Str();
    e.editable = std::move(install);
  }
  return e;
}

void Put(Writer& w, const std::vector<Evidence>& trail) {
  w.List(trail.size());
  for (const Evidence& e : trail) {
    w.Str(e.probe);
    w.Str(e.source);
    w.Int(static_cast<int>(e.outcome));
    w.Str(e.detail);
  }
}
std::vector<Evidence> GetTrail(Reader& r) {
  std::vector<Evidence> out(r.List());
  for (Evidence& e : out) {
    e.probe = r.Str();
    e.source = r.Str();
    e.outcome = static_cast<Evidence::Outcome>(r.IntIn(0, static_cast<int>(Evidence::Outcome::kSkipped)));
    e.detail = r.Str();
  }
  return out;
}

void Put(Writer& w, const std::vector<FileSig>& deps) {
  w.List(deps.size());
  for (const FileSig& d : deps) {
    const FileInfo& i = d.info;
    w.Str(d.path);
    w.Bool(d.follow);
    w.Int(static_cast<int>(i.type));
    for (uint64_t n : {i.size, i.device, i.inode}) w.Int(static_cast<int64_t>(n));
    w.Int(i.mtime_ns);
    w.Int(i.ctime_ns);
  }
}
std::vector<FileSig> GetDeps(Reader& r) {
  std::vector<FileSig> out(r.List());
  for (FileSig& s : out) {
    s.path = r.Str();
    s.follow = r.Bool();
    s.info.type = static_cast<FileType>(r.IntIn(0, static_cast<int>(FileType::kOther)));
    for (uint64_t* n : {&s.info.size, &s.info.device, &s.info.inode}) *n = static_cast<uint64_t>(r.Int());
    s.info.mtime_ns = r.Int();
    s.info.ctime_ns = r.Int();
  }
  return out;
}

// The payload after the magic line and the checksum; nullopt when they do not hold.
std::optional<std::string_view> Payload(std::string_view text) {
  if (text.substr(0, kMagic.size()) != kMagic) return std::nullopt;
  text.remove_prefix(kMagic.size());
  if (text.size() < 17 || text[16] != '\n') return std::nullopt;
  std::string_view payload = text.substr(17);
  if (text.substr(0, 16) != EnvCacheChecksum(payload)) return std::nullopt;
  return payload;
}

}  // namespace

std::optional<std::string> EncodeEnvScan(const std::string& key, const EnvScan& scan) {
  Writer w;
  w.Str(key);
  Put(w, scan.deps);
  w.List(scan.packages.size());
  for (const auto& [name, pkg] : scan.packages) Put(w, pkg);
  w.List(scan.extensions.size());
  for (const ExtensionInfo& e : scan.extensions) Put(w, e);
  Put(w, scan.package_trail);
  Put(w, scan.torch_trail);
  Put(w, scan.extension_trail);
  std::string payload = std::move(w).Take();
  return std::string(kMagic) + EnvCacheChecksum(payload) + "\n" + payload;
}

std::optional<std::string> EnvScanKey(std::string_view text) {
  auto payload = Payload(text);
  if (!payload) return std::nullopt;
  try {
    Reader r(*payload);
    return r.Str();
  } catch (const BadEntry&) {
    return std::nullopt;
  }
}

std::optional<EnvScan> DecodeEnvScan(const std::string& key, std::string_view text) {
  auto payload = Payload(text);
  if (!payload) return std::nullopt;
  try {
    Reader r(*payload);
    if (r.Str() != key) return std::nullopt;
    EnvScan scan;
    scan.deps = GetDeps(r);
    for (size_t n = r.List(); n > 0; --n) {
      PackageInfo pkg = GetPackage(r);
      std::string name = pkg.name;
      scan.packages.emplace(std::move(name), std::move(pkg));
    }
    scan.extensions.resize(r.List());
    for (ExtensionInfo& e : scan.extensions) e = GetExtension(r);
    scan.package_trail = GetTrail(r);
    scan.torch_trail = GetTrail(r);
    scan.extension_trail = GetTrail(r);
    if (!r.done()) return std::nullopt;
    return scan;
  } catch (const BadEntry&) {
    return std::nullopt;
  }
}

}  // namespace cudamatch
