// The report cache (cli/report_cache.h): the journal of what a run's answers depended on
// (core/journal_fs.h), its entry (core/report_entry.h), and the binary showing a kept report
// only while everything it depended on is as it was.
#include <gtest/gtest.h>
#ifndef _WIN32
#include <sys/stat.h>
#endif

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <thread>

#include "core/cache_store.h"
#include "core/journal_fs.h"
#include "core/report_entry.h"
#include "core/text.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

namespace stdfs = std::filesystem;
using testing::TempDir;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST(ReportEntry, ReadsBackOnlyIntactAndForItsOwnKey) {
  FsDep dep;
  dep.kind = FsDep::Kind::kStat;
  dep.path = "/usr/lib/python3/dist-packages/torch/version.py";
  dep.info.type = FileType::kRegular;
  dep.info.size = 265;
  dep.info.inode = 42;
  dep.info.mtime_ns = 1767225600000000001;
  dep.info.ctime_ns = 1767225600000000002;
  FsDep read;
  read.kind = FsDep::Kind::kRead;
  read.path = "/proc/driver/nvidia/version";
  read.max_bytes = 4096;
  read.answer = ~uint64_t{0} - 5;  // a checksum above INT64_MAX survives the signed integers
  KeptReport report{true, 1, "Machine: driver 550.54.14\n\x1b[31merror\x1b[0m\n"};
  std::string text = EncodeReport("key", "/", {dep, read}, report);
  auto back = DecodeReport(text, "key");
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->root, "/");
  ASSERT_EQ(back->deps.size(), 2u);
  EXPECT_EQ(back->deps[0].path, dep.path);
  EXPECT_EQ(back->deps[0].info.mtime_ns, dep.info.mtime_ns);
  EXPECT_EQ(back->deps[0].info.inode, 42u);
  EXPECT_EQ(back->deps[1].kind, FsDep::Kind::kRead);
  EXPECT_EQ(back->deps[1].answer, read.answer);
  EXPECT_EQ(back->report.text, report.text);
  EXPECT_TRUE(back->report.colour);
  EXPECT_EQ(back->report.exit_code, 1);
  EXPECT_FALSE(DecodeReport(text, "another key").has_value());
  std::string flipped = text;
  flipped[flipped.size() / 2] ^= 1;
  EXPECT_FALSE(DecodeReport(flipped, "key").has_value());
  EXPECT_FALSE(DecodeReport(text.substr(0, text.size() / 2), "key").has_value());
  EXPECT_FALSE(DecodeReport("cudamatch-report-cache 0\n" + text.substr(text.find('\n') + 1), "key").has_value());
  // A payload cut half-way under a checksum that holds for it.
  std::string head = text.substr(0, text.find('\n') + 1);
  std::string payload = text.substr(head.size() + 17);
  payload.resize(payload.size() / 2);
  EXPECT_FALSE(DecodeReport(head + Hex16(Checksum64(payload)) + "\n" + payload, "key").has_value());
}

// The variables left out of the key must be ones no code reads: no source file names one.
TEST(ReportEntry, NoSourceReadsAVariableLeftOutOfTheKey) {
  std::vector<std::string> sources;
  for (const auto& e : stdfs::recursive_directory_iterator(testing::SourceDir() + "/src")) {
    if (e.is_regular_file()) sources.push_back(e.path().string());
  }
  ASSERT_GT(sources.size(), 50u);
  for (const std::string& path : sources) {
    if (path.find("report_entry.cc") != std::string::npos) continue;  // the list itself
    std::string text = Slurp(path);
    for (std::string_view name : UnreadVariables()) {
      std::string quoted = "\"" + std::string(name) + "\"";
      if (name == "_") {  // "_" is common text: only reads of it count
        for (const char* call : {"Env(", "find(", "getenv(", "count(", "at("}) {
          EXPECT_EQ(text.find(call + quoted), std::string::npos) << path << " reads " << name;
        }
      } else {
        EXPECT_EQ(text.find(quoted), std::string::npos) << path << " names " << name;
      }
    }
  }
}

