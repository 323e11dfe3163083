#include "core/journal_fs.h"

#include <utility>

#include "core/text.h"

namespace cudamatch {

namespace {

uint64_t AnswerSum(const Result<std::string>& r) { return Checksum64(r ? "o" + *r : "e" + r.error()); }

uint64_t AnswerSum(const Result<std::vector<std::string>>& r) {
  if (!r) return Checksum64("e" + r.error());
  std::string all = "o";
  for (const std::string& name : *r) {
    all += name;
    all += '\0';
  }
  return Checksum64(all);
}

std::string SeenKey(FsDep::Kind kind, std::string_view path, uint64_t max_bytes = 0) {
  std::string key(1, static_cast<char>('0' + static_cast<int>(kind)));
  key += std::to_string(max_bytes);
  key += ':';
  key += path;
  return key;
}

bool SameInfo(const FileInfo& a, const FileInfo& b, bool pseudo) {
  if (pseudo) return a.type == b.type;
  return a.type == b.type && a.size == b.size && a.device == b.device && a.inode == b.inode && a.mtime_ns == b.mtime_ns &&
         a.ctime_ns == b.ctime_ns;
}

class JournalFs : public Fs {
 public:
  JournalFs(std::unique_ptr<Fs> inner, FsJournal* journal) : inner_(std::move(inner)), journal_(journal) {}

  Result<std::string> Read(std::string_view path, size_t max_bytes) const override {
    if (IsPseudoPath(path)) {
      Result<std::string> r = inner_->Read(path, max_bytes);
      journal_->Add(FsDep{FsDep::Kind::kRead, std::string(path), {}, max_bytes, AnswerSum(r)});
      return r;
    }
    StatBefore(path);
    return inner_->Read(path, max_bytes);
  }
  Result<std::unique_ptr<RandomAccessFile>> Open(std::string_view path) const override {
    // Positional reads of a file under /proc, /sys or /dev cannot be checked by one question.
    if (IsPseudoPath(path)) journal_->Add(FsDep{FsDep::Kind::kRead, std::string(path), {}, kNeverHolds, 0});
    else StatBefore(path);
    return inner_->Open(path);
  }
  Result<std::vector<std::string>> List(std::string_view path) const override {
    if (IsPseudoPath(path)) {
      auto r = inner_->List(path);
      journal_->Add(FsDep{FsDep::Kind::kList, std::string(path), {}, 0, AnswerSum(r)});
      return r;
    }
    StatBefore(path);
    return inner_->List(path);
  }
  FileInfo Stat(std::string_view path) const override {
    FileInfo info = inner_->Stat(path);
    journal_->Add(FsDep{FsDep::Kind::kStat, std::string(path), info, 0, 0});
    return info;
  }
  FileInfo LStat(std::string_view path) const override {
    FileInfo info = inner_->LStat(path);
    journal_->Add(FsDep{FsDep::Kind::kLStat, std::string(path), info, 0, 0});
    return info;
  }
  Result<std::string> ReadLink(std::string_view path) const override {
    auto r = inner_->ReadLink(path);
    journal_->Add(FsDep{FsDep::Kind::kLink, std::string(path), {}, 0, AnswerSum(r)});
    return r;
  }
  Result<std::string> Resolve(std::string_view path) const override {
    auto r = inner_->Resolve(path);
    journal_->Add(FsDep{FsDep::Kind::kResolve, std::string(path), {}, 0, AnswerSum(r)});
    return r;
  }
  const std::string& root() const override { return inner_->root(); }
  std::vector<Unreadable> unreadable() const override { return inner_->unreadable(); }

  static constexpr uint64_t kNeverHolds = ~uint64_t{0};

 private:
  void StatBefore(std::string_view path) const {
    if (!journal_->Has(FsDep::Kind::kStat, path)) Stat(path);
  }

  std::unique_ptr<Fs> inner_;
  FsJournal* journal_;
};

}  // namespace

void FsJournal::Add(FsDep dep) {
  if (!seen_.insert(SeenKey(dep.kind, dep.path, dep.max_bytes)).second) return;
  deps_.push_back(std::move(dep));
}

bool FsJournal::Has(FsDep::Kind kind, std::string_view path) const { return seen_.count(SeenKey(kind, path)) != 0; }

bool FsJournal::ChangedSince(int64_t since_ns) const {
  for (const FsDep& d : deps_) {
    if (d.kind != FsDep::Kind::kStat && d.kind != FsDep::Kind::kLStat) continue;
    if (IsPseudoPath(d.path)) continue;
    if (d.info.mtime_ns >= since_ns || d.info.ctime_ns >= since_ns) return true;
  }
  return false;
}

std::unique_ptr<Fs> MakeJournalFs(std::unique_ptr<Fs> inner, FsJournal* journal) {
  return std::make_unique<JournalFs>(std::move(inner), journal);
}

bool DepHolds(const Fs& fs, const FsDep& dep) {
  switch (dep.kind) {
    case FsDep::Kind::kStat: return SameInfo(fs.Stat(dep.path), dep.info, IsPseudoPath(dep.path));
    case FsDep::Kind::kLStat: return SameInfo(fs.LStat(dep.path), dep.info, IsPseudoPath(dep.path));
    case FsDep::Kind::kRead:
      if (dep.max_bytes == JournalFs::kNeverHolds) return false;
      return AnswerSum(fs.Read(dep.path, static_cast<size_t>(dep.max_bytes))) == dep.answer;
    case FsDep::Kind::kList: return AnswerSum(fs.List(dep.path)) == dep.answer;
    case FsDep::Kind::kLink: return AnswerSum(fs.ReadLink(dep.path)) == dep.answer;
    case FsDep::Kind::kResolve: return AnswerSum(fs.Resolve(dep.path)) == dep.answer;
  }
  return false;
}

void PutDeps(Writer& w, const std::vector<FsDep>& deps) {
  w.List(deps.size());
  for (const FsDep& d : deps) {
    w.Int(static_cast<int>(d.kind));
    w.Str(d.path);
    w.Int(static_cast<int>(d.info.type));
    for (uint64_t n : {d.info.size, d.info.device, d.info.inode}) w.Int(static_cast<int64_t>(n));
    w.Int(d.info.mtime_ns);
    w.Int(d.info.ctime_ns);
    w.Int(static_cast<int64_t>(d.max_bytes));
    w.Int(static_cast<int64_t>(d.answer));
  }
}

std::vector<FsDep> GetFsDeps(Reader& r) {
  std::vector<FsDep> out(r.List());
  for (FsDep& d : out) {
    d.kind = static_cast<FsDep::Kind>(r.IntIn(0, static_cast<int>(FsDep::Kind::kResolve)));
    d.path = r.Str();
    d.info.type = static_cast<FileType>(r.IntIn(0, static_cast<int>(FileType::kOther)));
    for (uint64_t* n : {&d.info.size, &d.info.device, &d.info.inode}) *n = static_cast<uint64_t>(r.Int());
    d.info.mtime_ns = r.Int();
    d.info.ctime_ns = r.Int();
    d.max_bytes = static_cast<uint64_t>(r.Int());
    d.answer = static_cast<uint64_t>(r.Int());
  }
  return out;
}

}  // namespace cudamatch
