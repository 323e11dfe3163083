// A stand-in nvml.dll for the Windows build under wine: nvmlInit_v2 returns the status in
// FAKE_NVML_INIT (0 when unset); the rest answers like driver 566.36 (CUDA 12.7) with one
// "NVIDIA GeForce RTX 4080 Laptop GPU" (compute capability 8.9, device id 0x27e0, 12 GiB).
// FAKE_NVML_MODE makes it misbehave:
//   crash_init    nvmlInit_v2 writes through a null pointer (an access violation)
//   block_init    nvmlInit_v2 never returns
#include <windows.h>

#include <cstdlib>
#include <cstring>

namespace {

bool Mode(const char* name) {
  char mode[64] = {};
  DWORD n = GetEnvironmentVariableA("FAKE_NVML_MODE", mode, sizeof(mode));
  return n > 0 && n < sizeof(mode) && std::strcmp(mode, name) == 0;
}

int InitStatus() {
  char code[16] = {};
  DWORD n = GetEnvironmentVariableA("FAKE_NVML_INIT", code, sizeof(code));
  return n > 0 && n < sizeof(code) ? std::atoi(code) : 0;
}

int device_token = 0;  // the one device's handle points here

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

__declspec(dllexport) int nvmlInit_v2() {
  if (Mode("crash_init")) {
    volatile int* nowhere = nullptr;
    *nowhere = 1;
  }
  if (Mode("block_init")) Sleep(INFINITE);
  return InitStatus();
}
__declspec(dllexport) const char* nvmlErrorString(int) { return "fake error text"; }
__declspec(dllexport) int nvmlSystemGetDriverVersion(char* buf, unsigned len) {
  std::strncpy(buf, "566.36", len);
  return 0;
}
__declspec(dllexport) int nvmlSystemGetCudaDriverVersion_v2(int* v) {
  *v = 12070;
  return 0;
}
__declspec(dllexport) int nvmlDeviceGetCount_v2(unsigned* count) {
  *count = 1;
  return 0;
}
__declspec(dllexport) int nvmlDeviceGetHandleByIndex_v2(unsigned index, void** dev) {
  if (index != 0) return 2;  // NVML_ERROR_INVALID_ARGUMENT
  *dev = &device_token;
  return 0;
}
__declspec(dllexport) int nvmlDeviceGetName(void*, char* buf, unsigned len) {
  std::strncpy(buf, "NVIDIA GeForce RTX 4080 Laptop GPU", len);
  return 0;
}
__declspec(dllexport) int nvmlDeviceGetUUID(void*, char* buf, unsigned len) {
  std::strncpy(buf, "GPU-4e0a5c1b-7d2f-4b8e-9a31-c0ffee004080", len);
  return 0;
}
__declspec(dllexport) int nvmlDeviceGetPciInfo_v3(void*, FakePciInfo* pci) {
  std::memset(pci, 0, sizeof(*pci));
  std::strncpy(pci->bus_id, "00000000:01:00.0", sizeof(pci->bus_id));
  pci->bus = 1;
  pci->pci_device_id = 0x27e010de;
  return 0;
}
__declspec(dllexport) int nvmlDeviceGetCudaComputeCapability(void*, int* major, int* minor) {
  *major = 8;
  *minor = 9;
  return 0;
}
__declspec(dllexport) int nvmlDeviceGetMemoryInfo(void*, FakeMemory* mem) {
  mem->total = 12ull << 30;
  mem->free = 11ull << 30;
  mem->used = 1ull << 30;
  return 0;
}

}  // extern "C"
