// The C++ ABI of torch symbols, read from real shared objects that g++ builds here: a libc10.so
// defining c10::detail::torchCheckFail in one ABI and an extension needing it in the other.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "diagnose/rules.h"
#include "plan/diagnose.h"
#include "plan/remedy_text.h"
#include "probe/binaries.h"
#include "probe/context.h"
#include "probe/parsers.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TempDir;

constexpr const char* kC10 =
    "#include <string>\nnamespace c10 { namespace detail {\n"
    "void torchCheckFail(const char*, const char*, unsigned, const std::string& m) { (void)m; }\n}}\n";
constexpr const char* kExt =
    "#include <string>\nnamespace c10 { namespace detail {\n"
    "void torchCheckFail(const char*, const char*, unsigned, const std::string&);\n}}\n"
    "extern \"C\" void mha_fwd() { c10::detail::torchCheckFail(\"mha_fwd\", __FILE__, __LINE__, std::string(\"x\")); }\n";

bool Gxx(const std::string& args) { return std::system(("g++ -shared -fPIC " + args + " 2>/dev/null").c_str()) == 0; }

// site/torch/lib/libc10.so with `torch_abi`; site/flash_attn_2_cuda...so with `ext_abi`, linked
// against a stub libc10.so of its own ABI and libc10_cuda.so (as flash-attn's module is).
bool Build(const TempDir& t, int torch_abi, int ext_abi) {
  std::string c10 = t.Write("c10.cc", kC10), ext = t.Write("ext.cc", kExt), stub = t.Mkdir("stub");
  t.Mkdir("site/torch/lib");
  std::string e = std::to_string(ext_abi);
  return Gxx("-D_GLIBCXX_USE_CXX11_ABI=" + std::to_string(torch_abi) + " -Wl,-soname,libc10.so -o " + t.path() +
             "/site/torch/lib/libc10.so " + c10) &&
         Gxx("-D_GLIBCXX_USE_CXX11_ABI=" + e + " -Wl,-soname,libc10.so -o " + stub + "/libc10.so " + c10) &&
         Gxx("-Wl,-soname,libc10_cuda.so -o " + stub + "/libc10_cuda.so " + c10) &&
         Gxx("-D_GLIBCXX_USE_CXX11_ABI=" + e + " -Wl,--no-as-needed -o " + t.path() +
             "/site/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so " + ext + " -L" + stub + " -lc10 -lc10_cuda");
}

// flash-attn `version` (2.7.3) as pip installs it: METADATA, RECORD with hashes, INSTALLER,
// direct_url.json naming `wheel`.
void WriteDist(const TempDir& t, const std::string& wheel, const std::string& version = "2.7.3") {
  std::string info = "flash_attn-" + version + ".dist-info";
  std::string d = "site/" + info + "/";
  t.Write(d + "METADATA", "Metadata-Version: 2.1\nName: flash_attn\nVersion: " + version + "\nRequires-Dist: torch\nRequires-Dist: einops\n");
  t.Write(d + "INSTALLER", "pip\n");
  std::string so = "flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so";
  auto line = [&](const std::string& rel) {
    std::string host = t.path() + "/site/" + rel;
    return rel + "," + testing::RecordHash(host) + "," + std::to_string(std::filesystem::file_size(host)) + "\n";
  };
  if (!wheel.empty()) {
    t.Write(d + "direct_url.json", "{\"archive_info\": {\"hash\": \"sha256=3b2d\", \"hashes\": {\"sha256\": \"3b2d\"}}, \"url\": "
                                   "\"https://github.com/Dao-AILab/flash-attention/releases/download/v" + version + "/" + wheel + "\"}");
  }
  std::string direct = wheel.empty() ? "" : line(info + "/direct_url.json");
  t.Write(d + "RECORD", line(info + "/INSTALLER") + line(info + "/METADATA") + direct + info + "/RECORD,,\n" + line(so));
}

