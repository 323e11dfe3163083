// docs/recipes.md is run, not only read: every ```sh block and every `run:` step of its CI job
// runs under bash against fixture machines. `cudamatch` on PATH is the built binary with the
// fixture's --root (and its environment); python3, uv and docker are stand-ins that record
// their arguments, so nothing is installed or downloaded.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/text.h"
#include "tests/unit/test_util.h"

namespace cudamatch {
namespace {

using testing::SourceDir;

struct Block {
  std::string name;  // the first comment's first word ("install.sh"), or the step's name
  std::string text;
};

std::string FirstCommentWord(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::string_view t = Trim(line);
    if (StartsWith(t, "# ")) {
      std::string_view rest = t.substr(2);
      return std::string(rest.substr(0, rest.find_first_of(" :")));
    }
  }
  return "";
}

// The fenced blocks of `lang` ("sh", "yaml") in a markdown text.
std::vector<std::string> Fenced(const std::string& md, const std::string& lang) {
  std::vector<std::string> blocks;
  std::istringstream in(md);
  std::string line, current;
  bool inside = false;
  while (std::getline(in, line)) {
    if (!inside && line == "```" + lang) {
      inside = true;
      current.clear();
    } else if (inside && line == "```") {
      inside = false;
      blocks.push_back(current);
    } else if (inside) {
      current += line + "\n";
    }
  }
  return blocks;
}

std::vector<Block> ShellBlocks(const std::string& md) {
  std::vector<Block> out;
  for (const std::string& b : Fenced(md, "sh")) out.push_back({FirstCommentWord(b), b});
  return out;
}

size_t Indent(std::string_view line) { return line.find_first_not_of(' '); }

// The `run:` steps of the YAML blocks: "run: CMD" or "run: |" and the lines indented below it.
std::vector<Block> RunSteps(const std::string& md) {
  std::vector<Block> out;
  for (const std::string& yaml : Fenced(md, "yaml")) {
    std::vector<std::string_view> lines = Split(yaml, '\n');
    std::string name;
    for (size_t i = 0; i < lines.size(); ++i) {
      std::string_view t = Trim(lines[i]);
      if (StartsWith(t, "- name: ")) name = std::string(t.substr(8));
      if (!StartsWith(t, "run: ")) continue;
      std::string body(Trim(t.substr(5)));
      if (body == "|") {
        body.clear();
        size_t indent = Indent(lines[i]);
        for (++i; i < lines.size() && !Trim(lines[i]).empty() && Indent(lines[i]) > indent; ++i) {
          body += std::string(Trim(lines[i])) + "\n";
        }
        --i;
      } else {
        body += "\n";
      }
      out.push_back({name, body});
    }
  }
  return out;
}

const std::string& Recipes() {
  static const std::string text = testing::ReadSource("docs/recipes.md");
  return text;
}

Block Named(const std::vector<Block>& blocks, const std::string& name) {
  for (const Block& b : blocks) {
    if (b.name == name) return b;
  }
  ADD_FAILURE() << "docs/recipes.md has no block named " << name;
  return {};
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fixture machine to run recipes on: bin/ holds `cudamatch` (the binary with the machine's
// --root and environment, and `extra` flags after the command's own) and the stand-ins.
class Sandbox {
 public:
  explicit Sandbox(const std::string& machine, const std::string& extra = "") {
    std::string dir = SourceDir() + "/tests/fixtures/machines/" + machine;
    std::string env = "'LANG=C.UTF-8' '" + std::string(testing::kGoldenNow) + "'";
    std::string env_file = Slurp(dir + "/env");
    for (std::string_view kv : Split(env_file, '\n')) {
      if (!kv.empty() && kv[0] != '#') env += " '" + std::string(kv) + "'";
    }
    Tool("cudamatch", "sub=$1; shift\nexec env -i " + env + " " + testing::BinaryForShell() + " \"$sub\" --root '" + dir +
                          "/root' \"$@\" " + extra + "\n");
    for (const char* tool : {"python3", "uv", "docker"}) Tool(tool, "echo \"" + std::string(tool) + " $*\" >> '" + log() + "'\n");
  }

  // Runs `script` with bash -e in the sandbox's directory; stdout, stderr and the exit status.
  testing::RunResult Run(const std::string& script) const {
    std::string file = dir_.Write("script.sh", script);
    std::string cmd = "cd '" + dir_.path() + "' && PATH='" + dir_.path() + "/bin:/usr/bin:/bin' bash -e '" + file +
                      "' >'" + dir_.path() + "/out' 2>'" + dir_.path() + "/err'";
    int status = std::system(cmd.c_str());
    testing::RunResult r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = Slurp(dir_.path() + "/out");
    r.err = Slurp(dir_.path() + "/err");
    return r;
  }
  std::string Log() const { return Slurp(log()); }
  std::string File(const std::string& rel) const { return Slurp(dir_.path() + "/" + rel); }
  void Write(const std::string& rel, const std::string& text) const { dir_.Write(rel, text); }

 private:
  std::string log() const { return dir_.path() + "/calls.log"; }
  void Tool(const std::string& name, const std::string& body) {
    std::string path = dir_.Write("bin/" + name, "#!/bin/sh\n" + body);
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  }
  testing::TempDir dir_;
};

// What the binary itself prints for `plan --print FIELD` on a machine.
std::string Printed(const std::string& machine, const std::string& field) {
  Sandbox box(machine);
  auto r = box.Run("cudamatch plan --print " + field + "\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return std::string(Trim(r.out));
}

TEST(Recipes, EveryShellPartIsFoundAndNamed) {
  std::vector<Block> sh = ShellBlocks(Recipes());
  std::vector<Block> steps = RunSteps(Recipes());
  ASSERT_EQ(sh.size(), 3u);
  for (const Block& b : sh) EXPECT_FALSE(b.name.empty()) << b.text;
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_NE(steps[1].text.find("cudamatch doctor --fail-on warning --json"), std::string::npos);
}

TEST(Recipes, InstallScriptInstallsThePlansPinsFromItsIndex) {
  Sandbox box("gpu-server");
  auto r = box.Run(Named(ShellBlocks(Recipes()), "install.sh").text);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string pins = Printed("gpu-server", "pip-args");
  EXPECT_NE(pins.find("--index-url https://download.pytorch.org/whl/cu126"), std::string::npos) << pins;
  EXPECT_EQ(box.Log(), "python3 -m pip install " + pins + "\n");
}

TEST(Recipes, InstallScriptStopsWhenNothingFits) {
  Sandbox box("gpu-server", "--cc 2.0");  // a Fermi GPU: no torch build has code for it
  auto r = box.Run(Named(ShellBlocks(Recipes()), "install.sh").text);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no torch build fits this machine"), std::string::npos) << r.err;
  EXPECT_EQ(box.Log(), "");  // pip never ran
}

TEST(Recipes, UvScriptPassesTheBackendOfThePlan) {
  Sandbox box("gpu-server");
  auto r = box.Run(Named(ShellBlocks(Recipes()), "install-uv.sh").text);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(box.Log(), "uv pip install torch torchvision torchaudio --torch-backend " + Printed("gpu-server", "variant") + "\n");
}

TEST(Recipes, ImageBuildTakesTheBaseImageCudaFromTheHostDriver) {
  Sandbox box("gpu-server");  // driver 550.54.14: CUDA 12.4
  auto r = box.Run(Named(ShellBlocks(Recipes()), "build-image.sh").text);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("nvidia/cuda:12.4.0-runtime-ubuntu22.04"), std::string::npos) << r.out;
  EXPECT_EQ(box.Log(), "docker build --build-arg CUDA=12.4 --build-arg TORCH_PINS=" + Printed("gpu-server", "pip-args") +
                           " -t myapp .\n");
}

TEST(Recipes, CiJobFailsOnAWarningAndKeepsTheJson) {
  std::vector<Block> steps = RunSteps(Recipes());
  ASSERT_EQ(steps.size(), 3u);
  Sandbox warned("gpu-server");  // one warning, no error
  EXPECT_EQ(warned.Run(steps[0].text).exit_code, 0);
  EXPECT_EQ(warned.Log(), "python3 -m pip install --user cudamatch\n");
  EXPECT_EQ(warned.Run(steps[1].text).exit_code, 1);
  auto doc = nlohmann::json::parse(warned.File("doctor.json"));
  EXPECT_EQ(doc["kind"], "doctor");
  ASSERT_FALSE(doc["findings"].empty());
  EXPECT_EQ(doc["findings"][0]["severity"], "warning");
  Sandbox clean("pypi-cu12");  // nothing found
  EXPECT_EQ(clean.Run(steps[1].text).exit_code, 0) << clean.File("doctor.json");
}

TEST(Recipes, CiJobRefusesCpuOnlyPinsWhereNoGpuIsSeen) {
  std::vector<Block> steps = RunSteps(Recipes());
  ASSERT_EQ(steps.size(), 3u);
  Sandbox box("venv-cpu");
  box.Write("requirements.txt", "torch==2.5.1+cpu\n");
  auto r = box.Run(steps[2].text);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("--require gpu"), std::string::npos) << r.out << r.err;
  box.Write("requirements.txt", "torch==2.5.1+cu124\n");
  EXPECT_EQ(box.Run(steps[2].text).exit_code, 0) << box.File("out");
}

}  // namespace
}  // namespace cudamatch
