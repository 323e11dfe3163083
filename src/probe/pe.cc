#include "probe/pe.h"

#include <vector>

#include "core/text.h"
#include "probe/le_bytes.h"

namespace cudamatch {

namespace {

constexpr uint64_t kMaxHeaderOffset = 64 * 1024;   // e_lfanew beyond this is not a real image
constexpr size_t kMaxSections = 96;                // the loader's own limit
constexpr size_t kMaxEntries = 256;                // resource entries looked at per directory
constexpr uint32_t kMaxVersionBlock = 64 * 1024;   // VS_VERSIONINFO is a few KB
constexpr uint32_t kRtVersion = 16;
constexpr uint32_t kFixedSignature = 0xFEEF04BD;

struct Section {
  uint32_t rva = 0;
  uint32_t virtual_size = 0;
  uint32_t raw_size = 0;
  uint32_t raw_offset = 0;
};

Result<std::string> ReadExact(const RandomAccessFile& f, uint64_t offset, size_t len, const char* what) {
  if (offset > f.size() || len > f.size() - offset) return Err(std::string(what) + " lies past the end of the file");
  auto bytes = f.ReadAt(offset, len);
  if (!bytes) return Err(bytes.error());
  if (bytes->size() != len) return Err(std::string(what) + ": short read");
  return std::move(*bytes);
}

// The file offset of `len` bytes at a relative virtual address, inside one section's raw data.
Result<uint64_t> RvaToOffset(const std::vector<Section>& sections, uint32_t rva, uint32_t len) {
  for (const Section& s : sections) {
    uint64_t span = std::max(s.virtual_size, s.raw_size);
    if (rva < s.rva || rva - s.rva >= span) continue;
    uint64_t delta = rva - s.rva;
    if (delta + len > s.raw_size) return Err("resource data at RVA " + Hex(rva) + " runs past its section's data");
    return uint64_t{s.raw_offset} + delta;
  }
  return Err("RVA " + Hex(rva) + " is in no section");
}

struct Image {
  std::vector<Section> sections;
  uint32_t rsrc_rva = 0;
  uint32_t rsrc_size = 0;
};

Result<Image> ReadHeaders(const RandomAccessFile& f) {
  auto dos = ReadExact(f, 0, 64, "DOS header");
  if (!dos) return Err("not a PE file: " + dos.error());
  if (dos->substr(0, 2) != "MZ") return Err("not a PE file: no MZ signature");
  uint32_t pe_at = Le32(*dos, 0x3c);
  if (pe_at > kMaxHeaderOffset) return Err("PE header offset " + Hex(pe_at) + " is implausible");
  auto coff = ReadExact(f, pe_at, 24, "PE header");
  if (!coff) return Err(coff.error());
  if (coff->substr(0, 4) != std::string_view("PE\0\0", 4)) return Err("no PE signature at " + Hex(pe_at));
  size_t nsections = Le16(*coff, 6);
  size_t opt_size = Le16(*coff, 20);
  if (nsections == 0 || nsections > kMaxSections) return Err(std::to_string(nsections) + " sections is implausible");
  auto opt = ReadExact(f, pe_at + 24, opt_size, "optional header");
  if (!opt) return Err(opt.error());
  uint16_t magic = Le16(*opt, 0);
  if (magic != 0x10b && magic != 0x20b) return Err("unknown optional header magic " + Hex(magic));
  size_t dirs_at = magic == 0x20b ? 112 : 96;
  uint32_t ndirs = Le32(*opt, dirs_at - 4);
  Image img;
  if (ndirs > 2 && dirs_at + 3 * 8 <= opt_size) {
    img.rsrc_rva = Le32(*opt, dirs_at + 16);
    img.rsrc_size = Le32(*opt, dirs_at + 20);
  }
  if (img.rsrc_rva == 0 || img.rsrc_size == 0) return Err("no resource table");
  auto table = ReadExact(f, pe_at + 24 + opt_size, nsections * 40, "section table");
  if (!table) return Err(table.error());
  for (size_t i = 0; i < nsections; ++i) {
    size_t at = i * 40;
    img.sections.push_back(Section{Le32(*table, at + 12), Le32(*table, at + 8), Le32(*table, at + 16), Le32(*table, at + 20)});
  }
  return img;
}

// Resource directory reading: offsets are relative to the resource table's start.
class Resources {
 public:
  Resources(const RandomAccessFile& f, const Image& img) : f_(f), img_(img) {}

