// The watched child on Windows. There is no fork, so the binary starts itself again
// (GetModuleFileNameW, CreateProcessW) as `<exe> --cudamatch-child-task <pipe handle> <task> <args>`,
// suspended, inside a job object that kills everything in it when closed; then it is resumed. The
// child's standard handles are NUL (a library's own output never mixes into the report); its reply
// goes to the inherited write end of an anonymous pipe, named by its handle value. The parent
// reads the pipe until the child has ended or the deadline passes, then terminates the job.
#include <windows.h>

#include <algorithm>
#include <cstdio>
#include <utility>

#include "core/child.h"
#include "core/text.h"
#include "core/win_text.h"

namespace cudamatch {

namespace {

using Clock = std::chrono::steady_clock;

DWORD MillisLeft(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left < 0 ? 0 : static_cast<DWORD>(left);
}

HANDLE H(intptr_t value) { return reinterpret_cast<HANDLE>(value); }


std::wstring OwnExecutable() {
  std::wstring path(32768, L'\0');
  DWORD n = GetModuleFileNameW(nullptr, path.data(), static_cast<DWORD>(path.size()));
  path.resize(n);
  return path;
}

std::wstring CommandLine(const std::wstring& exe, HANDLE write_end, const ChildTask& task) {
  std::wstring line = QuoteWindowsArg(exe) + L" " + WideFromUtf8(kChildTaskArg) + L" " +
                      std::to_wstring(reinterpret_cast<uintptr_t>(write_end)) + L" " + QuoteWindowsArg(WideFromUtf8(task.name));
  for (const std::string& a : task.args) line += L" " + QuoteWindowsArg(WideFromUtf8(a));
  return line;
}

HANDLE KillOnCloseJob() {
  HANDLE job = CreateJobObjectW(nullptr, nullptr);
  if (job == nullptr) return nullptr;
  JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits{};
  limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION;
  SetInformationJobObject(job, JobObjectExtendedLimitInformation, &limits, sizeof(limits));
  return job;
}

// Starts the child suspended with only `inherit` handles inherited, puts it in `job`, resumes it.
HANDLE Spawn(std::wstring line, HANDLE null_handle, HANDLE write_end, HANDLE job) {
  HANDLE inherit[2] = {null_handle, write_end};
  SIZE_T size = 0;
  InitializeProcThreadAttributeList(nullptr, 1, 0, &size);
  std::string storage(size, '\0');
  auto* attrs = reinterpret_cast<LPPROC_THREAD_ATTRIBUTE_LIST>(storage.data());
  if (!InitializeProcThreadAttributeList(attrs, 1, 0, &size)) return nullptr;
  UpdateProcThreadAttribute(attrs, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, inherit, sizeof(inherit), nullptr, nullptr);
  STARTUPINFOEXW si{};
  si.StartupInfo.cb = sizeof(si);
  si.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
  si.StartupInfo.hStdInput = si.StartupInfo.hStdOutput = si.StartupInfo.hStdError = null_handle;
  si.lpAttributeList = attrs;
  PROCESS_INFORMATION pi{};
  BOOL ok = CreateProcessW(nullptr, line.data(), nullptr, nullptr, TRUE,
                           CREATE_SUSPENDED | CREATE_NO_WINDOW | EXTENDED_STARTUPINFO_PRESENT, nullptr, nullptr,
                           &si.StartupInfo, &pi);
  DeleteProcThreadAttributeList(attrs);
  if (!ok) return nullptr;
  if (job != nullptr) AssignProcessToJobObject(job, pi.hProcess);
  ResumeThread(pi.hThread);
  CloseHandle(pi.hThread);
  return pi.hProcess;
}

// Moves what the pipe holds now into `out` (up to the cap). False once the pipe is closed.
bool Drain(HANDLE pipe, size_t cap, std::string& out) {
  char buf[4096];
  while (true) {
    DWORD avail = 0;
    if (!PeekNamedPipe(pipe, nullptr, 0, nullptr, &avail, nullptr)) return false;
    if (avail == 0) return true;
    DWORD n = 0;
    if (!ReadFile(pipe, buf, std::min<DWORD>(avail, sizeof(buf)), &n, nullptr) || n == 0) return false;
    size_t take = std::min(static_cast<size_t>(n), cap - std::min(cap, out.size()));
    out.append(buf, take);
  }
}

// Reads until the child has ended (and the pipe is empty) or the deadline. False on timeout.
bool ReadReply(HANDLE process, HANDLE pipe, Clock::time_point deadline, size_t cap, std::string& out) {
  while (true) {
    Drain(pipe, cap, out);
    DWORD left = MillisLeft(deadline);
    if (WaitForSingleObject(process, std::min<DWORD>(left, 10)) == WAIT_OBJECT_0) {
      Drain(pipe, cap, out);
      return true;
    }
    if (left == 0) return false;
  }
}

void CloseIf(intptr_t& h) {
  if (h > 0) CloseHandle(H(h));
  h = -1;
}

// In the child: crashes end the process with the exception code, at once (no error dialog, no
// debugger), so the parent sees the code as the exit status.
LONG WINAPI EndOnException(EXCEPTION_POINTERS* info) {
  TerminateProcess(GetCurrentProcess(), info->ExceptionRecord->ExceptionCode);
  return EXCEPTION_EXECUTE_HANDLER;
}

bool WriteAll(HANDLE pipe, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    DWORD n = 0;
    DWORD chunk = static_cast<DWORD>(std::min<size_t>(text.size() - done, 1 << 20));
    if (!WriteFile(pipe, text.data() + done, chunk, &n, nullptr) || n == 0) return false;
    done += n;
  }
  return true;
}

}  // namespace

