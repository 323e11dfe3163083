// The test binary's main. On Windows the watched child (core/child.h) is this binary started
// again with a task to run, as cudamatch itself is; everywhere else it runs the tests.
#include <gtest/gtest.h>

#include "core/child.h"
#include "probe/nvidia_api.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (auto rc = cudamatch::ServeChildTask(args, cudamatch::FindNvidiaTask)) return *rc;
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
