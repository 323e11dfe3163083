// A defensive reader of the version resource of Windows PE files (DLLs, EXEs): the DOS and PE
// headers, the section table, and the resource directory down to RT_VERSION's VS_FIXEDFILEINFO.
// It reads through a RandomAccessFile at positions (nvcuda.dll is tens of MB; a few KB are read);
// every count, offset and size is checked against the file and fixed caps before use, so a
// damaged or hostile file is an error naming what is wrong, never a crash or a long read.
// Layout: Microsoft's "PE Format" specification (IMAGE_DOS_HEADER e_lfanew at 0x3c, the COFF
// file header, the optional header's data directory 2 = resource table, IMAGE_RESOURCE_DIRECTORY
// and its entries) and the VS_VERSIONINFO / VS_FIXEDFILEINFO structures (signature 0xFEEF04BD).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/fs.h"
#include "core/result.h"
#include "core/version.h"

namespace cudamatch {

class Trail;  // probe/context.h

// FileVersion of VS_FIXEDFILEINFO: 32.0.15.6636 -> {32, 0, 15, 6636}.
struct PeFileVersion {
  std::array<uint16_t, 4> parts{};
  std::string ToString() const;
};

// The VS_FIXEDFILEINFO in a VS_VERSIONINFO block (the bytes of the RT_VERSION resource).
Result<PeFileVersion> ParseVersionInfo(std::string_view block);

// The file version of a PE file from its RT_VERSION resource.
Result<PeFileVersion> ReadPeFileVersion(const RandomAccessFile& file);

// NVIDIA's Windows driver version from a driver DLL's file version: the last five digits of the
// third and fourth fields, 32.0.15.6636 -> "566.36" (nvidia-smi prints the same number).
std::optional<DriverVersion> WindowsDriverFromFileVersion(const PeFileVersion& v);

// The NVIDIA driver version of a driver DLL (nvcuda.dll, nvcuda64.dll, nvml.dll) from its version
// resource; the attempt and its outcome are recorded in the trail.
std::optional<DriverVersion> DllDriverVersion(const Fs& fs, const std::string& path, Trail& trail);

}  // namespace cudamatch
