// What a run learned about directories (core/dir_proofs.h) answers a later run only while the
// directory is as it was: a file or directory created where one was missing, an entry added to a
// listed directory, or the directory replaced is seen at once; recent, damaged, foreign-root and
// /proc answers are never used.
#include "core/dir_proofs.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <thread>

#include "core/memo_fs.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

namespace stdfs = std::filesystem;
using testing::TempDir;

// Counts the calls that reach the file system below the memo.
class CountingFs : public Fs {
 public:
  explicit CountingFs(std::unique_ptr<Fs> inner, int* calls) : inner_(std::move(inner)), calls_(calls) {}
  Result<std::string> Read(std::string_view p, size_t cap) const override { return ++*calls_, inner_->Read(p, cap); }
  Result<std::unique_ptr<RandomAccessFile>> Open(std::string_view p) const override { return ++*calls_, inner_->Open(p); }
  Result<std::vector<std::string>> List(std::string_view p) const override { return ++*calls_, inner_->List(p); }
  FileInfo Stat(std::string_view p) const override { return ++*calls_, inner_->Stat(p); }
  FileInfo LStat(std::string_view p) const override { return ++*calls_, inner_->LStat(p); }
  Result<std::string> ReadLink(std::string_view p) const override { return ++*calls_, inner_->ReadLink(p); }
  Result<std::string> Resolve(std::string_view p) const override { return ++*calls_, inner_->Resolve(p); }
  const std::string& root() const override { return inner_->root(); }
  std::vector<Unreadable> unreadable() const override { return inner_->unreadable(); }

 private:
  std::unique_ptr<Fs> inner_;
  int* calls_;
};

int64_t Later() {  // a run's start well after every change the test makes: nothing is too recent
  auto now = std::chrono::system_clock::now().time_since_epoch() + std::chrono::hours(1);
  return std::chrono::duration_cast<std::chrono::nanoseconds>(now).count();
}

void WaitATick() { std::this_thread::sleep_for(std::chrono::milliseconds(30)); }

// What one run answers about a conda-like prefix, and the proofs it leaves for the next.
struct Answers {
  bool pyvenv = false, lib64_site = false;
  std::vector<std::string> lib;
  int calls = 0;
  std::string saved;
  bool unchanged = false;  // what DirProofs::Unchanged() said after the run
  bool operator==(const Answers& o) const { return pyvenv == o.pyvenv && lib64_site == o.lib64_site && lib == o.lib; }
};

Answers Probe(const std::string& prefix, const std::string& earlier, bool use_proofs = true) {
  Answers a;
  DirProofs proofs("/", Later(), 0);
  if (!earlier.empty()) proofs.Load(earlier);
  auto fs = MakeMemoFs(std::make_unique<CountingFs>(testing::MakeTestFs("/"), &a.calls), use_proofs ? &proofs : nullptr);
  fs->LStat(prefix);
  a.pyvenv = fs->Read(prefix + "/pyvenv.cfg", 4096).ok();
  a.lib = fs->List(prefix + "/lib").value_or({});
  a.lib64_site = fs->Stat(prefix + "/lib64/python3.11/site-packages").exists();
  a.saved = proofs.Save();
  a.unchanged = proofs.Unchanged();
  return a;
}

class DirProofsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    prefix_ = tmp_.Mkdir("env");
    tmp_.Mkdir("env/lib/python3.11/site-packages");
    tmp_.Mkdir("env/bin");
    WaitATick();
    cold_ = Probe(prefix_, "");
  }
  TempDir tmp_;
  std::string prefix_;
  Answers cold_;
};

TEST_F(DirProofsTest, AnUnchangedPrefixIsAnsweredByTheLstatsOfItsDirectories) {
  Answers warm = Probe(prefix_, cold_.saved);
  EXPECT_EQ(warm, cold_);
  EXPECT_EQ(warm, Probe(prefix_, "", false));
  EXPECT_EQ(warm.lib, std::vector<std::string>{"python3.11"});
  EXPECT_EQ(warm.calls, 2);  // lstat of the prefix and of lib/: no read, listing or stat below
  EXPECT_GT(cold_.calls, warm.calls);
  EXPECT_EQ(Probe(prefix_, warm.saved).calls, 2);  // what was used is kept
}

// A run that used and learned what it loaded says so (and has nothing new to save); one that
// learned something, used less, or loaded nothing does not.
TEST_F(DirProofsTest, UnchangedOnlyWhenTheRunKeptExactlyWhatItLoaded) {
  EXPECT_FALSE(cold_.unchanged);
  Answers warm = Probe(prefix_, cold_.saved);
  ASSERT_TRUE(warm.unchanged);
  EXPECT_EQ(warm.saved, cold_.saved);  // so skipping the save loses nothing
  tmp_.Mkdir("env/lib/python3.12");    // lib/ changed: its listing is learned again
  WaitATick();
  Answers changed = Probe(prefix_, warm.saved);
  EXPECT_FALSE(changed.unchanged);
  EXPECT_NE(changed.saved, warm.saved);
  // A run that asks less than the last one keeps less.
  DirProofs proofs("/", Later(), 0);
  ASSERT_TRUE(proofs.Load(changed.saved));
  int calls = 0;
  auto fs = MakeMemoFs(std::make_unique<CountingFs>(testing::MakeTestFs("/"), &calls), &proofs);
  fs->LStat(prefix_);
  EXPECT_FALSE(proofs.Unchanged());
}

