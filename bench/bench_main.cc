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

void BM_DoctorSynthetic(benchmark::State& state) {
  std::string root = SyntheticMachine(static_cast<int>(state.range(0)));
  auto fs = MakeRealFs(root);
  ProbeInput in;
  in.fs = fs.get();
  in.catalog = &TheCatalog();
  in.env = {{"HOME", "/home/u"}, {"PATH", "/usr/local/cuda-12.4/bin:/usr/bin"}};
  for (auto _ : state) {
    Snapshot snap = TakeSnapshot(in);
    Derive(TheCatalog(), snap);
    std::vector<Finding> findings = Diagnose(snap, TheCatalog());
    benchmark::DoNotOptimize(JsonText(DoctorJson(snap, findings)));
    state.counters["envs"] = static_cast<double>(snap.pythons.size());
  }
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_DoctorSynthetic)->Arg(10)->Arg(200)->Arg(2000)->Unit(benchmark::kMillisecond)->Complexity(benchmark::oN);

}  // namespace
}  // namespace cudamatch

BENCHMARK_MAIN();
