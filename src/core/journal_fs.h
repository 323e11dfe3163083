// What a run's answers depended on, for the report cache (cli/report_cache.h): an Fs that passes
// every question to the one below it and writes down, for each, what would tell a later run with
// one question whether the answer would be the same:
//   - a stat or lstat: what it said (type, size, device, inode, modification and change time in
//     nanoseconds); under /proc, /sys and /dev, whose times do not follow what they hold, the
//     type alone;
//   - a file read or opened, a directory listed: what stat said of it before it was read (a
//     change after that gives another size, inode or time); under /proc, /sys and /dev, the
//     checksum of the answer itself, asked again to check;
//   - a link read, a path resolved: the checksum of the answer, asked again.
// Each question is written down once a run; a file whose stat is already written down is not
// stat'ed again before it is read.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/fs.h"
#include "core/value_codec.h"

namespace cudamatch {

struct FsDep {
  enum class Kind : uint8_t { kStat, kLStat, kRead, kList, kLink, kResolve };
  Kind kind = Kind::kStat;
  std::string path;
  FileInfo info;          // kStat, kLStat
  uint64_t max_bytes = 0;  // kRead
  uint64_t answer = 0;    // kRead, kList (under /proc, /sys, /dev), kLink, kResolve: Checksum64
};

class FsJournal {
 public:
  void Add(FsDep dep);
  bool Has(FsDep::Kind kind, std::string_view path) const;
  const std::vector<FsDep>& deps() const { return deps_; }
  std::string root;  // the root of the file system written down (Fs::root)
  // Whether a file or directory this run depended on changed at or after `since_ns` (wall clock):
  // a change within the same clock tick could leave its times as they were.
  bool ChangedSince(int64_t since_ns) const;

 private:
  std::vector<FsDep> deps_;
  std::unordered_set<std::string> seen_;  // kind and path
};

// `journal` outlives the result.
std::unique_ptr<Fs> MakeJournalFs(std::unique_ptr<Fs> inner, FsJournal* journal);

// Whether `fs` answers as it did when `dep` was written down (one question).
bool DepHolds(const Fs& fs, const FsDep& dep);

void PutDeps(Writer& w, const std::vector<FsDep>& deps);
std::vector<FsDep> GetFsDeps(Reader& r);  // throws BadEntry

}  // namespace cudamatch
