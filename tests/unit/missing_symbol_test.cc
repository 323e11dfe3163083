// The torch symbols an extension needs against those torch's own libraries define, read from
// shared objects g++ builds here: torch/lib's libc10.so and libtorch_cpu.so as the installed torch
// has them, and flash-attn's module built against another torch (stubs that define what it calls).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "diagnose/rules.h"
#include "plan/diagnose.h"
#include "plan/remedy_text.h"
#include "probe/binaries.h"
#include "probe/context.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TempDir;

bool Gxx(const std::string& args) { return std::system(("g++ -shared -fPIC " + args + " 2>/dev/null").c_str()) == 0; }

// What the torch the extension was built against defines: at::_ops::sum_IntList_out::call (the
// operator flash-attention#784's module needs) and c10::cuda::SetDevice (flash-attention#931's).
constexpr const char* kBuiltTorch =
    "namespace c10 { namespace cuda { void SetDevice(int) {} } }\n"
    "namespace at { namespace _ops { struct sum_IntList_out { static long call(long); }; "
    "long sum_IntList_out::call(long x) { return x; } } }\n";
// The installed torch: c10::cuda::SetDevice, but an older operator set without sum_IntList_out.
constexpr const char* kInstalledTorch = "namespace c10 { namespace cuda { void SetDevice(int) {} } }\n";
// flash-attn's module: both, and a weak reference to an operator it only calls when present.
constexpr const char* kExt =
    "namespace c10 { namespace cuda { void SetDevice(int); } }\n"
    "namespace at { namespace _ops { struct sum_IntList_out { static long call(long); }; } }\n"
    "namespace at { namespace _ops { __attribute__((weak)) long optional_op(long); } }\n"
    "extern \"C\" long mha_fwd(long x) { c10::cuda::SetDevice(0); "
    "return at::_ops::sum_IntList_out::call(x) + (at::_ops::optional_op ? at::_ops::optional_op(x) : 0); }\n";

const char* const kModule = "flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so";

// site/torch/lib/{libc10.so, libtorch_cpu.so, libc10_cuda.so} of the installed torch (`installed`
// source, linked with `hash` style), and site/<kModule> linked against stubs of the torch it was
// built against (libc10_cuda.so, as flash-attn's module links it).
bool Build(const TempDir& t, const std::string& installed, const std::string& hash = "gnu") {
  std::string built = t.Write("built.cc", kBuiltTorch), have = t.Write("have.cc", installed),
              ext = t.Write("ext.cc", kExt), stub = t.Mkdir("stub");
  std::string cuda = t.Write("c10_cuda.cc", "namespace c10 { namespace cuda { int device_count() { return 1; } } }\n");
  std::string lib = t.Mkdir("site/torch/lib");
  return Gxx("-Wl,--hash-style=" + hash + " -Wl,-soname,libc10.so -o " + lib + "/libc10.so " + have) &&
         Gxx("-Wl,--hash-style=" + hash + " -Wl,-soname,libtorch_cpu.so -o " + lib + "/libtorch_cpu.so " + have) &&
         Gxx("-Wl,--hash-style=" + hash + " -Wl,-soname,libc10_cuda.so -o " + lib + "/libc10_cuda.so " + cuda) &&
         Gxx("-Wl,-soname,libc10.so -o " + stub + "/libc10.so " + built) &&
         Gxx("-Wl,-soname,libtorch_cpu.so -o " + stub + "/libtorch_cpu.so " + built) &&
         Gxx("-Wl,-soname,libc10_cuda.so -o " + stub + "/libc10_cuda.so " + cuda) &&
         Gxx("-Wl,--no-as-needed -o " + t.path() + "/site/" + kModule + " " + ext + " -L" + stub +
             " -lc10 -ltorch_cpu -lc10_cuda");
}

// flash-attn 2.5.0 as pip installs it from PyPI's sdist (no direct_url.json): METADATA,
// INSTALLER, RECORD with hashes and sizes.
void WriteDist(const TempDir& t) {
  std::string info = "flash_attn-2.5.0.dist-info";
  t.Write("site/" + info + "/METADATA", "Metadata-Version: 2.1\nName: flash_attn\nVersion: 2.5.0\n"
                                        "Requires-Dist: torch\nRequires-Dist: einops\n");
  t.Write("site/" + info + "/INSTALLER", "pip\n");
  auto line = [&](const std::string& rel) {
    std::string host = t.path() + "/site/" + rel;
    return rel + "," + testing::RecordHash(host) + "," + std::to_string(std::filesystem::file_size(host)) + "\n";
  };
  t.Write("site/" + info + "/RECORD",
          line(info + "/INSTALLER") + line(info + "/METADATA") + info + "/RECORD,,\n" + line(kModule));
}

