// The ptxas binaries triton compiles with, and the ptxas of each CUDA toolkit. Sources:
//   bundled:  <site>/triton/backends/nvidia/bin/{ptxas,ptxas-blackwell,ptxas-thor} (triton 3.x),
//             <site>/triton/third_party/cuda/bin/ptxas (triton 2.x), for every environment with
//             triton or pytorch-triton installed
//   override: TRITON_PTXAS_PATH, TRITON_PTXAS_BLACKWELL_PATH, TRITON_PTXAS_THOR_PATH (the
//             variables triton's knobs read for those three tools)
//   version:  the "Cuda compilation tools, release X.Y, VX.Y.Z" text in the binary's .rodata
//             (the whole file, capped, when it has no such section); the binary is never run
//   toolkits: <toolkit>/bin/ptxas, present or not (its release is the toolkit's)
#include <algorithm>

#include "probe/context.h"
#include "probe/elf.h"
#include "probe/parsers.h"

namespace cudamatch {

namespace {

constexpr uint64_t kPtxasScanCap = 96ull << 20;  // ptxas 13.x is ~40 MB; its .rodata a part of that
constexpr size_t kChunk = 1 << 20;
constexpr size_t kOverlap = 128;  // longer than the release line, so no chunk border cuts it

struct ToolDir {
  const char* dir;
  std::vector<const char*> tools;
};

// Where each triton layout keeps its ptxas binaries, relative to the site directory.
const std::vector<ToolDir>& TritonToolDirs() {
  static const std::vector<ToolDir> kDirs = {
      {"triton/backends/nvidia/bin", {"ptxas", "ptxas-blackwell", "ptxas-thor"}},
      {"triton/third_party/cuda/bin", {"ptxas"}},
  };
  return kDirs;
}

// The byte ranges to search, in order: .rodata when the file is an ELF that has one (where
// ptxas keeps the text its --version prints), then the whole file.
std::vector<std::pair<uint64_t, uint64_t>> ScanRanges(const RandomAccessFile& file) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  auto head = file.ReadAt(0, 64);
  if (head && LooksLikeElf(*head)) {
    if (auto elf = ReadElf(file)) {
      const ElfSection* ro = elf->Find(".rodata");
      if (ro != nullptr && ro->type != kShtNobits && ro->offset + ro->size <= file.size()) out.emplace_back(ro->offset, ro->size);
    }
  }
  out.emplace_back(0, file.size());
  return out;
}

Result<std::optional<ToolRelease>> Scan(const RandomAccessFile& file, uint64_t offset, uint64_t size) {
  size = std::min<uint64_t>(size, kPtxasScanCap);
  for (uint64_t at = 0; at < size; at += kChunk) {
    size_t len = static_cast<size_t>(std::min<uint64_t>(kChunk + kOverlap, size - at));
    auto bytes = file.ReadAt(offset + at, len);
    if (!bytes) return Error{bytes.error()};
    if (auto r = ParseToolRelease(*bytes)) return std::optional<ToolRelease>(*r);
  }
  return std::optional<ToolRelease>();
}

// The release line of the ptxas at `path`, each range read in chunks up to kPtxasScanCap.
Result<ToolRelease> ReadRelease(const Fs& fs, const std::string& path) {
  auto file = fs.Open(path);
  if (!file) return Error{file.error()};
  for (const auto& [offset, size] : ScanRanges(**file)) {
    auto found = Scan(**file, offset, size);
    if (!found) return Error{found.error()};
    if (*found) return **found;
  }
  return Error{"no \"Cuda compilation tools, release\" text in its first " +
               std::to_string(std::min<uint64_t>((*file)->size(), kPtxasScanCap)) + " bytes"};
}

PtxasInfo ReadPtxas(const Fs& fs, Trail& trail, std::string tool, std::string path) {
  PtxasInfo p{std::move(tool), std::move(path), std::nullopt, "", ""};
  auto r = ReadRelease(fs, p.path);
  if (!r) {
    trail.Error(p.path, r.error());
    return p;
  }
  p.version = r->version;
  p.version_line = r->line;
  trail.Found(p.path, p.version_line);
  return p;
}

bool HasTriton(const PythonEnv& env) {
  return env.packages.count("triton") > 0 || env.packages.count("pytorch-triton") > 0;
}

void ProbeEnv(const Fs& fs, Trail& trail, PythonEnv& env) {
  for (const std::string& site : env.site_packages) {
    for (const ToolDir& d : TritonToolDirs()) {
      for (const char* tool : d.tools) {
        std::string path = JoinPath(JoinPath(site, d.dir), tool);
        if (fs.IsFile(path)) env.triton_ptxas.push_back(ReadPtxas(fs, trail, tool, path));
      }
    }
    if (!env.triton_ptxas.empty()) return;
  }
}

// The variables triton reads for each tool (knobs.py: TRITON_<TOOL>_PATH with '-' as '_').
void ProbeOverrides(const ProbeInput& in, Snapshot& snap, Trail& trail) {
  static const std::pair<const char*, const char*> kVars[] = {
      {"ptxas", "TRITON_PTXAS_PATH"}, {"ptxas-blackwell", "TRITON_PTXAS_BLACKWELL_PATH"}, {"ptxas-thor", "TRITON_PTXAS_THOR_PATH"}};
  for (const auto& [tool, var] : kVars) {
    std::string value = in.Env(var);
    if (value.empty()) continue;
    std::string path = value.substr(0, value.find(' '));  // triton accepts options after the path
    bool present = in.fs->IsFile(path);
    PtxasInfo p = present ? ReadPtxas(*in.fs, trail, tool, path) : PtxasInfo{tool, path, std::nullopt, "", ""};
    if (!present) trail.Missing(std::string("env:") + var, path);
    p.env_var = var;
    snap.host.triton_ptxas_env.push_back(std::move(p));
  }
}

}  // namespace

void ProbeTriton(const ProbeInput& in, Snapshot& snap) {
  for (ToolkitInfo& t : snap.toolkits) {
    std::string ptxas = JoinPath(t.path, "bin/ptxas");
    if (in.fs->IsFile(ptxas)) t.ptxas = ptxas;
  }
  Trail trail(snap, "triton");
  bool any = false;
  for (PythonEnv& env : snap.pythons) {
    if (!HasTriton(env)) continue;
    ProbeEnv(*in.fs, trail, env);
    any = true;
  }
  if (any) ProbeOverrides(in, snap, trail);
}

}  // namespace cudamatch
