// One vocabulary: enums render to the text JSON has always carried and back; an unknown value is
// std::nullopt and renders as "unknown" in the user's language, never as "?".
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "derive/derive.h"
#include "diagnose/rules.h"
#include "plan/diagnose.h"
#include "probe/context.h"
#include "report/doctor.h"
#include "report/message_ids.h"
#include "report/text.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::TheCatalog;

TEST(Vocabulary, SpecifierOperatorsRoundTripThroughTheirText) {
  const SpecOp all[] = {SpecOp::kEqual,   SpecOp::kNotEqual, SpecOp::kGreaterEqual, SpecOp::kLessEqual,
                        SpecOp::kGreater, SpecOp::kLess,     SpecOp::kCompatible,   SpecOp::kArbitrary};
  std::set<std::string_view> texts;
  for (SpecOp op : all) {
    std::string_view text = SpecOpText(op);
    texts.insert(text);
    EXPECT_EQ(SpecOpPrefix(std::string(text) + "2.4.1"), op) << text;
    auto set = SpecifierSet::Parse(std::string(text) + "2.4.1");
    ASSERT_TRUE(set) << text;
    EXPECT_EQ(set->clauses.at(0).op, op);
  }
  EXPECT_EQ(texts.size(), std::size(all));
  EXPECT_FALSE(SpecOpPrefix("2.4.1"));
  EXPECT_EQ(SpecifierSet::Parse("2.4.1")->clauses.at(0).op, SpecOp::kEqual);  // a bare version means ==
}

TEST(Vocabulary, NvmlStatesRoundTripThroughTheirNames) {
  for (NvmlState s : {NvmlState::kOk, NvmlState::kSkippedRoot, NvmlState::kSkippedNoModule, NvmlState::kSkippedNoLibrary}) {
    std::string_view name = NvmlStateName(s);
    ASSERT_FALSE(name.empty());
    EXPECT_EQ(ParseNvmlState(name), s) << name;
  }
  EXPECT_EQ(NvmlStateName(NvmlState::kOk), "ok");
  EXPECT_EQ(NvmlStateName(NvmlState::kSkippedRoot), "skipped.root");
  EXPECT_FALSE(ParseNvmlState("NVML_ERROR_DRIVER_NOT_LOADED"));
}

TEST(Vocabulary, NvmlStatusIsTheStateOrTheError) {
  DriverInfo d;
  EXPECT_EQ(d.nvml_status(), "");
  d.nvml = NvmlState::kFailed;
  d.nvml_error = "libnvidia-ml.so.1: cannot open shared object file";
  EXPECT_EQ(d.nvml_status(), d.nvml_error);
  EXPECT_EQ(NvmlText(d, Lang::kEn), d.nvml_error);
  d.nvml = NvmlState::kSkippedNoModule;
  EXPECT_EQ(d.nvml_status(), "skipped.no_module");
  EXPECT_EQ(NvmlText(d, Lang::kEn), Tr(Lang::kEn, "nvml.skipped.no_module"));
  EXPECT_NE(NvmlText(d, Lang::kZh), NvmlText(d, Lang::kEn));
}

// Each enum's names are distinct and are the strings JSON has always written.
template <class E, class F>
std::vector<std::string> Names(std::initializer_list<E> all, F name) {
  std::vector<std::string> out;
  for (E e : all) out.emplace_back(name(e));
  return out;
}

TEST(Vocabulary, KindNamesAreTheJsonStrings) {
  EXPECT_EQ(Names({KernelFlavor::kUnknown, KernelFlavor::kOpen, KernelFlavor::kProprietary}, KernelFlavorName),
            (std::vector<std::string>{"", "open", "proprietary"}));
  EXPECT_EQ(Names({PythonKind::kSystem, PythonKind::kVenv, PythonKind::kConda, PythonKind::kPyenv, PythonKind::kUv,
                   PythonKind::kGiven, PythonKind::kStore},
                  PythonKindName),
            (std::vector<std::string>{"system", "venv", "conda", "pyenv", "uv", "given", "store"}));
  EXPECT_EQ(Names({ToolkitKind::kSystem, ToolkitKind::kDebian, ToolkitKind::kConda, ToolkitKind::kPip}, ToolkitKindName),
            (std::vector<std::string>{"system", "debian", "conda", "pip"}));
  EXPECT_EQ(Names({CudnnKind::kSystem, CudnnKind::kToolkit, CudnnKind::kPip}, CudnnKindName),
            (std::vector<std::string>{"system", "toolkit", "pip"}));
  EXPECT_EQ(Names({FoundBy::kGivenPython, FoundBy::kVirtualEnv, FoundBy::kCondaPrefix, FoundBy::kDotVenv, FoundBy::kPath,
                   FoundBy::kOwnEnv},
                  FoundByName),
            (std::vector<std::string>{"--python", "env:VIRTUAL_ENV", "env:CONDA_PREFIX", "./.venv", "PATH",
                                      "cudamatch's own environment"}));
}