  // The entry of the directory at `dir` whose id is `id` (any, when nullopt): its offset field.
  Result<uint32_t> Entry(uint32_t dir, std::optional<uint32_t> id) const {
    auto head = Bytes(dir, 16);
    if (!head) return Err(head.error());
    size_t count = size_t{Le16(*head, 12)} + Le16(*head, 14);
    if (count == 0) return Err("empty resource directory");
    count = std::min(count, kMaxEntries);
    auto entries = Bytes(dir + 16, static_cast<uint32_t>(count * 8));
    if (!entries) return Err(entries.error());
    for (size_t i = 0; i < count; ++i) {
      uint32_t name = Le32(*entries, i * 8);
      if (id && name != *id) continue;
      return Le32(*entries, i * 8 + 4);
    }
    return Err("no RT_VERSION resource");
  }
  Result<std::string> Bytes(uint32_t at, uint32_t len) const {
    if (at > img_.rsrc_size || len > img_.rsrc_size - at) return Err("resource entry at " + Hex(at) + " lies outside the resource table");
    auto off = RvaToOffset(img_.sections, img_.rsrc_rva + at, len);
    if (!off) return Err(off.error());
    return ReadExact(f_, *off, len, "resource table");
  }

 private:
  const RandomAccessFile& f_;
  const Image& img_;
};

constexpr uint32_t kSubdir = 0x80000000u;

// Type 16 -> its first name -> its first language -> IMAGE_RESOURCE_DATA_ENTRY {RVA, size}.
Result<std::string> VersionBlock(const RandomAccessFile& f, const Image& img) {
  Resources res(f, img);
  auto names = res.Entry(0, kRtVersion);
  if (!names) return Err(names.error());
  if (!(*names & kSubdir)) return Err("RT_VERSION entry is not a directory");
  auto langs = res.Entry(*names & ~kSubdir, std::nullopt);
  if (!langs) return Err(langs.error());
  if (!(*langs & kSubdir)) return Err("RT_VERSION name entry is not a directory");
  auto leaf = res.Entry(*langs & ~kSubdir, std::nullopt);
  if (!leaf) return Err(leaf.error());
  if (*leaf & kSubdir) return Err("RT_VERSION resource tree is deeper than type/name/language");
  auto data = res.Bytes(*leaf, 16);
  if (!data) return Err(data.error());
  uint32_t rva = Le32(*data, 0);
  uint32_t size = Le32(*data, 4);
  if (size == 0 || size > kMaxVersionBlock) return Err("version resource size " + std::to_string(size) + " is implausible");
  auto off = RvaToOffset(img.sections, rva, size);
  if (!off) return Err(off.error());
  return ReadExact(f, *off, size, "version resource");
}

}  // namespace

std::string PeFileVersion::ToString() const {
  return std::to_string(parts[0]) + "." + std::to_string(parts[1]) + "." + std::to_string(parts[2]) + "." +
         std::to_string(parts[3]);
}

// VS_VERSIONINFO: wLength, wValueLength, wType, L"VS_VERSION_INFO\0", padding to 32 bits, then
// VS_FIXEDFILEINFO { dwSignature 0xFEEF04BD, dwStrucVersion, dwFileVersionMS, dwFileVersionLS, ... }.
Result<PeFileVersion> ParseVersionInfo(std::string_view block) {
  static constexpr std::u16string_view kKey = u"VS_VERSION_INFO";
  if (block.size() < 6 + 32 + 2) return Err("version resource is too short");
  for (size_t i = 0; i < kKey.size(); ++i) {
    if (Le16(block, 6 + 2 * i) != kKey[i]) return Err("version resource has no VS_VERSION_INFO key");
  }
  size_t fixed = (6 + 2 * (kKey.size() + 1) + 3) & ~size_t{3};
  if (Le16(block, 2) < 52 || fixed + 52 > block.size()) return Err("version resource has no VS_FIXEDFILEINFO");
  if (Le32(block, fixed) != kFixedSignature) return Err("VS_FIXEDFILEINFO signature is " + Hex(Le32(block, fixed)));
  uint32_t ms = Le32(block, fixed + 8);
  uint32_t ls = Le32(block, fixed + 12);
  PeFileVersion v;
  v.parts = {static_cast<uint16_t>(ms >> 16), static_cast<uint16_t>(ms & 0xffff), static_cast<uint16_t>(ls >> 16),
             static_cast<uint16_t>(ls & 0xffff)};
  return v;
}

Result<PeFileVersion> ReadPeFileVersion(const RandomAccessFile& file) {
  auto img = ReadHeaders(file);
  if (!img) return Err(img.error());
  auto block = VersionBlock(file, *img);
  if (!block) return Err(block.error());
  return ParseVersionInfo(*block);
}

std::optional<DriverVersion> WindowsDriverFromFileVersion(const PeFileVersion& v) {
  if (v.parts[3] > 9999) return std::nullopt;
  std::string digits = std::to_string(v.parts[2]) + (v.parts[3] < 1000 ? "0" : "") + (v.parts[3] < 100 ? "0" : "") +
                       (v.parts[3] < 10 ? "0" : "") + std::to_string(v.parts[3]);
  if (digits.size() < 5) return std::nullopt;
  digits = digits.substr(digits.size() - 5);
  if (digits[0] == '0') return std::nullopt;
  return DriverVersion::Parse(digits.substr(0, 3) + "." + digits.substr(3)).as_optional();
}

}  // namespace cudamatch
