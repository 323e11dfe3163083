// DecodePaste: the bytes of a paste to numbered lines of valid UTF-8.
// What arrives: UTF-8 from a browser or a terminal; UTF-16LE with a BOM from Notepad's "Unicode";
// UTF-16LE without a BOM from PowerShell 5's `python -m torch.utils.collect_env > env.txt`
// (every other byte is NUL: "P\0y\0T\0o\0r\0c\0h\0"); CRLF from Windows, CR from old Macs;
// e-mail and GitHub quotes ("> PyTorch version: 2.1.0").

#include <cstdint>

#include "core/text.h"
#include "probe/paste.h"

namespace cudamatch {

namespace {

constexpr uint32_t kReplacement = 0xFFFD;

enum class Encoding { kUtf8, kUtf16Le, kUtf16Be };

// UTF-16LE without a BOM: the odd bytes of the first few kilobytes are all NUL and the even ones
// are not (plain ASCII text written as UTF-16LE).
bool LooksUtf16Le(std::string_view b) {
  size_t n = std::min<size_t>(b.size(), 4096) & ~size_t{1};
  if (n < 4) return false;
  size_t even_nonzero = 0;
  for (size_t i = 0; i < n; i += 2) {
    if (b[i + 1] != '\0') return false;
    if (b[i] != '\0') ++even_nonzero;
  }
  return even_nonzero * 2 > n / 2;
}


// The next code point of UTF-8 text at `i` (advanced past it); an invalid sequence is one
// U+FFFD per byte.
uint32_t NextUtf8(std::string_view b, size_t& i) {
  auto byte = [&](size_t k) { return static_cast<uint8_t>(b[k]); };
  uint8_t c = byte(i++);
  if (c < 0x80) return c;
  int extra = c >= 0xF0 && c <= 0xF4 ? 3 : c >= 0xE0 ? 2 : c >= 0xC2 && c < 0xE0 ? 1 : -1;
  if (extra < 0 || i + extra > b.size()) return kReplacement;
  uint32_t cp = c & (0x3F >> extra);
  for (int k = 0; k < extra; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return kReplacement;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  bool overlong = (extra == 2 && cp < 0x800) || (extra == 3 && cp < 0x10000);
  if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return kReplacement;
  i += extra;
  return cp;
}

uint32_t NextUtf16(std::string_view b, size_t& i, bool little) {
  auto unit = [&](size_t k) -> uint32_t {
    uint8_t lo = static_cast<uint8_t>(b[little ? k : k + 1]), hi = static_cast<uint8_t>(b[little ? k + 1 : k]);
    return (uint32_t{hi} << 8) | lo;
  };
  if (i + 2 > b.size()) {
    i = b.size();
    return kReplacement;  // an odd last byte
  }
  uint32_t u = unit(i);
  i += 2;
  if (u >= 0xDC00 && u <= 0xDFFF) return kReplacement;
  if (u < 0xD800 || u > 0xDBFF) return u;
  if (i + 2 > b.size()) return kReplacement;
  uint32_t low = unit(i);
  if (low < 0xDC00 || low > 0xDFFF) return kReplacement;
  i += 2;
  return 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00);
}

bool Dropped(uint32_t cp) {
  return (cp < 0x20 && cp != '\t') || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || cp == 0xFEFF;
}

// "> > PyTorch version: 2.1.0" -> "PyTorch version: 2.1.0": the quote markers of a reply.
std::string Unquoted(std::string line) {
  size_t i = 0;
  while (true) {
    size_t j = i;
    while (j < line.size() && (line[j] == ' ' || line[j] == '\t')) ++j;
    if (j >= line.size() || line[j] != '>') break;
    i = j + 1;
    if (i < line.size() && line[i] == ' ') ++i;
  }
  return i == 0 ? line : line.substr(i);
}

class LineBuilder {
 public:
  explicit LineBuilder(PasteText& out) : out_(out) {}
  void Add(uint32_t cp) {
    if (cp == '\n' && last_cr_) {
      last_cr_ = false;
      return;  // the LF of a CRLF
    }
    last_cr_ = cp == '\r';
    if (cp == '\n' || cp == '\r') return End();
    if (!Dropped(cp)) AppendUtf8(line_, cp);
    open_ = true;
  }
  void Finish() {
    if (open_) End();
  }

 private:
  void End() {
    out_.lines.push_back(PasteLine{static_cast<int>(out_.lines.size()) + 1, Unquoted(std::move(line_))});
    line_.clear();
    open_ = false;
  }
  PasteText& out_;
  std::string line_;
  bool open_ = false;
  bool last_cr_ = false;
};

}  // namespace

PasteText DecodePaste(std::string_view bytes) {
  PasteText out;
  Encoding enc = Encoding::kUtf8;
  if (bytes.substr(0, 3) == "\xEF\xBB\xBF") {
    bytes.remove_prefix(3);
  } else if (bytes.substr(0, 2) == "\xFF\xFE") {
    enc = Encoding::kUtf16Le;
    bytes.remove_prefix(2);
  } else if (bytes.substr(0, 2) == "\xFE\xFF") {
    enc = Encoding::kUtf16Be;
    bytes.remove_prefix(2);
  } else if (LooksUtf16Le(bytes)) {
    enc = Encoding::kUtf16Le;
  }
  if (bytes.size() > kPasteMaxBytes) {
    bytes = bytes.substr(0, kPasteMaxBytes);
    out.truncated = true;
  }
  out.encoding = enc == Encoding::kUtf8 ? "utf-8" : enc == Encoding::kUtf16Le ? "utf-16le" : "utf-16be";
  LineBuilder lines(out);
  for (size_t i = 0; i < bytes.size();) {
    lines.Add(enc == Encoding::kUtf8 ? NextUtf8(bytes, i) : NextUtf16(bytes, i, enc == Encoding::kUtf16Le));
  }
  lines.Finish();
  return out;
}

}  // namespace cudamatch
