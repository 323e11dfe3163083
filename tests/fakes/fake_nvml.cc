// A stand-in libnvidia-ml for tests of the real dlopen path: nvmlInit_v2 returns the status in
// FAKE_NVML_INIT (0 when unset), the rest answers like driver 550.54.14 with one RTX 4090.
// FAKE_NVML_MODE makes it misbehave:
//   unterminated  every string buffer is filled to its end with no terminating NUL
//   garbage       CUDA 999.99, compute capability -15.3, a driver version with escape codes
//   crash_init    nvmlInit_v2 dereferences a null pointer (SIGSEGV)
//   block_init    nvmlInit_v2 never returns
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace {

bool Mode(const char* name) {
  const char* mode = std::getenv("FAKE_NVML_MODE");
  return mode != nullptr && std::strcmp(mode, name) == 0;
}

// Writes `text` into a caller's buffer of `len` bytes, or fills it with 'X' and no NUL.
void FillString(char* buf, unsigned len, const char* text) {
  if (Mode("unterminated")) {
    std::memset(buf, 'X', len);
    return;
  }
  std::strncpy(buf, text, len);
}

}  // namespace

extern "C" {

struct FakePciInfo {
  char bus_id_legacy[16];
  unsigned int domain, bus, device, pci_device_id, pci_subsystem_id;
  char bus_id[32];
};
struct FakeMemory {
  unsigned long long total, free, used;
};

int nvmlInit_v2() {
  if (Mode("crash_init")) {
    volatile int* nowhere = nullptr;
    *nowhere = 1;
  }
  if (Mode("block_init")) {
    while (true) pause();
  }
  const char* code = std::getenv("FAKE_NVML_INIT");
  return code ? std::atoi(code) : 0;
}
const char* nvmlErrorString(int) { return "fake error text"; }
int nvmlSystemGetDriverVersion(char* buf, unsigned len) {
  FillString(buf, len, Mode("garbage") ? "\x1b]0;owned\x07" : "550.54.14");
  return 0;
}
int nvmlSystemGetCudaDriverVersion_v2(int* v) {
  *v = Mode("garbage") ? 999990 : 12040;
  return 0;
}
int nvmlDeviceGetCount_v2(unsigned* n) {
  *n = 1;
  return 0;
}
int nvmlDeviceGetHandleByIndex_v2(unsigned, void** dev) {
  static int device;
  *dev = &device;
  return 0;
}
int nvmlDeviceGetName(void*, char* buf, unsigned len) {
  FillString(buf, len, "NVIDIA GeForce RTX 4090");
  return 0;
}
int nvmlDeviceGetUUID(void*, char* buf, unsigned len) {
  FillString(buf, len, "GPU-00000000-0000-0000-0000-000000000000");
  return 0;
}
int nvmlDeviceGetPciInfo_v3(void*, FakePciInfo* p) {
  std::memset(p, 0, sizeof(*p));
  std::strcpy(p->bus_id, "00000000:01:00.0");
  if (Mode("unterminated")) std::memset(p->bus_id, 'Y', sizeof(p->bus_id));
  p->pci_device_id = (0x2684u << 16) | 0x10de;
  return 0;
}
int nvmlDeviceGetCudaComputeCapability(void*, int* major, int* minor) {
  *major = Mode("garbage") ? -15 : 8;
  *minor = Mode("garbage") ? 3 : 9;
  return 0;
}
int nvmlDeviceGetMemoryInfo(void*, FakeMemory* m) {
  m->total = 24ull << 30;
  m->free = m->total;
  m->used = 0;
  return 0;
}
}
