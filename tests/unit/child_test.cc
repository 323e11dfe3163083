// The watched child's answer ends when the child exits, not when the last holder of its pipe
// closes it; what it left running in its process group is killed afterwards.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "core/child.h"

namespace cudamatch {
namespace {

// Running (not a zombie): /proc/PID/stat's state is neither Z nor X and the process exists.
bool Running(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  size_t paren = line.rfind(')');
  if (paren == std::string::npos || paren + 2 >= line.size()) return false;
  char state = line[paren + 2];
  return state != 'Z' && state != 'X';
}

// Like an NVML that starts a helper process which inherits the reply pipe and outlives the call.
std::string AnswerAndLeaveAHelper() {
  pid_t helper = fork();
  if (helper == 0) {
    sleep(30);  // holds the pipe's write end open all this time
    _exit(0);
  }
  return "helper " + std::to_string(helper);
}

TEST(WatchedChild, AnswerEndsWhenTheChildExitsAndItsHelperIsKilled) {
  // Answered on the child's exit: not timed out at the 20 s bound while the helper sleeps 30 s.
  ChildOutcome out = RunInChild(&AnswerAndLeaveAHelper, 20000);
  ASSERT_EQ(out.kind, ChildOutcome::Kind::kAnswered) << "kind " << static_cast<int>(out.kind);
  ASSERT_EQ(out.reply.rfind("helper ", 0), 0u) << out.reply;
  pid_t helper = static_cast<pid_t>(std::stol(out.reply.substr(7)));
  // Killed with the child's process group; reaped by whoever adopted it.
  for (int i = 0; i < 200 && Running(helper); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_FALSE(Running(helper)) << "helper " << helper << " outlived the call";
}

TEST(WatchedChild, ReplyWrittenBeforeExitIsKeptWhole) {
  // Larger than a pipe's buffer, so the parent must read while the child writes.
  ChildOutcome out = RunInChild(
      [] {
        std::string reply = AnswerAndLeaveAHelper();
        return reply + "|" + std::string(200000, 'x');
      },
      20000, 300000);
  ASSERT_EQ(out.kind, ChildOutcome::Kind::kAnswered);
  EXPECT_EQ(out.reply.size(), out.reply.find('|') + 1 + 200000);
}

TEST(WatchedChild, HangingChildStillTimesOut) {
  ChildOutcome out = RunInChild(
      [] {
        sleep(30);
        return std::string("late");
      },
      300);
  EXPECT_EQ(out.kind, ChildOutcome::Kind::kTimedOut);
}

}  // namespace
}  // namespace cudamatch
