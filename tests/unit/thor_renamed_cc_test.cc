// Thor's compute capability under the name users type from CUDA 12.8/12.9 (10.1, sm_101): the
// catalog's renamed_from column maps it to 11.0, the name CUDA 13.0 gave it, and the row is sourced.
#include <gtest/gtest.h>

#include "catalog/query.h"
#include "plan/lookup.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TheCatalog;

LookupResult GpuLookupOf(const std::string& text) {
  LookupTarget t;
  t.platform = Platform{Os::kLinux, Arch::kX86_64};
  auto r = Lookup(TheCatalog(), LookupQuery{LookupQuery::Kind::kGpu, text}, t, nullptr);
  EXPECT_TRUE(r.ok()) << text;
  return *r;
}

TEST(ThorRenamedCc, TenOneIsTheEarlierNameOfElevenZero) {
  auto now = RenamedCc(TheCatalog(), *ComputeCapability::Parse("10.1"));
  ASSERT_TRUE(now.has_value());
  EXPECT_EQ(now->ToString(), "11.0");
  EXPECT_FALSE(RenamedCc(TheCatalog(), *ComputeCapability::Parse("10.0")).has_value());
  EXPECT_FALSE(RenamedCc(TheCatalog(), *ComputeCapability::Parse("11.0")).has_value());
}

TEST(ThorRenamedCc, LookupSm101AnswersThorWithTheOldName) {
  for (const std::string text : {"sm_101", "10.1"}) {
    LookupResult r = GpuLookupOf(text);
    ASSERT_TRUE(r.gpu.has_value()) << text;
    EXPECT_FALSE(r.not_found.has_value()) << text;
    EXPECT_EQ(r.gpu->cc.ToString(), "11.0") << text;
    ASSERT_TRUE(r.gpu->renamed_from.has_value()) << text;
    EXPECT_EQ(r.gpu->renamed_from->ToString(), "10.1") << text;
    ASSERT_NE(r.gpu->architecture, nullptr);
    EXPECT_EQ(r.gpu->first_cuda->MajorMinor(), "13.0");
  }
}

TEST(ThorRenamedCc, LookupOfTheFullNvidiaNameAnswersThor) {
  LookupResult r = GpuLookupOf("NVIDIA Jetson AGX Thor");
  ASSERT_TRUE(r.gpu.has_value());
  EXPECT_EQ(r.gpu->cc.ToString(), "11.0");
  EXPECT_FALSE(r.gpu->renamed_from.has_value());
}

TEST(ThorRenamedCc, TheRenamedRowCitesANvidiaSource) {
  const Catalog& c = TheCatalog();
  const GpuArchitecture* thor = ArchitectureFor(c, *ComputeCapability::Parse("11.0"));
  ASSERT_NE(thor, nullptr);
  ASSERT_EQ(thor->renamed_from.size(), 1u);
  std::string tsv = testing::ReadSource("catalog/gpu_architectures.tsv");
  std::string sources = testing::ReadSource("catalog/sources.tsv");
  EXPECT_NE(tsv.find("\t10.1\t"), std::string::npos);
  EXPECT_NE(tsv.find("nv-nvcompdx-rn"), std::string::npos);
  EXPECT_NE(sources.find("nv-nvcompdx-rn\t"), std::string::npos);
  EXPECT_NE(sources.find("https://docs.nvidia.com/cuda/nvcompdx/release_notes.html"), std::string::npos);
}

}  // namespace
}  // namespace cudamatch
