// torch.runtime_missing: a CUDA library torch's own libraries link (DT_NEEDED) that the dynamic
// loader finds nowhere, the way ld.so searches (RPATH/RUNPATH with $ORIGIN, LD_LIBRARY_PATH,
// ld.so.conf, the default directories). Each case is a machine built from the public thread cited
// above it; torch's libraries are real ELF objects gcc links here against stub libraries that
// carry the sonames (removed afterwards, as on the user's machine), run through the binary.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "catalog/jetson.h"
#include "core/text.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

namespace stdfs = std::filesystem;
using nlohmann::json;
using testing::RunCudamatch;
using testing::TempDir;

// A shared object at `out` with SONAME `soname` that links each of `needed` by soname, with
// `rpath` as DT_RPATH (`runpath` false) or DT_RUNPATH. Stub libraries carrying the needed
// sonames are linked against in a scratch directory and not kept. False without gcc.
bool BuildLibrary(const TempDir& tmp, const std::string& out, const std::string& soname,
                  const std::vector<std::string>& needed, const std::string& rpath, bool runpath) {
  std::string stubs = tmp.Mkdir("stubs");
  std::string src = tmp.Write("stubs/stub.c", "int cudamatch_stub(int x) { return x + 1; }\n");
  std::string link;
  for (const std::string& n : needed) {
    std::string cmd = "gcc -shared -fPIC -Wl,-soname," + n + " -o '" + stubs + "/" + n + "' '" + src + "' 2>/dev/null";
    if (std::system(cmd.c_str()) != 0) return false;
    link += " -l:" + n;
  }
  stdfs::create_directories(stdfs::path(out).parent_path());
  std::string flags = "-Wl,--no-as-needed -Wl,-soname," + soname;
  if (!rpath.empty()) flags += std::string(runpath ? " -Wl,--enable-new-dtags" : " -Wl,--disable-new-dtags") + " -Wl,-rpath,'" + rpath + "'";
  std::string cmd = "gcc -shared -fPIC " + flags + " -o '" + out + "' '" + src + "' -L'" + stubs + "'" + link + " 2>/dev/null";
  bool ok = std::system(cmd.c_str()) == 0;
  stdfs::remove_all(stubs);
  return ok;
}

// A RECORD line as pip writes it: path,sha256=<urlsafe base64, no padding>,size.
std::string RecordLine(const std::string& file, const std::string& rel) {
  return rel + "," + testing::RecordHash(file) + "," + std::to_string(stdfs::file_size(file)) + "\n";
}

struct DoctorOut {
  json doctor;
  std::string text;
};

DoctorOut Doctor(const std::string& root, std::vector<std::string> env, const std::string& lang = "en") {
  env.emplace_back("LANG=C.UTF-8");
  env.emplace_back(testing::kGoldenNow);
  DoctorOut r;
  r.doctor = json::parse(RunCudamatch({"doctor", "--root", root, "--json", "--lang", lang}, env).out);
  r.text = RunCudamatch({"doctor", "--root", root, "--lang", lang}, env).out;
  return r;
}

const json* FindingOf(const json& doctor, const std::string& id) {
  for (const json& f : doctor["findings"]) {
    if (f["id"] == id) return &f;
  }
  return nullptr;
}

std::vector<std::string> EvidenceIds(const json& finding) {
  std::vector<std::string> ids;
  for (const json& e : finding["evidence"]) ids.push_back(e["id"].get<std::string>());
  return ids;
}

