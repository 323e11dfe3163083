// The unwinder linked into the executable (libgcc_eh, -static-libgcc) finds the unwind table of
// a frame with _dl_find_object, which glibc has only from 2.35; the portable build routes that
// call here (-Wl,--wrap=_dl_find_object, CMakeLists.txt), so that the binary keeps glibc 2.34 as
// its floor and needs no libgcc_s.so.1 (a library less to map and initialise at every start).
// The answer comes from dl_iterate_phdr (glibc 2.2.5): the loaded object with a PT_LOAD segment
// holding the address, the span of its segments and its PT_GNU_EH_FRAME (the unwind table's
// index), which is what the unwinder reads of it.
#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace {

struct Search {
  uintptr_t pc;
  dl_find_object* out;
  bool found;
};

int Visit(dl_phdr_info* info, size_t, void* data) {
  auto* s = static_cast<Search*>(data);
  bool holds = false;
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  void* eh_frame = nullptr;
  for (size_t i = 0; i < info->dlpi_phnum; ++i) {
    const auto& ph = info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + ph.p_vaddr;
    if (ph.p_type == PT_LOAD) {
      holds = holds || (s->pc >= start && s->pc - start < ph.p_memsz);
      lo = std::min(lo, start);
      hi = std::max(hi, start + ph.p_memsz);
    } else if (ph.p_type == PT_GNU_EH_FRAME) {
      eh_frame = reinterpret_cast<void*>(start);
    }
  }
  if (!holds) return 0;
  std::memset(s->out, 0, sizeof(*s->out));
  s->out->dlfo_map_start = reinterpret_cast<void*>(lo);
  s->out->dlfo_map_end = reinterpret_cast<void*>(hi);
  s->out->dlfo_eh_frame = eh_frame;
  s->found = true;
  return 1;
}

}  // namespace

extern "C" int __wrap__dl_find_object(void* pc, dl_find_object* result) noexcept {
  Search s{reinterpret_cast<uintptr_t>(pc), result, false};
  dl_iterate_phdr(Visit, &s);
  return s.found ? 0 : -1;
}
