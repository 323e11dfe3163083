// Pins from command-line arguments or a requirements file, read the way pip reads them: comments,
// line continuations, byte order marks and UTF-16, CR / CRLF / LF line ends, `--hash` options after a requirement, `name @ URL` (version and local tag
// from the wheel's file name), bare names, extras, environment markers, `-r` / `-c` includes
// (cycles reported), and the index options, which are kept. Pure: includes are read through
// a callback, so the caller decides how files are opened.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/result.h"

namespace cudamatch {

struct Pin {
  std::string name;       // normalised: "torch"
  std::string specifier;  // "==2.3.1+cu121"; "" for a bare name
  std::string text;       // the requirement as written
  std::string marker;     // environment marker after ';', or ""
  std::string file;       // "" for a command-line argument
  int line = 0;           // 0 for a command-line argument
};

// A line that could not be read; the rest of the file is still checked.
struct ParseIssue {
  std::string file;
  int line = 0;
  std::string text;
  std::string why;  // message id: "req.unparsed", "req.include_cycle", "req.include_unreadable"
};

struct PinSet {
  std::vector<Pin> pins;
  std::string index_url;                // -i / --index-url
  std::vector<std::string> extra_urls;  // --extra-index-url / -f / --find-links, in order
  std::vector<ParseIssue> issues;
};

// The packages checked besides torch, torchvision and torchaudio (the catalog's extensions:
// IsCatalogExtension), by normalised name; empty: none.
using ExtraPackages = std::function<bool(std::string_view name)>;

// One requirement per argument: "torch==1.13.0", "torch", "torch>=2.0", "xformers==0.0.27".
Result<PinSet> ParsePinArgs(const std::vector<std::string>& args, const ExtraPackages& extra = {});

// Reads an included file by the path as written (already joined to the including file's folder).
using IncludeReader = std::function<Result<std::string>(const std::string& path)>;
PinSet ParseRequirements(const std::string& file, std::string_view text, const IncludeReader& read,
                         const ExtraPackages& extra = {});

// What a requirements file (and each file it includes) may add up to: bytes read in all and
// pins kept; past either, the rest is skipped with a "req.bytes_limit" / "req.pins_limit" issue.
inline constexpr size_t kMaxRequirementBytes = 16u << 20;
inline constexpr size_t kMaxRequirementPins = 10000;

// The text of a requirements file as pip decodes it: a UTF-8 byte order mark dropped, UTF-16 LE
// or BE (by their byte order mark) turned into UTF-8, and CR and CRLF line ends made LF.
std::string DecodeRequirementsText(std::string_view bytes);

// "torch-2.0.1%2Bcu118-cp310-cp310-linux_x86_64.whl" (or a URL ending in one) -> "2.0.1+cu118".
std::string WheelVersion(std::string_view url_or_name);

}  // namespace cudamatch