TEST_F(DirProofsTest, WhatIsCreatedAddedOrReplacedIsSeenOnTheNextRun) {
  std::map<std::string, std::function<void()>> changes = {
      {"pyvenv.cfg created", [&] { tmp_.Write("env/pyvenv.cfg", "home = /usr/bin\n"); }},
      {"lib64 created", [&] { tmp_.Mkdir("env/lib64/python3.11/site-packages"); }},
      {"an entry added to lib/", [&] { tmp_.Mkdir("env/lib/python3.12"); }},
      {"lib/ replaced", [&] {
         stdfs::rename(prefix_ + "/lib", prefix_ + "/lib.old");
         tmp_.Mkdir("env/lib/python3.13");
       }},
      {"the prefix replaced", [&] {
         stdfs::rename(prefix_, tmp_.path() + "/env.old");
         tmp_.Write("env/pyvenv.cfg", "");
         tmp_.Mkdir("env/lib/python3.11");
       }},
  };
  for (const auto& [what, change] : changes) {
    stdfs::remove_all(prefix_);
    stdfs::remove_all(tmp_.path() + "/env.old");
    tmp_.Mkdir("env/lib/python3.11/site-packages");
    WaitATick();
    Answers before = Probe(prefix_, "");
    Answers warm = Probe(prefix_, before.saved);
    ASSERT_EQ(warm, before) << what;
    change();
    Answers after = Probe(prefix_, warm.saved);
    EXPECT_EQ(after, Probe(prefix_, "", false)) << what;
    EXPECT_FALSE(after == before) << what;
  }
}

TEST_F(DirProofsTest, ADirectoryReachedThroughALinkIsKnownByItsTarget) {
  tmp_.Mkdir("linked/libA/python3.11");
  tmp_.Mkdir("linked/libB/python3.12");
  tmp_.Symlink("libA", "linked/lib");
  std::string prefix = tmp_.path() + "/linked";
  WaitATick();
  Answers warm = Probe(prefix, Probe(prefix, "").saved);
  EXPECT_EQ(warm.lib, std::vector<std::string>{"python3.11"});
  stdfs::remove(prefix + "/lib");
  tmp_.Symlink("libB", "linked/lib");
  EXPECT_EQ(Probe(prefix, warm.saved).lib, std::vector<std::string>{"python3.12"});
}

TEST_F(DirProofsTest, RecentDamagedOrForeignProofsAreNotUsed) {
  DirProofs recent("/", std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::system_clock::now().time_since_epoch()).count());
  auto fs = MakeMemoFs(testing::MakeTestFs("/"), &recent);
  tmp_.Mkdir("fresh");
  fs->Stat(tmp_.path() + "/fresh/missing");
  EXPECT_EQ(recent.Save().find("\nD "), std::string::npos);  // changed less than 2 s ago: nothing learned

  DirProofs again("/", Later(), 0);
  EXPECT_TRUE(again.Load(cold_.saved));
  std::string damaged = cold_.saved;
  damaged[damaged.size() / 2] ^= 1;
  EXPECT_FALSE(again.Load(damaged));
  DirProofs other("/other/root", Later(), 0);
  EXPECT_FALSE(other.Load(cold_.saved));
  EXPECT_FALSE(again.Load("cudamatch-dir-proofs 2\n"));
}

TEST(DirProofs, ProcSysAndDevAreAlwaysAsked) {
  DirProofs proofs("/", Later(), 0);
  auto fs = MakeMemoFs(testing::MakeTestFs("/"), &proofs);
  fs->Stat("/proc/driver/nvidia-no-such-module/version");
  fs->List("/proc/self");
  fs->Stat("/sys/no-such-entry");
  fs->Stat("/dev/no-such-device");
  EXPECT_EQ(proofs.Save().find("\nD "), std::string::npos);
}

}  // namespace
}  // namespace cudamatch

namespace cudamatch {
namespace {

// The numbers a proof is kept with come back whole at their extremes (device and inode to 2^64 - 1,
// times before 1970), and a number one past its type's range makes the file unreadable.
TEST(DirProofsFormat, NumbersAtTheirLimitsComeBackAndOnePastIsRefused) {
  FileInfo dir{FileType::kDirectory, 4096, UINT64_MAX, UINT64_MAX - 1, -1'000'000'007, INT64_MIN + 1};
  DirProofs first("/", Later());
  first.LearnMissing("/opt/env", dir, "pyvenv.cfg");
  std::string saved = first.Save();
  EXPECT_NE(saved.find(" 18446744073709551615 18446744073709551614 4096 -1000000007 -9223372036854775807 /opt/env"), std::string::npos) << saved;
  DirProofs second("/", Later());
  ASSERT_TRUE(second.Load(saved));
  EXPECT_TRUE(second.ProvesMissing("/opt/env", dir, "pyvenv.cfg"));
  FileInfo other = dir;
  other.inode = UINT64_MAX;
  EXPECT_FALSE(second.ProvesMissing("/opt/env", other, "pyvenv.cfg"));

  auto reframed = [](std::string text, const std::string& from, const std::string& to) {
    size_t body = text.find('\n', text.find('\n') + 1) + 1;
    std::string rest = text.substr(body);
    rest.replace(rest.find(from), from.size(), to);
    return text.substr(0, text.find('\n') + 1) + Hex16(Checksum64(rest)) + "\n" + rest;
  };
  DirProofs third("/", Later());
  EXPECT_TRUE(third.Load(reframed(saved, "18446744073709551615 ", "18446744073709551615 ")));
  DirProofs fourth("/", Later());
  EXPECT_FALSE(fourth.Load(reframed(saved, "18446744073709551615 ", "18446744073709551616 ")));
  DirProofs fifth("/", Later());
  EXPECT_FALSE(fifth.Load(reframed(saved, "-9223372036854775807 ", "-9223372036854775809 ")));
  DirProofs sixth("/", Later());
  EXPECT_FALSE(sixth.Load(reframed(saved, " 4096 ", " -4096 ")));  // a size is never negative
}

}  // namespace
}  // namespace cudamatch