Snapshot Probed(const TempDir& t, const char* torch_version) {
  return testing::ProbedSite(t.path(), testing::MachineWithDriver("570.133.07", "12.8"), "/venv", PythonKind::kVenv, "3.10",
                             torch_version, "12.6");
}

std::vector<Finding> Abi(const Snapshot& s) {
  std::vector<Finding> out;
  for (const Finding& f : Diagnose(s, testing::TheCatalog())) {
    if (f.id == "ext.cxx_abi") out.push_back(f);
  }
  return out;
}

std::string ArgValue(const Finding& f, std::string_view key) {
  for (const auto& [k, v] : f.args) {
    if (k == key) return v.value_or("");
  }
  return "";
}

std::string FixText(const Snapshot&, const Finding& f) { return f.remedy ? RemedyText(*f.remedy) : ""; }

TEST(CxxAbiSymbols, MangledNamesByAbi) {
  EXPECT_EQ(MangledCxx11Abi("_ZN3c106detail14torchCheckFailEPKcS2_jRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE"), true);
  EXPECT_EQ(MangledCxx11Abi("_ZN3c106detail14torchCheckFailEPKcS2_jRKSs"), false);
  EXPECT_EQ(MangledCxx11Abi("_ZN3c105ErrorC2ENS_14SourceLocationESs"), false);  // Dao-AILab/flash-attention#1644
  EXPECT_EQ(MangledCxx11Abi("_ZN3c104cuda9SetDeviceEi"), std::nullopt);
  EXPECT_EQ(MangledCxx11Abi("_ZN3c107Sstring3fooEv"), std::nullopt);  // "Ss" inside an identifier
}

TEST(CxxAbiSymbols, ReadFromRealObjects) {
  if (testing::kWindowsBuild) GTEST_SKIP() << "builds ELF objects with g++";
  TempDir t;
  if (!Build(t, 1, 0)) GTEST_SKIP() << "no g++";
  auto read = [&](const std::string& rel) {
    auto fs = MakeRealFs(t.path());
    auto f = fs->Open(rel);
    EXPECT_TRUE(f.ok());
    auto elf = ReadElf(**f);
    EXPECT_TRUE(elf.ok());
    return ReadTorchSymbols(**f, *elf).value();
  };
  TorchSymbols c10 = read("/site/torch/lib/libc10.so");
  EXPECT_EQ(c10.defines_cxx11, "_ZN3c106detail14torchCheckFailEPKcS2_jRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE");
  EXPECT_EQ(c10.defines_old, "");
  TorchSymbols ext = read("/site/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so");
  EXPECT_EQ(ext.needs_old, "_ZN3c106detail14torchCheckFailEPKcS2_jRKSs");
  EXPECT_EQ(ext.needs_cxx11, "");
  ElfLimits tight;
  tight.max_symbols = 1;
  auto fs = MakeRealFs(t.path());
  auto f = fs->Open("/site/torch/lib/libc10.so");
  EXPECT_FALSE(ReadTorchSymbols(**f, ReadElf(**f).value(), tight).value().cut.empty());
}

// Dao-AILab/flash-attention#1696: torch 2.7.0 with CUDA 12.6 on Python 3.10, `pip install
// flash-attn` (2.7.3): "undefined symbol: _ZN3c105ErrorC2ENS_14Source..." (the old ABI's
// std::string); building it from source (pip install --no-build-isolation .) fixed it.
TEST(CxxAbiRule, OldAbiExtensionBesideNewAbiTorch) {
  if (testing::kWindowsBuild) GTEST_SKIP() << "builds ELF objects with g++";
  TempDir t;
  if (!Build(t, 1, 0)) GTEST_SKIP() << "no g++";
  WriteDist(t, "");
  Snapshot s = Probed(t, "2.7.0");
  auto found = Abi(s);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(ArgValue(found[0], "abi"), "_GLIBCXX_USE_CXX11_ABI=0");
  EXPECT_EQ(ArgValue(found[0], "torch_abi"), "_GLIBCXX_USE_CXX11_ABI=1");
  EXPECT_EQ(ArgValue(found[0], "symbol"), "c10::detail::torchCheckFail");
  // No nvcc of CUDA 12 here: the rebuild is said to need one first.
  EXPECT_NE(testing::EvidenceText(found[0]).find("nvcc"), std::string::npos);
  ToolkitInfo tk;
  tk.path = "/usr/local/cuda-12.6";
  tk.version = CudaVersion::Parse("12.6").value();
  tk.has_nvcc = true;
  s.toolkits.push_back(tk);
  found = Abi(s);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(FixText(s, found[0]).find("CUDA_HOME=/usr/local/cuda-12.6"), std::string::npos) << FixText(s, found[0]);
  EXPECT_NE(FixText(s, found[0]).find("--no-binary flash-attn"), std::string::npos);
}

