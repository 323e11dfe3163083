// The file layer checks a file's type on the descriptor it reads: a FIFO swapped in for a regular
// file between the check and the read is never opened for reading. Renames elsewhere on the
// machine (which make openat2 refuse a ".." it cannot prove safe) never make a read fail.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "core/fs.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TempDir;

// IN_OPEN events queued on `inotify_fd` (an O_PATH open, which opens nothing for I/O, makes none).
int CountOpens(int inotify_fd) {
  int opens = 0;
  alignas(inotify_event) char buf[4096];
  ssize_t n;
  while ((n = read(inotify_fd, buf, sizeof(buf))) > 0) {
    for (ssize_t at = 0; at < n;) {
      auto* e = reinterpret_cast<inotify_event*>(buf + at);
      if (e->mask & IN_OPEN) ++opens;
      at += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
    }
  }
  return opens;
}

TEST(RealFsRace, FifoSwappedInIsNeverOpenedForReading) {
  TempDir t;
  std::string file = t.Write("etc/os-release", "NAME=x\n");
  std::string fifo = t.path() + "/etc/spare";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  int watch = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  ASSERT_GE(watch, 0);
  ASSERT_GE(inotify_add_watch(watch, fifo.c_str(), IN_OPEN), 0);  // follows the FIFO's inode
  auto fs = testing::MakeTestFs(t.path());
  std::atomic<bool> stop{false};
  std::thread swapper([&] {
    while (!stop) renameat2(AT_FDCWD, file.c_str(), AT_FDCWD, fifo.c_str(), RENAME_EXCHANGE);
  });
  int read_ok = 0, refused = 0;
  for (int i = 0; i < 100000; ++i) {
    auto r = fs->Read("/etc/os-release", 4096);
    if (r) {
      ++read_ok;
      EXPECT_EQ(*r, "NAME=x\n");
    } else {
      ++refused;
    }
  }
  stop = true;
  swapper.join();
  EXPECT_EQ(CountOpens(watch), 0);
  EXPECT_GT(read_ok + refused, 0);
  close(watch);
}

TEST(RealFsRace, FifoIsRefusedWithoutBeingOpened) {
  TempDir t;
  t.Mkdir("etc");
  std::string fifo = t.path() + "/etc/os-release";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  int watch = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  ASSERT_GE(inotify_add_watch(watch, fifo.c_str(), IN_OPEN), 0);
  auto fs = testing::MakeTestFs(t.path());
  auto r = fs->Read("/etc/os-release", 4096);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("not a regular file"), std::string::npos) << r.error();
  EXPECT_FALSE(fs->Open("/etc/os-release").ok());
  EXPECT_EQ(CountOpens(watch), 0);
  close(watch);
}

// openat2(RESOLVE_IN_ROOT) answers EAGAIN for a path with ".." whenever any rename on the system
// raced its resolution (other programs, parallel tests, the cache's atomic writes). Such a read
// is retried, or walked, and never reported as missing.
TEST(RealFsRace, RenamesElsewhereNeverFailAReadThroughDotDot) {
  TempDir t;
  t.Write("etc/inside", "inside");
  t.Symlink("../../../../etc", "a/b/up");
  std::string from = t.Write("busy/one", "x");
  std::string to = t.path() + "/busy/two";
  auto fs = testing::MakeTestFs(t.path());
  std::atomic<bool> stop{false};
  std::atomic<long> renames{0};
  std::thread renamer([&] {
    while (!stop) {
      if (rename(from.c_str(), to.c_str()) == 0) ++renames;
      if (rename(to.c_str(), from.c_str()) == 0) ++renames;
    }
  });
  int failed = 0;
  std::string first_error;
  for (int i = 0; i < 20000; ++i) {
    auto r = fs->Read("/a/b/up/inside", 100);
    if (!r) {
      if (failed++ == 0) first_error = r.error();
    } else {
      EXPECT_EQ(*r, "inside");
    }
  }
  stop = true;
  renamer.join();
  EXPECT_GT(renames.load(), 0);
  EXPECT_EQ(failed, 0) << first_error;
}

}  // namespace
}  // namespace cudamatch
