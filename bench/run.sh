#!/usr/bin/env bash
# Whole-process benchmarks side by side with the tools people use today, in one run:
#   cudamatch doctor / lookup / plan / check   vs   python3 -m torch.utils.collect_env, nvidia-smi
# then the in-process benchmarks (bench_main.cc). Wall time is the median of repeated runs
# (hyperfine when installed), peak memory is the maximum RSS from /usr/bin/time.
#   bench/run.sh BUILD_DIR
set -euo pipefail
build=$1
cm="$build/cudamatch"
runs=${CUDAMATCH_BENCH_RUNS:-30}

median_ms() {  # median wall milliseconds of N runs (hyperfine when installed)
  local n=$1; shift
  if command -v hyperfine >/dev/null; then
    local json; json=$(mktemp)
    hyperfine -N -i --warmup 3 --runs "$n" --export-json "$json" -- "$(printf '%q ' "$@")" >/dev/null 2>&1
    python3 -c 'import json,sys; print("%.2f" % (1000 * json.load(open(sys.argv[1]))["results"][0]["median"]))' "$json"
    rm -f "$json"
    return
  fi
  python3 - "$n" "$@" <<'PY'
import subprocess, sys, time, statistics
n = int(sys.argv[1]); cmd = sys.argv[2:]
t = []
for _ in range(n):
    s = time.perf_counter(); subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); t.append((time.perf_counter() - s) * 1000)
print(f"{statistics.median(t):.2f}")
PY
}

peak_kib() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1; }

row() {  # name runs command...
  local name=$1 n=$2; shift 2
  printf '%-34s %10s ms %10s KiB\n' "$name" "$(median_ms "$n" "$@")" "$(peak_kib "$@")"
}

# The in-process suite first: it also builds the synthetic machines used below.
"$build/cudamatch_bench" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
echo
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(uname -r)"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ), cudamatch $($cm --version)"
printf '%-34s %13s %14s\n' "command" "median wall" "peak RSS"
row "cudamatch doctor" "$runs" "$cm" doctor
row "cudamatch doctor --json" "$runs" "$cm" doctor --json
row "cudamatch lookup torch==1.13.0" "$runs" "$cm" lookup torch==1.13.0
row "cudamatch lookup gpu \"RTX 3090\"" "$runs" "$cm" lookup gpu "RTX 3090"
row "cudamatch plan (what-if)" "$runs" "$cm" plan --no-detect --driver 470.82.01 --gpu "RTX 3090" --python 3.10
row "cudamatch check" "$runs" "$cm" check --no-detect torch==1.13.0 torchvision==1.4.0
for n in 10 200 2000; do
  tree="${TMPDIR:-/tmp}/cudamatch-bench-$n"
  [ -d "$tree" ] && row "cudamatch doctor, $n conda envs" "$([ $n -eq 2000 ] && echo 5 || echo "$runs")" \
    env -i HOME=/home/u PATH=/usr/local/cuda-12.4/bin:/usr/bin "$cm" doctor --root "$tree"
done
if command -v nvidia-smi >/dev/null; then row "nvidia-smi" 10 nvidia-smi; fi
for py in /usr/bin/python3 python3; do  # Debian's torch lives in the system Python
  if "$py" -c 'import torch' 2>/dev/null; then
    row "$py -m torch.utils.collect_env" 5 "$py" -m torch.utils.collect_env
    break
  fi
done
# The environment cache and the calls per environment (bench/cache.sh; needs strace, and FUSE
# for its step 3); CUDAMATCH_BENCH_CACHE=off leaves it out.
if [ "${CUDAMATCH_BENCH_CACHE:-on}" != off ] && command -v strace >/dev/null; then
  echo
  CUDAMATCH_BENCH_RUNS=5 "$(dirname "$0")/cache.sh" "$cm" 0.5
fi
