// The environment cache's file: "cudamatch-env-cache 1\n", the checksum of the rest and "\n",
// then one JSON object: {"key", "deps", "packages", "extensions", "trail": {...}}.
#include <nlohmann/json.hpp>

#include "probe/env_cache.h"

namespace cudamatch {

namespace {

using nlohmann::json;

constexpr std::string_view kMagic = "cudamatch-env-cache 1\n";

json OptInt(const std::optional<int64_t>& v) { return v ? json(*v) : json(nullptr); }
std::optional<int64_t> GetOptInt(const json& j) { return j.is_null() ? std::nullopt : std::optional(j.get<int64_t>()); }

json EncodePep(const std::optional<Pep440>& v) {
  if (!v) return nullptr;
  return {v->epoch, v->release, static_cast<int>(v->pre), v->pre_number, OptInt(v->post), OptInt(v->dev), v->local};
}
std::optional<Pep440> DecodePep(const json& j) {
  if (j.is_null()) return std::nullopt;
  Pep440 v;
  v.epoch = j.at(0).get<int64_t>();
  v.release = j.at(1).get<std::vector<int64_t>>();
  int pre = j.at(2).get<int>();
  if (pre < 0 || pre > static_cast<int>(Pep440::Pre::kRc)) throw std::runtime_error("pre");
  v.pre = static_cast<Pep440::Pre>(pre);
  v.pre_number = j.at(3).get<int64_t>();
  v.post = GetOptInt(j.at(4));
  v.dev = GetOptInt(j.at(5));
  v.local = j.at(6).get<std::vector<std::string>>();
  return v;
}

json EncodeCuda(const std::optional<CudaVersion>& v) {
  if (!v) return nullptr;
  return {v->major, v->minor, v->patch ? json(*v->patch) : json(nullptr)};
}
std::optional<CudaVersion> DecodeCuda(const json& j) {
  if (j.is_null()) return std::nullopt;
  CudaVersion v;
  v.major = j.at(0).get<int>();
  v.minor = j.at(1).get<int>();
  if (!j.at(2).is_null()) v.patch = j.at(2).get<int>();
  return v;
}

json EncodeCode(const std::optional<FatbinCode>& c) {
  if (!c) return nullptr;
  return {c->sass, c->ptx, c->sass_a, c->ptx_a, c->sass_f, c->ptx_f,
          c->containers, c->entries, c->compressed, c->other, c->sampled, c->partial};
}
std::optional<FatbinCode> DecodeCode(const json& j) {
  if (j.is_null()) return std::nullopt;
  FatbinCode c;
  std::vector<int>* lists[] = {&c.sass, &c.ptx, &c.sass_a, &c.ptx_a, &c.sass_f, &c.ptx_f};
  for (size_t i = 0; i < 6; ++i) *lists[i] = j.at(i).get<std::vector<int>>();
  uint64_t* counts[] = {&c.containers, &c.entries, &c.compressed, &c.other, &c.sampled};
  for (size_t i = 0; i < 5; ++i) *counts[i] = j.at(6 + i).get<uint64_t>();
  c.partial = j.at(11).get<bool>();
  return c;
}

json EncodeBinary(const BinaryInfo& b) { return {b.path, EncodeCode(b.code), b.needed, b.rpath, b.runpath, b.error}; }
BinaryInfo DecodeBinary(const json& j) {
  BinaryInfo b;
  b.path = j.at(0).get<std::string>();
  b.code = DecodeCode(j.at(1));
  b.needed = j.at(2).get<std::vector<std::string>>();
  b.rpath = j.at(3).get<std::vector<std::string>>();
  b.runpath = j.at(4).get<std::vector<std::string>>();
  b.error = j.at(5).get<std::string>();
  return b;
}

json EncodeBinaries(const std::vector<BinaryInfo>& list) {
  json out = json::array();
  for (const BinaryInfo& b : list) out.push_back(EncodeBinary(b));
  return out;
}
std::vector<BinaryInfo> DecodeBinaries(const json& j) {
  std::vector<BinaryInfo> out;
  for (const json& b : j) out.push_back(DecodeBinary(b));
  return out;
}

// Only what the probes fill: variants and the runtime are worked out after the cache.
json EncodePackage(const PackageInfo& p) {
  return {p.name, EncodePep(p.version), p.version_source, p.metadata_version, EncodeCuda(p.cuda), p.cuda_source,
          static_cast<int>(p.cuda_origin), p.cuda_none, p.hip ? json(*p.hip) : json(nullptr), p.location,
          p.nvidia_requirements, p.bundled_libs, EncodeBinaries(p.binaries)};
}
PackageInfo DecodePackage(const json& j) {
  PackageInfo p;
  p.name = j.at(0).get<std::string>();
  p.version = DecodePep(j.at(1));
  p.version_source = j.at(2).get<std::string>();
  p.metadata_version = j.at(3).get<std::string>();
  p.cuda = DecodeCuda(j.at(4));
  p.cuda_source = j.at(5).get<std::string>();
  int origin = j.at(6).get<int>();
  if (origin != static_cast<int>(Origin::kNone) && origin != static_cast<int>(Origin::kObserved) &&
      origin != static_cast<int>(Origin::kNvidiaRequirement)) {
    throw std::runtime_error("origin");
  }
  p.cuda_origin = static_cast<Origin>(origin);
  p.cuda_none = j.at(7).get<bool>();
  if (!j.at(8).is_null()) p.hip = j.at(8).get<std::string>();
  p.location = j.at(9).get<std::string>();
  p.nvidia_requirements = j.at(10).get<std::vector<std::string>>();
  p.bundled_libs = j.at(11).get<std::vector<std::string>>();
  p.binaries = DecodeBinaries(j.at(12));
  return p;
}

json EncodeExtension(const ExtensionInfo& e) {
  return {e.name, EncodePep(e.version), e.metadata_path, e.torch_pins, EncodeBinaries(e.libs)};
}
ExtensionInfo DecodeExtension(const json& j) {
  ExtensionInfo e;
  e.name = j.at(0).get<std::string>();
  e.version = DecodePep(j.at(1));
  e.metadata_path = j.at(2).get<std::string>();
  e.torch_pins = j.at(3).get<std::vector<std::string>>();
  e.libs = DecodeBinaries(j.at(4));
  return e;
}

json EncodeTrail(const std::vector<Evidence>& trail) {
  json out = json::array();
  for (const Evidence& e : trail) out.push_back({e.probe, e.source, static_cast<int>(e.outcome), e.detail});
  return out;
}
std::vector<Evidence> DecodeTrail(const json& j) {
  std::vector<Evidence> out;
  for (const json& e : j) {
    int outcome = e.at(2).get<int>();
    if (outcome < 0 || outcome > static_cast<int>(Evidence::Outcome::kSkipped)) throw std::runtime_error("outcome");
    out.push_back(Evidence{e.at(0).get<std::string>(), e.at(1).get<std::string>(),
                           static_cast<Evidence::Outcome>(outcome), e.at(3).get<std::string>()});
  }
  return out;
}

json EncodeDeps(const std::vector<FileSig>& deps) {
  json out = json::array();
  for (const FileSig& d : deps) {
    const FileInfo& i = d.info;
    out.push_back({d.path, d.follow, static_cast<int>(i.type), i.size, i.device, i.inode, i.mtime_ns, i.ctime_ns});
  }
  return out;
}
std::vector<FileSig> DecodeDeps(const json& j) {
  std::vector<FileSig> out;
  for (const json& d : j) {
    FileSig s;
    s.path = d.at(0).get<std::string>();
    s.follow = d.at(1).get<bool>();
    int type = d.at(2).get<int>();
    if (type < 0 || type > static_cast<int>(FileType::kOther)) throw std::runtime_error("type");
    s.info.type = static_cast<FileType>(type);
    s.info.size = d.at(3).get<uint64_t>();
    s.info.device = d.at(4).get<uint64_t>();
    s.info.inode = d.at(5).get<uint64_t>();
    s.info.mtime_ns = d.at(6).get<int64_t>();
    s.info.ctime_ns = d.at(7).get<int64_t>();
    out.push_back(std::move(s));
  }
  return out;
}

EnvScan DecodeBody(const json& j) {
  EnvScan scan;
  scan.deps = DecodeDeps(j.at("deps"));
  for (const json& p : j.at("packages")) {
    PackageInfo pkg = DecodePackage(p);
    std::string name = pkg.name;
    scan.packages.emplace(std::move(name), std::move(pkg));
  }
  for (const json& e : j.at("extensions")) scan.extensions.push_back(DecodeExtension(e));
  scan.package_trail = DecodeTrail(j.at("trail").at("python"));
  scan.torch_trail = DecodeTrail(j.at("trail").at("torch"));
  scan.extension_trail = DecodeTrail(j.at("trail").at("extensions"));
  return scan;
}

}  // namespace

std::optional<std::string> EncodeEnvScan(const std::string& key, const EnvScan& scan) {
  json packages = json::array();
  for (const auto& [name, pkg] : scan.packages) packages.push_back(EncodePackage(pkg));
  json extensions = json::array();
  for (const ExtensionInfo& e : scan.extensions) extensions.push_back(EncodeExtension(e));
  json body = {{"key", key},
               {"deps", EncodeDeps(scan.deps)},
               {"packages", std::move(packages)},
               {"extensions", std::move(extensions)},
               {"trail", {{"python", EncodeTrail(scan.package_trail)},
                          {"torch", EncodeTrail(scan.torch_trail)},
                          {"extensions", EncodeTrail(scan.extension_trail)}}}};
  std::string payload;
  try {
    payload = body.dump();  // throws on text that is not UTF-8: such an entry is not kept
  } catch (const std::exception&) {
    return std::nullopt;
  }
  return std::string(kMagic) + EnvCacheChecksum(payload) + "\n" + payload;
}

std::optional<EnvScan> DecodeEnvScan(const std::string& key, std::string_view text) {
  if (text.substr(0, kMagic.size()) != kMagic) return std::nullopt;
  text.remove_prefix(kMagic.size());
  if (text.size() < 17 || text[16] != '\n') return std::nullopt;
  std::string_view payload = text.substr(17);
  if (text.substr(0, 16) != EnvCacheChecksum(payload)) return std::nullopt;
  json body = json::parse(payload, nullptr, /*allow_exceptions=*/false);
  if (!body.is_object()) return std::nullopt;
  try {
    if (body.at("key").get<std::string>() != key) return std::nullopt;
    return DecodeBody(body);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace cudamatch
