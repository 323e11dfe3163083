#include "tests/unit/test_util.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "probe/binaries.h"

namespace cudamatch::testing {

std::string SourceDir() { return CUDAMATCH_SOURCE_DIR; }

Snapshot MachineWithDriver(std::string_view version, std::string_view cuda) {
  Snapshot s;
  s.host.os_id = "ubuntu";
  s.driver.kernel_module_loaded = true;
  s.driver.kernel_version = DriverVersion::Parse(version).value();
  s.driver.userspace_version = s.driver.kernel_version;
  s.driver.cuda = CudaVersion::Parse(cuda).value();
  s.driver.device_nodes = true;
  return s;
}

const Catalog& TheCatalog() {
  static const Catalog catalog = [] {
    auto c = ParseCatalog(EmbeddedCatalogFiles());
    if (!c) throw std::runtime_error(c.error());
    return std::move(*c);
  }();
  return catalog;
}

std::string ReadSource(const std::string& relative) {
  std::ifstream in(SourceDir() + "/" + relative, std::ios::binary);
  std::ostringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

std::vector<std::string> EmulatorCommand() {
  std::vector<std::string> words;
  std::istringstream in(CUDAMATCH_EMULATOR);  // "" natively; "qemu-aarch64-static <loader> ..." cross
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

std::vector<Finding> WithId(const std::vector<Finding>& all, std::string_view id) {
  std::vector<Finding> out;
  for (const Finding& f : all) {
    if (f.id == id) out.push_back(f);
  }
  return out;
}

std::string Arg(const Finding& f, std::string_view key) {
  for (const auto& [k, v] : f.args) {
    if (k == key) return v.value_or("");
  }
  return "";
}

std::string EvidenceText(const Finding& f) {
  std::string out;
  for (const EvidenceItem& e : f.evidence) {
    out += e.id;
    for (const auto& [k, v] : e.args) out += " " + v.value_or("");
    out += "\n";
  }
  return out;
}

std::string RecordHash(const std::string& file) {
  std::string command = "sha256sum '" + file + "' | cut -c1-64 | xxd -r -p | base64 | tr '+/' '-_' | tr -d '=\\n'";
  std::string out;
  if (FILE* p = popen(command.c_str(), "r")) {
    char buf[256];
    for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    pclose(p);
  }
  return "sha256=" + out;
}

std::string BinaryForShell() {
  std::string out;
  std::vector<std::string> words = EmulatorCommand();
  words.emplace_back(CUDAMATCH_BINARY);
  for (const std::string& w : words) {
    if (!out.empty()) out += ' ';
    out += '\'';
    for (char c : w) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

std::unique_ptr<Fs> MakeTestFs(const std::string& root) {
  FsOptions options;
  options.use_openat2 = std::getenv("CUDAMATCH_NO_OPENAT2") == nullptr;
  return MakeRealFs(root, options);
}

std::string TempDir::Write(const std::string& rel, const std::string& content) const {
  std::filesystem::path p = std::filesystem::path(path_) / rel;
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << content;
  return p.string();
}

std::string TempDir::Mkdir(const std::string& rel) const {
  std::filesystem::path p = std::filesystem::path(path_) / rel;
  std::filesystem::create_directories(p);
  return p.string();
}

void TempDir::Symlink(const std::string& target, const std::string& rel) const {
  std::filesystem::path p = std::filesystem::path(path_) / rel;
  std::filesystem::create_directories(p.parent_path());
  std::filesystem::create_symlink(target, p);
}

void AddScannedEnv(Snapshot& s, PythonEnv env, PackageInfo torch, const std::string& root) {
  env.packages["torch"] = std::move(torch);
  s.pythons.push_back(std::move(env));
  auto fs = MakeRealFs(root);
  Trail trail(s, "binaries");
  s.pythons.back().extensions = ScanExtensions(*fs, s.pythons.back(), trail);
}

Snapshot ProbedSite(const std::string& root, Snapshot machine, const std::string& prefix, PythonKind kind,
                    std::string_view python, std::string_view torch_version, std::string_view torch_cuda) {
  PythonEnv env;
  env.prefix = prefix;
  env.kind = kind;
  env.version = PyVersion::Parse(python).value();
  env.site_packages = {"/site"};
  PackageInfo torch;
  torch.name = "torch";
  torch.version = Pep440::Parse(torch_version).value();
  if (torch_cuda.empty()) torch.cuda_none = true;  // a CPU build
  else torch.cuda = CudaVersion::Parse(torch_cuda).value();
  env.packages["torch"] = torch;
  machine.pythons.push_back(env);
  auto fs = MakeRealFs(root);
  Trail trail(machine, "binaries");
  PythonEnv& e = machine.pythons.back();
  ReadTorchLibs(*fs, e, trail);
  e.extensions = ScanExtensions(*fs, e, trail);
  ReadTorchAbi(*fs, e, trail);
  LookUpTorchSymbols(*fs, e, trail);
  return machine;
}

}  // namespace cudamatch::testing
