// A stand-in libcuda that misbehaves as FAKE_CUDA_MODE says:
//   block       cuDriverGetVersion never returns (a wedged GPU)
//   crash       cuDriverGetVersion dereferences a null pointer (SIGSEGV)
//   abort_load  the library's constructor calls abort() while dlopen loads it
//   garbage     cuDriverGetVersion answers 999990 ("CUDA 999.99")
//   print       writes to stdout and stderr, then answers 12020
// Unset, it answers 12020 (CUDA 12.2).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

bool Mode(const char* name) {
  const char* mode = std::getenv("FAKE_CUDA_MODE");
  return mode != nullptr && std::strcmp(mode, name) == 0;
}

__attribute__((constructor)) void OnLoad() {
  if (Mode("abort_load")) std::abort();
}

}  // namespace

extern "C" int cuDriverGetVersion(int* version) {
  if (Mode("block")) {
    while (true) pause();
  }
  if (Mode("crash")) {
    volatile int* nowhere = nullptr;
    *nowhere = 1;
  }
  if (Mode("print")) {
    std::printf("\x1b[2Jlibcuda says hello on stdout\n");
    std::fflush(stdout);
    std::fprintf(stderr, "libcuda says hello on stderr\n");
  }
  *version = Mode("garbage") ? 999990 : 12020;
  return 0;
}
