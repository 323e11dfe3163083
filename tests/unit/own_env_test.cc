// cudamatch run from the environment it was installed in (pip into a venv, pipx, uv tool).
#include <gtest/gtest.h>

#include "plan/spec.h"
#include "probe/context.h"
#include "probe/own_env.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

constexpr const char* kPipx = "/home/u/.local/pipx/venvs/cudamatch";

// A pipx environment holding cudamatch, and a project venv of the user's.
FakeFs PipxMachine() {
  FakeFs fs;
  fs.AddFile(std::string(kPipx) + "/pyvenv.cfg", "home = /usr/bin\nversion = 3.11.2\n");
  fs.AddFile(std::string(kPipx) + "/bin/cudamatch", "");
  fs.AddSymlink(std::string(kPipx) + "/bin/python3.11", "/usr/bin/python3.11");
  fs.AddDir(std::string(kPipx) + "/lib/python3.11/site-packages");
  fs.AddFile("/usr/bin/python3.11", "");
  fs.AddFile("/home/u/proj/.venv/pyvenv.cfg", "home = /usr/bin\nversion = 3.10.12\n");
  fs.AddDir("/home/u/proj/.venv/lib/python3.10/site-packages");
  return fs;
}

ProbeInput Input(const FakeFs& fs, std::string self_exe) {
  ProbeInput in;
  in.fs = &fs;
  in.catalog = &testing::TheCatalog();
  in.env = {{"PATH", "/home/u/.local/bin:/usr/bin"}, {"HOME", "/home/u"}};
  in.cwd = "/home/u/proj";
  in.self_exe = std::move(self_exe);
  return in;
}

const PythonEnv* Find(const Snapshot& s, const std::string& prefix) {
  for (const PythonEnv& e : s.pythons) {
    if (e.prefix == prefix) return &e;
  }
  return nullptr;
}

TEST(OwnEnvironment, PrefixOnlyNextToPyvenvCfg) {
  FakeFs fs = PipxMachine();
  fs.AddFile("/usr/bin/cudamatch", "");
  EXPECT_EQ(OwnEnvironmentPrefix(fs, std::string(kPipx) + "/bin/cudamatch"), kPipx);
  EXPECT_EQ(OwnEnvironmentPrefix(fs, "/usr/bin/cudamatch"), std::nullopt);            // .deb, system pip
  EXPECT_EQ(OwnEnvironmentPrefix(fs, "/home/u/proj/build/cudamatch"), std::nullopt);  // a build tree
  EXPECT_EQ(OwnEnvironmentPrefix(fs, ""), std::nullopt);                              // unreadable
  EXPECT_EQ(OwnEnvironmentPrefix(fs, "cudamatch"), std::nullopt);                     // not a path
}

TEST(OwnEnvironment, ListedAndLabelledWithoutActivation) {
  FakeFs fs = PipxMachine();
  Snapshot s;
  ProbePythons(Input(fs, std::string(kPipx) + "/bin/cudamatch"), s);
  const PythonEnv* own = Find(s, kPipx);
  ASSERT_NE(own, nullptr);
  EXPECT_TRUE(own->cudamatch_own);
  EXPECT_EQ(own->kind, PythonKind::kVenv);
  EXPECT_EQ(own->found_by, std::vector<std::string>{std::string(FoundByName(FoundBy::kOwnEnv))});
  ASSERT_TRUE(own->version.has_value());
  EXPECT_EQ(own->version->ToString(), "3.11");
  const PythonEnv* project = Find(s, "/home/u/proj/.venv");
  ASSERT_NE(project, nullptr);
  EXPECT_FALSE(project->cudamatch_own);
  EXPECT_EQ(PrimaryPython(s), project) << "the project, not cudamatch's own environment";
}

TEST(OwnEnvironment, NeverTheProjectWhenItIsTheOnlyOneFound) {
  FakeFs fs;
  fs.AddFile(std::string(kPipx) + "/pyvenv.cfg", "version = 3.11.2\n");
  fs.AddFile(std::string(kPipx) + "/bin/cudamatch", "");
  Snapshot s;
  ProbePythons(Input(fs, std::string(kPipx) + "/bin/cudamatch"), s);
  ASSERT_EQ(s.pythons.size(), 1u);
  EXPECT_TRUE(s.pythons[0].cudamatch_own);
  EXPECT_EQ(PrimaryPython(s), nullptr);
}

TEST(OwnEnvironment, ActivatedProjectVenvHoldingCudamatchIsBoth) {
  FakeFs fs = PipxMachine();
  fs.AddFile("/home/u/proj/.venv/bin/cudamatch", "");
  ProbeInput in = Input(fs, "/home/u/proj/.venv/bin/cudamatch");
  in.env["VIRTUAL_ENV"] = "/home/u/proj/.venv";
  Snapshot s;
  ProbePythons(in, s);
  const PythonEnv* project = Find(s, "/home/u/proj/.venv");
  ASSERT_NE(project, nullptr);
  EXPECT_TRUE(project->cudamatch_own);
  EXPECT_EQ(PrimaryPython(s), project);
  EXPECT_EQ(Find(s, kPipx), nullptr) << "pipx's environment is not this binary's";
}

TEST(OwnEnvironment, NotLookedForWithoutTheExecutable) {
  FakeFs fs = PipxMachine();
  Snapshot s;
  ProbePythons(Input(fs, ""), s);  // --root, or /proc unreadable
  EXPECT_EQ(Find(s, kPipx), nullptr);
}

}  // namespace
}  // namespace cudamatch
