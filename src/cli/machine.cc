#include "cli/machine.h"

#include <chrono>
#include <cmath>
#include <cstdlib>

#include "cli/process.h"
#include "derive/derive.h"
#include "core/cache_store.h"
#include "core/memo_fs.h"
#include "core/text.h"
#include "probe/env_cache_driver.h"
#include "probe/paste.h"

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#endif

namespace cudamatch {

void AddRootOption(Command& sub, MachineOptions& opt, std::string_view help) {
  sub.Option("--root", &opt.root, "DIR", help).on_value = [&opt](const std::string&) { opt.root_given = true; };
}

void AddDriverTimeoutOption(Command& sub, MachineOptions& opt) {
  sub.Option("--driver-timeout", &opt.driver_timeout, "SECONDS",
             "Seconds a call into the NVIDIA libraries may take before it is abandoned (default 2; "
             "CUDAMATCH_DRIVER_TIMEOUT)");
}

void AddMachineOptions(Command& sub, MachineOptions& opt) {
  AddRootOption(sub, opt, "Inspect the machine image under DIR (nothing of this host is loaded)");
  sub.Repeated("--python", &opt.pythons, "PYTHON", "Also inspect this interpreter or environment (repeatable)");
  AddDriverTimeoutOption(sub, opt);
  sub.Flag("--no-cache", &opt.no_cache,
           "Read every Python environment afresh, without the environment cache (~/.cache/cudamatch)");
  sub.Flag("--cache", &opt.cache, "Use the environment cache under --root too");
}

Result<int> DriverTimeoutMs(const std::string& flag, const std::string& env) {
  const std::string& text = flag.empty() ? env : flag;
  if (text.empty()) return kDefaultDriverTimeoutMs;
  const char* what = flag.empty() ? "CUDAMATCH_DRIVER_TIMEOUT" : "--driver-timeout";
  char* end = nullptr;
  double seconds = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !std::isfinite(seconds) || seconds <= 0 || seconds > 600) {
    return Err(std::string(what) + " must be a number of seconds above 0 and at most 600, not " + Quote(text));
  }
  return std::max(1, static_cast<int>(seconds * 1000 + 0.5));  // rounded: seconds is above 0
}

namespace {

constexpr size_t kDirProofsCap = 4 << 20;

int64_t NowNs() {
  auto now = std::chrono::system_clock::now().time_since_epoch();
  return std::chrono::duration_cast<std::chrono::nanoseconds>(now).count();
}

// The files ChooseTrustedLibrary (core/dynlib.h) looks at with calls of its own, looked at again
// through the probe's file system so that the report cache's journal holds them: each candidate
// in the loader's directories and, for every one found, the file and each directory above it, as
// named and once resolved (trust is decided on their owners and modes; changing either changes
// the change time).
void JournalLibraryChoice(const Fs& fs, const std::vector<std::string>& dirs, std::string_view soname) {
  auto above = [&fs](std::string_view path) {
    for (std::string_view dir = Dirname(path); dir.size() > 1; dir = Dirname(dir)) fs.Stat(dir);
  };
  for (const std::string& dir : dirs) {
    if (dir.empty() || dir.front() != '/') continue;
    std::string path = JoinPath(dir, soname);
    if (!fs.LStat(path).exists()) continue;
    fs.Stat(path);
    above(path);
    if (auto real = fs.Resolve(path)) above(*real);
  }
}

// The one place that decides whether this host's NVIDIA libraries are asked: only when the root
// is this machine's own "/". Under --root nothing is loaded and no process is started. libcuda's
// answer is kept in the environment cache's directory when that cache is on
// (probe/env_cache_driver.h).
void AttachNvidiaLibraries(MachineProbe& m, ProbeInput& in, int timeout_ms, bool journaled) {
  if (m.fs->root() != "/") return;
  NvidiaLibraries libs = NvidiaLibraryNames(in);
  if (journaled) {
    std::vector<std::string> dirs = LibraryDirs(in);
    for (std::string_view soname : {"libnvidia-ml.so.1", "libcuda.so.1"}) JournalLibraryChoice(*m.fs, dirs, soname);
  }
  m.nvml = MakeRealNvml(libs.nvml, timeout_ms);
  m.cuda = MakeRealCuda(libs.cuda, timeout_ms);
  if (m.env_cache != nullptr) {
    DriverCacheOptions o;
    o.tool_version = CUDAMATCH_VERSION;
    o.environment = "LD_PRELOAD=" + in.Env("LD_PRELOAD") + " LD_LIBRARY_PATH=" + in.Env("LD_LIBRARY_PATH");
    o.now_ns = NowNs();
    m.cuda = MakeCachedCuda(std::move(m.cuda), m.env_cache->store(), m.fs.get(), libs.cuda, std::move(o));
  }
  in.nvml = m.nvml.get();
  in.cuda = m.cuda.get();
}

// The environment cache (probe/env_cache.h): a Linux tree whose root KeptRoot allows, in
// CacheDirFrom's directory.
std::unique_ptr<EnvCache> MakeEnvCache(const MachineOptions& opt, const Context& ctx, Os os) {
  if (os != Os::kLinux || !KeptRoot(opt, ctx.env)) return nullptr;
  std::string dir = CacheDirFrom(ctx.env);
  auto store = dir.empty() ? nullptr : OpenCacheStore(dir);
  if (!store) return nullptr;
  EnvCacheOptions o;
  o.tool_version = CUDAMATCH_VERSION;
  o.catalog_date = ctx.catalog.data_date;
  o.now_ns = NowNs();
  return std::make_unique<EnvCache>(std::move(store), o);
}

}  // namespace

