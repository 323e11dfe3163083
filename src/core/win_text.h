// UTF-8 <-> UTF-16 at the Windows API boundary, and the text of a Windows error code.
#pragma once

#include <string>
#include <string_view>

namespace cudamatch {

std::wstring WideFromUtf8(std::string_view text);
std::string Utf8FromWide(std::wstring_view text);
// FormatMessageW's text for a GetLastError() code, without the trailing line break.
std::string WindowsErrorText(unsigned long code);

}  // namespace cudamatch
