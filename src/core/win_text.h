// UTF-8 <-> UTF-16 at the Windows API boundary, the text of a Windows error code, and command-line
// quoting.
#pragma once

#include <string>
#include <string_view>

namespace cudamatch {

std::wstring WideFromUtf8(std::string_view text);
std::string Utf8FromWide(std::wstring_view text);
// FormatMessageW's text for a GetLastError() code, without the trailing line break.
std::string WindowsErrorText(unsigned long code);
// One command-line argument, quoted as CommandLineToArgvW reads it back.
std::wstring QuoteWindowsArg(const std::wstring& arg);

}  // namespace cudamatch
