// A check for rendered text: no "?" standing for an unknown value, no empty list, no leftover
// {placeholder}.
#pragma once

#include <gtest/gtest.h>

#include <regex>
#include <string>

namespace cudamatch::testing {

inline void ExpectNoPlaceholders(const std::string& text, const std::string& where) {
  static const std::regex kLeftover(R"(\{[a-z_]+\})");
  EXPECT_FALSE(std::regex_search(text, kLeftover)) << where << ":\n" << text;
  for (const char* bad : {"= ?", "(?", " ?)", " ? ", "?,", ": ?", "：?", "（?", ": )", " ()", "（）", "：）", ": ;",
                          "has: )", "it has: ", "现有：）"}) {
    EXPECT_EQ(text.find(bad), std::string::npos) << where << ": contains \"" << bad << "\"\n" << text;
  }
}

}  // namespace cudamatch::testing
