// The Windows cache store: files written whole, read back capped, replaced, and anything that
// is not a regular file of the store ignored.
#include <windows.h>

#include <gtest/gtest.h>

#include <fstream>

#include "core/cache_store.h"
#include "core/win_text.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TempDir;

TEST(WindowsCacheStore, MakesTheDirectoryAndReadsBackWhatItWrote) {
  TempDir tmp;
  std::string dir = tmp.path() + "\\cudamatch";
  auto store = OpenCacheStore(dir);
  ASSERT_NE(store, nullptr);
  DWORD attr = GetFileAttributesW(WideFromUtf8(dir).c_str());
  ASSERT_NE(attr, INVALID_FILE_ATTRIBUTES);
  EXPECT_NE(attr & FILE_ATTRIBUTE_DIRECTORY, 0u);
  EXPECT_EQ(store->Get("index-overlay.tsv", 1 << 20), std::nullopt);
  ASSERT_TRUE(store->Put("index-overlay.tsv", "first\n"));
  EXPECT_EQ(store->Get("index-overlay.tsv", 1 << 20), std::optional<std::string>("first\n"));
}

TEST(WindowsCacheStore, ReplacesAFileWholeAndLeavesNoTemporaryFile) {
  TempDir tmp;
  auto store = OpenCacheStore(tmp.path() + "\\cudamatch");
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->Put("a.tsv", std::string(5000, 'x')));
  ASSERT_TRUE(store->Put("a.tsv", "short"));
  EXPECT_EQ(store->Get("a.tsv", 100), std::optional<std::string>("short"));
  WIN32_FIND_DATAW found;
  std::wstring pattern = WideFromUtf8(tmp.path() + "\\cudamatch\\*.tmp.*");
  HANDLE h = FindFirstFileW(pattern.c_str(), &found);
  EXPECT_EQ(h, INVALID_HANDLE_VALUE);
  if (h != INVALID_HANDLE_VALUE) FindClose(h);
}

TEST(WindowsCacheStore, IgnoresAnEntryOverTheCapADirectoryAndAPathName) {
  TempDir tmp;
  auto store = OpenCacheStore(tmp.path() + "\\cudamatch");
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->Put("big.tsv", std::string(64, 'y')));
  EXPECT_EQ(store->Get("big.tsv", 63), std::nullopt);
  EXPECT_EQ(store->Get("big.tsv", 64), std::optional<std::string>(std::string(64, 'y')));
  ASSERT_TRUE(CreateDirectoryW(WideFromUtf8(tmp.path() + "\\cudamatch\\sub").c_str(), nullptr));
  EXPECT_EQ(store->Get("sub", 1 << 20), std::nullopt);
  EXPECT_EQ(store->Get("..\\big.tsv", 1 << 20), std::nullopt);
  EXPECT_FALSE(store->Put("..\\escape.tsv", "no"));
}

TEST(WindowsCacheStore, RefusesARelativePathAndADriveRoot) {
  EXPECT_EQ(OpenCacheStore("relative\\cudamatch"), nullptr);
  EXPECT_EQ(OpenCacheStore("C:\\"), nullptr);
  EXPECT_EQ(OpenCacheStore(""), nullptr);
}

TEST(WindowsCacheStore, DefaultDirectoryIsUnderLocalAppData) {
  EXPECT_EQ(DefaultCacheDir("/xdg", "/home/u", "C:\\Users\\u\\AppData\\Local"), "C:\\Users\\u\\AppData\\Local\\cudamatch");
  EXPECT_EQ(DefaultCacheDir("/xdg", "/home/u", ""), "");
}

}  // namespace
}  // namespace cudamatch
