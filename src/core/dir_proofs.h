// What one run learned about directories that a later run may take without asking again: the
// names a directory was seen not to hold, and its listing. Each is kept with what stat said of
// the directory (type, device, inode, size, modification and change time in ns; through links,
// so /sbin is known by /usr/sbin's inode) and is used only when one stat of it says exactly the
// same again: creating, removing or renaming an entry
// changes the directory's modification and change time, and a directory replaced or reached
// through another link has another inode. So a later run learns that <prefix>/pyvenv.cfg and
// <prefix>/lib64 are not there, and what <prefix>/lib holds, from the stat of <prefix> and of
// <prefix>/lib alone; a path under a missing directory is missing too. Nothing is learned about
// a directory whose times are less than `racy_ns` before the run began (a change within the same
// clock tick could leave them as they were) or that the file system gives no inode and times
// for. Only what a run used or learned is kept for the next one. Format: a line
// "cudamatch-dir-proofs 2", a line with the Checksum64 (core/text.h) of the rest, the root, then per
// directory "D dev inode size mtime ctime path", its missing names ("M name") and, when listed,
// "L" and its entries ("N name"); a file that does not parse or names another root is ignored.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/fs.h"
#include "core/text.h"

namespace cudamatch {

struct DirProof {
  FileInfo dir;
  std::vector<std::string> missing;  // sorted, unique
  bool listed = false;
  std::vector<std::string> names;  // sorted, when listed
  // Of a proof loaded from an earlier run: which of its missing names, and whether its listing,
  // this run used (kept for the next run without copying them).
  std::vector<bool> missing_used;
  bool listing_used = false;
};

class DirProofs {
 public:
  DirProofs(std::string root, int64_t now_ns, int64_t racy_ns = 2'000'000'000);

  // Takes the proofs an earlier run kept; false (nothing taken) when `text` is not such a file.
  bool Load(std::string_view text);
  // What this run used and learned, in the format above.
  std::string Save() const;
  // Whether `saved` (what Save() gave) differs from what was loaded.
  bool Differs(const std::string& saved) const { return saved != loaded_; }
  // Whether this run used and learned exactly what was loaded: then there is nothing to save.
  bool Unchanged() const;

  // Whether `name` is known absent from `dir`, whose stat this run is `now`.
  bool ProvesMissing(std::string_view dir, const FileInfo& now, std::string_view name);
  // The listing of `dir`, when an earlier run's is still true; nullptr otherwise.
  const std::vector<std::string>* Listing(std::string_view dir, const FileInfo& now);
  // Whether an earlier run kept anything about `dir` (then its stat is worth asking).
  bool Knows(std::string_view dir) const { return earlier_.find(dir) != earlier_.end(); }

  void LearnMissing(std::string_view dir, const FileInfo& info, std::string_view name);
  void LearnListing(std::string_view dir, const FileInfo& info, const std::vector<std::string>& names);

 private:
  bool Trusted(const FileInfo& info) const;
  DirProof* Next(std::string_view dir, const FileInfo& info);
  DirProof* Valid(std::string_view dir, const FileInfo& now);
  // What this run used of the earlier proofs and learned itself, by directory.
  std::map<std::string, DirProof> Kept() const;

  std::string root_;
  int64_t now_ns_, racy_ns_;
  std::string loaded_;
  struct PathHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return TextHash(s); }
  };
  using ProofMap = std::unordered_map<std::string, DirProof, PathHash, std::equal_to<>>;
  ProofMap earlier_, next_;
};

// The name the proofs of `root` are kept under in the cache directory.
std::string DirProofsName(std::string_view root);

}  // namespace cudamatch