#ifndef _WIN32  // the report cache is kept on Linux only; these trees rely on symbolic links

void WaitATick() { std::this_thread::sleep_for(std::chrono::milliseconds(30)); }

bool AllHold(const Fs& fs, const std::vector<FsDep>& deps) {
  for (const FsDep& d : deps) {
    if (!DepHolds(fs, d)) return false;
  }
  return true;
}

// A tree with a file, a listed directory and a link; `ask` puts one question to a journaled file
// system over it, `change` changes the tree: the journal's entries must stop holding.
void ExpectChangeSeen(const std::function<void(const Fs&)>& ask, const std::function<void(const TempDir&)>& change,
                      const char* what) {
  TempDir t;
  t.Write("lib/version.py", "__version__ = '2.4.0'\n");
  t.Write("site/torch-2.4.0.dist-info/METADATA", "Name: torch\n");
  t.Symlink("lib/version.py", "link");
  FsJournal journal;
  auto fs = MakeJournalFs(testing::MakeTestFs(t.path()), &journal);
  ask(*fs);
  ASSERT_FALSE(journal.deps().empty()) << what;
  auto fresh = testing::MakeTestFs(t.path());
  EXPECT_TRUE(AllHold(*fresh, journal.deps())) << what << ": nothing changed yet";
  WaitATick();
  change(t);
  auto after = testing::MakeTestFs(t.path());
  EXPECT_FALSE(AllHold(*after, journal.deps())) << what;
}

TEST(FsJournal, EachKindOfQuestionSeesTheChangesThatChangeItsAnswer) {
  auto read = [](const Fs& fs) { (void)fs.Read("/lib/version.py", 4096); };
  auto list = [](const Fs& fs) { (void)fs.List("/site"); };
  auto link = [](const Fs& fs) { (void)fs.ReadLink("/link"); };
  auto resolve = [](const Fs& fs) { (void)fs.Resolve("/link"); };
  auto stat = [](const Fs& fs) { (void)fs.Stat("/lib/missing.py"); };
  // The same size, another content: the times say it.
  ExpectChangeSeen(read, [](const TempDir& t) { t.Write("lib/version.py", "__version__ = '2.5.0'\n"); }, "edited");
  ExpectChangeSeen(read, [](const TempDir& t) {
    t.Write("lib/new.py", "__version__ = '2.4.0'\n");
    stdfs::rename(t.path() + "/lib/new.py", t.path() + "/lib/version.py");
  }, "replaced by a rename");
  ExpectChangeSeen(read, [](const TempDir& t) { stdfs::remove(t.path() + "/lib/version.py"); }, "deleted");
  ExpectChangeSeen(read, [](const TempDir& t) { chmod((t.path() + "/lib/version.py").c_str(), 0); }, "made unreadable");
  ExpectChangeSeen(list, [](const TempDir& t) { t.Write("site/torch-2.5.0.dist-info/METADATA", "Name: torch\n"); },
                   "an entry added to a listed directory");
  ExpectChangeSeen(list, [](const TempDir& t) { stdfs::remove_all(t.path() + "/site/torch-2.4.0.dist-info"); },
                   "an entry removed from a listed directory");
  ExpectChangeSeen(link, [](const TempDir& t) {
    stdfs::remove(t.path() + "/link");
    t.Symlink("site", "link");
  }, "a link pointed elsewhere");
  ExpectChangeSeen(resolve, [](const TempDir& t) {
    stdfs::remove(t.path() + "/link");
    t.Symlink("site", "link");
  }, "a resolution changed");
  ExpectChangeSeen(stat, [](const TempDir& t) { t.Write("lib/missing.py", ""); }, "a missing file made");
}

