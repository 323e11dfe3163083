// The stages depend one way: a file of a layer includes only files of its own or a lower layer.
// The order is declared here once; README.md's Layout section states the same order. The tree
// checked is src/ of this checkout, or the one CUDAMATCH_LAYERING_SRC names (to check another).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

constexpr std::string_view kLayers[] = {"core", "catalog", "probe", "derive", "diagnose", "plan", "report", "cli"};

int LayerOf(std::string_view dir) {
  auto it = std::find(std::begin(kLayers), std::end(kLayers), dir);
  return it == std::end(kLayers) ? -1 : static_cast<int>(it - std::begin(kLayers));
}

std::string SrcDir() {
  const char* other = std::getenv("CUDAMATCH_LAYERING_SRC");
  return other != nullptr && *other != '\0' ? other : testing::SourceDir() + "/src";
}

// "src/diagnose/rules.cc includes plan/fix.h" for every include of a higher layer.
std::vector<std::string> UpwardIncludes(const std::string& src) {
  std::vector<std::string> out;
  std::regex include("^\\s*#\\s*include\\s+\"([a-z_]+)/[^\"]+\"");
  for (const auto& entry : std::filesystem::recursive_directory_iterator(src)) {
    if (!entry.is_regular_file()) continue;
    std::string rel = std::filesystem::relative(entry.path(), src).generic_string();
    int layer = LayerOf(rel.substr(0, rel.find('/')));
    EXPECT_GE(layer, 0) << "src/" << rel << " is in no declared layer";
    std::ifstream in(entry.path());
    std::string line;
    while (std::getline(in, line)) {
      std::smatch m;
      if (!std::regex_search(line, m, include)) continue;
      int target = LayerOf(m[1].str());
      if (target > layer) out.push_back("src/" + rel + " includes " + line.substr(line.find('"')));
    }
  }
  return out;
}

TEST(Layering, NoFileIncludesAHigherLayer) {
  std::vector<std::string> upward = UpwardIncludes(SrcDir());
  for (const std::string& u : upward) ADD_FAILURE() << u;
  EXPECT_TRUE(upward.empty()) << upward.size() << " upward includes in " << SrcDir();
}

TEST(Layering, TheReadmeStatesTheOrder) {
  std::string order;
  for (std::string_view l : kLayers) order += (order.empty() ? "" : " < ") + std::string(l);
  EXPECT_NE(testing::ReadSource("README.md").find(order), std::string::npos) << order;
}

}  // namespace
}  // namespace cudamatch
