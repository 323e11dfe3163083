#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each, from its seed corpus (real captures from the
# fixtures), in a scratch directory. Exits non-zero on the first crash, leaving the input.
#   fuzz/run.sh BUILD_DIR SECONDS
set -euo pipefail
build=$1
seconds=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/cudamatch-fuzz.XXXXXX")
status=0
for bin in "$build"/fuzz_*; do
  name=$(basename "$bin")
  mkdir -p "$work/$name/corpus" "$work/$name/crashes"
  seeds="$here/corpus/$name"
  log="$work/$name/log"
  if ! "$bin" -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=65536 -timeout=10 \
        -artifact_prefix="$work/$name/crashes/" "$work/$name/corpus" "$seeds" >"$log" 2>&1; then
    echo "fuzz: $name FAILED; input and log in $work/$name" >&2
    tail -30 "$log" >&2
    status=1
    continue
  fi
  runs=$(grep -o 'Done [0-9]* runs' "$log" | tail -1 | grep -o '[0-9]*' || echo "?")
  echo "fuzz: $name ok, $runs executions in ${seconds}s"
done
[ $status -eq 0 ] && rm -rf "$work"
exit $status
