// A stand-in libnvidia-ml for tests of the real dlopen path: nvmlInit_v2 returns the status in
// FAKE_NVML_INIT (0 when unset), the rest answers like driver 550.54.14 with one RTX 4090.
#include <cstdlib>
#include <cstring>

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
  const char* code = std::getenv("FAKE_NVML_INIT");
  return code ? std::atoi(code) : 0;
}
const char* nvmlErrorString(int) { return "fake error text"; }
int nvmlSystemGetDriverVersion(char* buf, unsigned len) {
  std::strncpy(buf, "550.54.14", len);
  return 0;
}
int nvmlSystemGetCudaDriverVersion_v2(int* v) {
  *v = 12040;
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
  std::strncpy(buf, "NVIDIA GeForce RTX 4090", len);
  return 0;
}
int nvmlDeviceGetUUID(void*, char* buf, unsigned len) {
  std::strncpy(buf, "GPU-00000000-0000-0000-0000-000000000000", len);
  return 0;
}
int nvmlDeviceGetPciInfo_v3(void*, FakePciInfo* p) {
  std::memset(p, 0, sizeof(*p));
  std::strcpy(p->bus_id, "00000000:01:00.0");
  p->pci_device_id = (0x2684u << 16) | 0x10de;
  return 0;
}
int nvmlDeviceGetCudaComputeCapability(void*, int* major, int* minor) {
  *major = 8;
  *minor = 9;
  return 0;
}
int nvmlDeviceGetMemoryInfo(void*, FakeMemory* m) {
  m->total = 24ull << 30;
  m->free = m->total;
  m->used = 0;
  return 0;
}
}