// The reverse, with the wheel's name: torch 2.5.1 (old ABI), the cxx11abiTRUE wheel installed;
// the catalog's cxx11abiFALSE wheel of the release for torch 2.5 is the fix.
TEST(CxxAbiRule, NewAbiWheelBesideOldAbiTorch) {
  if (testing::kWindowsBuild) GTEST_SKIP() << "builds ELF objects with g++";
  TempDir t;
  if (!Build(t, 0, 1)) GTEST_SKIP() << "no g++";
  WriteDist(t, "flash_attn-2.7.3+cu12torch2.5cxx11abiTRUE-cp310-cp310-linux_x86_64.whl");
  Snapshot s = Probed(t, "2.5.1");
  ASSERT_EQ(s.pythons[0].extensions.size(), 1u);
  EXPECT_EQ(s.pythons[0].extensions[0].wheel_cxx11abi, true);
  auto found = Abi(s);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(ArgValue(found[0], "abi"), "_GLIBCXX_USE_CXX11_ABI=1");
  EXPECT_NE(testing::EvidenceText(found[0]).find("cxx11abiTRUE"), std::string::npos);
  EXPECT_NE(FixText(s, found[0]).find("flash_attn-2.7.3+cu12torch2.5cxx11abiFALSE-cp310-cp310-linux_x86_64.whl"),
            std::string::npos) << FixText(s, found[0]);
}

// Dao-AILab/flash-attention#1783: flash_attn-2.8.2+cu12torch2.6cxx11abiFALSE beside torch 2.6.0+cu124
// (old ABI) needs the new ABI's std::string: the wheel's name and its symbols disagree. The
// symbols decide, and the catalog's wheel of that name, the file installed, is not the fix.
TEST(CxxAbiRule, WheelNamedForTorchsAbiButBuiltWithTheOther) {
  if (testing::kWindowsBuild) GTEST_SKIP() << "builds ELF objects with g++";
  TempDir t;
  if (!Build(t, 0, 1)) GTEST_SKIP() << "no g++";
  const std::string wheel = "flash_attn-2.7.3+cu12torch2.5cxx11abiFALSE-cp310-cp310-linux_x86_64.whl";
  WriteDist(t, wheel);
  Snapshot s = Probed(t, "2.5.1");
  auto found = Abi(s);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(ArgValue(found[0], "abi"), "_GLIBCXX_USE_CXX11_ABI=1");
  EXPECT_EQ(FixText(s, found[0]).find(wheel), std::string::npos) << FixText(s, found[0]);
  EXPECT_NE(FixText(s, found[0]).find("--no-binary flash-attn"), std::string::npos) << FixText(s, found[0]);
}

std::vector<Finding> WithId(const Snapshot& s, std::string_view id) { return testing::WithId(Diagnose(s, testing::TheCatalog()), id); }

