#include "core/child.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <algorithm>
#include <cstring>
#include <utility>

#include "core/text.h"

namespace cudamatch {

namespace {

using Clock = std::chrono::steady_clock;

int MillisLeft(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left < 0 ? 0 : static_cast<int>(left);
}

void WriteAll(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

[[noreturn]] void ChildMain(const std::function<std::string()>& body, int write_fd) {
  setpgid(0, 0);
  for (int sig : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGPIPE, SIGTERM}) signal(sig, SIG_DFL);
  int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null_fd >= 0) {
    for (int fd : {0, 1, 2}) dup2(null_fd, fd);
  }
  std::string reply = body();
  WriteAll(write_fd, reply);
  _exit(0);
}

// Appends what `fd` holds now, without waiting, up to `cap` in all; stops at end of file or
// when nothing more is there.
void Drain(int fd, size_t cap, std::string& out) {
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  char buf[4096];
  while (true) {
    ssize_t n = read(fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    out.append(buf, std::min(static_cast<size_t>(n), cap - std::min(cap, out.size())));
  }
}

// True once the child has ended (it is not reaped: its process group stays for the kill after).
bool HasEnded(pid_t pid) {
  siginfo_t info{};
  return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == pid;
}

// Reads the reply until end of file or until the child has ended (a helper it started may keep
// the pipe open: what the child wrote before it ended is the reply), the cap or the deadline.
// Watches the child on a pidfd where the kernel has them (Linux 5.3), else every 20 ms. False on
// timeout.
bool ReadReply(int fd, pid_t pid, Clock::time_point deadline, size_t cap, std::string& out) {
  int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  bool answered = false;
  char buf[4096];
  while (true) {
    pollfd p[2] = {{fd, POLLIN, 0}, {pidfd, POLLIN, 0}};
    int wait_ms = pidfd >= 0 ? MillisLeft(deadline) : std::min(20, MillisLeft(deadline));
    int ready = poll(p, pidfd >= 0 ? 2 : 1, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) break;
    if (p[0].revents != 0) {
      ssize_t n = read(fd, buf, sizeof(buf));
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) {
        answered = true;
        break;
      }
      out.append(buf, std::min(static_cast<size_t>(n), cap - std::min(cap, out.size())));
      continue;
    }
    if (pidfd >= 0 ? p[1].revents != 0 : HasEnded(pid)) {
      Drain(fd, cap, out);
      answered = true;
      break;
    }
    if (MillisLeft(deadline) == 0) break;
  }
  if (pidfd >= 0) close(pidfd);
  return answered;
}

// Waits until the child has ended or the deadline passes: on a pidfd where the kernel has them,
// else in short sleeps.
void AwaitExit(pid_t pid, Clock::time_point deadline) {
  int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  if (pidfd >= 0) {
    pollfd p{pidfd, POLLIN, 0};
    while (poll(&p, 1, MillisLeft(deadline)) < 0 && errno == EINTR) {
    }
    close(pidfd);
    return;
  }
  while (MillisLeft(deadline) > 0 && !HasEnded(pid)) {
    timespec pause{0, 50 * 1000};
    nanosleep(&pause, nullptr);
  }
}

// Reaps the child once it has ended, by the deadline; after it, kills it. Either way what it left
// running in its process group (a helper holding the pipe) is killed before the child is reaped,
// while the group still exists.
int Reap(pid_t pid, Clock::time_point deadline, bool* killed) {
  int status = 0;
  AwaitExit(pid, deadline);
  if (!HasEnded(pid)) {
    *killed = true;
    kill(pid, SIGKILL);
  }
  kill(-pid, SIGKILL);
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

}  // namespace

namespace {
size_t g_children_started = 0;
}  // namespace

size_t ChildrenStarted() { return g_children_started; }

PendingChild StartChild(const std::function<std::string()>& body, int timeout_ms, size_t max_reply) {
  ++g_children_started;
  PendingChild child;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return child;
  child.deadline_ = Clock::now() + std::chrono::milliseconds(timeout_ms);
  child.max_reply_ = max_reply;
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return child;
  }
  if (pid == 0) {
    close(fds[0]);
    ChildMain(body, fds[1]);
  }
  setpgid(pid, pid);
  close(fds[1]);
  child.pid_ = pid;
  child.fd_ = fds[0];
  return child;
}

ChildOutcome FinishChild(PendingChild& child) {
  ChildOutcome outcome;
  if (!child.started()) return outcome;
  std::string reply;
  bool in_time = ReadReply(static_cast<int>(child.fd_), static_cast<pid_t>(child.pid_), child.deadline_, child.max_reply_, reply);
  close(static_cast<int>(child.fd_));
  child.fd_ = -1;
  bool killed = !in_time;
  int status = Reap(static_cast<pid_t>(child.pid_), in_time ? child.deadline_ : Clock::now(), &killed);
  child.pid_ = -1;
  if (killed) {
    outcome.kind = ChildOutcome::Kind::kTimedOut;
  } else if (WIFSIGNALED(status)) {
    outcome.kind = ChildOutcome::Kind::kSignaled;
    outcome.signal = WTERMSIG(status);
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    outcome.kind = ChildOutcome::Kind::kAnswered;
    outcome.reply = std::move(reply);
  } else {
    outcome.kind = ChildOutcome::Kind::kExited;
    outcome.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  return outcome;
}

PendingChild::PendingChild(PendingChild&& other) noexcept { *this = std::move(other); }

PendingChild& PendingChild::operator=(PendingChild&& other) noexcept {
  if (this != &other) {
    Abandon();
    pid_ = std::exchange(other.pid_, -1);
    fd_ = std::exchange(other.fd_, -1);
    deadline_ = other.deadline_;
    max_reply_ = other.max_reply_;
  }
  return *this;
}

PendingChild::~PendingChild() { Abandon(); }

void PendingChild::Abandon() {
  if (fd_ >= 0) close(static_cast<int>(fd_));
  fd_ = -1;
  if (pid_ <= 0) return;
  auto pid = static_cast<pid_t>(pid_);
  kill(-pid, SIGKILL);
  kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
}

ChildOutcome RunInChild(const std::function<std::string()>& body, int timeout_ms, size_t max_reply) {
  PendingChild child = StartChild(body, timeout_ms, max_reply);
  return FinishChild(child);
}

// The forked child runs the task's function itself: it has the parent's memory.
PendingChild StartChild(const ChildTask& task, int timeout_ms, size_t max_reply) {
  return StartChild([&task] { return task.run(task.args); }, timeout_ms, max_reply);
}

std::optional<int> ServeChildTask(const std::vector<std::string>&, ChildTaskFn (*)(std::string_view)) {
  return std::nullopt;
}

std::string SignalName(int signal) {
  switch (signal) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGABRT: return "SIGABRT";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGPIPE: return "SIGPIPE";
    case SIGSYS: return "SIGSYS";
    case SIGTRAP: return "SIGTRAP";
    default: return "signal " + std::to_string(signal);
  }
}

}  // namespace cudamatch
