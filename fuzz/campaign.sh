#!/usr/bin/env bash
# The longer fuzz run: every target (or those named) to RUNS executions, as many at once as there
# are cores, each keeping its corpus in WORK/<target>/corpus so that later runs continue from it.
# Prints one line per target with the executions libFuzzer counted; exits non-zero on a crash,
# leaving the input in WORK/<target>/crashes/.
#   fuzz/campaign.sh BUILD_DIR RUNS [TARGET...]      (WORK: $CUDAMATCH_FUZZ_WORK or fuzz/runs)
set -euo pipefail
build=$1
runs=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
work=${CUDAMATCH_FUZZ_WORK:-$here/runs}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for bin in "$build"/fuzz_*; do targets+=("$(basename "$bin")"); done
fi

one() {  # one TARGET: runs it, prints "TARGET EXECUTIONS SECONDS ok|CRASH"
  local t=$1 d=$work/$1 start rc=0 n max_len=4096 seed
  mkdir -p "$d/corpus" "$d/crashes"
  # Inputs up to 4 KiB, or up to the largest seed where real captures are longer.
  for seed in "$here/corpus/$t"/*; do
    [ "$(stat -c %s "$seed")" -gt "$max_len" ] && max_len=$(stat -c %s "$seed")
  done
  start=$(date +%s)
  "$build/$t" -runs="$runs" -max_len="$max_len" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$d/crashes/" "$d/corpus" "$here/corpus/$t" >"$d/log" 2>&1 || rc=$?
  n=$(grep -o 'number_of_executed_units: [0-9]*' "$d/log" | grep -o '[0-9]*$' || echo "?")
  printf '%-20s %12s executions %6ss %s\n' "$t" "$n" "$(($(date +%s) - start))" \
    "$([ $rc -eq 0 ] && echo ok || echo "CRASH (rc $rc): $d")"
  return $rc
}
export -f one
export build runs here work
printf '%s\n' "${targets[@]}" | xargs -P "$(nproc 2>/dev/null || echo 2)" -I{} bash -c 'one {}'
