#include "report/shown_paths.h"

#include "core/path_form.h"

namespace cudamatch {

namespace {

class Shower {
 public:
  explicit Shower(std::string drive) : drive_(std::move(drive)) {}

  // A path of the tree, or a source that starts with one ("/Windows/System32/nvcuda.dll (file
  // version)"); anything else ("catalog: driver branch 565", "PATH") is left as it is.
  void operator()(std::string& text) const {
    if (!text.empty() && text.front() == '/') text = WindowsPathForm(text, drive_);
  }
  void operator()(std::vector<std::string>& list) const {
    for (std::string& t : list) (*this)(t);
  }
  void operator()(std::optional<std::string>& text) const {
    if (text) (*this)(*text);
  }

  void Env(PythonEnv& e) const {
    for (std::string* t : {&e.executable, &e.prefix, &e.version_source}) (*this)(*t);
    (*this)(e.site_packages);
    for (auto& [name, p] : e.packages) Package(p);
    for (ExtensionInfo& x : e.extensions) {
      (*this)(x.metadata_path);
      (*this)(x.wheel_source);
      for (BinaryInfo& b : x.libs) (*this)(b.path);
    }
  }

 private:
  void Package(PackageInfo& p) const {
    for (std::string* t : {&p.version_source, &p.cuda_source, &p.location}) (*this)(*t);
    (*this)(p.bundled_libs);
    for (BinaryInfo& b : p.binaries) (*this)(b.path);
    for (BinaryInfo& b : p.abi_libs) (*this)(b.path);
    for (RuntimeLib& r : p.runtime) {
      for (std::string* t : {&r.path, &r.version_source, &r.wheel_path, &r.needed_by}) (*this)(*t);
    }
  }

  std::string drive_;
};

}  // namespace

Snapshot ShownForUser(const Snapshot& s) {
  Snapshot out = s;
  if (s.platform.os != Os::kWindows) return out;
  Shower show(s.host.system_drive);
  for (std::string* t : {&out.driver.kernel_source, &out.driver.userspace_source, &out.driver.cuda_source}) show(*t);
  show(out.driver.libcuda_paths);
  show(out.driver.nvml_paths);
  for (ToolkitInfo& t : out.toolkits) {
    for (std::string* x : {&t.path, &t.version_source, &t.max_gcc_source}) show(*x);
  }
  for (CudnnInfo& c : out.cudnn) {
    show(c.path);
    show(c.source);
  }
  for (PythonEnv& e : out.pythons) show.Env(e);
  for (PathTool* t : {&out.host.path_python, &out.host.path_pip}) {
    show(t->path);
    show(t->prefix);
  }
  for (Unreadable& u : out.unreadable) show(u.path);
  return out;
}

std::vector<Finding> ShownForUser(const Snapshot& s, std::vector<Finding> findings) {
  if (s.platform.os != Os::kWindows) return findings;
  Shower show(s.host.system_drive);
  for (Finding& f : findings) {
    for (auto& [key, value] : f.args) show(value);
    for (EvidenceItem& e : f.evidence) {
      for (auto& [key, value] : e.args) show(value);
    }
  }
  return findings;
}

}  // namespace cudamatch
