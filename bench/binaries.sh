#!/usr/bin/env bash
# What reading installed binaries costs doctor: generated machines (bench/make_binaries_machine.py)
# of N conda environments, each with torch 2.4.0+cu121 whose libtorch_cuda.so is a 2 GiB sparse
# file with 2000 fatbin containers near its end, and E extensions per environment (256 MiB _C.so,
# 20 containers each); the same trees with empty library files are the baseline.
#   bench/binaries.sh BUILD_DIR [N] [E]
# Prints the median wall time of `cudamatch doctor --root` per machine (hyperfine when installed)
# and the cost per environment and per extension.
set -euo pipefail
build=$1
n=${2:-10}
e=${3:-10}
here=$(cd "$(dirname "$0")" && pwd)
cm="$build/cudamatch"
runs=${CUDAMATCH_BENCH_RUNS:-20}
work=${TMPDIR:-/tmp}/cudamatch-bench-binaries
rm -rf "$work"
gen() { python3 "$here/make_binaries_machine.py" "$work/$1" --envs "$n" "${@:2}"; }
gen base --placeholder
gen torch
gen base-ext --extensions "$e" --placeholder
gen torch-ext --extensions "$e"
median_ms() {
  local json; json=$(mktemp)
  if command -v hyperfine >/dev/null; then
    hyperfine -N -i --warmup 3 --runs "$runs" --export-json "$json" -- \
      "env -i HOME=/home/u PATH=/usr/bin $cm doctor --root $1" >/dev/null 2>&1
    python3 -c 'import json,sys; print("%.2f" % (1000 * json.load(open(sys.argv[1]))["results"][0]["median"]))' "$json"
  else
    python3 - "$runs" "$cm" "$1" <<'PY'
import subprocess, sys, time, statistics
t = []
for _ in range(int(sys.argv[1])):
    s = time.perf_counter()
    subprocess.run([sys.argv[2], "doctor", "--root", sys.argv[3]], stdout=subprocess.DEVNULL, env={"HOME": "/home/u"})
    t.append((time.perf_counter() - s) * 1000)
print(f"{statistics.median(t):.2f}")
PY
  fi
  rm -f "$json"
}
declare -A ms
for m in base torch base-ext torch-ext; do
  ms[$m]=$(median_ms "$work/$m")
  printf '%-10s %8s ms  (%s)\n' "$m" "${ms[$m]}" "$(du -sh "$work/$m" | cut -f1) on disk"
done
python3 - "$n" "$e" "${ms[base]}" "${ms[torch]}" "${ms[base-ext]}" "${ms[torch-ext]}" <<'PY'
import sys
n, e = int(sys.argv[1]), int(sys.argv[2])
base, torch, base_ext, torch_ext = map(float, sys.argv[3:])
print(f"per environment, reading a 2 GiB libtorch_cuda.so: ({torch:.2f} - {base:.2f}) / {n} = {(torch - base) / n:.2f} ms")
print(f"per extension, scanning and reading its _C.so: (({torch_ext:.2f} - {torch:.2f}) - ({base_ext:.2f} - {base:.2f})) / {n * e}"
      f" = {((torch_ext - torch) - (base_ext - base)) / (n * e):.3f} ms")
print(f"per extension, all of it (RECORD, METADATA, ELF): ({torch_ext:.2f} - {torch:.2f}) / {n * e} = {(torch_ext - torch) / (n * e):.3f} ms")
PY
rm -rf "$work"