// NVIDIA's PyTorch container 23.12 (flash-attention#784): torch 2.2.0a0+81ea7a4 with CUDA 12.3.
Snapshot Probed(const TempDir& t, const char* torch_version = "2.2.0a0+81ea7a4") {
  return testing::ProbedSite(t.path(), testing::MachineWithDriver("545.23.08", "12.3"), "/usr", PythonKind::kSystem, "3.10",
                             torch_version, "12.3");
}

std::vector<Finding> Missing(const Snapshot& s) {
  return testing::WithId(Diagnose(s, testing::TheCatalog()), "ext.missing_symbol");
}

std::string Fix(const Finding& f) { return f.remedy ? RemedyText(*f.remedy) : ""; }

const SymbolLookup* Lookup(const Snapshot& s) {
  if (s.pythons.empty() || s.pythons[0].extensions.empty() || s.pythons[0].extensions[0].libs.empty()) return nullptr;
  const BinaryInfo& lib = s.pythons[0].extensions[0].libs[0];
  return lib.torch_lookup ? &*lib.torch_lookup : nullptr;
}

TEST(TorchSymbolIndex, LooksUpWhatALibraryExportsByGnuHash) {
  if (testing::kWindowsBuild) GTEST_SKIP() << "builds ELF objects with g++";
  TempDir t;
  if (!Build(t, kBuiltTorch)) GTEST_SKIP() << "no g++";
  auto fs = MakeRealFs(t.path());
  auto f = fs->Open("/site/torch/lib/libtorch_cpu.so");
  ASSERT_TRUE(f.ok());
  auto elf = ReadElf(**f);
  ASSERT_TRUE(elf.ok());
  auto index = ElfSymbolIndex::Open(**f, *elf);
  ASSERT_TRUE(index.ok()) << index.error();
  EXPECT_TRUE(index->Defines("_ZN3c104cuda9SetDeviceEi").value());
  EXPECT_TRUE(index->Defines("_ZN2at4_ops15sum_IntList_out4callEl").value());
  EXPECT_FALSE(index->Defines("_ZN2at4_ops15sum_IntList_out4callEi").value());  // another signature
  EXPECT_FALSE(index->Defines("_ZN3c104cuda9SetDeviceEa").value());
  EXPECT_FALSE(index->Defines("").value());
  // What the module needs, as .dynsym lists it: the two it must resolve, not the weak one.
  auto m = fs->Open(std::string("/site/") + kModule);
  ASSERT_TRUE(m.ok());
  TorchSymbols needs = ReadTorchSymbols(**m, ReadElf(**m).value()).value();
  std::sort(needs.needs.begin(), needs.needs.end());
  EXPECT_EQ(needs.needs, (std::vector<std::string>{"_ZN2at4_ops15sum_IntList_out4callEl", "_ZN3c104cuda9SetDeviceEi"}));
}

TEST(TorchSymbolIndex, ALibraryWithoutAGnuHashTableIsNotIndexed) {
  if (testing::kWindowsBuild) GTEST_SKIP() << "builds ELF objects with g++";
  TempDir t;
  if (!Build(t, kInstalledTorch, "sysv")) GTEST_SKIP() << "no g++";
  auto fs = MakeRealFs(t.path());
  auto f = fs->Open("/site/torch/lib/libc10.so");
  ASSERT_TRUE(f.ok());
  auto index = ElfSymbolIndex::Open(**f, ReadElf(**f).value());
  ASSERT_FALSE(index.ok());
  EXPECT_NE(index.error().find(".gnu.hash"), std::string::npos);
  // Nothing is said missing then: the lookup is not made.
  WriteDist(t);
  Snapshot s = Probed(t);
  EXPECT_EQ(Lookup(s), nullptr);
  EXPECT_TRUE(Missing(s).empty());
}