// The case: flash-attn's wheel built for torch 2.2 (its name, kept in direct_url.json)
// beside torch 2.3.0; the release's wheel for torch 2.3 (the catalog's asset, same CUDA and ABI) is
// the fix. Beside torch 2.2.0, Dao-AILab/flash-attention#931: "undefined symbol:
// _ZN3c104cuda9SetDeviceEi"; tridao: "Wheels are built for torch 2.2.2 and torch 2.3.0": the same
// line, built against 2.2.2 (publish.yml at v2.5.8), so torch 2.2.2 is what it needs.
TEST(WheelTorchRule, AWheelForAnotherTorchLineOrANewerPatch) {
  if (testing::kWindowsBuild) GTEST_SKIP() << "builds ELF objects with g++";
  TempDir t;
  if (!Build(t, 0, 0)) GTEST_SKIP() << "no g++";
  const std::string wheel = "flash_attn-2.5.8+cu122torch2.2cxx11abiFALSE-cp310-cp310-linux_x86_64.whl";
  WriteDist(t, wheel, "2.5.8");
  Snapshot s = Probed(t, "2.3.0");
  ASSERT_EQ(s.pythons[0].extensions.size(), 1u);
  EXPECT_EQ(s.pythons[0].extensions[0].wheel_file, wheel);
  auto line = WithId(s, "ext.wheel_torch");
  ASSERT_EQ(line.size(), 1u);
  EXPECT_EQ(ArgValue(line[0], "line"), "2.2");
  EXPECT_NE(FixText(s, line[0]).find("flash_attn-2.5.8+cu122torch2.3cxx11abiFALSE-cp310-cp310-linux_x86_64.whl"),
            std::string::npos) << FixText(s, line[0]);
  EXPECT_TRUE(Abi(s).empty());  // the same ABI: this is the only finding

  Snapshot older = Probed(t, "2.2.0");
  EXPECT_TRUE(WithId(older, "ext.wheel_torch").empty());
  auto patch = WithId(older, "ext.wheel_torch_patch");
  ASSERT_EQ(patch.size(), 1u);
  EXPECT_EQ(ArgValue(patch[0], "built"), "2.2.2");
  EXPECT_NE(testing::EvidenceText(patch[0]).find("flash-attn-2.5.8"), std::string::npos) << testing::EvidenceText(patch[0]);

  // The torch it was built against: nothing to say.
  Snapshot same = Probed(t, "2.2.2");
  EXPECT_TRUE(WithId(same, "ext.wheel_torch").empty());
  EXPECT_TRUE(WithId(same, "ext.wheel_torch_patch").empty());
}

TEST(WheelTorchParser, TheTorchLineOfAWheelName) {
  EXPECT_EQ(WheelTorchLine("flash_attn-2.5.8+cu122torch2.2cxx11abiFALSE-cp310-cp310-linux_x86_64.whl"), "2.2");
  EXPECT_EQ(WheelTorchLine("flash_attn-2.8.3+cu12torch2.10cxx11abiTRUE-cp312-cp312-linux_x86_64.whl"), "2.10");
  EXPECT_EQ(WheelTorchLine("xformers-0.0.28.post3-cp312-cp312-manylinux_2_28_x86_64.whl"), "");
  EXPECT_EQ(WheelTorchLine("torchvision-0.20.1+cu121-cp311-cp311-linux_x86_64.whl"), "");
  EXPECT_EQ(WheelTorchLine(""), "");
}

TEST(CxxAbiRule, SameAbiIsQuiet) {
  if (testing::kWindowsBuild) GTEST_SKIP() << "builds ELF objects with g++";
  TempDir t;
  if (!Build(t, 1, 1)) GTEST_SKIP() << "no g++";
  WriteDist(t, "");
  EXPECT_TRUE(Abi(Probed(t, "2.7.0")).empty());
}