bool Has(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// The JetPack 4.4 lines: L4T R32.4.3 is JetPack 4.4 (NVIDIA's L4T R32.4.3 archive page: "It is
// included as part of JetPack 4.4 Production Release"; "CUDA 10.2 Driver Support"), R32.4.4 is
// JetPack 4.4.1 (NVIDIA's L4T 32.4.4 page); both Ubuntu 18.04 with Python 3.6.
TEST(RuntimeMissing, L4t324IsJetPack44WithCuda102) {
  const Catalog& c = testing::TheCatalog();
  const JetPackRelease* jp44 = JetPackFor(c, "32.4.3");
  ASSERT_NE(jp44, nullptr);
  EXPECT_EQ(jp44->jetpack, "4.4");
  ASSERT_TRUE(jp44->cuda.has_value());
  EXPECT_EQ(jp44->cuda->MajorMinor(), "10.2");
  ASSERT_TRUE(jp44->python.has_value());
  EXPECT_EQ(jp44->python->ToString(), "3.6");
  const JetPackRelease* jp441 = JetPackFor(c, "32.4.4");
  ASSERT_NE(jp441, nullptr);
  EXPECT_EQ(jp441->jetpack, "4.4.1");
  EXPECT_EQ(JetPackFor(c, "32.4.2"), nullptr);  // JetPack 4.4 Developer Preview: no row
  EXPECT_EQ(JetPackFor(c, "32.7.1")->jetpack, "4.6");
}

// A Jetson Nano (the jetson-nano fixture) whose /etc/nv_tegra_release says R32 REVISION 4.3,
// with NVIDIA's torch 1.4.0 wheel for JetPack 4.2 / 4.3 installed by `sudo pip3 install`.
// dusty-nv/jetson-inference#622: on JetPack 4.4 the installer picked a wheel for an earlier
// JetPack and `import torch` failed with "ImportError: libcudart.so.10.0: cannot open shared
// object file"; the maintainer's fix was the JetPack 4.4 build (install_pytorch_v140_python36_jp44).
// pytorch/pytorch#41975: a Nano with CUDA 10.2 and the torch-1.4.0 wheel, "libcufft.so.10.0:
// cannot open shared object file"; malfet: the wheel "was build against CUDA-10", take the CUDA
// libraries of an older JetPack or a wheel for this one. torch 1.4 has no libtorch_cuda.so: its
// CUDA code, and the links to CUDA 10.0's libraries, are libtorch.so's (RPATH $ORIGIN).
class JetPack44Nano : public ::testing::Test {
 protected:
  void SetUp() override {
    if (testing::kWindowsBuild) GTEST_SKIP() << "builds ELF objects with gcc";
    root_ = tmp_.path() + "/root";
    stdfs::copy(testing::SourceDir() + "/tests/fixtures/machines/jetson-nano/root", root_,
                stdfs::copy_options::recursive | stdfs::copy_options::copy_symlinks);
    std::string release = ReadFile(root_ + "/etc/nv_tegra_release");
    release.replace(release.find("REVISION: 7.1"), 13, "REVISION: 4.3");
    WriteFile(root_ + "/etc/nv_tegra_release", release);
    // JetPack 4.4's CUDA 10.2 (no CUDA 10.0 on the machine).
    std::string cuda = root_ + "/usr/local/cuda-10.2/lib64";
    stdfs::create_directories(cuda);
    WriteFile(cuda + "/libcudart.so.10.2.89", "");
    stdfs::create_symlink("libcudart.so.10.2.89", cuda + "/libcudart.so.10.2");
    WriteFile(cuda + "/libcufft.so.10.1.2.89", "");
    stdfs::create_symlink("libcufft.so.10.1.2.89", cuda + "/libcufft.so.10");
    stdfs::create_symlink("cuda-10.2", root_ + "/usr/local/cuda");
  }

  // torch `version` built with CUDA `cuda`: libtorch.so linking `needed`, RPATH $ORIGIN.
  bool InstallTorch(const std::string& version, const std::string& cuda, const std::vector<std::string>& needed) {
    const std::string site = root_ + "/usr/local/lib/python3.6/dist-packages";
    const std::string lib = site + "/torch/lib/libtorch.so";
    if (!BuildLibrary(tmp_, lib, "libtorch.so", needed, "$ORIGIN", false)) return false;
    WriteFile(site + "/torch/version.py", "__version__ = '" + version + "'\ndebug = False\ncuda = '" + cuda +
                                              "'\ngit_version = '0000000000000000000000000000000000000000'\n");
    WriteFile(site + "/torch/__init__.py", "# placeholder\n");
    const std::string dist = "torch-" + version + ".dist-info";
    WriteFile(site + "/" + dist + "/METADATA", "Metadata-Version: 2.1\nName: torch\nVersion: " + version +
                                                   "\nSummary: Tensors and Dynamic neural networks in Python with strong GPU acceleration\n"
                                                   "Home-page: https://pytorch.org/\nLicense: BSD-3\nRequires-Python: >=3.6.1\n"
                                                   "Requires-Dist: numpy\n");
    WriteFile(site + "/" + dist + "/WHEEL", "Wheel-Version: 1.0\nGenerator: bdist_wheel (0.34.2)\nRoot-Is-Purelib: false\n"
                                                "Tag: cp36-cp36m-linux_aarch64\n");
    WriteFile(site + "/" + dist + "/INSTALLER", "pip\n");
    WriteFile(site + "/" + dist + "/RECORD",
              RecordLine(lib, "torch/lib/libtorch.so") + RecordLine(site + "/torch/version.py", "torch/version.py") +
                  RecordLine(site + "/torch/__init__.py", "torch/__init__.py") + dist + "/METADATA,,\n" + dist + "/WHEEL,,\n" +
                  dist + "/INSTALLER,,\n" + dist + "/RECORD,,\n");
    return true;
  }

  static std::string ReadFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream buf;
    buf << in.rdbuf();
    return buf.str();
  }
  static void WriteFile(const std::string& path, const std::string& text) {
    stdfs::create_directories(stdfs::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << text;
  }

  std::vector<std::string> Env() const { return {"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME=/home/nvidia"}; }

  TempDir tmp_;
  std::string root_;
};

// Before: "torch 1.4.0 in /usr: runs on all GPUs", 0 errors. Now the missing CUDA 10.0 libraries
// are an error naming them, the JetPack's CUDA 10.2 and where its torch builds are.
TEST_F(JetPack44Nano, AWheelForJetPack43CannotLoadCuda100) {
  if (!InstallTorch("1.4.0", "10.0", {"libcudart.so.10.0", "libcufft.so.10.0"})) GTEST_SKIP() << "no gcc";
  DoctorOut r = Doctor(root_, Env());
  EXPECT_EQ(r.doctor["host"]["jetson"]["l4t"], "32.4.3");
  EXPECT_EQ(r.doctor["host"]["jetson"]["jetpack"], "4.4");
  EXPECT_EQ(r.doctor["host"]["jetson"]["jetpack_cuda"], "10.2");
  const json* f = FindingOf(r.doctor, "torch.runtime_missing");
  ASSERT_NE(f, nullptr) << r.text;
  EXPECT_EQ((*f)["severity"], "error");
  EXPECT_EQ((*f)["args"]["soname"], "libcudart.so.10.0");
  EXPECT_EQ((*f)["args"]["list"], "libcudart.so.10.0, libcufft.so.10.0");
  EXPECT_TRUE(EndsWith((*f)["args"]["file"].get<std::string>(), "/dist-packages/torch/lib/libtorch.so"));
  std::vector<std::string> ev = EvidenceIds(*f);
  EXPECT_TRUE(Has(ev, "evidence.runtime_not_found"));
  EXPECT_TRUE(Has(ev, "evidence.jetpack_cuda"));
  EXPECT_TRUE(Has(ev, "evidence.jetpack_wheels"));
  EXPECT_NE(r.text.find("JetPack 4.4 (L4T 32.4.3) ships CUDA 10.2"), std::string::npos) << r.text;
  for (const json& e : (*f)["evidence"]) {
    if (e["id"] == "evidence.jetpack_wheels") {
      EXPECT_EQ(e["args"]["wheels"], "https://docs.nvidia.com/deeplearning/frameworks/install-pytorch-jetson-platform/index.html");
    }
    if (e["id"] == "evidence.runtime_not_found") {
      EXPECT_EQ(e["args"]["searched"], "DT_RPATH $ORIGIN, ld.so.conf, /lib, /usr/lib and their multiarch directories");
    }
  }
  EXPECT_EQ((*f)["topic"], "layers");
  EXPECT_EQ(r.doctor["ok"], false);
  EXPECT_EQ(r.text.find("runs on all GPUs"), std::string::npos) << r.text;
  // The runtime entries of the JSON contract: not found, and which library needs each.
  const json& runtime = r.doctor["pythons"][0]["packages"]["torch"]["runtime"];
  ASSERT_EQ(runtime.size(), 2u);
  EXPECT_TRUE(runtime[0]["path"].is_null());
  EXPECT_TRUE(EndsWith(runtime[0]["needed_by"].get<std::string>(), "/torch/lib/libtorch.so"));

  DoctorOut zh = Doctor(root_, Env(), "zh");
  EXPECT_NE(zh.text.find("无法导入：动态链接器找不到"), std::string::npos) << zh.text;
  EXPECT_NE(zh.text.find("JetPack 4.4（L4T 32.4.3）自带 CUDA 10.2"), std::string::npos) << zh.text;
}

// The fix of #622: the JetPack 4.4 build, linking CUDA 10.2's libraries, with the JetPack's CUDA
// library directory on LD_LIBRARY_PATH (the export NVIDIA's Jetson users add, as in
// dusty-nv/jetson-containers#9): no finding. With libcufft.so.10 found through LD_LIBRARY_PATH,
// the same library missing from it is told again.
TEST_F(JetPack44Nano, TheJetPack44BuildLoads) {
  if (!InstallTorch("1.4.0", "10.2", {"libcudart.so.10.2", "libcufft.so.10"})) GTEST_SKIP() << "no gcc";
  std::vector<std::string> env = Env();
  env.emplace_back("LD_LIBRARY_PATH=/usr/local/cuda/lib64");
  DoctorOut r = Doctor(root_, env);
  EXPECT_EQ(FindingOf(r.doctor, "torch.runtime_missing"), nullptr) << r.text;
  const json& runtime = r.doctor["pythons"][0]["packages"]["torch"]["runtime"];
  ASSERT_EQ(runtime.size(), 2u);
  EXPECT_EQ(runtime[0]["origin"], "LD_LIBRARY_PATH");
  EXPECT_EQ(runtime[0]["path"], "/usr/local/cuda/lib64/libcudart.so.10.2");
  EXPECT_EQ(runtime[0]["target"], "libcudart.so.10.2.89");
  DoctorOut without = Doctor(root_, Env());
  const json* f = FindingOf(without.doctor, "torch.runtime_missing");
  ASSERT_NE(f, nullptr) << without.text;
  EXPECT_EQ((*f)["args"]["list"], "libcudart.so.10.2, libcufft.so.10");
  // The JetPack's own CUDA is missing from the loader's path: its libraries are to be installed
  // or put on the path, not another torch.
  EXPECT_TRUE(Has(EvidenceIds(*f), "evidence.runtime_from_cuda"));
  EXPECT_TRUE((*f)["fix"].is_null());
}

// A venv (Python 3.12) with torch 2.11.0, whose metadata pins nvidia-nvshmem-cu13==3.4.5 (PyPI's
// requires_dist for 2.11.0-2.14.0, as sgl-project/sglang#38769 tabulates it; the other
// Requires-Dist lines are left out). torch/lib/libtorch_nvshmem.so links libnvshmem_host.so.3
// (pytorch/pytorch#183971: `ldd libtorch_nvshmem.so` lists it) through DT_RUNPATH
// $ORIGIN/../../nvidia/nvshmem/lib.
// sgl-project/sglang#31035: nvidia-nvshmem-cu12==3.4.5 and nvidia-nvshmem-cu13==3.4.5 both own
// nvidia/nvshmem/lib/libnvshmem_host.so.3; uninstalling every nvidia-*-cu12 wheel removed that
// file while the cu13 dist-info stayed, so pip saw the requirement satisfied, did not restore the
// file, and `import torch` failed with "ImportError: libnvshmem_host.so.3: cannot open shared
// object file". The PR's fix restores the payload; the fix here is a forced reinstall of the
// wheel torch requires.
class NvshmemVenv : public ::testing::Test {
 protected:
  static constexpr const char* kVenv = "/home/u/.venv";

  void SetUp() override {
    if (testing::kWindowsBuild) GTEST_SKIP() << "builds ELF objects with gcc";
    root_ = tmp_.path() + "/root";
    site_ = root_ + kVenv + "/lib/python3.12/site-packages";
    tmp_.Write("root/etc/os-release", "PRETTY_NAME=\"Ubuntu 24.04.2 LTS\"\nNAME=\"Ubuntu\"\nVERSION_ID=\"24.04\"\nID=ubuntu\n");
    tmp_.Write("root/usr/bin/python3.12", "");
    tmp_.Symlink("python3.12", "root/usr/bin/python3");
    tmp_.Write(std::string("root") + kVenv + "/pyvenv.cfg",
               "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.12.3\n");
    built_ = BuildLibrary(tmp_, site_ + "/torch/lib/libtorch_nvshmem.so", "libtorch_nvshmem.so", {"libnvshmem_host.so.3"},
                          "$ORIGIN/../../nvidia/nvshmem/lib:$ORIGIN", true) &&
             BuildLibrary(tmp_, site_ + "/torch/lib/libtorch_cuda.so", "libtorch_cuda.so", {}, "$ORIGIN", true);
    if (!built_) return;
    std::ofstream(site_ + "/torch/version.py")
        << "from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n"
           "__version__ = '2.11.0+cu130'\ndebug = False\ncuda: Optional[str] = '13.0'\n"
           "git_version = '0000000000000000000000000000000000000000'\nhip: Optional[str] = None\n";
    const std::string dist = site_ + "/torch-2.11.0.dist-info";
    stdfs::create_directories(dist);
    std::ofstream(dist + "/METADATA") << "Metadata-Version: 2.4\nName: torch\nVersion: 2.11.0\n"
                                         "Requires-Python: >=3.10\nRequires-Dist: filelock\nRequires-Dist: sympy>=1.13.3\n"
                                         "Requires-Dist: nvidia-nvshmem-cu13==3.4.5; platform_system == \"Linux\"\n";
    std::ofstream(dist + "/INSTALLER") << "pip\n";
    std::ofstream(dist + "/WHEEL") << "Wheel-Version: 1.0\nGenerator: setuptools (80.9.0)\nRoot-Is-Purelib: false\n"
                                      "Tag: cp312-cp312-manylinux_2_28_x86_64\n";
    std::ofstream(dist + "/RECORD") << RecordLine(site_ + "/torch/lib/libtorch_cuda.so", "torch/lib/libtorch_cuda.so")
                                    << RecordLine(site_ + "/torch/lib/libtorch_nvshmem.so", "torch/lib/libtorch_nvshmem.so")
                                    << RecordLine(site_ + "/torch/version.py", "torch/version.py")
                                    << "torch-2.11.0.dist-info/METADATA,,\ntorch-2.11.0.dist-info/WHEEL,,\n"
                                       "torch-2.11.0.dist-info/INSTALLER,,\ntorch-2.11.0.dist-info/RECORD,,\n";
  }

  // nvidia-nvshmem-cu13 `version` as pip installed it; `payload` false: its library was removed
  // (by the cu12 wheel's uninstall), its dist-info left.
  void InstallNvshmem(const std::string& version, bool payload) {
    const std::string lib = site_ + "/nvidia/nvshmem/lib/libnvshmem_host.so.3";
    ASSERT_TRUE(BuildLibrary(tmp_, lib, "libnvshmem_host.so.3", {}, "", false));
    const std::string name = "nvidia_nvshmem_cu13-" + version + ".dist-info";
    const std::string dist = site_ + "/" + name;
    stdfs::create_directories(dist);
    std::ofstream(dist + "/METADATA") << "Metadata-Version: 2.1\nName: nvidia-nvshmem-cu13\nVersion: " << version
                                      << "\nRequires-Python: >=3\n";
    std::ofstream(dist + "/INSTALLER") << "pip\n";
    std::ofstream(dist + "/WHEEL") << "Wheel-Version: 1.0\nGenerator: bdist_wheel (0.43.0)\nRoot-Is-Purelib: true\n"
                                      "Tag: py3-none-manylinux_2_28_x86_64\n";
    std::ofstream(dist + "/RECORD") << RecordLine(lib, "nvidia/nvshmem/lib/libnvshmem_host.so.3") << name << "/METADATA,,\n"
                                    << name << "/WHEEL,,\n" << name << "/INSTALLER,,\n" << name << "/RECORD,,\n";
    if (!payload) stdfs::remove_all(site_ + "/nvidia");
  }

  DoctorOut DoctorRun() const {
    return Doctor(root_, {std::string("VIRTUAL_ENV=") + kVenv, std::string("PATH=") + kVenv + "/bin:/usr/bin:/bin", "HOME=/home/u"});
  }

  TempDir tmp_;
  std::string root_, site_;
  bool built_ = false;
};

TEST_F(NvshmemVenv, AnInstalledWheelThatLostItsLibraryIsReinstalled) {
  if (!built_) GTEST_SKIP() << "no gcc";
  InstallNvshmem("3.4.5", false);
  DoctorOut r = DoctorRun();
  const json* f = FindingOf(r.doctor, "torch.runtime_missing");
  ASSERT_NE(f, nullptr) << r.text;
  EXPECT_EQ((*f)["args"]["soname"], "libnvshmem_host.so.3");
  EXPECT_TRUE(EndsWith((*f)["args"]["file"].get<std::string>(), "/torch/lib/libtorch_nvshmem.so"));
  EXPECT_TRUE(Has(EvidenceIds(*f), "evidence.runtime_wheel_lacks"));
  EXPECT_NE(r.text.find("nvidia-nvshmem-cu13 3.4.5 is installed but holds no libnvshmem_host.so.3"), std::string::npos) << r.text;
  EXPECT_EQ((*f)["evidence"][0]["args"]["searched"],
            "DT_RUNPATH $ORIGIN/../../nvidia/nvshmem/lib:$ORIGIN, ld.so.conf, /lib, /usr/lib and their multiarch directories");
  ASSERT_FALSE((*f)["fix"].is_null()) << f->dump(1);
  EXPECT_NE(r.text.find("--force-reinstall"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("nvidia-nvshmem-cu13==3.4.5"), std::string::npos) << r.text;
  EXPECT_EQ((*f)["topic"], "nvidia-wheels");
  // The requirement is met as pip sees it: neither nvidia-wheels finding.
  EXPECT_EQ(FindingOf(r.doctor, "torch.nvidia_wheels_missing"), nullptr);
  EXPECT_EQ(FindingOf(r.doctor, "torch.nvidia_wheels_mismatch"), nullptr);
}

// The wheel with its library: found through libtorch_nvshmem.so's DT_RUNPATH, nothing told.
TEST_F(NvshmemVenv, TheWheelsLibraryIsFoundThroughTheRunpath) {
  if (!built_) GTEST_SKIP() << "no gcc";
  InstallNvshmem("3.4.5", true);
  DoctorOut r = DoctorRun();
  EXPECT_EQ(FindingOf(r.doctor, "torch.runtime_missing"), nullptr) << r.text;
  const json& runtime = r.doctor["pythons"][0]["packages"]["torch"]["runtime"];
  ASSERT_EQ(runtime.size(), 1u);
  EXPECT_EQ(runtime[0]["origin"], "DT_RUNPATH");
  EXPECT_EQ(runtime[0]["path"], std::string(kVenv) + "/lib/python3.12/site-packages/nvidia/nvshmem/lib/libnvshmem_host.so.3");
  EXPECT_EQ(runtime[0]["wheel_version"], "3.4.5");
}

// ld.so maps a soname once: libnvshmem_host.so.3 needed by a library whose own search paths do
// not reach it (libtorch_cuda.so without a RUNPATH entry for it) is still found when another of
// torch's libraries that needs it finds it (libtorch_nvshmem.so's RUNPATH); the entry names that
// library. Told only when no library finds it.
TEST_F(NvshmemVenv, ASonameOneLibraryFindsIsFound) {
  if (!built_) GTEST_SKIP() << "no gcc";
  ASSERT_TRUE(BuildLibrary(tmp_, site_ + "/torch/lib/libtorch_cuda.so", "libtorch_cuda.so", {"libnvshmem_host.so.3"}, "$ORIGIN",
                           true));
  InstallNvshmem("3.4.5", true);
  DoctorOut r = DoctorRun();
  EXPECT_EQ(FindingOf(r.doctor, "torch.runtime_missing"), nullptr) << r.text;
  const json& runtime = r.doctor["pythons"][0]["packages"]["torch"]["runtime"];
  ASSERT_EQ(runtime.size(), 1u);
  EXPECT_EQ(runtime[0]["origin"], "DT_RUNPATH");
  EXPECT_TRUE(EndsWith(runtime[0]["needed_by"].get<std::string>(), "/torch/lib/libtorch_nvshmem.so"));
  stdfs::remove_all(site_ + "/nvidia");
  DoctorOut gone = DoctorRun();
  const json* f = FindingOf(gone.doctor, "torch.runtime_missing");
  ASSERT_NE(f, nullptr) << gone.text;
  EXPECT_TRUE(EndsWith((*f)["args"]["file"].get<std::string>(), "/torch/lib/libtorch_cuda.so"));
}

// Not told twice: a wheel pip did not install is torch.nvidia_wheels_missing's, one at another
// version torch.nvidia_wheels_mismatch's; torch.runtime_missing stays silent about its soname.
TEST_F(NvshmemVenv, AWheelNotInstalledOrAtAnotherVersionIsTheNvidiaWheelsFindings) {
  if (!built_) GTEST_SKIP() << "no gcc";
  DoctorOut none = DoctorRun();
  EXPECT_NE(FindingOf(none.doctor, "torch.nvidia_wheels_missing"), nullptr) << none.text;
  EXPECT_EQ(FindingOf(none.doctor, "torch.runtime_missing"), nullptr) << none.text;
  InstallNvshmem("3.3.24", false);
  DoctorOut other = DoctorRun();
  EXPECT_NE(FindingOf(other.doctor, "torch.nvidia_wheels_mismatch"), nullptr) << other.text;
  EXPECT_EQ(FindingOf(other.doctor, "torch.runtime_missing"), nullptr) << other.text;
}

// pyg-team/pytorch_geometric#5218: `import torch_geometric` fails in torch_sparse with "OSError:
// libcusparse.so.10: cannot open shared object file"; the machine's CUDA 10.2 toolkit had
// libcusparse.so.10 in its lib directory; rusty1s: add that directory to LD_LIBRARY_PATH. A venv
// with torch 1.10.2+cu102 from PyPI (its CUDA libraries bundled under auditwheel's hashed names,
// so it maps no libcusparse.so.10) and torch-sparse 0.6.13 whose _convert_cuda.so links torch's
// libraries and libcusparse.so.10 without an RPATH.
class SparseExtension : public ::testing::Test {
 protected:
  static constexpr const char* kVenv = "/home/u/venv";

  void SetUp() override {
    if (testing::kWindowsBuild) GTEST_SKIP() << "builds ELF objects with gcc";
    root_ = tmp_.path() + "/root";
    site_ = root_ + kVenv + "/lib/python3.8/site-packages";
    tmp_.Write("root/etc/os-release", "PRETTY_NAME=\"Ubuntu 18.04.6 LTS\"\nNAME=\"Ubuntu\"\nVERSION_ID=\"18.04\"\nID=ubuntu\n");
    tmp_.Write("root/usr/bin/python3.8", "");
    tmp_.Symlink("python3.8", "root/usr/bin/python3");
    tmp_.Write(std::string("root") + kVenv + "/pyvenv.cfg", "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.8.13\n");
    tmp_.Write("root/usr/local/cuda-10.2/lib64/libcusparse.so.10.3.1.89", "");
    tmp_.Symlink("libcusparse.so.10.3.1.89", "root/usr/local/cuda-10.2/lib64/libcusparse.so.10");
    const std::string torch_cuda = site_ + "/torch/lib/libtorch_cuda.so";
    const std::string ext = site_ + "/torch_sparse/_convert_cuda.so";
    built_ = BuildLibrary(tmp_, torch_cuda, "libtorch_cuda.so", {"libcudart-a7b20f20.so.10.2"}, "$ORIGIN", false) &&
             BuildLibrary(tmp_, ext, "_convert_cuda.so",
                          {"libc10.so", "libtorch.so", "libtorch_cpu.so", "libtorch_python.so", "libc10_cuda.so", "libcusparse.so.10"},
                          "", false);
    if (!built_) return;
    std::ofstream(site_ + "/torch/version.py") << "__version__ = '1.10.2+cu102'\ndebug = False\ncuda = '10.2'\n"
                                                  "git_version = '71f889c7d265b9636b93ede9d651c0a9c4bee191'\nhip = None\n";
    WriteDist("torch", "1.10.2", "Requires-Python: >=3.6.2\nRequires-Dist: typing-extensions\n",
              {{torch_cuda, "torch/lib/libtorch_cuda.so"}, {site_ + "/torch/version.py", "torch/version.py"}});
    std::ofstream(site_ + "/torch_sparse/__init__.py") << "__version__ = '0.6.13'\n";
    WriteDist("torch_sparse", "0.6.13", "Requires-Python: >=3.7\nRequires-Dist: scipy\n",
              {{ext, "torch_sparse/_convert_cuda.so"}, {site_ + "/torch_sparse/__init__.py", "torch_sparse/__init__.py"}});
  }

  // A dist-info as pip writes it, its RECORD listing `files` (host path, RECORD path).
  void WriteDist(const std::string& name, const std::string& version, const std::string& requirements,
                 const std::vector<std::pair<std::string, std::string>>& files) {
    const std::string info = name + "-" + version + ".dist-info";
    const std::string dist = site_ + "/" + info;
    stdfs::create_directories(dist);
    std::ofstream(dist + "/METADATA") << "Metadata-Version: 2.1\nName: " << name << "\nVersion: " << version << "\n" << requirements;
    std::ofstream(dist + "/INSTALLER") << "pip\n";
    std::ofstream(dist + "/WHEEL") << "Wheel-Version: 1.0\nGenerator: bdist_wheel (0.37.1)\nRoot-Is-Purelib: false\n"
                                      "Tag: cp38-cp38-linux_x86_64\n";
    std::ofstream record(dist + "/RECORD");
    for (const auto& [host, rel] : files) record << RecordLine(host, rel);
    record << info << "/METADATA,,\n" << info << "/WHEEL,,\n" << info << "/INSTALLER,,\n" << info << "/RECORD,,\n";
  }

  DoctorOut DoctorRun(std::vector<std::string> extra = {}) const {
    std::vector<std::string> env = {std::string("VIRTUAL_ENV=") + kVenv, std::string("PATH=") + kVenv + "/bin:/usr/bin:/bin",
                                    "HOME=/home/u"};
    env.insert(env.end(), extra.begin(), extra.end());
    return Doctor(root_, env);
  }

  TempDir tmp_;
  std::string root_, site_;
  bool built_ = false;
};

TEST_F(SparseExtension, ALibraryTheExtensionLinksAndTheLoaderCannotFindIsAnError) {
  if (!built_) GTEST_SKIP() << "no gcc";
  DoctorOut r = DoctorRun();
  const json* f = FindingOf(r.doctor, "ext.runtime_missing");
  ASSERT_NE(f, nullptr) << r.text;
  EXPECT_EQ((*f)["severity"], "error");
  EXPECT_EQ((*f)["args"]["soname"], "libcusparse.so.10");
  EXPECT_EQ((*f)["args"]["package"], "torch-sparse 0.6.13");
  EXPECT_TRUE(EndsWith((*f)["args"]["file"].get<std::string>(), "/torch_sparse/_convert_cuda.so"));
  EXPECT_EQ((*f)["evidence"][0]["args"]["searched"], "ld.so.conf, /lib, /usr/lib and their multiarch directories");
  EXPECT_TRUE((*f)["fix"].is_null());  // the thread's fix is the machine's own directory, said in the why
  EXPECT_NE(r.text.find("LD_LIBRARY_PATH"), std::string::npos) << r.text;
  EXPECT_EQ(FindingOf(r.doctor, "torch.runtime_missing"), nullptr) << r.text;  // torch's own libraries load
  const json& ext = r.doctor["pythons"][0]["extensions"][0];
  ASSERT_EQ(ext["runtime"].size(), 1u) << ext.dump(1);
  EXPECT_TRUE(ext["runtime"][0]["path"].is_null());
}

// The extension's runtime is worked out after the environment cache on every run: a warm run
// (the scan from the cache) says what an uncached one says, -v trail included.
TEST_F(SparseExtension, AWarmRunSaysTheSame) {
  if (!built_) GTEST_SKIP() << "no gcc";
  std::vector<std::string> env = {std::string("VIRTUAL_ENV=") + kVenv, std::string("PATH=") + kVenv + "/bin:/usr/bin:/bin",
                                  "HOME=/home/u", "LANG=C.UTF-8", std::string(testing::kGoldenNow),
                                  "CUDAMATCH_CACHE_DIR=" + tmp_.path() + "/cache", "CUDAMATCH_CACHE="};
  auto run = [&](const char* mode) { return RunCudamatch({"doctor", "-v", "--root", root_, "--json", mode}, env).out; };
  std::string plain = run("--no-cache");
  std::string cold = run("--cache");
  std::string warm = run("--cache");
  ASSERT_NE(plain.find("ext.runtime_missing"), std::string::npos) << plain;
  EXPECT_EQ(cold, plain);
  EXPECT_EQ(warm, plain);
}

// The thread's fix: CUDA 10.2's lib64 on LD_LIBRARY_PATH. The loader finds it there: no finding.
TEST_F(SparseExtension, TheToolkitsDirectoryOnLdLibraryPathLoadsIt) {
  if (!built_) GTEST_SKIP() << "no gcc";
  DoctorOut r = DoctorRun({"LD_LIBRARY_PATH=/usr/local/cuda-10.2/lib64"});
  EXPECT_EQ(FindingOf(r.doctor, "ext.runtime_missing"), nullptr) << r.text;
  const json& runtime = r.doctor["pythons"][0]["extensions"][0]["runtime"];
  ASSERT_EQ(runtime.size(), 1u);
  EXPECT_EQ(runtime[0]["origin"], "LD_LIBRARY_PATH");
  EXPECT_EQ(runtime[0]["path"], "/usr/local/cuda-10.2/lib64/libcusparse.so.10");
}

}  // namespace
}  // namespace cudamatch
