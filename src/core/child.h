// Work that may hang or crash (calls into NVIDIA's libraries) runs in a child process. On Linux the
// child is forked for it: no exec, the same binary. Windows has no fork: the binary starts itself
// again (CreateProcessW) with a hidden argument naming a task and its arguments, inside a job
// object, and the new process runs the task by name (ServeChildTask). Either way the child sends
// plain values back over a pipe; the parent waits at most a bound, then kills the child and all it
// started (process group / job). A hang, a crash or an abort in the child becomes a value the
// caller reports.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cudamatch {

struct ChildOutcome {
  enum class Kind {
    kAnswered,   // exited 0 after sending its reply
    kTimedOut,   // no answer within the bound; killed
    kSignaled,   // killed by a signal (SIGSEGV, SIGABRT, ...); on Windows, ended by an exception
    kExited,     // exited with a non-zero status, or with no complete reply
    kNotStarted  // fork or pipe failed
  };
  Kind kind = Kind::kNotStarted;
  int signal = 0;       // kSignaled: the signal, or on Windows the exception code (0xC0000005)
  int exit_status = 0;  // kExited
  std::string reply;    // kAnswered: what the child sent
};

// A piece of work a child runs by name: a function of string arguments that returns the reply.
using ChildTaskFn = std::string (*)(const std::vector<std::string>& args);
struct ChildTask {
  std::string name;  // how a Windows child finds `run` again (ServeChildTask's lookup)
  std::vector<std::string> args;
  ChildTaskFn run = nullptr;
};

// The hidden first argument that makes a started binary a task's child (Windows only).
inline constexpr std::string_view kChildTaskArg = "--cudamatch-child-task";

// For main, before anything else: when `args` (argv without the program name) start with
// kChildTaskArg, runs the task `find` names, sends its reply to the parent and returns the exit
// status; otherwise nullopt. On Linux children are forked, so this is always nullopt.
std::optional<int> ServeChildTask(const std::vector<std::string>& args, ChildTaskFn (*find)(std::string_view name));

// Runs `body` in a forked child (Linux only: the Windows build runs ChildTasks) and returns its reply, at most `max_reply` bytes, waiting at
// most `timeout_ms`. The child's stdin, stdout and stderr are /dev/null (a library's own output
// never mixes into the report) and crash signals have their default action.
ChildOutcome RunInChild(const std::function<std::string()>& body, int timeout_ms, size_t max_reply = 64 * 1024);
// How many children this process has started (or tried to): a run that asked one has answers
// that come from no file (the report cache keeps none of it).
size_t ChildrenStarted();

// `task` in a child, the same on every system.
ChildOutcome RunInChild(const ChildTask& task, int timeout_ms, size_t max_reply = 64 * 1024);

// The same in two steps, so the caller works while the child does: StartChild forks and returns
// at once; FinishChild collects the reply by the deadline set at the start (a child that ran past
// it is killed). A child never finished is killed and reaped when its handle goes away.
class PendingChild {
 public:
  PendingChild() = default;
  PendingChild(PendingChild&& other) noexcept;
  PendingChild& operator=(PendingChild&& other) noexcept;
  PendingChild(const PendingChild&) = delete;
  PendingChild& operator=(const PendingChild&) = delete;
  ~PendingChild();
  bool started() const { return pid_ > 0; }

 private:
  friend PendingChild StartChild(const std::function<std::string()>&, int, size_t);
  friend PendingChild StartChild(const ChildTask&, int, size_t);
  friend ChildOutcome FinishChild(PendingChild&);
  void Abandon();  // kills and reaps a child still running
  intptr_t pid_ = -1;  // Linux: the pid; Windows: the process handle
  intptr_t fd_ = -1;   // the read end of the reply pipe (a descriptor / a handle)
  intptr_t job_ = -1;  // Windows: the job object the child runs in
  std::chrono::steady_clock::time_point deadline_;
  size_t max_reply_ = 0;
};
PendingChild StartChild(const std::function<std::string()>& body, int timeout_ms, size_t max_reply = 64 * 1024);
PendingChild StartChild(const ChildTask& task, int timeout_ms, size_t max_reply = 64 * 1024);
ChildOutcome FinishChild(PendingChild& child);  // kNotStarted when it was not started

// "SIGSEGV", "SIGABRT", ... or "signal N"; on Windows the exception ("access violation (0xC0000005)").
std::string SignalName(int signal);

// Plain values over the pipe: "key<TAB>length:bytes\n" records, so values may hold any byte.
class WireWriter {
 public:
  void Put(std::string_view key, std::string_view value);
  void Put(std::string_view key, long long value) { Put(key, std::to_string(value)); }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

// The records of a reply in order; an empty list when the text is not well formed.
using WireRecords = std::vector<std::pair<std::string, std::string>>;
WireRecords ParseWire(std::string_view text);

}  // namespace cudamatch