TEST(FsJournal, FilesUnderProcAreCheckedByWhatTheySay) {
  TempDir t;
  t.Write("proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14\n");
  FsJournal journal;
  auto fs = MakeJournalFs(testing::MakeTestFs(t.path()), &journal);
  ASSERT_TRUE(fs->Read("/proc/driver/nvidia/version", 4096).ok());
  ASSERT_EQ(journal.deps().size(), 1u);
  EXPECT_EQ(journal.deps()[0].kind, FsDep::Kind::kRead);  // the answer, not the times
  EXPECT_TRUE(AllHold(*testing::MakeTestFs(t.path()), journal.deps()));
  t.Write("proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15\n");
  EXPECT_FALSE(AllHold(*testing::MakeTestFs(t.path()), journal.deps()));
}

TEST(FsJournal, AFileStatedBeforeItIsReadIsAskedOnce) {
  TempDir t;
  t.Write("a.txt", "a");
  FsJournal journal;
  auto fs = MakeJournalFs(testing::MakeTestFs(t.path()), &journal);
  (void)fs->Stat("/a.txt");
  (void)fs->Read("/a.txt", 10);
  (void)fs->Read("/a.txt", 10);
  ASSERT_EQ(journal.deps().size(), 1u);
  EXPECT_EQ(journal.deps()[0].kind, FsDep::Kind::kStat);
  EXPECT_FALSE(journal.ChangedSince(journal.deps()[0].info.ctime_ns + 1));
  EXPECT_TRUE(journal.ChangedSince(journal.deps()[0].info.ctime_ns));
}

// Kept reports are one per key: the store keeps the newest written of them, and only them.
TEST(CacheStoreTrim, RemovesTheOldestOfOneKindOnly) {
  TempDir t;
  auto store = OpenCacheStore(t.path() + "/c");
  ASSERT_NE(store, nullptr);
  for (const char* name : {"report-1", "report-2", "report-3", "report-4"}) {
    ASSERT_TRUE(store->Put(name, name));
    WaitATick();
  }
  ASSERT_TRUE(store->Put("env-1", "x"));
  store->Trim("report-", 2);
  EXPECT_FALSE(store->Get("report-1", 100).has_value());
  EXPECT_FALSE(store->Get("report-2", 100).has_value());
  EXPECT_EQ(store->Get("report-3", 100).value_or(""), "report-3");
  EXPECT_EQ(store->Get("report-4", 100).value_or(""), "report-4");
  EXPECT_TRUE(store->Get("env-1", 100).has_value());
  store->Trim("report-", 2);  // nothing more to remove
  EXPECT_TRUE(store->Get("report-3", 100).has_value());
}

// The binary: a kept report is shown again (the entry is not rewritten) until a file it depended
// on changes; then the answer is the one a run without any cache gives.
class ReportCacheCli : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = t_.path() + "/root";
    stdfs::copy(testing::SourceDir() + "/tests/fixtures/machines/flash-attn-no-sm/root", root_,
                stdfs::copy_options::recursive | stdfs::copy_options::copy_symlinks);
    env_ = {"LANG=C.UTF-8", "CUDAMATCH_CACHE_DIR=" + t_.path() + "/c", "CUDAMATCH_CACHE=on", "CUDAMATCH_OVERLAY=off",
            "HOME=/home/dave", "PATH=/home/dave/.pyenv/shims:/usr/bin:/bin", "PYENV_ROOT=/home/dave/.pyenv"};
    // A file changed less than two seconds before a run is not trusted to show a later change in
    // its times: the copied tree must be older than that for its report to be kept.
    std::this_thread::sleep_for(std::chrono::milliseconds(2100));
  }
  testing::RunResult Doctor(std::vector<std::string> extra = {}) const {
    std::vector<std::string> args = {"doctor", "--root", root_};
    args.insert(args.end(), extra.begin(), extra.end());
    return testing::RunCudamatch(args, env_);
  }
  // The report entries and their inodes (an entry written again is a new file: another inode).
  std::map<std::string, uint64_t> Entries() const {
    std::map<std::string, uint64_t> out;
    if (!stdfs::exists(t_.path() + "/c")) return out;
    for (const auto& e : stdfs::directory_iterator(t_.path() + "/c")) {
      std::string name = e.path().filename().string();
      struct stat st {};
      if (name.rfind("report-", 0) == 0 && stat(e.path().c_str(), &st) == 0) out[name] = st.st_ino;
    }
    return out;
  }
  TempDir t_;
  std::string root_;
  std::vector<std::string> env_;
};