// Dao-AILab/flash-attention#784: NVIDIA's container 23.12 (torch 2.2.0a0+81ea7a4, CUDA 12.3.2),
// `pip install flash-attn --no-build-isolation` (2.5.0): "flash_attn_2_cuda...so: undefined symbol:
// _ZN2at4_ops15sum_IntList_out4call...". Its maintainer: the container's torch is a nightly no
// prebuilt wheel matches; build from source. flash-attn's setup.py fetches the prebuilt wheel
// again unless FLASH_ATTENTION_FORCE_BUILD=TRUE ("installing from source ... did not work").
TEST(MissingSymbolRule, AModuleBuiltAgainstAnotherTorchNeedsWhatThisOneLacks) {
  if (testing::kWindowsBuild) GTEST_SKIP() << "builds ELF objects with g++";
  TempDir t;
  if (!Build(t, kInstalledTorch)) GTEST_SKIP() << "no g++";
  WriteDist(t);
  Snapshot s = Probed(t);
  const SymbolLookup* l = Lookup(s);
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->looked_up, 2u);
  EXPECT_EQ(l->missing, 1u);
  EXPECT_EQ(l->first_missing, "_ZN2at4_ops15sum_IntList_out4callEl");
  EXPECT_EQ(l->torch_lib, "/site/torch/lib");
  auto found = Missing(s);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::kError);
  EXPECT_EQ(testing::Arg(found[0], "symbol"), "at::_ops::sum_IntList_out::call");
  EXPECT_EQ(testing::Arg(found[0], "package"), "flash-attn 2.5.0");
  EXPECT_NE(testing::EvidenceText(found[0]).find("/site/torch/lib"), std::string::npos) << testing::EvidenceText(found[0]);
  // No nvcc of CUDA 12 here: the rebuild is said to need one first.
  EXPECT_NE(testing::EvidenceText(found[0]).find("evidence.abi_no_nvcc"), std::string::npos);
  std::string fix = Fix(found[0]);
  EXPECT_NE(fix.find("FLASH_ATTENTION_FORCE_BUILD=TRUE"), std::string::npos) << fix;
  EXPECT_NE(fix.find("--no-binary flash-attn \"flash-attn==2.5.0\""), std::string::npos) << fix;
  // With the container's toolkit, the rebuild uses it.
  ToolkitInfo tk;
  tk.path = "/usr/local/cuda";
  tk.version = CudaVersion::Parse("12.3").value();
  tk.has_nvcc = true;
  s.toolkits.push_back(tk);
  found = Missing(s);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(Fix(found[0]).find("CUDA_HOME=/usr/local/cuda FLASH_ATTENTION_FORCE_BUILD=TRUE /usr/bin/python -m pip install"), std::string::npos)
      << Fix(found[0]);
  EXPECT_EQ(testing::EvidenceText(found[0]).find("evidence.abi_no_nvcc"), std::string::npos);
}

TEST(MissingSymbolRule, EverySymbolDefinedIsNoFinding) {
  if (testing::kWindowsBuild) GTEST_SKIP() << "builds ELF objects with g++";
  TempDir t;
  if (!Build(t, kBuiltTorch)) GTEST_SKIP() << "no g++";
  WriteDist(t);
  Snapshot s = Probed(t, "2.2.0+cu121");
  const SymbolLookup* l = Lookup(s);
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->looked_up, 2u);
  EXPECT_EQ(l->missing, 0u);
  EXPECT_EQ(l->first_missing, "");
  EXPECT_TRUE(Missing(s).empty());
  // The lists of needed names are not kept past the lookup.
  EXPECT_TRUE(s.pythons[0].extensions[0].libs[0].symbols.needs.empty());
}

// A package split into several libraries: what one needs, another of the same package defines.
TEST(MissingSymbolRule, ASymbolThePackagesOtherLibraryDefinesIsNotMissing) {
  if (testing::kWindowsBuild) GTEST_SKIP() << "builds ELF objects with g++";
  TempDir t;
  if (!Build(t, kInstalledTorch)) GTEST_SKIP() << "no g++";
  std::string own = t.Write("own.cc",
                            "namespace at { namespace _ops { struct sum_IntList_out { static long call(long); }; "
                            "long sum_IntList_out::call(long x) { return x; } } }\n");
  ASSERT_TRUE(Gxx("-Wl,--no-as-needed -o " + t.path() + "/site/flash_attn_ops.so " + own + " -L" + t.path() +
                  "/stub -lc10 -lc10_cuda"));
  WriteDist(t);
  std::string info = t.path() + "/site/flash_attn-2.5.0.dist-info/RECORD";
  std::ifstream in(info);
  std::stringstream record;
  record << in.rdbuf();
  std::string so = t.path() + "/site/flash_attn_ops.so";
  t.Write("site/flash_attn-2.5.0.dist-info/RECORD",
          record.str() + "flash_attn_ops.so," + testing::RecordHash(so) + "," + std::to_string(std::filesystem::file_size(so)) + "\n");
  Snapshot s = Probed(t);
  ASSERT_EQ(s.pythons[0].extensions.size(), 1u);
  ASSERT_EQ(s.pythons[0].extensions[0].libs.size(), 2u);
  EXPECT_TRUE(Missing(s).empty());
}

