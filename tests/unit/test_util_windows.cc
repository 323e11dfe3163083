// Running the binary and temporary directories on Windows.
#include <windows.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/win_text.h"
#include "tests/unit/test_util.h"

namespace cudamatch::testing {

namespace {

HANDLE InheritableFile(const std::wstring& path, DWORD access, DWORD disposition) {
  SECURITY_ATTRIBUTES sa{sizeof(sa), nullptr, TRUE};
  return CreateFileW(path.c_str(), access, FILE_SHARE_READ | FILE_SHARE_WRITE, &sa, disposition, 0, nullptr);
}

std::string Slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

}  // namespace

// The environment is exactly `env` (plus SystemRoot, without which Windows programs cannot start).
RunResult RunCudamatch(const std::vector<std::string>& args, const std::vector<std::string>& env, int) {
  static std::atomic<int> counter{0};
  auto base = std::filesystem::temp_directory_path() /
              ("cm-out-" + std::to_string(GetCurrentProcessId()) + "-" + std::to_string(counter++));
  std::wstring out_path = base.wstring() + L".out", err_path = base.wstring() + L".err";
  HANDLE out = InheritableFile(out_path, GENERIC_WRITE, CREATE_ALWAYS);
  HANDLE err = InheritableFile(err_path, GENERIC_WRITE, CREATE_ALWAYS);
  HANDLE in = InheritableFile(L"NUL", GENERIC_READ, OPEN_EXISTING);
  std::wstring line = QuoteWindowsArg(WideFromUtf8(CUDAMATCH_BINARY));
  for (const std::string& a : args) line += L" " + QuoteWindowsArg(WideFromUtf8(a));
  std::wstring block;
  for (const std::string& e : env) block += WideFromUtf8(e) + L'\0';
  if (const char* root = std::getenv("SystemRoot")) block += L"SystemRoot=" + WideFromUtf8(root) + L'\0';
  block += L'\0';
  STARTUPINFOW si{};
  si.cb = sizeof(si);
  si.dwFlags = STARTF_USESTDHANDLES;
  si.hStdInput = in;
  si.hStdOutput = out;
  si.hStdError = err;
  PROCESS_INFORMATION pi{};
  RunResult r;
  BOOL ok = CreateProcessW(nullptr, line.data(), nullptr, nullptr, TRUE, CREATE_UNICODE_ENVIRONMENT, block.data(), nullptr,
                           &si, &pi);
  for (HANDLE h : {in, out, err}) CloseHandle(h);
  if (ok) {
    WaitForSingleObject(pi.hProcess, INFINITE);
    DWORD code = 0;
    GetExitCodeProcess(pi.hProcess, &code);
    r.exit_code = static_cast<int>(code);
    CloseHandle(pi.hThread);
    CloseHandle(pi.hProcess);
    r.out = Slurp(out_path);
    r.err = Slurp(err_path);
  }
  std::error_code ec;
  std::filesystem::remove(out_path, ec);
  std::filesystem::remove(err_path, ec);
  return r;
}

// Windows has no permission bits to enforce the way these tests need.
int WithPermissionsEnforced(const std::function<void()>&) { return kCannotEnforcePermissions; }

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  auto p = std::filesystem::temp_directory_path() /
           ("cudamatch-test-" + std::to_string(GetCurrentProcessId()) + "-" + std::to_string(counter++));
  std::filesystem::create_directories(p);
  path_ = p.string();
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace cudamatch::testing
