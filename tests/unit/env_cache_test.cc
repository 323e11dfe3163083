// The environment cache (probe/env_cache.h) never changes an answer: a warm run equals a run
// without it and reads none of the environment's files; changing (same size and modification
// time, only the change time moves), replacing (a rename: same size and times, another inode) or
// deleting any path an entry depends on makes the next run read the environment again; damaged
// or foreign entries are ignored; the directory refuses planted links; --root uses it only when
// asked. Also: each path is asked about once per run (core/memo_fs.h).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <thread>

#include "core/cache_store.h"
#include "core/memo_fs.h"
#include "core/text.h"
#include "probe/env_cache.h"
#include "report/doctor.h"
#include "report/json.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

namespace stdfs = std::filesystem;
using testing::TempDir;

// Counts what reaches the file system below it, per call and path.
class CountingFs : public Fs {
 public:
  explicit CountingFs(std::unique_ptr<Fs> inner) : inner_(std::move(inner)) {}
  Result<std::string> Read(std::string_view p, size_t cap) const override { return Count("read", p), inner_->Read(p, cap); }
  Result<std::unique_ptr<RandomAccessFile>> Open(std::string_view p) const override { return Count("open", p), inner_->Open(p); }
  Result<std::vector<std::string>> List(std::string_view p) const override { return Count("list", p), inner_->List(p); }
  FileInfo Stat(std::string_view p) const override { return Count("stat", p), inner_->Stat(p); }
  FileInfo LStat(std::string_view p) const override { return Count("lstat", p), inner_->LStat(p); }
  Result<std::string> ReadLink(std::string_view p) const override { return Count("readlink", p), inner_->ReadLink(p); }
  Result<std::string> Resolve(std::string_view p) const override { return Count("resolve", p), inner_->Resolve(p); }
  const std::string& root() const override { return inner_->root(); }
  std::vector<Unreadable> unreadable() const override { return inner_->unreadable(); }

  mutable std::map<std::pair<std::string, std::string>, int> calls;
  int Total(std::string_view under = "") const {
    int n = 0;
    for (const auto& [k, v] : calls) n += StartsWith(k.second, under) ? v : 0;
    return n;
  }
  int Contents(std::string_view under) const {  // files read or opened
    int n = 0;
    for (const auto& [k, v] : calls) n += (k.first == "read" || k.first == "open") && StartsWith(k.second, under) ? v : 0;
    return n;
  }

 private:
  void Count(const char* what, std::string_view p) const { ++calls[{what, std::string(p)}]; }
  std::unique_ptr<Fs> inner_;
};

constexpr const char* kMachine = "flash-attn-no-sm";  // pyenv 3.11.7: torch 2.4.0+cu121, flash-attn
constexpr const char* kSite = "/home/dave/.pyenv/versions/3.11.7/lib/python3.11/site-packages";

// What the cache can touch: the environments and the python and binaries probes' trail entries.
std::string EnvironmentJson(const Snapshot& snap) {
  Json doc = DoctorJson(snap, {});
  Json trail = Json::array();
  for (const Json& e : doc["trail"]) {
    if (e["probe"] == "python" || e["probe"] == "binaries") trail.push_back(e);
  }
  return Json{{"pythons", doc["pythons"]}, {"trail", trail}}.dump(1);
}

struct ProbeRun {
  std::string json;
  EnvCacheStats stats;
  int site_contents = 0;  // files read or opened under the site directory
  int site_calls = 0;
};

class EnvCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = tmp_.path() + "/root";
    cache_ = tmp_.path() + "/cache";
    Fresh();
  }
  void Fresh() {
    stdfs::remove_all(root_);
    stdfs::copy(testing::SourceDir() + "/tests/fixtures/machines/" + kMachine + "/root", root_,
                stdfs::copy_options::recursive | stdfs::copy_options::copy_symlinks);
    stdfs::remove_all(cache_);
  }
  ProbeRun Probe(bool use_cache) const {
    auto counting = std::make_unique<CountingFs>(testing::MakeTestFs(root_));
    CountingFs* counts = counting.get();
    auto fs = MakeMemoFs(std::move(counting));
    ProbeInput in;
    in.fs = fs.get();
    in.catalog = &testing::TheCatalog();
    std::ifstream env(testing::SourceDir() + "/tests/fixtures/machines/" + kMachine + "/env");
    for (std::string kv; std::getline(env, kv);) {
      if (size_t eq = kv.find('='); eq != std::string::npos) in.env[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    EnvCacheOptions o;
    o.tool_version = "test";
    o.catalog_date = testing::TheCatalog().data_date;
    o.now_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    o.racy_ns = 0;  // the copied tree is seconds old; the tests wait a tick before changing it
    EnvCache cache(OpenCacheStore(cache_), o);
    if (use_cache) in.env_cache = &cache;
    Snapshot snap = TakeSnapshot(in);
    return ProbeRun{EnvironmentJson(snap), cache.stats(), counts->Contents(kSite), counts->Total(kSite)};
  }
  void WaitATick() const;
  std::vector<FileSig> Deps() const {
    std::vector<FileSig> out;
    for (const auto& entry : stdfs::directory_iterator(cache_)) {
      std::ifstream in(entry.path());
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      std::optional<std::string> key = EnvScanKey(text);
      EXPECT_TRUE(key.has_value()) << entry.path();
      auto scan = DecodeEnvScan(key.value_or(""), text);
      EXPECT_TRUE(scan.has_value()) << entry.path();
      if (scan) out.insert(out.end(), scan->deps.begin(), scan->deps.end());
    }
    return out;
  }

  TempDir tmp_;
  std::string root_, cache_;
};

TEST_F(EnvCacheTest, WarmRunEqualsUncachedAndReadsNoFileOfTheEnvironment) {
  ProbeRun plain = Probe(false);
  ProbeRun cold = Probe(true);
  ASSERT_GE(cold.stats.written, 1u);
  ProbeRun warm = Probe(true);
  EXPECT_EQ(warm.stats.hits, cold.stats.written);
  EXPECT_EQ(warm.stats.misses, cold.stats.misses - cold.stats.written);
  EXPECT_EQ(cold.json, plain.json);
  EXPECT_EQ(warm.json, plain.json);
  EXPECT_NE(plain.json.find("flash-attn"), std::string::npos);
  EXPECT_GT(cold.site_contents, 5);
  EXPECT_EQ(warm.site_contents, 0);  // validated by stat alone (the loader's search still lists nvidia/)
  EXPECT_LT(warm.site_calls, cold.site_calls);
}

// A path of the tree given as the root sees it, as this process sees it.
std::string Host(const std::string& root, const std::string& path) { return root + path; }

// Waits until a file written now gets a later change time than any the entries recorded: on a
// file system whose clock ticks coarsely (a second on some), a change made within the tick of the
// scan could otherwise leave size and times as they were, and the test would see a stale hit that
// no real run can get (entries are not written for changes that recent). The probe file lies
// outside the machine's tree, on the same file system.
void EnvCacheTest::WaitATick() const {
  int64_t newest = 0;
  for (const FileSig& d : Deps()) newest = std::max({newest, d.info.mtime_ns, d.info.ctime_ns});
  const std::string tick = tmp_.path() + "/tick";
  for (int i = 0; i < 400; ++i) {
    std::ofstream(tick, std::ios::trunc) << i;
    struct stat st;
    if (stat(tick.c_str(), &st) == 0 &&
        static_cast<int64_t>(st.st_ctim.tv_sec) * 1'000'000'000 + st.st_ctim.tv_nsec > newest) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  stdfs::remove(tick);
}

// Same size, same modification time: only the change time (and the content) differ.
void ChangeInPlace(const std::string& p) {
  struct stat st;
  ASSERT_EQ(stat(p.c_str(), &st), 0);
  std::fstream f(p, std::ios::in | std::ios::out | std::ios::binary);
  char c = 0;
  f.read(&c, 1);
  f.seekp(0);
  c = static_cast<char>(c ^ 0x20);
  if (st.st_size > 0) f.write(&c, 1);
  f.close();
  struct timespec times[2] = {st.st_atim, st.st_mtim};
  ASSERT_EQ(utimensat(AT_FDCWD, p.c_str(), times, 0), 0);
}

// A copy renamed over it: same size and modification time, another inode.
void ReplaceByRename(const std::string& p) {
  struct stat st;
  ASSERT_EQ(lstat(p.c_str(), &st), 0);
  std::string tmp = p + ".new";
  if (S_ISDIR(st.st_mode)) {
    stdfs::copy(p, tmp, stdfs::copy_options::recursive | stdfs::copy_options::copy_symlinks);
    stdfs::remove_all(p);
  } else {
    stdfs::copy(p, tmp, stdfs::copy_options::copy_symlinks);
  }
  struct timespec times[2] = {st.st_atim, st.st_mtim};
  utimensat(AT_FDCWD, tmp.c_str(), times, AT_SYMLINK_NOFOLLOW);
  ASSERT_EQ(rename(tmp.c_str(), p.c_str()), 0);
}

void Mutate(const FileSig& d, const std::string& p, int mode) {
  if (!d.info.exists()) {  // a path looked for and not there: it appears
    stdfs::create_directories(stdfs::path(p).parent_path());
    std::ofstream(p) << "x";
    return;
  }
  switch (mode) {
    case 0:
      if (d.info.type == FileType::kDirectory) std::ofstream(p + "/new-entry") << "x";
      else ChangeInPlace(p);
      break;
    case 1: ReplaceByRename(p); break;
    default: stdfs::remove_all(p); break;
  }
}

TEST_F(EnvCacheTest, ChangingReplacingOrDeletingAnyDependencyIsSeen) {
  Probe(true);
  std::vector<FileSig> deps = Deps();
  ASSERT_GT(deps.size(), 5u);
  for (size_t i = 0; i < deps.size(); ++i) {
    for (int mode : {0, 1, 2}) {
      if (!deps[i].info.exists() && mode > 0) continue;
      if (deps[i].path == "/" || (deps[i].info.type == FileType::kDirectory && mode == 2 && deps[i].path.size() < 12)) continue;
      Fresh();
      size_t written = Probe(true).stats.written;
      ASSERT_GE(written, 1u);
      WaitATick();
      Mutate(deps[i], Host(root_, deps[i].path), mode);
      ProbeRun cached = Probe(true);
      ProbeRun plain = Probe(false);
      SCOPED_TRACE(deps[i].path + " mode " + std::to_string(mode));
      EXPECT_LT(cached.stats.hits, written);  // the environment that depends on it is read again
      EXPECT_EQ(cached.json, plain.json);
    }
  }
}

// A develop install's project lies outside the site directory (facebookresearch/detectron2#1621:
// /home/ubuntu/detectron2, built in place): the project's listed directories, its egg-info and its
// compiled ops are dependencies, so changing, replacing or deleting any of them, or the .egg-link,
// is seen, and so is an in-place rebuild (`python setup.py develop` again: the .so replaced).
TEST_F(EnvCacheTest, AnEditableProjectOutsideTheSiteDirectoryIsADependency) {
  const std::string project = "/home/dave/src/detectron2";
  const std::string link = std::string(kSite) + "/detectron2.egg-link";
  const std::string op = project + "/detectron2/_C.cpython-311-x86_64-linux-gnu.so";
  const std::string fatbin = testing::SourceDir() + "/tests/fixtures/fatbin/";
  auto install = [&] {
    Fresh();
    std::ofstream(Host(root_, link)) << project << "\n.";
    stdfs::create_directories(Host(root_, project + "/detectron2.egg-info"));
    std::ofstream(Host(root_, project + "/detectron2.egg-info/PKG-INFO")) << "Metadata-Version: 2.1\nName: detectron2\nVersion: 0.6\n";
    stdfs::create_directories(Host(root_, project + "/detectron2"));
    stdfs::copy_file(fatbin + "sass_sm80.so", Host(root_, op));
  };
  install();
  ASSERT_GE(Probe(true).stats.written, 1u);
  std::vector<FileSig> deps;
  for (const FileSig& d : Deps()) {
    if (StartsWith(d.path, project) || d.path == link) deps.push_back(d);
  }
  EXPECT_TRUE(std::any_of(deps.begin(), deps.end(), [&](const FileSig& d) { return d.path == op; }));
  EXPECT_TRUE(std::any_of(deps.begin(), deps.end(), [&](const FileSig& d) { return d.path == project + "/detectron2"; }));
  for (const FileSig& dep : deps) {
    for (int mode : {0, 1, 2}) {
      if (!dep.info.exists() && mode > 0) continue;
      install();
      size_t written = Probe(true).stats.written;
      ASSERT_GE(written, 1u);
      WaitATick();
      Mutate(dep, Host(root_, dep.path), mode);
      ProbeRun cached = Probe(true);
      ProbeRun plain = Probe(false);
      SCOPED_TRACE(dep.path + " mode " + std::to_string(mode));
      EXPECT_LT(cached.stats.hits, written);
      EXPECT_EQ(cached.json, plain.json);
    }
  }
  install();
  std::string before = Probe(true).json;
  WaitATick();
  stdfs::copy_file(fatbin + "sass_ptx_sm75.so", Host(root_, op) + ".new");
  stdfs::rename(Host(root_, op) + ".new", Host(root_, op));
  ProbeRun cached = Probe(true);
  ProbeRun plain = Probe(false);
  EXPECT_NE(plain.json, before);
  EXPECT_EQ(cached.json, plain.json);
}

// A finished distribution's files (its dist-info holds RECORD) are covered by the site
// directory: installers remove a dist-info and write a new one, never edit it in place. Removing,
// reinstalling (a new dist-info renamed into place, here with a RECORD that lists no shared object
// any more) and finishing an install that was under way (RECORD appears) are each seen.
TEST_F(EnvCacheTest, ADistributionRemovedReinstalledOrFinishedIsSeen) {
  const std::string dist = Host(root_, std::string(kSite) + "/flash_attn-2.6.3.dist-info");
  auto reinstall = [&] {
    std::string next = dist + ".new";
    stdfs::copy(dist, next);
    std::ofstream(next + "/RECORD", std::ios::trunc) << "flash_attn/__init__.py,sha256=x,1\n";
    stdfs::remove_all(dist);
    stdfs::rename(next, dist);
  };
  auto unfinish = [&] { stdfs::remove(dist + "/RECORD"); };
  auto finish = [&] { std::ofstream(dist + "/RECORD") << "flash_attn/__init__.py,sha256=x,1\n"; };
  struct Case {
    const char* name;
    std::function<void()> before, change;
  };
  std::vector<Case> cases = {{"removed", nullptr, [&] { stdfs::remove_all(dist); }},
                             {"reinstalled", nullptr, reinstall},
                             {"finished", unfinish, finish}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Fresh();
    if (c.before) c.before();
    size_t written = Probe(true).stats.written;
    ASSERT_GE(written, 1u);
    bool record_seen = stdfs::exists(dist + "/RECORD");
    for (const FileSig& d : Deps()) {  // a finished dist-info costs no stat of its own
      if (record_seen) {
        EXPECT_FALSE(StartsWith(d.path, std::string(kSite) + "/flash_attn-2.6.3.dist-info")) << d.path;
      }
    }
    WaitATick();
    c.change();
    ProbeRun cached = Probe(true);
    ProbeRun plain = Probe(false);
    EXPECT_LT(cached.stats.hits, written);  // the environment is read again
    EXPECT_EQ(cached.json, plain.json);
  }
}

// What decides nothing costs no stat on the next run: a shared object a finished dist-info's
// RECORD lists that links no CUDA library (orjson's, a real ELF object g++ builds here), and
// the RECORD an egg-info never has (setuptools and dpkg write none: Debian's dist-packages has
// dozens of egg-info directories). An extension's CUDA object stays a dependency, and
// reinstalling orjson (its dist-info replaced) is still seen.
TEST_F(EnvCacheTest, PlainObjectsOfAFinishedDistributionAndEggInfoRecordsAreNoDependencies) {
  if (testing::kWindowsBuild) GTEST_SKIP() << "builds an ELF object with g++";
  const std::string site = Host(root_, kSite);
  auto plant = [&] {
    stdfs::create_directories(site + "/orjson");
    std::string so = site + "/orjson/orjson.cpython-311-x86_64-linux-gnu.so";
    std::string src = tmp_.path() + "/orjson.c";
    std::ofstream(src) << "int orjson_dumps(int x) { return x + 1; }\n";
    if (std::system(("gcc -shared -fPIC -o '" + so + "' '" + src + "' 2>/dev/null").c_str()) != 0) return false;
    const std::string dist = site + "/orjson-3.10.7.dist-info";
    stdfs::create_directories(dist);
    std::ofstream(dist + "/METADATA") << "Metadata-Version: 2.3\nName: orjson\nVersion: 3.10.7\n";
    std::ofstream(dist + "/INSTALLER") << "pip\n";
    std::ofstream(dist + "/WHEEL") << "Wheel-Version: 1.0\nGenerator: maturin (1.7.0)\nRoot-Is-Purelib: false\n"
                                      "Tag: cp311-cp311-manylinux_2_17_x86_64\n";
    std::string hash = testing::RecordHash(so);
    std::ofstream(dist + "/RECORD") << "orjson-3.10.7.dist-info/INSTALLER,,\n"
                                       "orjson-3.10.7.dist-info/METADATA,,\n"
                                       "orjson-3.10.7.dist-info/WHEEL,,\n"
                                       "orjson/orjson.cpython-311-x86_64-linux-gnu.so," << hash << "," << stdfs::file_size(so) << "\n"
                                       "orjson-3.10.7.dist-info/RECORD,,\n";
    const std::string egg = site + "/PyYAML-6.0.egg-info";  // as python3-yaml ships it
    stdfs::create_directories(egg);
    std::ofstream(egg + "/PKG-INFO") << "Metadata-Version: 1.2\nName: PyYAML\nVersion: 6.0\n";
    std::ofstream(egg + "/top_level.txt") << "_yaml\nyaml\n";
    return true;
  };
  if (!plant()) GTEST_SKIP() << "no gcc";
  ProbeRun cold = Probe(true);
  ASSERT_GE(cold.stats.written, 1u);
  bool cuda_object = false;
  for (const FileSig& d : Deps()) {
    EXPECT_FALSE(EndsWith(d.path, ".so") && d.path.find("/orjson/") != std::string::npos) << d.path;
    EXPECT_FALSE(EndsWith(d.path, ".egg-info/RECORD")) << d.path;
    cuda_object = cuda_object || EndsWith(d.path, "/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so");
  }
  EXPECT_TRUE(cuda_object);
  ProbeRun warm = Probe(true);
  EXPECT_EQ(warm.stats.hits, cold.stats.written);
  EXPECT_EQ(warm.json, Probe(false).json);
  WaitATick();
  const std::string dist = site + "/orjson-3.10.7.dist-info";
  stdfs::copy(dist, dist + ".new");
  stdfs::remove_all(dist);
  stdfs::rename(dist + ".new", dist);
  ProbeRun reinstalled = Probe(true);
  EXPECT_LT(reinstalled.stats.hits, cold.stats.written);
  EXPECT_EQ(reinstalled.json, Probe(false).json);
}

// A directory asked only whether it is one is vouched for by a file in it that is a dependency:
// torch installed as Debian's python3-torch is (an egg-info directory whose PKG-INFO is read)
// costs the stat of PKG-INFO alone, not of the directory too. Removing the egg-info, or editing
// its PKG-INFO in place, is seen.
TEST_F(EnvCacheTest, AnEggInfoIsVouchedForByItsPkgInfo) {
  const std::string dist = std::string(kSite) + "/torch-2.4.0.dist-info";
  const std::string egg = std::string(kSite) + "/torch-2.4.0.egg-info";
  auto plant = [&] {  // the wheel's METADATA as the egg-info's PKG-INFO, as setuptools writes it
    stdfs::create_directories(Host(root_, egg));
    stdfs::copy_file(Host(root_, dist + "/METADATA"), Host(root_, egg + "/PKG-INFO"));
    std::ofstream(Host(root_, egg + "/top_level.txt")) << "functorch\ntorch\ntorchgen\n";
    stdfs::remove_all(Host(root_, dist));
  };
  for (int change : {0, 1}) {
    SCOPED_TRACE(change == 0 ? "egg-info removed" : "PKG-INFO edited");
    Fresh();
    plant();
    ProbeRun cold = Probe(true);
    ASSERT_GE(cold.stats.written, 1u);
    ASSERT_NE(cold.json.find("torch-2.4.0.egg-info"), std::string::npos);
    bool pkg_info = false;
    for (const FileSig& d : Deps()) {
      EXPECT_NE(d.path, egg) << "the egg-info directory is a dependency";
      pkg_info = pkg_info || d.path == egg + "/PKG-INFO";
    }
    EXPECT_TRUE(pkg_info);
    ProbeRun warm = Probe(true);
    EXPECT_EQ(warm.stats.hits, cold.stats.written);
    EXPECT_EQ(warm.json, Probe(false).json);
    WaitATick();
    if (change == 0) stdfs::remove_all(Host(root_, egg));
    else ChangeInPlace(Host(root_, egg + "/PKG-INFO"));
    ProbeRun cached = Probe(true);
    EXPECT_LT(cached.stats.hits, cold.stats.written);
    EXPECT_EQ(cached.json, Probe(false).json);
  }
}

TEST_F(EnvCacheTest, ANewTorchVersionIsSeenNextRun) {
  ASSERT_NE(Probe(true).json.find("2.4.0+cu121"), std::string::npos);
  WaitATick();
  std::string version = Host(root_, std::string(kSite) + "/torch/version.py");
  std::ifstream in(version);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  ASSERT_NE(text.find("2.4.0+cu121"), std::string::npos);
  text.replace(text.find("2.4.0+cu121"), 11, "2.4.1+cu121");  // same size
  std::ofstream(version, std::ios::trunc) << text;
  ProbeRun after = Probe(true);
  EXPECT_NE(after.json.find("2.4.1+cu121"), std::string::npos);
  EXPECT_EQ(after.json, Probe(false).json);
}

TEST_F(EnvCacheTest, DamagedOrForeignEntriesAreIgnoredAndReplaced) {
  ProbeRun plain = Probe(false);
  ASSERT_GE(Probe(true).stats.written, 1u);
  std::vector<stdfs::path> entries;
  for (const auto& e : stdfs::directory_iterator(cache_)) entries.push_back(e.path());
  auto damage = [&](const std::function<std::string(std::string)>& how) {
    for (const stdfs::path& p : entries) {
      std::ifstream in(p);
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      in.close();
      std::ofstream(p, std::ios::trunc) << how(text);
    }
    ProbeRun r = Probe(true);
    EXPECT_EQ(r.stats.hits, 0u);
    EXPECT_EQ(r.json, plain.json);
    EXPECT_EQ(Probe(true).stats.hits, entries.size());  // rewritten whole
  };
  damage([](std::string t) { return t[t.size() / 2] ^= 1, t; });
  damage([](std::string t) { return t.substr(0, t.size() / 2); });
  damage([](std::string t) { return t.replace(0, 21, "cudamatch-env-cache 0"); });  // another format
  damage([](std::string t) { return t.substr(0, 0); });
  damage([](std::string t) {  // a valid entry of another key, under this name
    std::string body = t.substr(t.find('\n', 22) + 1);
    body.replace(body.find(':') + 1, 9, "CUDAMATCH");  // the key, the entry's first value
    return "cudamatch-env-cache 8\n" + EnvCacheChecksum(body) + "\n" + body;
  });
}

// Every field an entry keeps comes back as it went in, bytes that are not UTF-8 and the format's
// own marks inside strings included; a payload cut anywhere, or with a byte more, is unreadable
// (not a crash, not a shorter entry), even with a checksum that fits it.
TEST(EnvCacheCodec, KeepsEveryFieldAndRejectsEveryCutPayload) {
  EnvScan scan;
  PackageInfo torch;
  torch.name = "torch";
  torch.version = Pep440::Parse("2.4.0rc1.post2.dev3+cu121.local").value();
  torch.version_source = "/env/lib/python3.11/site-packages/torch-2.4.0.dist-info/METADATA";
  torch.metadata_version = "2.4.0";
  torch.cuda = CudaVersion::Parse("12.1.105").value();
  torch.cuda_source = "torch/version.py: cuda = '12.1'";
  torch.cuda_origin = Origin::kObserved;
  torch.hip = "6.2.4";
  torch.location = std::string("/home/\xff\xfe/s3:i7;l2;/site-packages/torch");
  torch.nvidia_requirements = {"nvidia-cudnn-cu12==9.1.0.70", ""};
  torch.bundled_libs = {"torch/lib/libcudnn.so.9"};
  BinaryInfo lib;
  lib.path = "torch/lib/libtorch_cuda.so";
  lib.code = FatbinCode{{50, 60, 70, 75, 80, 86, 90}, {90}, {90}, {}, {100}, {120}, 3, 1234, 1200, 2, 1, true};
  lib.needed = {"libcudart.so.12", "libcudnn.so.9"};
  lib.rpath = {"$ORIGIN/../../nvidia/cudnn/lib"};
  lib.runpath = {"$ORIGIN"};
  lib.error = "";
  torch.binaries = {lib, BinaryInfo{"torch/lib/libc10_cuda.so", std::nullopt, {}, {}, {}, "short read"}};
  scan.packages["torch"] = torch;
  PackageInfo cpu;
  cpu.name = "torchvision";
  cpu.cuda_none = true;
  scan.packages["torchvision"] = cpu;
  scan.extensions.push_back(ExtensionInfo{"flash-attn", Pep440::Parse("2.6.3").value(), "/m/METADATA", {"torch==2.4.0"}, {lib}});
  scan.extensions[0].editable = EditableInstall{EditableMode::kDevelop, "/home/u/flash-attention", "/site/flash_attn.egg-link"};
  scan.extensions[0].built_torch = "2.2.0+cu121";
  scan.extensions[0].libs[0].torch_lookup = SymbolLookup{812, 3, "_ZN2at4_ops15sum_IntList_out4callERKNS_6TensorE", "/site/torch/lib"};
  scan.extensions[0].built_cuda = CudaVersion{12, 1, std::nullopt};
  scan.extensions[0].built_source = "/site/xformers/cpp_lib.json";
  scan.package_trail = {Evidence{"python", "/env/bin/python3", Evidence::Outcome::kFound, "3.11.9"}};
  scan.torch_trail = {Evidence{"binaries", "libtorch_cuda.so", Evidence::Outcome::kError, "n5"}};
  scan.extension_trail = {Evidence{"binaries", "x", Evidence::Outcome::kSkipped, ""}};
  FileSig dep;
  dep.path = "/env/lib/python3.11/site-packages";
  dep.follow = false;
  dep.info.type = FileType::kDirectory;
  dep.info.size = 4096;
  dep.info.device = UINT64_MAX;
  dep.info.inode = 1311;
  dep.info.mtime_ns = 1764650000123456789;
  dep.info.ctime_ns = -1;
  scan.deps = {dep};

  std::optional<std::string> text = EncodeEnvScan("key 1", scan);
  ASSERT_TRUE(text.has_value());
  EXPECT_EQ(EnvScanKey(*text), "key 1");
  EXPECT_FALSE(DecodeEnvScan("key 2", *text).has_value());
  std::optional<EnvScan> back = DecodeEnvScan("key 1", *text);
  ASSERT_TRUE(back.has_value());
  ASSERT_EQ(back->packages.size(), 2u);
  const PackageInfo& t = back->packages.at("torch");
  EXPECT_EQ(t.version->ToString(), torch.version->ToString());
  EXPECT_EQ(t.version_source, torch.version_source);
  EXPECT_EQ(t.metadata_version, "2.4.0");
  EXPECT_EQ(t.cuda->ToString(), "12.1.105");
  EXPECT_EQ(t.cuda_source, torch.cuda_source);
  EXPECT_EQ(t.cuda_origin, Origin::kObserved);
  EXPECT_EQ(t.hip, "6.2.4");
  EXPECT_EQ(t.location, torch.location);
  EXPECT_EQ(t.nvidia_requirements, torch.nvidia_requirements);
  EXPECT_EQ(t.bundled_libs, torch.bundled_libs);
  ASSERT_EQ(t.binaries.size(), 2u);
  ASSERT_TRUE(t.binaries[0].code.has_value());
  const FatbinCode& c = *t.binaries[0].code;
  EXPECT_EQ(c.sass, lib.code->sass);
  EXPECT_EQ(c.ptx, lib.code->ptx);
  EXPECT_EQ(c.sass_a, lib.code->sass_a);
  EXPECT_EQ(c.ptx_a, lib.code->ptx_a);
  EXPECT_EQ(c.sass_f, lib.code->sass_f);
  EXPECT_EQ(c.ptx_f, lib.code->ptx_f);
  EXPECT_EQ(std::vector<uint64_t>({c.containers, c.entries, c.compressed, c.other, c.sampled}),
            std::vector<uint64_t>({3, 1234, 1200, 2, 1}));
  EXPECT_TRUE(c.partial);
  EXPECT_EQ(t.binaries[0].needed, lib.needed);
  EXPECT_EQ(t.binaries[0].rpath, lib.rpath);
  EXPECT_EQ(t.binaries[0].runpath, lib.runpath);
  EXPECT_FALSE(t.binaries[1].code.has_value());
  EXPECT_EQ(t.binaries[1].error, "short read");
  EXPECT_TRUE(back->packages.at("torchvision").cuda_none);
  EXPECT_FALSE(back->packages.at("torchvision").version.has_value());
  ASSERT_EQ(back->extensions.size(), 1u);
  EXPECT_EQ(back->extensions[0].torch_pins, std::vector<std::string>{"torch==2.4.0"});
  ASSERT_EQ(back->extensions[0].libs.size(), 1u);
  ASSERT_TRUE(back->extensions[0].libs[0].torch_lookup.has_value());
  const SymbolLookup& lookup = *back->extensions[0].libs[0].torch_lookup;
  EXPECT_EQ(lookup.looked_up, 812u);
  EXPECT_EQ(lookup.missing, 3u);
  EXPECT_EQ(lookup.first_missing, "_ZN2at4_ops15sum_IntList_out4callERKNS_6TensorE");
  EXPECT_EQ(lookup.torch_lib, "/site/torch/lib");
  EXPECT_FALSE(t.binaries[0].torch_lookup.has_value());
  ASSERT_TRUE(back->extensions[0].editable.has_value());
  EXPECT_EQ(back->extensions[0].editable->mode, EditableMode::kDevelop);
  EXPECT_EQ(back->extensions[0].editable->project, "/home/u/flash-attention");
  EXPECT_EQ(back->extensions[0].editable->source, "/site/flash_attn.egg-link");
  EXPECT_EQ(back->extensions[0].built_torch, "2.2.0+cu121");
  ASSERT_TRUE(back->extensions[0].built_cuda.has_value());
  EXPECT_EQ(back->extensions[0].built_cuda->MajorMinor(), "12.1");
  EXPECT_EQ(back->extensions[0].built_source, "/site/xformers/cpp_lib.json");
  ASSERT_EQ(back->torch_trail.size(), 1u);
  EXPECT_EQ(back->torch_trail[0].outcome, Evidence::Outcome::kError);
  EXPECT_EQ(back->extension_trail[0].outcome, Evidence::Outcome::kSkipped);
  EXPECT_EQ(back->package_trail[0].detail, "3.11.9");
  ASSERT_EQ(back->deps.size(), 1u);
  EXPECT_EQ(back->deps[0].path, dep.path);
  EXPECT_FALSE(back->deps[0].follow);
  EXPECT_EQ(back->deps[0].info.type, FileType::kDirectory);
  EXPECT_EQ(back->deps[0].info.device, UINT64_MAX);
  EXPECT_EQ(back->deps[0].info.mtime_ns, dep.info.mtime_ns);
  EXPECT_EQ(back->deps[0].info.ctime_ns, -1);
  // The same entry written again is the same text.
  EXPECT_EQ(EncodeEnvScan("key 1", *back), text);

  std::string head = "cudamatch-env-cache 8\n";
  ASSERT_EQ(text->substr(0, head.size()), head);
  std::string payload = text->substr(head.size() + 17);
  auto framed = [&](const std::string& p) { return head + EnvCacheChecksum(p) + "\n" + p; };
  EXPECT_TRUE(DecodeEnvScan("key 1", framed(payload)).has_value());
  for (size_t cut = 0; cut < payload.size(); ++cut) {
    EXPECT_FALSE(DecodeEnvScan("key 1", framed(payload.substr(0, cut))).has_value()) << cut;
  }
  EXPECT_FALSE(DecodeEnvScan("key 1", framed(payload + "n")).has_value());
}

TEST(EnvCacheStore, MadePrivateAndRefusesPlantedLinksAndOpenDirectories) {
  TempDir t;
  auto store = OpenCacheStore(t.path() + "/made");
  ASSERT_NE(store, nullptr);
  struct stat st;
  ASSERT_EQ(stat((t.path() + "/made").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  EXPECT_TRUE(store->Put("a", "text"));
  EXPECT_EQ(store->Get("a", 100).value_or(""), "text");
  EXPECT_FALSE(store->Get("a", 3).has_value());  // over the cap

  t.Mkdir("elsewhere");
  chmod((t.path() + "/elsewhere").c_str(), 0700);
  t.Symlink(t.path() + "/elsewhere", "planted");
  EXPECT_EQ(OpenCacheStore(t.path() + "/planted"), nullptr);
  t.Mkdir("open");
  chmod((t.path() + "/open").c_str(), 0777);
  EXPECT_EQ(OpenCacheStore(t.path() + "/open"), nullptr);
  t.Mkdir("opendir");
  chmod((t.path() + "/opendir").c_str(), 0777);
  EXPECT_EQ(OpenCacheStore(t.path() + "/opendir/cache"), nullptr);  // others could rename it away

  t.Write("secret", "not a cache entry");
  ASSERT_EQ(symlink((t.path() + "/secret").c_str(), (t.path() + "/made/b").c_str()), 0);
  EXPECT_FALSE(store->Get("b", 100).has_value());
  EXPECT_TRUE(store->Put("b", "new"));  // the link is replaced, its target untouched
  EXPECT_EQ(store->Get("b", 100).value_or(""), "new");
  std::ifstream secret(t.path() + "/secret");
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(secret)), std::istreambuf_iterator<char>()), "not a cache entry");
}

TEST(EnvCacheDir, XdgThenHome) {
  EXPECT_EQ(DefaultCacheDir("/x/cache", "/home/a", ""), "/x/cache/cudamatch");
  EXPECT_EQ(DefaultCacheDir("", "/home/a", ""), "/home/a/.cache/cudamatch");
  EXPECT_EQ(DefaultCacheDir("relative", "/home/a", ""), "/home/a/.cache/cudamatch");
  EXPECT_EQ(DefaultCacheDir("", "", ""), "");
}

// The fixture machine's environment variables (HOME, PATH, ...) and the cache directory.
std::vector<std::string> CliEnv(const TempDir& t) {
  // CUDAMATCH_CACHE given (empty) so that cmake/cache_suite.sh's "on" does not reach these runs.
  std::vector<std::string> env = {"CUDAMATCH_CACHE_DIR=" + t.path() + "/c", "CUDAMATCH_CACHE="};
  std::ifstream in(testing::SourceDir() + "/tests/fixtures/machines/" + kMachine + "/env");
  for (std::string kv; std::getline(in, kv);) {
    if (!kv.empty() && kv[0] != '#') env.push_back(kv);
  }
  return env;
}

size_t Entries(const std::string& dir) {
  if (!stdfs::exists(dir)) return 0;
  return static_cast<size_t>(std::distance(stdfs::directory_iterator(dir), stdfs::directory_iterator()));
}

TEST(EnvCacheCli, UnderRootOnlyWhenAskedAndNeverWithNoCache) {
  TempDir t;
  std::string machine = testing::SourceDir() + "/tests/fixtures/machines/" + kMachine + "/root";
  std::vector<std::string> env = CliEnv(t);
  auto plain = testing::RunCudamatch({"doctor", "-v", "--root", machine}, env);
  EXPECT_EQ(Entries(t.path() + "/c"), 0u);
  auto cold = testing::RunCudamatch({"doctor", "-v", "--root", machine, "--cache", "--no-cache"}, env);
  EXPECT_EQ(Entries(t.path() + "/c"), 0u);
  cold = testing::RunCudamatch({"doctor", "-v", "--root", machine, "--cache"}, env);
  EXPECT_GE(Entries(t.path() + "/c"), 1u);
  auto warm = testing::RunCudamatch({"doctor", "-v", "--root", machine, "--cache"}, env);
  EXPECT_EQ(cold.out, plain.out);
  EXPECT_EQ(warm.out, plain.out);
  EXPECT_EQ(warm.exit_code, plain.exit_code);
  env[1] = "CUDAMATCH_CACHE=off";  // CliEnv: the cache directory, then the mode
  stdfs::remove_all(t.path() + "/c");
  testing::RunCudamatch({"doctor", "--root", machine, "--cache"}, env);
  EXPECT_EQ(Entries(t.path() + "/c"), 0u);
}

// An entry whose checksum holds but whose fields end half-way is read until a field is missing,
// which the decoder reports by throwing: the binary's own unwinder (linked in, its frame lookup
// routed through src/cli/find_object_posix.cc) must carry that to the decoder's catch, and the
// run must answer as without a cache.
TEST(EnvCacheCli, AnEntryCutHalfWayUnderAValidChecksumIsIgnored) {
  TempDir t;
  std::string machine = testing::SourceDir() + "/tests/fixtures/machines/" + kMachine + "/root";
  std::vector<std::string> env = CliEnv(t);
  auto plain = testing::RunCudamatch({"doctor", "-v", "--root", machine}, env);
  testing::RunCudamatch({"doctor", "-v", "--root", machine, "--cache"}, env);
  const std::string head = "cudamatch-env-cache 8\n";
  size_t cut = 0;
  for (const auto& e : stdfs::directory_iterator(t.path() + "/c")) {
    if (e.path().filename().string().rfind("env-", 0) != 0) continue;
    std::ifstream in(e.path());
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    in.close();
    ASSERT_EQ(text.substr(0, head.size()), head);
    std::string payload = text.substr(head.size() + 17);
    payload.resize(payload.size() / 2);
    ASSERT_FALSE(DecodeEnvScan(EnvScanKey(text).value_or(""), head + EnvCacheChecksum(payload) + "\n" + payload).has_value());
    std::ofstream(e.path(), std::ios::trunc) << head + EnvCacheChecksum(payload) + "\n" + payload;
    ++cut;
  }
  ASSERT_GE(cut, 1u);
  auto warm = testing::RunCudamatch({"doctor", "-v", "--root", machine, "--cache"}, env);
  EXPECT_EQ(warm.exit_code, plain.exit_code) << warm.err;
  EXPECT_EQ(warm.out, plain.out);
  EXPECT_EQ(warm.err.find("terminate"), std::string::npos) << warm.err;
}

TEST(EnvCacheCli, RunsAtTheSameTimeAgree) {
  TempDir t;
  std::string machine = testing::SourceDir() + "/tests/fixtures/machines/" + kMachine + "/root";
  std::vector<std::string> env = CliEnv(t);
  auto plain = testing::RunCudamatch({"doctor", "--root", machine, "-v"}, env);
  // Six at once, started by one shell, each writing the same entries.
  std::string line = "cd " + t.path() + " && for i in 1 2 3 4 5 6; do env -i " + Join(env, " ") + " " +
                     testing::BinaryForShell() + " doctor --root " + machine + " --cache -v >out$i & done; wait";
  ASSERT_EQ(std::system(line.c_str()), 0) << line;
  for (int i = 1; i <= 6; ++i) {
    std::ifstream out(t.path() + "/out" + std::to_string(i));
    EXPECT_EQ(std::string((std::istreambuf_iterator<char>(out)), std::istreambuf_iterator<char>()), plain.out) << i << line;
  }
  for (const auto& e : stdfs::directory_iterator(t.path() + "/c")) {
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos);  // no half-written file left
  }
  EXPECT_EQ(testing::RunCudamatch({"doctor", "--root", machine, "--cache", "-v"}, env).out, plain.out);
}

// Probes that ask about the same place share one answer: nothing below the memo is asked twice.
TEST(MemoFs, EachPathIsAskedOnceARun) {
  std::string machine = testing::SourceDir() + "/tests/fixtures/machines/gpu-server/root";
  auto counting = std::make_unique<CountingFs>(testing::MakeTestFs(machine));
  CountingFs* counts = counting.get();
  auto fs = MakeMemoFs(std::move(counting));
  ProbeInput in;
  in.fs = fs.get();
  in.catalog = &testing::TheCatalog();
  in.env = {{"HOME", "/home/alice"}, {"PATH", "/home/alice/miniconda3/bin:/usr/local/cuda/bin:/usr/bin:/bin"},
            {"CONDA_PREFIX", "/home/alice/miniconda3/envs/torch23"}};
  TakeSnapshot(in);
  ASSERT_GT(counts->calls.size(), 20u);
  for (const auto& [call, n] : counts->calls) {
    if (call.first == "open") continue;  // large files are read a header at a time, each opened once a probe
    EXPECT_EQ(n, 1) << call.first << " " << call.second;
  }
}

}  // namespace
}  // namespace cudamatch
