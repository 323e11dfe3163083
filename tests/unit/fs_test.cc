// The filesystem under a root: links resolve inside it, nothing blocks, reads are capped.
#include "core/fs.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TempDir;

TEST(RealFs, AbsoluteLinksResolveInsideTheRoot) {
  TempDir t;
  t.Write("usr/local/cuda-12.4/version.json", "{}");
  t.Symlink("/usr/local/cuda-12.4", "usr/local/cuda");
  auto fs = testing::MakeTestFs(t.path());
  EXPECT_EQ(fs->Resolve("/usr/local/cuda").value(), "/usr/local/cuda-12.4");
  EXPECT_TRUE(fs->IsFile("/usr/local/cuda/version.json"));
  EXPECT_EQ(fs->LStat("/usr/local/cuda").type, FileType::kSymlink);
  EXPECT_EQ(fs->ReadLink("/usr/local/cuda").value(), "/usr/local/cuda-12.4");
}

TEST(RealFs, EscapingLinksStayInside) {
  TempDir t;
  t.Write("etc/inside", "inside");
  t.Symlink("../../../../etc", "a/b/up");
  auto fs = testing::MakeTestFs(t.path());
  // ".." at the root stays at the root, as under chroot.
  auto text = fs->Read("/a/b/up/inside", 100);
  ASSERT_TRUE(text.ok()) << text.error();
  EXPECT_EQ(*text, "inside");
  EXPECT_FALSE(fs->Exists("/a/b/up/passwd"));
}

TEST(RealFs, SymlinkLoopsAndDanglingLinksAreErrors) {
  TempDir t;
  t.Symlink("loop2", "loop1");
  t.Symlink("loop1", "loop2");
  t.Symlink("/nowhere", "dangling");
  auto fs = testing::MakeTestFs(t.path());
  EXPECT_FALSE(fs->Read("/loop1", 10).ok());
  EXPECT_FALSE(fs->Resolve("/loop1").ok());
  EXPECT_FALSE(fs->Exists("/dangling"));
  EXPECT_EQ(fs->LStat("/dangling").type, FileType::kSymlink);
}

TEST(RealFs, FifoIsNeverOpenedForReading) {
  TempDir t;
  std::string fifo = t.path() + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  auto fs = testing::MakeTestFs(t.path());
  auto r = fs->Read("/fifo", 100);  // would block forever if opened for reading
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("not a regular file"), std::string::npos);
  EXPECT_EQ(fs->Stat("/fifo").type, FileType::kOther);
}

TEST(RealFs, DeviceAndDirectoryAreNotFiles) {
  auto fs = MakeRealFs("/");
  EXPECT_FALSE(fs->Read("/dev/zero", 10).ok());
  EXPECT_FALSE(fs->Read("/tmp", 10).ok());
}

TEST(RealFs, ReadsAreCapped) {
  TempDir t;
  t.Write("big", std::string(1 << 20, 'x'));
  auto fs = testing::MakeTestFs(t.path());
  EXPECT_EQ(fs->Read("/big", 1000).value().size(), 1000u);
}

TEST(RealFs, UnreadableDirectoryIsAnError) {
  TempDir t;
  std::string dir = t.Mkdir("secret");
  t.Write("closed", "x");
  chmod(dir.c_str(), 0);
  chmod((t.path() + "/closed").c_str(), 0);
  auto as_user = [&] {
    auto fs = testing::MakeTestFs(t.path());
    auto listing = fs->List("/secret");
    ASSERT_FALSE(listing.ok());
    EXPECT_NE(listing.error().find("Permission denied"), std::string::npos) << listing.error();
    auto text = fs->Read("/closed", 100);
    ASSERT_FALSE(text.ok());
    EXPECT_NE(text.error().find("Permission denied"), std::string::npos) << text.error();
    EXPECT_TRUE(fs->List("/").ok());
  };
  int status = testing::WithPermissionsEnforced(as_user);
  if (status == testing::kCannotEnforcePermissions) GTEST_SKIP() << "root here may not give up CAP_DAC_OVERRIDE";
  EXPECT_EQ(status, 0) << "the child process failed (above)";
}

TEST(RealFs, ListIsSorted) {
  TempDir t;
  t.Write("d/b", "");
  t.Write("d/a", "");
  auto fs = testing::MakeTestFs(t.path());
  EXPECT_EQ(fs->List("/d").value(), (std::vector<std::string>{"a", "b"}));
}

TEST(FakeFs, ResolvesLinksAndRecordsReads) {
  FakeFs fs;
  fs.AddFile("/opt/x/file", "hello");
  fs.AddSymlink("/opt/link", "x");
  fs.AddSymlink("/abs", "/opt/x");
  fs.AddSpecial("/dev/fifo");
  EXPECT_EQ(fs.Read("/opt/link/file", 3).value(), "hel");
  EXPECT_EQ(fs.Read("/abs/file", 10).value(), "hello");
  EXPECT_EQ(fs.Resolve("/abs/file").value(), "/opt/x/file");
  EXPECT_FALSE(fs.Read("/dev/fifo", 10).ok());
  EXPECT_EQ(fs.List("/opt").value(), (std::vector<std::string>{"link", "x"}));
  EXPECT_EQ(fs.reads().size(), 3u);
}

TEST(Paths, Normalise) {
  EXPECT_EQ(NormalizePath("//a/./b/../c/"), "/a/c");
  EXPECT_EQ(NormalizePath("/.."), "/");
  EXPECT_EQ(NormalizePath("/usr/local/cuda-12.4/bin/nvcc"), "/usr/local/cuda-12.4/bin/nvcc");
  EXPECT_EQ(NormalizePath("/"), "/");
  EXPECT_EQ(NormalizePath("a/b"), "/a/b");
  EXPECT_EQ(NormalizePath("/a/"), "/a");
  EXPECT_EQ(NormalizePath("/a/."), "/a");
  EXPECT_EQ(NormalizePath("/a/b/.."), "/a");
  EXPECT_EQ(NormalizePath("/a/.b/..c"), "/a/.b/..c");
  EXPECT_EQ(JoinPath("/a/b", "../c"), "/a/c");
  EXPECT_EQ(JoinPath("/a", "/x"), "/x");
  EXPECT_EQ(Dirname("/a/b"), "/a");
  EXPECT_EQ(Dirname("/a"), "/");
  EXPECT_EQ(Basename("/a/b"), "b");
}

}  // namespace
}  // namespace cudamatch