TEST(Vocabulary, EveryKindHasTextInBothLanguages) {
  for (Lang lang : {Lang::kEn, Lang::kZh}) {
    for (PythonKind k : {PythonKind::kSystem, PythonKind::kVenv, PythonKind::kConda, PythonKind::kPyenv, PythonKind::kUv,
                         PythonKind::kGiven, PythonKind::kStore}) {
      EXPECT_TRUE(HasMessage(lang, PythonKindMessageId(k))) << PythonKindName(k);
    }
    for (CudnnKind k : {CudnnKind::kSystem, CudnnKind::kToolkit, CudnnKind::kPip}) {
      EXPECT_TRUE(HasMessage(lang, CudnnKindMessageId(k))) << CudnnKindName(k);
    }
    for (KernelFlavor f : {KernelFlavor::kUnknown, KernelFlavor::kOpen, KernelFlavor::kProprietary}) {
      EXPECT_TRUE(HasMessage(lang, FlavorMessageId(f))) << KernelFlavorName(f);
    }
    for (NvmlState s : {NvmlState::kSkippedRoot, NvmlState::kSkippedNoModule, NvmlState::kSkippedNoLibrary}) {
      EXPECT_TRUE(HasMessage(lang, *NvmlMessageId(s))) << NvmlStateName(s);
    }
  }
}

// A driver whose libcuda.so.1 is there but whose version no source told.
Snapshot UnknownUserSpaceDriver() {
  Snapshot s;
  s.platform.os = Os::kLinux;
  s.driver.libcuda_paths = {"/usr/lib/x86_64-linux-gnu/libcuda.so.1"};
  return s;
}

TEST(Vocabulary, UnknownArgumentRendersAsUnknownInTheUsersLanguage) {
  Snapshot s = UnknownUserSpaceDriver();
  std::vector<Finding> findings = Diagnose(s, TheCatalog());
  auto it = std::find_if(findings.begin(), findings.end(), [](const Finding& f) { return f.id == "driver.module_not_loaded"; });
  ASSERT_NE(it, findings.end());
  auto arg = std::find_if(it->args.begin(), it->args.end(), [](const auto& a) { return a.first == "driver"; });
  ASSERT_NE(arg, it->args.end());
  EXPECT_FALSE(arg->second.has_value());
  std::string en = RenderFinding(*it, TextOptions{Lang::kEn, Style{}, false});
  EXPECT_NE(en.find("user-space driver unknown is installed"), std::string::npos) << en;
  std::string zh = RenderFinding(*it, TextOptions{Lang::kZh, Style{}, false});
  EXPECT_NE(zh.find(Tr(Lang::kZh, "common.unknown")), std::string::npos) << zh;
  Json j = FindingJson(*it);
  EXPECT_TRUE(j["args"]["driver"].is_null());
}

Snapshot ProbeFixture(const std::string& dir) {
  auto fs = MakeRealFs(dir + "/root");
  ProbeInput in;
  in.fs = fs.get();
  in.catalog = &TheCatalog();
  std::ifstream os(dir + "/os");
  std::string name;
  if (os >> name) in.os = ParseOs(name).value();
  Snapshot s = TakeSnapshot(in);
  Derive(TheCatalog(), s);
  return s;
}

TEST(Vocabulary, NoFixtureReportShowsAQuestionMarkForAValue) {
  size_t machines = 0;
  for (const auto& entry : std::filesystem::directory_iterator(testing::SourceDir() + "/tests/fixtures/machines")) {
    if (!entry.is_directory()) continue;
    Snapshot s = ProbeFixture(entry.path().string());
    std::vector<Finding> findings = Diagnose(s, TheCatalog());
    for (Lang lang : {Lang::kEn, Lang::kZh}) {
      std::string text = RenderDoctor(s, findings, TextOptions{lang, Style{}, true});
      EXPECT_EQ(text.find(" ? "), std::string::npos) << entry.path() << "\n" << text;
    }
    ++machines;
  }
  EXPECT_GE(machines, 10u);
}

}  // namespace
}  // namespace cudamatch
