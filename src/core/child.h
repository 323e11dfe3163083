// Work that may hang or crash (calls into NVIDIA's libraries) runs in a child process forked for
// it: no exec, the same binary. The child sends plain values back over a pipe; the parent waits at
// most a bound, then kills the child and its process group. A hang, a crash or an abort in the
// child becomes a value the caller reports.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cudamatch {

struct ChildOutcome {
  enum class Kind {
    kAnswered,   // exited 0 after sending its reply
    kTimedOut,   // no answer within the bound; killed
    kSignaled,   // killed by a signal (SIGSEGV, SIGABRT, ...)
    kExited,     // exited with a non-zero status, or with no complete reply
    kNotStarted  // fork or pipe failed
  };
  Kind kind = Kind::kNotStarted;
  int signal = 0;       // kSignaled
  int exit_status = 0;  // kExited
  std::string reply;    // kAnswered: what the child sent
};

// Runs `body` in a forked child and returns its reply, at most `max_reply` bytes, waiting at
// most `timeout_ms`. The child's stdin, stdout and stderr are /dev/null (a library's own output
// never mixes into the report) and crash signals have their default action.
ChildOutcome RunInChild(const std::function<std::string()>& body, int timeout_ms, size_t max_reply = 64 * 1024);

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
  friend ChildOutcome FinishChild(PendingChild&);
  void Abandon();  // kills and reaps a child still running
  pid_t pid_ = -1;
  int fd_ = -1;
  std::chrono::steady_clock::time_point deadline_;
  size_t max_reply_ = 0;
};
PendingChild StartChild(const std::function<std::string()>& body, int timeout_ms, size_t max_reply = 64 * 1024);
ChildOutcome FinishChild(PendingChild& child);  // kNotStarted when it was not started

// "SIGSEGV", "SIGABRT", ... or "signal N".
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