std::optional<std::string> KeptRoot(const MachineOptions& opt, const std::map<std::string, std::string>& env) {
  auto it = env.find("CUDAMATCH_CACHE");
  std::string mode = it == env.end() ? "" : it->second;
  if (opt.no_cache || mode == "off") return std::nullopt;
  if (!opt.root_given) return std::string("/");
  if (!opt.cache && mode != "on") return std::nullopt;
  return opt.root;
}

std::string CacheDirFrom(const std::map<std::string, std::string>& env) {
  auto get = [&](const char* name) { auto it = env.find(name); return it == env.end() ? std::string() : it->second; };
  std::string dir = get("CUDAMATCH_CACHE_DIR");
  return dir.empty() ? DefaultCacheDir(get("XDG_CACHE_HOME"), get("HOME"), get("LOCALAPPDATA")) : dir;
}

FsOptions FsOptionsFrom(const std::map<std::string, std::string>& env) {
  FsOptions o;
  o.use_openat2 = env.count("CUDAMATCH_NO_OPENAT2") == 0 || env.at("CUDAMATCH_NO_OPENAT2").empty();
  return o;
}

namespace {

// The system of the tree to read: this machine's, or with --root, what --os names (Linux by default).
Result<Os> TreeOs(const MachineOptions& opt, const Context& ctx) {
  if (!opt.root_given && ctx.platform.os == HostOs()) return HostOs();  // this machine
  if (ctx.flags.os.empty() || ctx.platform.os == Os::kLinux) return Os::kLinux;
  if (ctx.platform.os == Os::kMacos) return Err("--os macos: only Linux and Windows trees can be inspected");
  if (!opt.root_given) return Err("--os windows inspects a Windows tree: give it with --root DIR (a mounted C: drive or an image)");
  return Os::kWindows;
}

// Every --python names something in the tree: a path that is not there is an error, never
// skipped in silence (Windows trees spell paths their own way and are left to their probe).
Status CheckGivenPythons(const Fs& fs, const MachineOptions& opt, Os os, Lang lang) {
  if (os != Os::kLinux) return Status::Ok();
  for (const std::string& p : opt.pythons) {
    if (fs.Stat(p).exists()) continue;
    if (opt.root_given) return Err(Tr(lang, "path.python_missing_in", {{"path", Quote(p)}, {"root", opt.root}}));
    return Err(Tr(lang, "path.python_missing", {{"path", Quote(p)}}));
  }
  return Status::Ok();
}

}  // namespace

