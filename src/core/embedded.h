// Text files compiled into the binary by cmake/embed.cmake (the catalog and the messages).
#pragma once

#include <cstddef>
#include <string_view>

namespace cudamatch {

struct EmbeddedFile {
  const char* name;
  std::string_view text;
};

extern const EmbeddedFile kEmbeddedCatalog[];
extern const size_t kEmbeddedCatalogCount;
extern const EmbeddedFile kEmbeddedMessages[];
extern const size_t kEmbeddedMessagesCount;

}  // namespace cudamatch
