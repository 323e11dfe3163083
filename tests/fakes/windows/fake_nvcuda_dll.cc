// A stand-in nvcuda.dll for the Windows build under wine: cuDriverGetVersion answers 12070
// (CUDA 12.7, driver 566.36). FAKE_CUDA_MODE makes it misbehave:
//   block   cuDriverGetVersion never returns (a wedged GPU)
//   crash   cuDriverGetVersion writes through a null pointer (an access violation)
#include <windows.h>

#include <cstring>

namespace {

bool Mode(const char* name) {
  char mode[64] = {};
  DWORD n = GetEnvironmentVariableA("FAKE_CUDA_MODE", mode, sizeof(mode));
  return n > 0 && n < sizeof(mode) && std::strcmp(mode, name) == 0;
}

}  // namespace

extern "C" __declspec(dllexport) int cuInit(unsigned) { return 0; }

extern "C" __declspec(dllexport) int cuDriverGetVersion(int* version) {
  if (Mode("block")) Sleep(INFINITE);
  if (Mode("crash")) {
    volatile int* nowhere = nullptr;
    *nowhere = 1;
  }
  *version = 12070;
  return 0;
}
