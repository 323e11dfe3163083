// The report cache: doctor's report of a machine kept in the user's cache directory (the
// environment cache's, core/cache_store.h) beside what it depended on, and shown again while all
// of that is as it was, without reading the machine or the catalog again.
//
// What decides a report is of two kinds, and both are checked:
//   - the key, what is not a file: cudamatch's version; this executable's identity (device,
//     inode, size, times) and the user and groups running it; the whole command line; the whole
//     environment but for the few variables that change from shell to shell and that cudamatch
//     never reads (UnreadVariables, core/report_entry.h); whether stdout is a terminal, and its
//     width; the working directory; the host's machine, glibc and executable path; the day (UTC);
//     the root, resolved; the index overlay's file and directory (stat). The entry's name is the
//     key's checksum; the entry holds the whole key and is used only when this run's key equals it.
//   - the files: every question the run asked of its file system, written down by a journal
//     (core/journal_fs.h) and asked again, one question each: a stat must say the same (type,
//     device, inode, size, modification and change time), a file read or a directory listed what
//     stat said of it before, and what /proc, /sys and /dev gave, links and resolutions the same
//     answer again. The files that the choice of NVIDIA libraries looks at with calls of its own
//     (core/dynlib.h) are asked through the journal too (cli/machine.cc). When one differs, or the
//     entry does not parse, fails its checksum or names another key, the run is made afresh (and
//     kept again).
// A report is not kept when it could not be shown again as it was: when the run started a child
// (the driver was asked: its answer is no file), wrote to stderr or failed, or when a file or
// directory it depended on changed less than two seconds before the run began (a change within the
// same clock tick could leave its times as they were); nor as JSON (it carries the time of the
// run), nor with --catalog, nor for another system's tree, nor on Windows.
//
// At most 64 reports are kept (one per key: each working directory, command line and
// environment); writing another removes the oldest written.
//
// Used where the environment cache is (KeptRoot, cli/machine.h): this machine's "/" unless
// --no-cache or CUDAMATCH_CACHE=off, a --root only with --cache or CUDAMATCH_CACHE=on. The
// entry's format is core/report_entry.h's.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/common.h"
#include "core/cache_store.h"
#include "core/journal_fs.h"
#include "core/report_entry.h"

namespace cudamatch {

class ReportCache {
 public:
  ReportCache(std::unique_ptr<CacheStore> store, std::string key, std::string root, std::map<std::string, std::string> env,
              int64_t started_ns);
  // The kept report when every answer it depended on is the same again.
  std::optional<KeptReport> Find() const;
  // Keeps `report` of a run whose questions `journal` holds, unless something above forbids it.
  void Keep(const FsJournal& journal, const KeptReport& report) const;

 private:
  std::unique_ptr<CacheStore> store_;
  std::string key_;
  std::string root_;
  std::map<std::string, std::string> env_;
  int64_t started_ns_;
};

// The report cache for this command line; nullptr where no report is kept.
std::unique_ptr<ReportCache> OpenReportCache(const Command& command, const std::vector<std::string>& args,
                                             const std::map<std::string, std::string>& env, const GlobalFlags& flags,
                                             bool stdout_is_tty);

}  // namespace cudamatch
