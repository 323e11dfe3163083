// Host probe. Sources, in order:
//   OS:      /etc/os-release, then /usr/lib/os-release
//   arch:    uname (root "/" only), else the multiarch library directory names under the root
//   glibc:   gnu_get_libc_version (root "/" only)
//   GCC:     the /usr/bin/gcc link target ("gcc-12"), else /usr/lib/gcc/<triplet>/<major>
//   LD_LIBRARY_PATH: CUDA and cuDNN libraries in each entry (they can shadow the wheels' own)
//   pip:     PIP_INDEX_URL / PIP_EXTRA_INDEX_URL, then PIP_CONFIG_FILE, $VIRTUAL_ENV/pip.conf,
//            ~/.config/pip/pip.conf, ~/.pip/pip.conf, /etc/xdg/pip/pip.conf, /etc/pip.conf
//   Jetson:  /etc/nv_tegra_release, /proc/device-tree/model (probe/jetson.h)
#include <algorithm>

#include "core/text.h"
#include "probe/context.h"
#include "probe/jetson.h"
#include "probe/parsers.h"

namespace cudamatch {

namespace {

void ProbeOs(const ProbeInput& in, Snapshot& snap, Trail& trail) {
  for (const char* path : {"/etc/os-release", "/usr/lib/os-release"}) {
    auto text = ReadRecorded(*in.fs, trail, path);
    if (!text) continue;
    auto fields = ParseOsRelease(*text);
    snap.host.os_name = fields["PRETTY_NAME"];
    snap.host.os_id = fields["ID"];
    trail.Found(path, snap.host.os_name);
    return;
  }
}

void ProbeArch(const ProbeInput& in, Snapshot& snap, Trail& trail) {
  if (!in.host_arch.empty()) {
    snap.host.arch = in.host_arch;
    trail.Found("uname", in.host_arch);
  } else if (in.fs->IsDir("/usr/lib/x86_64-linux-gnu") || in.fs->IsDir("/lib/x86_64-linux-gnu")) {
    snap.host.arch = "x86_64";
    trail.Found("/usr/lib/x86_64-linux-gnu", "x86_64 multiarch directory");
  } else if (in.fs->IsDir("/usr/lib/aarch64-linux-gnu")) {
    snap.host.arch = "aarch64";
    trail.Found("/usr/lib/aarch64-linux-gnu", "aarch64 multiarch directory");
  }
  snap.platform.os = Os::kLinux;
  snap.platform.arch = snap.host.arch == "aarch64" ? Arch::kAarch64 : Arch::kX86_64;
  if (!in.host_glibc.empty()) {
    snap.host.glibc = in.host_glibc;
    trail.Found("gnu_get_libc_version", in.host_glibc);
  }
}

void ProbeGcc(const ProbeInput& in, Snapshot& snap, Trail& trail) {
  if (auto link = in.fs->Resolve("/usr/bin/gcc")) {
    std::string_view name = Basename(*link);
    for (std::string_view prefix : {"x86_64-linux-gnu-gcc-", "aarch64-linux-gnu-gcc-", "gcc-"}) {
      if (StartsWith(name, prefix)) {
        if (auto major = ParseUint(Split(name.substr(prefix.size()), '.')[0])) {
          snap.host.gcc_major = static_cast<int>(*major);
          snap.host.gcc_source = "/usr/bin/gcc -> " + std::string(name);
          trail.Found("/usr/bin/gcc", std::string(name));
          return;
        }
      }
    }
  }
  for (const char* dir : {"/usr/lib/gcc/x86_64-linux-gnu", "/usr/lib/gcc/aarch64-linux-gnu"}) {
    auto names = in.fs->List(dir);
    if (!names) continue;
    std::optional<int> newest;
    for (const std::string& n : *names) {
      if (auto major = ParseUint(n)) newest = std::max(newest.value_or(0), static_cast<int>(*major));
    }
    if (newest) {
      snap.host.gcc_major = newest;
      snap.host.gcc_source = std::string(dir) + "/" + std::to_string(*newest);
      trail.Found(dir, std::to_string(*newest));
      return;
    }
  }
  trail.Missing("/usr/bin/gcc");
}

bool IsCudaLibrary(std::string_view name) {
  for (std::string_view stem : {"libcudart.so", "libcudnn.so", "libcudnn_", "libcublas.so", "libcublasLt.so",
                                "libnvrtc.so", "libcufft.so", "libcusparse.so", "libnccl.so", "libcuda.so"}) {
    if (StartsWith(name, stem)) return true;
  }
  return false;
}

// "libcudnn.so.8.6.0", "libcudart.so.11.8.89": the real file behind a library's soname links.
bool IsMainVersioned(std::string_view name) {
  for (std::string_view stem : {"libcudart.so.", "libcudnn.so.", "libcublas.so.", "libcuda.so.", "libnvrtc.so."}) {
    if (auto v = LibraryVersion(name, stem); v && v->release.size() >= 3) return true;
  }
  return false;
}

void ProbeLdLibraryPath(const ProbeInput& in, Snapshot& snap, Trail& trail) {
  for (const std::string& dir : SplitNonEmpty(in.Env("LD_LIBRARY_PATH"), ':')) {
    LibraryPathEntry entry;
    entry.dir = dir;
    auto names = in.fs->List(dir);
    if (!names) {
      trail.Error("env:LD_LIBRARY_PATH " + dir, names.error());
      snap.host.ld_library_path.push_back(std::move(entry));
      continue;
    }
    for (const std::string& name : *names) {
      if (!IsCudaLibrary(name)) continue;
      if (IsMainVersioned(name)) entry.cuda_libs.push_back(name);
      if (auto v = LibraryVersion(name, "libcudnn.so."); v && v->release.size() >= 3) {
        if (!entry.cudnn_version || *v > *entry.cudnn_version) entry.cudnn_version = v;
      }
      for (std::string_view stem : {"libcudart.so.", "libcublas.so."}) {
        if (auto v = LibraryVersion(name, stem); v && v->release[0] >= 9 && v->release[0] < 100) {
          entry.cuda_major = static_cast<int>(v->release[0]);
        }
      }
    }
    trail.Found("env:LD_LIBRARY_PATH " + dir, std::to_string(entry.cuda_libs.size()) + " CUDA libraries");
    snap.host.ld_library_path.push_back(std::move(entry));
  }
}

void ProbePip(const ProbeInput& in, Snapshot& snap, Trail& trail) {
  HostInfo& h = snap.host;
  if (!in.Env("PIP_INDEX_URL").empty()) {
    h.pip_index_url = in.Env("PIP_INDEX_URL");
    h.pip_index_source = "env:PIP_INDEX_URL";
  }
  for (const std::string& url : SplitNonEmpty(in.Env("PIP_EXTRA_INDEX_URL"), ' ')) {
    h.pip_extra_index_urls.push_back(url);
  }
  std::vector<std::string> files;
  if (!in.Env("PIP_CONFIG_FILE").empty()) files.push_back(in.Env("PIP_CONFIG_FILE"));
  if (!in.Env("VIRTUAL_ENV").empty()) files.push_back(in.Env("VIRTUAL_ENV") + "/pip.conf");
  std::string home = in.Home();
  if (!home.empty()) {
    std::string xdg = in.Env("XDG_CONFIG_HOME").empty() ? home + "/.config" : in.Env("XDG_CONFIG_HOME");
    files.push_back(xdg + "/pip/pip.conf");
    files.push_back(home + "/.pip/pip.conf");
  }
  files.push_back("/etc/xdg/pip/pip.conf");
  files.push_back("/etc/pip.conf");
  for (const std::string& path : files) {
    if (!in.fs->IsFile(path)) continue;
    auto text = ReadRecorded(*in.fs, trail, path);
    if (!text) continue;
    PipConfig conf = ParsePipConf(*text);
    if (h.pip_index_url.empty() && !conf.index_url.empty()) {
      h.pip_index_url = conf.index_url;
      h.pip_index_source = path;
    }
    for (const std::string& url : conf.extra_index_urls) h.pip_extra_index_urls.push_back(url);
    trail.Found(path, conf.index_url.empty() ? "no index-url" : conf.index_url);
  }
}

}  // namespace

void ProbeHost(const ProbeInput& in, Snapshot& snap) {
  Trail trail(snap, "host");
  ProbeOs(in, snap, trail);
  ProbeArch(in, snap, trail);
  ProbeGcc(in, snap, trail);
  ProbeLdLibraryPath(in, snap, trail);
  ProbePip(in, snap, trail);
  if (snap.platform.arch == Arch::kAarch64) ProbeJetson(in, snap);  // Jetson modules are aarch64
}

}  // namespace cudamatch
