// Small string helpers shared by every parser. Pure functions over string_view.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudamatch {

std::string_view Trim(std::string_view s);
std::vector<std::string_view> Split(std::string_view s, char sep);
// Splits and drops empty pieces after trimming each.
std::vector<std::string> SplitNonEmpty(std::string_view s, char sep);
bool StartsWith(std::string_view s, std::string_view prefix);
bool EndsWith(std::string_view s, std::string_view suffix);
std::string ToLower(std::string_view s);
// Appends the code point `cp` (at most U+10FFFF) to `out` as UTF-8.
void AppendUtf8(std::string& out, uint32_t cp);
std::string Join(const std::vector<std::string>& parts, std::string_view sep);
// Parses a non-negative decimal integer that fills the whole string (no sign, no spaces).
std::optional<int64_t> ParseUint(std::string_view s);
// Parses hexadecimal digits with an optional 0x prefix.
std::optional<uint32_t> ParseHex(std::string_view s);
// Quotes text for error messages: printable ASCII kept, the rest escaped, long input cut.
std::string Quote(std::string_view s);
// Names in version order: runs of digits compare as numbers ("3.6.15" < "3.10.4",
// "cuda-9.2" < "cuda-12.1"), the rest as bytes; equal digit values keep the shorter run first.
bool NaturalLess(std::string_view a, std::string_view b);
void SortNatural(std::vector<std::string>& names);
// Levenshtein distance, for "did you mean".
size_t EditDistance(std::string_view a, std::string_view b);
// Lines of a text, without their line endings ("\n" or "\r\n").
std::vector<std::string_view> Lines(std::string_view text);
// A 64-bit checksum of `text` for files the tool keeps for itself (names and damage checks, not
// security): eight bytes a step, each step a bijection of the state, so any one changed word or
// byte changes the result. Hex16: its 16 lowercase hex digits, lowest nibble first.
uint64_t Checksum64(std::string_view text);
std::string Hex16(uint64_t h);
// A hash for the tool's in-memory tables keyed by paths and ids (eight bytes a step, the last
// partial word at once): not kept anywhere, so it may change between versions.
size_t TextHash(std::string_view text);
// Keeps ASCII letters and digits only, lowercased: "GeForce RTX-3090" -> "geforcertx3090".
std::string AlnumKey(std::string_view s);

// Calls fn for each non-empty, trimmed `sep`-separated item, without allocating.
template <typename Fn>
void ForEachItem(std::string_view list, Fn fn, char sep = ';') {
  while (!list.empty()) {
    size_t pos = list.find(sep);
    std::string_view item = Trim(list.substr(0, pos));
    if (!item.empty()) fn(item);
    if (pos == std::string_view::npos) break;
    list.remove_prefix(pos + 1);
  }
}

}  // namespace cudamatch