// The other C++ ABI makes every string-taking symbol missing: ext.cxx_abi names that cause alone.
TEST(MissingSymbolRule, TheOtherCxxAbiIsLeftToTheAbiFinding) {
  if (testing::kWindowsBuild) GTEST_SKIP() << "builds ELF objects with g++";
  TempDir t;
  const std::string check = "namespace c10 { namespace detail { void torchCheckFail(const char*, const std::string&)";
  std::string have = t.Write("have_abi.cc", "#include <string>\n" + check + " {} } }\n");
  std::string ext = t.Write("ext_abi.cc", "#include <string>\n" + check + "; } }\n"
                                          "extern \"C\" void mha_fwd() { c10::detail::torchCheckFail(\"f\", std::string(\"x\")); }\n");
  std::string cuda = t.Write("c10_cuda.cc", "namespace c10 { namespace cuda { int device_count() { return 1; } } }\n");
  std::string lib = t.Mkdir("site/torch/lib"), stub = t.Mkdir("stub");
  if (!Gxx("-D_GLIBCXX_USE_CXX11_ABI=1 -Wl,-soname,libc10.so -o " + lib + "/libc10.so " + have) ||
      !Gxx("-D_GLIBCXX_USE_CXX11_ABI=0 -Wl,-soname,libc10.so -o " + stub + "/libc10.so " + have) ||
      !Gxx("-Wl,-soname,libc10_cuda.so -o " + stub + "/libc10_cuda.so " + cuda) ||
      !Gxx("-D_GLIBCXX_USE_CXX11_ABI=0 -Wl,--no-as-needed -o " + t.path() + "/site/" + kModule + " " + ext + " -L" + stub +
           " -lc10 -lc10_cuda")) {
    GTEST_SKIP() << "no g++";
  }
  WriteDist(t);
  Snapshot s = Probed(t, "2.7.0+cu126");
  const SymbolLookup* l = Lookup(s);
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->missing, 1u);
  EXPECT_TRUE(Missing(s).empty());
  EXPECT_EQ(testing::WithId(Diagnose(s, testing::TheCatalog()), "ext.cxx_abi").size(), 1u);
}

// Debian's python3-torchvision 0.14.1 beside its python3-torch 1.13.1 (the packages this machine's
// setup installs), which import together: every torch symbol torchvision's _C.so needs is defined
// by a library in torch/lib, looked up through their real GNU hash tables.
TEST(TorchSymbolIndex, DebiansTorchvisionFindsEveryTorchSymbolInDebiansTorch) {
  if (testing::kWindowsBuild) GTEST_SKIP() << "reads the Linux host's files";
  const std::string site = "/usr/lib/python3/dist-packages";
  const std::string module = site + "/torchvision/_C.cpython-311-x86_64-linux-gnu.so";
  if (!std::filesystem::exists(module) || !std::filesystem::exists(site + "/torch/lib/libtorch_cpu.so")) {
    GTEST_SKIP() << "no python3-torch / python3-torchvision";
  }
  auto fs = MakeRealFs("/");
  auto m = fs->Open(module);
  ASSERT_TRUE(m.ok());
  std::vector<std::string> needs = ReadTorchSymbols(**m, ReadElf(**m).value()).value().needs;
  EXPECT_GT(needs.size(), 50u);
  std::vector<std::unique_ptr<RandomAccessFile>> files;
  std::vector<ElfSymbolIndex> indexes;
  for (const char* lib : {"libtorch_cpu.so", "libc10.so", "libtorch_python.so", "libtorch.so"}) {
    auto f = fs->Open(site + "/torch/lib/" + lib);
    ASSERT_TRUE(f.ok()) << lib;
    auto index = ElfSymbolIndex::Open(**f, ReadElf(**f).value());
    ASSERT_TRUE(index.ok()) << lib << ": " << index.error();
    indexes.push_back(std::move(*index));
    files.push_back(std::move(*f));
  }
  for (const std::string& name : needs) {
    bool found = false;
    for (const ElfSymbolIndex& index : indexes) found = found || index.Defines(name).value();
    EXPECT_TRUE(found) << name;
  }
  // And what none of them defines is not found: a name one character off.
  EXPECT_FALSE(indexes[0].Defines(needs[0] + "x").value());
}

}  // namespace
}  // namespace cudamatch