namespace {
size_t g_children_started = 0;
}  // namespace

size_t ChildrenStarted() { return g_children_started; }

PendingChild StartChild(const ChildTask& task, int timeout_ms, size_t max_reply) {
  ++g_children_started;
  PendingChild child;
  SECURITY_ATTRIBUTES inheritable{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
  HANDLE read_end = nullptr, write_end = nullptr;
  if (!CreatePipe(&read_end, &write_end, &inheritable, 0)) return child;
  SetHandleInformation(read_end, HANDLE_FLAG_INHERIT, 0);
  HANDLE null_handle = CreateFileW(L"NUL", GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE,
                                   &inheritable, OPEN_EXISTING, 0, nullptr);
  HANDLE job = KillOnCloseJob();
  child.deadline_ = Clock::now() + std::chrono::milliseconds(timeout_ms);
  child.max_reply_ = max_reply;
  HANDLE process = Spawn(CommandLine(OwnExecutable(), write_end, task), null_handle, write_end, job);
  CloseHandle(write_end);
  if (null_handle != INVALID_HANDLE_VALUE) CloseHandle(null_handle);
  if (process == nullptr) {
    CloseHandle(read_end);
    if (job != nullptr) CloseHandle(job);
    return child;
  }
  child.pid_ = reinterpret_cast<intptr_t>(process);
  child.fd_ = reinterpret_cast<intptr_t>(read_end);
  child.job_ = job != nullptr ? reinterpret_cast<intptr_t>(job) : -1;
  return child;
}

ChildOutcome FinishChild(PendingChild& child) {
  ChildOutcome outcome;
  if (!child.started()) return outcome;
  std::string reply;
  bool in_time = ReadReply(H(child.pid_), H(child.fd_), child.deadline_, child.max_reply_, reply);
  DWORD code = 0;
  if (in_time) GetExitCodeProcess(H(child.pid_), &code);
  child.Abandon();
  if (!in_time) {
    outcome.kind = ChildOutcome::Kind::kTimedOut;
  } else if (code >= 0xC0000000u) {
    outcome.kind = ChildOutcome::Kind::kSignaled;
    outcome.signal = static_cast<int>(code);
  } else if (code == 0) {
    outcome.kind = ChildOutcome::Kind::kAnswered;
    outcome.reply = std::move(reply);
  } else {
    outcome.kind = ChildOutcome::Kind::kExited;
    outcome.exit_status = static_cast<int>(code);
  }
  return outcome;
}

PendingChild::PendingChild(PendingChild&& other) noexcept { *this = std::move(other); }

PendingChild& PendingChild::operator=(PendingChild&& other) noexcept {
  if (this != &other) {
    Abandon();
    pid_ = std::exchange(other.pid_, -1);
    fd_ = std::exchange(other.fd_, -1);
    job_ = std::exchange(other.job_, -1);
    deadline_ = other.deadline_;
    max_reply_ = other.max_reply_;
  }
  return *this;
}

PendingChild::~PendingChild() { Abandon(); }

// Ends the whole job (the child and anything it started), then waits for the child itself.
void PendingChild::Abandon() {
  CloseIf(fd_);
  if (pid_ > 0) {
    if (job_ > 0) TerminateJobObject(H(job_), 1);
    TerminateProcess(H(pid_), 1);
    WaitForSingleObject(H(pid_), 5000);
  }
  CloseIf(job_);
  CloseIf(pid_);
}

std::optional<int> ServeChildTask(const std::vector<std::string>& args, ChildTaskFn (*find)(std::string_view)) {
  if (args.size() < 3 || args[0] != kChildTaskArg) return std::nullopt;
  auto handle = ParseUint(args[1]);
  ChildTaskFn run = find(args[2]);
  if (!handle || run == nullptr) return 2;
  SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX | SEM_NOOPENFILEERRORBOX);
  SetUnhandledExceptionFilter(EndOnException);
  std::string reply = run(std::vector<std::string>(args.begin() + 3, args.end()));
  HANDLE pipe = reinterpret_cast<HANDLE>(static_cast<uintptr_t>(*handle));
  return WriteAll(pipe, reply) ? 0 : 1;
}

std::string SignalName(int signal) {
  auto code = static_cast<DWORD>(signal);
  char hex[16];
  std::snprintf(hex, sizeof(hex), "0x%08lX", static_cast<unsigned long>(code));
  switch (code) {
    case EXCEPTION_ACCESS_VIOLATION: return std::string("access violation (") + hex + ")";
    case EXCEPTION_ILLEGAL_INSTRUCTION: return std::string("illegal instruction (") + hex + ")";
    case EXCEPTION_INT_DIVIDE_BY_ZERO: return std::string("integer division by zero (") + hex + ")";
    case EXCEPTION_STACK_OVERFLOW: return std::string("stack overflow (") + hex + ")";
    case 0xC0000409u: return std::string("fast fail (") + hex + ")";
    default: return std::string("exception ") + hex;
  }
}

}  // namespace cudamatch
