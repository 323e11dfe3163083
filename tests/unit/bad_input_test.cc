// The bad-input contract, driven through the real binary: empty, malformed, huge and hostile
// arguments to every command end with a clear answer and a defined exit code (1: not found,
// 2: usage), never with internal error text (a C++ exception message, a crash).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

struct BadInput {
  std::vector<std::string> args;
  int exit_code;
};

// Text that only an internal failure would show.
const std::vector<std::string>& InternalWords() {
  static const std::vector<std::string> kWords = {"internal error", "basic_string", "std::", "what():", "terminate",
                                                  "Segmentation", "Aborted", "out_of_range", "bad_alloc"};
  return kWords;
}

std::vector<BadInput> Cases() {
  const std::string huge(100000, '9');
  const std::string hostile = "\x1b[31m\x01\xff'\"$(reboot)";
  return {
      // lookup: malformed is a usage error; a well-formed name that names nothing is not found.
      {{"lookup", ""}, 2},
      {{"lookup", "torch=="}, 2},
      {{"lookup", "=="}, 2},
      {{"lookup", "driver=="}, 2},
      {{"lookup", "cuda==abc"}, 2},
      {{"lookup", "torch==" + huge}, 2},
      {{"lookup", "nosuchthing==1.0"}, 2},
      {{"lookup", hostile}, 2},
      {{"lookup", "torch==99.0"}, 0},
      {{"lookup", "gpu", "9.9"}, 1},
      {{"lookup", "gpu", "sm_"}, 1},
      {{"lookup", "gpu", "rtx"}, 1},
      {{"lookup", "gpu", huge}, 1},
      {{"lookup", "gpu", hostile}, 1},
      {{"lookup", "gpu", ""}, 1},
      // table, explain, plan, check, doctor, catalog
      {{"table"}, 2},
      {{"table", ""}, 2},
      {{"table", hostile}, 2},
      {{"explain", huge}, 2},
      {{"explain", ""}, 0},  // no topic: the list
      {{"plan", "--driver", "abc"}, 2},
      {{"plan", "--driver", huge}, 2},
      {{"plan", "--python", "3.x"}, 2},
      {{"check", "torch=="}, 2},
      {{"check", hostile}, 2},
      {{"doctor", "--python", ""}, 0},
      {{"doctor", "--lang", "xx"}, 2},
      {{"catalog", "--color", hostile}, 2},
      {{"nosuchcommand"}, 2},
      {{""}, 2},
  };
}

TEST(BadInput, ClearAnswerDefinedExitNoInternalText) {
  size_t checked = 0;
  for (const BadInput& c : Cases()) {
    std::vector<std::string> args = c.args;
    if (args.front() == "doctor") args.insert(args.end(), {"--root", testing::SourceDir() + "/tests/fixtures/machines/venv-cpu/root"});
    auto r = testing::RunCudamatch(args);
    std::string shown = args.front() + " " + (args.size() > 1 ? args[1].substr(0, 40) : "");
    EXPECT_EQ(r.exit_code, c.exit_code) << shown << "\nstdout: " << r.out.substr(0, 300) << "\nstderr: " << r.err.substr(0, 300);
    for (const std::string& w : InternalWords()) {
      EXPECT_EQ((r.out + r.err).find(w), std::string::npos) << shown << " shows \"" << w << "\": " << r.err.substr(0, 300);
    }
    if (c.exit_code == 2) {
      EXPECT_EQ(r.err.rfind("cudamatch: error: ", 0), 0u) << shown << ": " << r.err.substr(0, 200);
    }
    EXPECT_LT(r.out.size() + r.err.size(), 20000u) << shown << " echoes a huge argument";
    ++checked;
  }
  EXPECT_GE(checked, 30u);
}

}  // namespace
}  // namespace cudamatch
