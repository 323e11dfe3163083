// Little-endian integers at an offset of a byte string, for the binary readers (elf, fatbin).
// Callers check the length first; a read past the end yields 0 rather than undefined behaviour.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cudamatch {

inline uint64_t LeN(std::string_view b, size_t at, size_t n) {
  if (at > b.size() || n > b.size() - at) return 0;
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= uint64_t{static_cast<unsigned char>(b[at + i])} << (8 * i);
  return v;
}
inline uint16_t Le16(std::string_view b, size_t at) { return static_cast<uint16_t>(LeN(b, at, 2)); }
inline uint32_t Le32(std::string_view b, size_t at) { return static_cast<uint32_t>(LeN(b, at, 4)); }
inline uint64_t Le64(std::string_view b, size_t at) { return LeN(b, at, 8); }

inline std::string Hex(uint64_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  do {
    out.insert(out.begin(), kDigits[v & 0xf]);
    v >>= 4;
  } while (v != 0);
  return "0x" + out;
}

}  // namespace cudamatch
