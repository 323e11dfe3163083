// A whole probe over an in-memory machine whose files the fuzzer writes: the input is split
// into file contents, one per path the probes read.
#include <cstdint>
#include <string>

#include "diagnose/rules.h"
#include "derive/derive.h"
#include "plan/diagnose.h"
#include "probe/context.h"
#include "report/doctor.h"

using namespace cudamatch;  // NOLINT: fuzz entry point

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Catalog catalog = ParseCatalog(EmbeddedCatalogFiles()).value();
  static const char* const kPaths[] = {
      "/proc/driver/nvidia/version",
      "/proc/driver/nvidia/gpus/0000:01:00.0/information",
      "/sys/bus/pci/devices/0000:01:00.0/device",
      "/usr/local/cuda-12.4/version.json",
      "/usr/local/cuda-12.4/include/cudnn_version.h",
      "/home/u/venv/pyvenv.cfg",
      "/home/u/venv/lib/python3.11/site-packages/torch/version.py",
      "/home/u/venv/lib/python3.11/site-packages/torch-2.3.1+cu121.dist-info/METADATA",
      "/home/u/venv/lib/python3.11/site-packages/torchvision/version.py",
      "/etc/pip.conf",
  };
  FakeFs fs;
  std::string text(reinterpret_cast<const char*>(data), size);
  size_t start = 0;
  for (const char* path : kPaths) {
    size_t end = text.find('\x01', start);
    fs.AddFile(path, text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  fs.AddFile("/usr/local/cuda-12.4/bin/nvcc", "");
  fs.AddFile("/sys/bus/pci/devices/0000:01:00.0/vendor", "0x10de");
  fs.AddFile("/sys/bus/pci/devices/0000:01:00.0/class", "0x030000");
  ProbeInput in;
  in.fs = &fs;
  in.catalog = &catalog;
  in.env = {{"VIRTUAL_ENV", "/home/u/venv"}, {"PATH", "/usr/local/cuda-12.4/bin"}, {"LD_LIBRARY_PATH", "/usr/local/cuda-12.4/lib64"}};
  Snapshot snap = TakeSnapshot(in);
  Derive(catalog, snap);
  std::vector<Finding> findings = Diagnose(snap, catalog);
  // Reports of damaged files must render: text in both languages, and JSON.
  (void)JsonText(DoctorJson(snap, findings));
  (void)RenderDoctor(snap, findings, TextOptions{Lang::kZh, Style{}, true});
  return 0;
}
