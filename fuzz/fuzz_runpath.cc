// RUNPATH / RPATH expansion and the loader's search as the binaries probe follows it: the input
// is a library's path (first line; any bytes, "$ORIGIN" in directory names included) and its
// RPATH and RUNPATH entries (later lines; a line starting with 'R' is a RUNPATH entry), then an
// ELF file after a \x01 byte whose dynamic section is read under the caps. Every run ends; what
// is kept never exceeds the caps.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/fs.h"
#include "core/text.h"
#include "probe/binaries.h"
#include "probe/elf.h"

using namespace cudamatch;  // NOLINT: fuzz entry point

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  size_t split = input.find('\x01');
  std::string_view paths = input.substr(0, split);
  if (split != std::string_view::npos) {
    ElfLimits limits;
    auto elf = ReadElf(*MakeStringFile(std::string(input.substr(split + 1))), limits);
    if (elf && (elf->needed.size() > limits.max_needed || elf->rpath.size() + elf->runpath.size() > limits.max_search_dirs)) {
      std::abort();
    }
  }
  std::vector<std::string_view> lines = Split(paths, '\n');
  BinaryInfo lib;
  lib.path = NormalizePath("/" + std::string(lines[0])) + "/libtorch_cuda.so";
  lib.needed = {"libcudnn.so.9", "libcudart.so.12"};
  FakeFs fs;
  for (size_t i = 1; i < lines.size() && i < 64; ++i) {
    std::string entry(lines[i]);
    bool runpath = !entry.empty() && entry[0] == 'R';
    (runpath ? lib.runpath : lib.rpath).push_back(runpath ? entry.substr(1) : entry);
  }
  fs.AddFile(lib.path, "x");
  fs.AddFile(std::string(Dirname(lib.path)) + "/libcudnn.so.9", "x");
  ProbeInput in;
  in.fs = &fs;
  PythonEnv env;
  std::vector<RuntimeLib> libs = ResolveTorchRuntime(in, env, std::string(Dirname(lib.path)), {lib});
  if (libs.size() > lib.needed.size()) std::abort();
  return 0;
}
