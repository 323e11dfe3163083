// In-process benchmarks (Google Benchmark): catalog parse, lookup, plan, check, and doctor's
// probe + diagnosis over synthetic machines of 10, 200 and 2,000 Python environments.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>

#include "catalog/catalog.h"
#include "core/child.h"
#include "diagnose/rules.h"
#include "plan/diagnose.h"
#include "plan/check.h"
#include "plan/lookup.h"
#include "plan/plan.h"
#include "derive/derive.h"
#include "probe/context.h"
#include "report/doctor.h"

namespace cudamatch {
namespace {

const Catalog& TheCatalog() {
  static const Catalog c = ParseCatalog(EmbeddedCatalogFiles()).value();
  return c;
}

void BM_CatalogParse(benchmark::State& state) {
  const std::vector<CatalogFile>& files = EmbeddedCatalogFiles();
  for (auto _ : state) {
    auto c = ParseCatalog(files);
    benchmark::DoNotOptimize(c);
  }
}
BENCHMARK(BM_CatalogParse)->Unit(benchmark::kMicrosecond);

void BM_LookupTorch(benchmark::State& state) {
  LookupQuery q = ParseLookupQuery({"torch==1.13.0"}).value();
  for (auto _ : state) benchmark::DoNotOptimize(Lookup(TheCatalog(), q, Platform{}, nullptr));
}
BENCHMARK(BM_LookupTorch)->Unit(benchmark::kMicrosecond);

void BM_LookupGpu(benchmark::State& state) {
  LookupQuery q = ParseLookupQuery({"gpu", "RTX 3090"}).value();
  for (auto _ : state) benchmark::DoNotOptimize(Lookup(TheCatalog(), q, Platform{}, nullptr));
}
BENCHMARK(BM_LookupGpu)->Unit(benchmark::kMicrosecond);

void BM_Plan(benchmark::State& state) {
  MachineSpec spec;
  spec.driver = DriverVersion::Parse("470.82.01").value();
  spec.gpus = {ComputeCapability{8, 6, 0}};
  spec.has_nvidia_gpu = true;
  spec.python = PyVersion::Parse("3.10").value();
  for (auto _ : state) benchmark::DoNotOptimize(MakePlan(TheCatalog(), spec));
}
BENCHMARK(BM_Plan)->Unit(benchmark::kMicrosecond);

// The cost of asking an NVIDIA library in a watched child: fork, a reply over a pipe, reaping.
void BM_WatchedChild(benchmark::State& state) {
  for (auto _ : state) {
    ChildOutcome out = RunInChild([] { return std::string("version\t5:12040\n"); }, 2000);
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_WatchedChild)->Unit(benchmark::kMicrosecond);

void BM_Check(benchmark::State& state) {
  PinSet pins = ParsePinArgs({"torch==1.13.0", "torchvision==1.4.0"}).value();
  MachineSpec spec;
  for (auto _ : state) benchmark::DoNotOptimize(CheckPins(TheCatalog(), spec, pins));
}
BENCHMARK(BM_Check)->Unit(benchmark::kMicrosecond);

// A synthetic machine: driver, one GPU, a toolkit and N conda environments, each with torch,
// torchvision and the nvidia-* wheels, on the real filesystem (under a temporary root).
std::string SyntheticMachine(int envs) {
  std::string root = std::filesystem::temp_directory_path() / ("cudamatch-bench-" + std::to_string(envs));
  if (std::filesystem::exists(root + "/.done")) return root;
  auto write = [&](const std::string& rel, const std::string& text) {
    std::filesystem::path p = root + "/" + rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
  };
  write("proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 01:44:30 UTC 2024\n");
  write("proc/driver/nvidia/gpus/0000:01:00.0/information", "Model: \t\t NVIDIA GeForce RTX 4090\nBus Location: \t 0000:01:00.0\n");
  write("usr/local/cuda-12.4/version.json", R"({"cuda": {"name": "CUDA SDK", "version": "12.4.1"}})");
  write("usr/local/cuda-12.4/bin/nvcc", "");
  write("home/u/miniconda3/conda-meta/history", "");
  for (int i = 0; i < envs; ++i) {
    std::string env = "home/u/miniconda3/envs/env" + std::to_string(i);
    std::string site = env + "/lib/python3.10/site-packages";
    write(env + "/conda-meta/history", "");
    write(env + "/bin/python3.10", "");
    write(site + "/torch/version.py", "__version__ = '2.3.1+cu121'\ndebug = False\ncuda: Optional[str] = '12.1'\nhip: Optional[str] = None\n");
    write(site + "/torch-2.3.1+cu121.dist-info/METADATA", "Metadata-Version: 2.1\nName: torch\nVersion: 2.3.1+cu121\n"
          "Requires-Dist: nvidia-cudnn-cu12==8.9.2.26; platform_system == \"Linux\"\n");
    write(site + "/torchvision/version.py", "__version__ = '0.18.1+cu121'\ncuda = '12.1'\n");
    write(site + "/torchvision-0.18.1+cu121.dist-info/METADATA", "Name: torchvision\nVersion: 0.18.1+cu121\n");
    write(site + "/nvidia_cudnn_cu12-8.9.2.26.dist-info/METADATA", "Name: nvidia-cudnn-cu12\n");
    write(site + "/numpy-1.26.4.dist-info/METADATA", "Name: numpy\n");
  }
  write(".done", "");
  return root;
}

// Doctor over the tree at `root`: probe, derive, diagnosis with fix verification, JSON. Returns
// the number of findings of the last run.
size_t RunDoctor(benchmark::State& state, const std::string& root, const std::string& path) {
  auto fs = MakeRealFs(root);
  ProbeInput in;
  in.fs = fs.get();
  in.catalog = &TheCatalog();
  in.env = {{"HOME", "/home/u"}, {"PATH", path}};
  size_t findings_n = 0;
  for (auto _ : state) {
    Snapshot snap = TakeSnapshot(in);
    Derive(TheCatalog(), snap);
    std::vector<Finding> findings = Diagnose(snap, TheCatalog());
    benchmark::DoNotOptimize(JsonText(DoctorJson(snap, findings)));
    state.counters["envs"] = static_cast<double>(snap.pythons.size());
    findings_n = findings.size();
  }
  return findings_n;
}

void BM_DoctorSynthetic(benchmark::State& state) {
  RunDoctor(state, SyntheticMachine(static_cast<int>(state.range(0))), "/usr/local/cuda-12.4/bin:/usr/bin");
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_DoctorSynthetic)->Arg(10)->Arg(200)->Arg(2000)->Unit(benchmark::kMillisecond)->Complexity(benchmark::oN);

// Scaling: N conda environments, each with a problem (torch built for CUDA 12.1 under a driver
// that serves CUDA 11.4: one error finding per environment). Probe, diagnosis (with fix
// verification) and JSON; the "per_env" counter is the time per environment, flat when linear.
std::string ProblemMachine(int envs) {
  std::string root = std::filesystem::temp_directory_path() / ("cudamatch-bench-problem-" + std::to_string(envs));
  if (std::filesystem::exists(root + "/.done")) return root;
  auto write = [&](const std::string& rel, const std::string& text) {
    std::filesystem::path p = root + "/" + rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
  };
  write("proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  470.82.01  Fri Oct 15 00:00:00 UTC 2021\n");
  write("proc/driver/nvidia/gpus/0000:01:00.0/information", "Model: \t\t NVIDIA GeForce RTX 3090\nBus Location: \t 0000:01:00.0\n");
  write("home/u/miniconda3/conda-meta/history", "");
  std::string listed;
  for (int i = 0; i < envs; ++i) {
    std::string env = "home/u/miniconda3/envs/env" + std::to_string(i);
    std::string site = env + "/lib/python3.10/site-packages";
    listed += "/" + env + "\n";
    write(env + "/conda-meta/history", "");
    write(env + "/bin/python3.10", "");
    write(site + "/torch/version.py", "__version__ = '2.3.1+cu121'\ndebug = False\ncuda: Optional[str] = '12.1'\nhip: Optional[str] = None\n");
    write(site + "/torch-2.3.1+cu121.dist-info/METADATA", "Metadata-Version: 2.1\nName: torch\nVersion: 2.3.1+cu121\n");
  }
  write("home/u/.conda/environments.txt", listed);  // each environment found twice, as conda lists them
  write(".done", "");
  return root;
}

void BM_DoctorScaling(benchmark::State& state) {
  size_t findings_n = RunDoctor(state, ProblemMachine(static_cast<int>(state.range(0))), "/usr/bin");
  state.counters["findings"] = static_cast<double>(findings_n);
  state.counters["per_env"] = benchmark::Counter(static_cast<double>(state.range(0)),
                                                 benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_DoctorScaling)->Arg(10)->Arg(100)->Arg(1000)->Arg(5000)->Unit(benchmark::kMillisecond)->Iterations(1)
    ->Repetitions(1)->Complexity(benchmark::oN);

// The probe alone over the same machines: what is left when diagnosis is taken out.
void BM_ProbeScaling(benchmark::State& state) {
  std::string root = ProblemMachine(static_cast<int>(state.range(0)));
  auto fs = MakeRealFs(root);
  ProbeInput in;
  in.fs = fs.get();
  in.catalog = &TheCatalog();
  in.env = {{"HOME", "/home/u"}, {"PATH", "/usr/bin"}};
  size_t envs = 0;
  for (auto _ : state) envs = TakeSnapshot(in).pythons.size();
  state.counters["envs"] = static_cast<double>(envs);
  state.counters["per_env"] = benchmark::Counter(static_cast<double>(state.range(0)),
                                                 benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_ProbeScaling)->Arg(10)->Arg(100)->Arg(1000)->Arg(5000)->Unit(benchmark::kMillisecond)->Iterations(1);

// The cuDNN probe over N pip cuDNN wheels (in memory: 100 environments of N/100 wheels each).
void BM_CudnnWheels(benchmark::State& state) {
  FakeFs fs;
  ProbeInput in;
  in.fs = &fs;
  Snapshot base;
  size_t wheels = static_cast<size_t>(state.range(0));
  for (size_t e = 0; e < 100; ++e) {
    PythonEnv env;
    env.prefix = "/envs/e" + std::to_string(e);
    for (size_t w = 0; w < wheels / 100; ++w) {
      PackageInfo pkg;
      pkg.name = "nvidia-cudnn-cu12-" + std::to_string(w);
      pkg.version = Pep440::Parse("9.1.0.70").value();
      pkg.location = env.prefix + "/site-packages/" + pkg.name + "-9.1.0.70.dist-info";
      env.packages.emplace(pkg.name, pkg);
    }
    base.pythons.push_back(std::move(env));
  }
  size_t found = 0;
  for (auto _ : state) {
    Snapshot snap = base;
    ProbeCudnn(in, snap);
    found = snap.cudnn.size();
  }
  state.counters["cudnn"] = static_cast<double>(found);
  state.counters["per_wheel"] = benchmark::Counter(static_cast<double>(wheels),
                                                   benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_CudnnWheels)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace cudamatch

BENCHMARK_MAIN();