// rusty1s/pytorch_sparse#104: a CPU-only conda environment (conda-forge's torch 1.7.0, built with
// the new C++ ABI) and torch-scatter from PyG's CPU wheels (`-f .../torch-1.7.0+cpu.html`, the old
// ABI of the PyTorch wheels): "_version.so: undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKSs".
// A library that links torch but no CUDA is an extension all the same, judged on its torch symbols.
TEST(CxxAbiRule, ACpuOnlyExtensionIsJudgedToo) {
  if (testing::kWindowsBuild) GTEST_SKIP() << "builds ELF objects with g++";
  TempDir t;
  const char* torch_cpu = "#include <string>\nnamespace torch { namespace jit { void parseSchemaOrName(const std::string& s) { (void)s; } }}\n";
  const char* ext = "#include <string>\nnamespace torch { namespace jit { void parseSchemaOrName(const std::string&); }}\n"
                    "extern \"C\" long cuda_version() { torch::jit::parseSchemaOrName(std::string(\"torch_scatter::cuda_version\")); return -1; }\n";
  std::string c10 = t.Write("c10.cc", kC10), cpu = t.Write("cpu.cc", torch_cpu), e = t.Write("ext.cc", ext), stub = t.Mkdir("stub");
  t.Mkdir("site/torch/lib");
  t.Mkdir("site/torch_scatter");
  if (!Gxx("-D_GLIBCXX_USE_CXX11_ABI=1 -Wl,-soname,libc10.so -o " + t.path() + "/site/torch/lib/libc10.so " + c10) ||
      !Gxx("-D_GLIBCXX_USE_CXX11_ABI=1 -Wl,-soname,libtorch_cpu.so -o " + t.path() + "/site/torch/lib/libtorch_cpu.so " + cpu) ||
      !Gxx("-D_GLIBCXX_USE_CXX11_ABI=0 -Wl,-soname,libc10.so -o " + stub + "/libc10.so " + c10) ||
      !Gxx("-D_GLIBCXX_USE_CXX11_ABI=0 -Wl,-soname,libtorch_cpu.so -o " + stub + "/libtorch_cpu.so " + cpu) ||
      !Gxx("-D_GLIBCXX_USE_CXX11_ABI=0 -Wl,--no-as-needed -o " + t.path() + "/site/torch_scatter/_version.so " + e + " -L" +
           stub + " -lc10 -ltorch_cpu")) {
    GTEST_SKIP() << "no g++";
  }
  std::string info = "torch_scatter-2.0.5.dist-info";
  t.Write("site/" + info + "/METADATA", "Metadata-Version: 2.1\nName: torch-scatter\nVersion: 2.0.5\nRequires-Python: >=3.6\n");
  t.Write("site/" + info + "/INSTALLER", "pip\n");
  auto line = [&](const std::string& rel) {
    std::string host = t.path() + "/site/" + rel;
    return rel + "," + testing::RecordHash(host) + "," + std::to_string(std::filesystem::file_size(host)) + "\n";
  };
  t.Write("site/" + info + "/RECORD", line(info + "/INSTALLER") + line(info + "/METADATA") + info + "/RECORD,,\n" +
                                          line("torch_scatter/_version.so"));
  Snapshot cpu_only;  // no driver, no GPU
  cpu_only.host.os_id = "ubuntu";
  Snapshot s = testing::ProbedSite(t.path(), cpu_only, "/opt/conda/envs/tree", PythonKind::kConda, "3.9", "1.7.0", "");
  ASSERT_EQ(s.pythons[0].extensions.size(), 1u);
  const ExtensionInfo& x = s.pythons[0].extensions[0];
  EXPECT_EQ(x.name, "torch-scatter");
  ASSERT_EQ(x.libs.size(), 1u);
  EXPECT_FALSE(x.libs[0].code.has_value());
  auto found = Abi(s);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(ArgValue(found[0], "abi"), "_GLIBCXX_USE_CXX11_ABI=0");
  EXPECT_NE(ArgValue(found[0], "symbol").find("torch::jit::parseSchemaOrName"), std::string::npos) << ArgValue(found[0], "symbol");
  // A CPU torch: the rebuild needs no nvcc, and nothing says to install one.
  std::string fix = FixText(s, found[0]);
  EXPECT_NE(fix.find("--no-binary torch-scatter \"torch-scatter==2.0.5\""), std::string::npos) << fix;
  EXPECT_EQ(testing::EvidenceText(found[0]).find("evidence.abi_no_nvcc"), std::string::npos);
}

}  // namespace
}  // namespace cudamatch
