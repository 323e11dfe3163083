#include <gtest/gtest.h>

#include "core/version.h"

namespace cudamatch {
namespace {

TEST(Pep440, Placeholder) { EXPECT_TRUE(Pep440::Parse("1.0").ok()); }

}  // namespace
}  // namespace cudamatch