TEST_F(ReportCacheCli, AKeptReportIsShownUntilAFileItDependsOnChanges) {
  auto cold = Doctor();
  auto kept = Entries();
  ASSERT_EQ(kept.size(), 1u) << cold.err;
  auto warm = Doctor();
  EXPECT_EQ(warm.out, cold.out);
  EXPECT_EQ(warm.exit_code, cold.exit_code);
  EXPECT_EQ(Entries(), kept) << "the kept report was shown, not made again";
  EXPECT_NE(cold.out.find("2.4.0+cu121"), std::string::npos) << cold.out;

  // An edit of torch's version.py (a file no directory listing shows changed).
  std::string version = root_ + "/home/dave/.pyenv/versions/3.11.7/lib/python3.11/site-packages/torch/version.py";
  std::string text = Slurp(version);
  text.replace(text.find("2.4.0+cu121"), 11, "2.4.1+cu121");
  std::ofstream(version, std::ios::trunc) << text;
  auto edited = Doctor();
  auto uncached = Doctor({"--no-cache"});
  EXPECT_NE(edited.out, cold.out);
  EXPECT_EQ(edited.out, uncached.out);
  EXPECT_NE(edited.out.find("2.4.1+cu121"), std::string::npos) << edited.out;
  EXPECT_EQ(Entries(), kept) << "a tree changed less than two seconds ago is not kept";
}

TEST_F(ReportCacheCli, AnEnvironmentRemovedOrADistributionAddedIsSeen) {
  auto cold = Doctor();
  ASSERT_EQ(Entries().size(), 1u) << cold.err;
  std::string site = root_ + "/home/dave/.pyenv/versions/3.11.7/lib/python3.11/site-packages";
  stdfs::rename(site + "/flash_attn-2.6.3.dist-info", t_.path() + "/away");
  auto removed = Doctor();
  EXPECT_NE(removed.out, cold.out);
  EXPECT_EQ(removed.out, Doctor({"--no-cache"}).out);
  stdfs::rename(t_.path() + "/away", site + "/flash_attn-2.6.3.dist-info");
  EXPECT_EQ(Doctor().out, cold.out);
}

TEST_F(ReportCacheCli, NotKeptAsJsonOrWithoutTheCache) {
  Doctor({"--json"});
  Doctor({"--no-cache"});
  Doctor({"--cache", "--from", testing::SourceDir() + "/tests/fixtures/pastes/tools/SOURCES.md"});
  EXPECT_TRUE(Entries().empty());
  auto text = Doctor({"--format", "markdown"});
  EXPECT_EQ(Entries().size(), 1u) << text.err;
  // A kept entry damaged on purpose is not shown: the run is made again, with the same answer.
  auto before = Doctor({"--format", "markdown"});
  for (const auto& [name, inode] : Entries()) {
    std::string path = t_.path() + "/c/" + name;
    std::string entry = Slurp(path);
    entry[entry.size() - 3] ^= 1;
    std::ofstream(path, std::ios::trunc | std::ios::binary) << entry;
  }
  auto damaged = Doctor({"--format", "markdown"});
  EXPECT_EQ(damaged.out, before.out);
  EXPECT_EQ(damaged.exit_code, before.exit_code);
}

#endif  // _WIN32

}  // namespace
}  // namespace cudamatch
