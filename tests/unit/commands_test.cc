// Install commands in the form of each release's era.
#include "plan/commands.h"

#include <gtest/gtest.h>

#include "catalog/query.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TheCatalog;

InstallCommands For(const char* torch, const char* tag, Platform p = {}) {
  const TorchRelease* t = FindTorch(TheCatalog(), Pep440::Parse(torch).value());
  const TorchVariant* v = FindVariant(TheCatalog(), t->torch, p.Name(), tag);
  EXPECT_NE(v, nullptr) << torch << " " << tag;
  return BuildInstallCommands(InstallRequest{t, v, p, true, true, nullptr});
}

TEST(Commands, IndexUrlEra) {
  EXPECT_EQ(For("2.3.1", "cu118").pip,
            "pip install torch==2.3.1 torchvision==0.18.1 torchaudio==2.3.1 --index-url https://download.pytorch.org/whl/cu118");
  EXPECT_EQ(For("2.3.1", "cu121").pip, "pip install torch==2.3.1 torchvision==0.18.1 torchaudio==2.3.1");
  EXPECT_EQ(For("2.3.1", "cu121").uv, "uv pip install torch==2.3.1 torchvision==0.18.1 torchaudio==2.3.1");
  EXPECT_EQ(*For("2.3.1", "cu121").conda,
            "conda install pytorch==2.3.1 torchvision==0.18.1 torchaudio==2.3.1 pytorch-cuda=12.1 -c pytorch -c nvidia");
  EXPECT_EQ(*For("2.3.1", "cpu").conda, "conda install pytorch==2.3.1 torchvision==0.18.1 torchaudio==2.3.1 cpuonly -c pytorch");
}

TEST(Commands, ExtraIndexEraCarriesLocalLabels) {
  EXPECT_EQ(For("1.12.1", "cu113").pip,
            "pip install torch==1.12.1+cu113 torchvision==0.13.1+cu113 torchaudio==0.12.1 --extra-index-url "
            "https://download.pytorch.org/whl/cu113");
  EXPECT_EQ(For("1.13.0", "cu117").pip, "pip install torch==1.13.0 torchvision==0.14.0 torchaudio==0.13.0");
}

TEST(Commands, FindLinksEra) {
  EXPECT_EQ(For("1.7.1", "cu110").pip,
            "pip install torch==1.7.1+cu110 torchvision==0.8.2+cu110 torchaudio==0.7.2 -f "
            "https://download.pytorch.org/whl/torch_stable.html");
  EXPECT_EQ(*For("1.7.1", "cu110").conda,
            "conda install pytorch==1.7.1 torchvision==0.8.2 torchaudio==0.7.2 cudatoolkit=11.0 -c pytorch");
}

TEST(Commands, DirectDownloadEra) {
  EXPECT_EQ(For("1.1.0", "cu100").pip,
            "pip install torch==1.1.0 torchvision==0.3.0 -f https://download.pytorch.org/whl/cu100/torch_stable.html");
}

TEST(Commands, LtsIndex) {
  EXPECT_EQ(For("1.8.2", "cu111").pip,
            "pip install torch==1.8.2 torchvision==0.9.2 torchaudio==0.8.2 --extra-index-url "
            "https://download.pytorch.org/whl/lts/1.8/cu111");
}

TEST(Commands, NoCondaAfterTwoFive) {
  InstallCommands c = For("2.6.0", "cu126");
  EXPECT_FALSE(c.conda.has_value());
  EXPECT_NE(std::find(c.notes.begin(), c.notes.end(), "note.conda_channel_ended"), c.notes.end());
}

TEST(Commands, FindLinksMirrorUsesLabels) {
  const TorchRelease* t = FindTorch(TheCatalog(), Pep440::Parse("2.3.1").value());
  const TorchVariant* v = FindVariant(TheCatalog(), t->torch, "linux-x86_64", "cu118");
  const Mirror* m = FindMirror(TheCatalog(), "sjtu-pytorch-wheels");
  ASSERT_NE(m, nullptr);
  InstallCommands c = BuildInstallCommands(InstallRequest{t, v, Platform{}, true, false, m});
  EXPECT_EQ(c.pip, "pip install torch==2.3.1+cu118 torchvision==0.18.1+cu118 -f " + m->url);
}

}  // namespace
}  // namespace cudamatch