Result<MachineProbe> ProbeMachine(const MachineOptions& opt, const Context& ctx) {
  auto timeout_ms = DriverTimeoutMs(opt.driver_timeout, ctx.Env("CUDAMATCH_DRIVER_TIMEOUT"));
  if (!timeout_ms) return Error{timeout_ms.error()};
  auto tree_os = TreeOs(opt, ctx);
  if (!tree_os) return Error{tree_os.error()};
  std::string root = "/";
  if (opt.root_given) {
    auto valid = ValidateRoot(opt.root, ctx.lang);
    if (!valid) return Error{valid.error()};
    root = *valid;
  }
  MachineProbe m;
  std::unique_ptr<Fs> real = MakeRealFs(root, FsOptionsFrom(ctx.env));
  bool own_root = real->root() == "/";
  if (ctx.journal != nullptr) {
    ctx.journal->root = real->root();
    real = MakeJournalFs(std::move(real), ctx.journal.get());
  }
  m.env_cache = MakeEnvCache(opt, ctx, *tree_os);
  const CacheStore* store = m.env_cache != nullptr ? m.env_cache->store() : nullptr;
  if (store != nullptr) {
    m.dir_proofs = std::make_unique<DirProofs>(real->root(), NowNs());
    if (auto text = store->Get(DirProofsName(real->root()), kDirProofsCap)) m.dir_proofs->Load(*text);
  }
  m.fs = MakeMemoFs(std::move(real), m.dir_proofs.get());
  if (!own_root) {
    if (Status tree = CheckTree(*m.fs, *tree_os, opt.root); !tree.ok()) return Error{tree.error()};
  }
  if (Status given = CheckGivenPythons(*m.fs, opt, *tree_os, ctx.lang); !given.ok()) return Error{given.error()};
  ProbeInput in;
  in.fs = m.fs.get();
  in.env = ctx.env;
  in.catalog = &ctx.catalog;
  in.extra_pythons = opt.pythons;
  in.os = *tree_os;
  std::string pwd = own_root ? WorkingDirectory(ctx.Env("PWD")) : ctx.Env("PWD");
  in.cwd = pwd.empty() ? "/" : pwd;
  in.env_cache = m.env_cache.get();
  AttachNvidiaLibraries(m, in, *timeout_ms, ctx.journal != nullptr);
  if (own_root) {
    HostFacts host = ThisHost();
    in.host_arch = host.arch;
    in.host_glibc = host.libc;
    in.self_exe = host.self_exe;
  }
  m.snapshot = TakeSnapshot(in);
  if (m.dir_proofs != nullptr && !m.dir_proofs->Unchanged()) {
    std::string proofs = m.dir_proofs->Save();
    if (m.dir_proofs->Differs(proofs)) store->Put(DirProofsName(m.fs->root()), proofs);
  }
  Derive(ctx.catalog, m.snapshot);
  return m;
}

namespace {

// The most of a file given to --from that is read at all; past kPasteMaxBytes it is cut (and said).
constexpr size_t kPasteFileCap = 4 * kPasteMaxBytes;

// stdin as bytes, at most `cap` + 1 of them (one more tells a cut paste).
Result<std::string> ReadStdin(size_t cap) {
#ifdef _WIN32
  _setmode(_fileno(stdin), _O_BINARY);
#endif
  std::string out;
  char buf[1 << 16];
  while (out.size() <= cap) {
    size_t n = std::fread(buf, 1, sizeof(buf), stdin);
    if (n == 0) break;
    out.append(buf, n);
  }
  if (std::ferror(stdin)) return Err("-: stdin could not be read");
  return out;
}

}  // namespace

Result<Snapshot> PasteMachine(const std::string& from, const Context& ctx) {
  auto bytes = from == "-" ? ReadStdin(kPasteMaxBytes) : ReadInputFile(from, kPasteFileCap);
  if (!bytes) return Error{bytes.error()};
  PasteText text = DecodePaste(*bytes);
  std::vector<PasteFact> facts = ReadPaste(text);
  bool known = std::any_of(facts.begin(), facts.end(), [](const PasteFact& f) { return f.kind == PasteFactKind::kFormat; });
  if (!known) return Err(Tr(ctx.lang, "paste.nothing_known", {{"file", from == "-" ? "stdin" : from}}));
  Snapshot snap = PasteSnapshot(text, facts, from);
  Derive(ctx.catalog, snap);
  return snap;
}

}  // namespace cudamatch
