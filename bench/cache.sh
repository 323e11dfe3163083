#!/usr/bin/env bash
# The environment cache, the report cache and the file-system calls per environment
# (bench/README.md, "Few calls per environment"), in one run:
#   1. this machine: calls per environment (strace, bench/fs_calls.py) and wall time, cold
#      (--no-cache), warm (environments and libcuda's answer from the cache; this run keeps the
#      report) and kept (the report shown again after one stat per dependency);
#   2. a synthetic login node of 30 conda environments x 200 distributions
#      (bench/make_conda_machine.py): the same, through --root --cache;
#   3. the same machine through a FUSE passthrough that waits DELAY ms before every operation
#      (bench/slowfs.py, python3-fusepy), and through the passthrough without waiting (its own
#      cost), cold and warm;
#   2b. the same 30 environments in a home directory on this machine's own "/" (--host-paths),
#      found by plain `doctor` as a login-node user runs it: no --root, so one stat per dependency;
#   4. one paired run: doctor (the kept report) against
#      /usr/bin/python3 -m torch.utils.collect_env (hyperfine -N -i --warmup 3).
#   bench/cache.sh [BINARY] [DELAY_MS]       (default build/cudamatch, 0.5)
set -euo pipefail
cm=$(realpath "${1:-build/cudamatch}")
delay=${2:-0.5}
here=$(cd "$(dirname "$0")" && pwd)
runs=${CUDAMATCH_BENCH_RUNS:-10}
tmp=$(mktemp -d)
# Everything made later goes into directories made now: a directory the runs depend on (a synthetic
# home's parent) is then left as it was, and the report cache keeps its reports.
out="$tmp/out"
mkdir "$out" "$tmp/mnt"
mkdir -m 700 "$tmp/cache-host" "$tmp/cache-m30" "$tmp/cache-h30" "$tmp/cache-fuse-0" "$tmp/cache-fuse-$delay"
fuse_pid=
cleanup() {
  if [ -n "$fuse_pid" ]; then fusermount3 -u "$tmp/mnt" 2>/dev/null || true; wait "$fuse_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

median_ms() {  # median wall milliseconds: median_ms RUNS command...
  local n=$1; shift
  hyperfine -N -i --warmup 0 --runs "$n" --export-json "$out/h.json" -- "$(printf '%q ' "$@")" >/dev/null 2>&1
  python3 -c 'import json,sys; print("%.1f" % (1000 * json.load(open(sys.argv[1]))["results"][0]["median"]))' "$out/h.json"
}

calls() {  # calls LABEL ROOT command...: strace, then the per-environment count
  local label=$1 root=$2; shift 2
  strace -f -y -e trace=%file,read,pread64,getdents64 -o "$out/trace" "$@" >/dev/null 2>&1 || true
  "$@" --json >"$out/doc.json" 2>/dev/null || true
  echo "-- $label"
  python3 "$here/fs_calls.py" "$out/trace" "$out/doc.json" --root "$root" --summary
}

echo "machine: $(nproc) cores, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%Y-%m-%dT%H:%MZ); cudamatch $("$cm" --version)"

echo "== 1. this machine"
export CUDAMATCH_CACHE_DIR="$tmp/cache-host"
calls "cold (--no-cache)" / "$cm" doctor --no-cache
"$cm" doctor >/dev/null 2>&1 || true
rm -f "$CUDAMATCH_CACHE_DIR"/report-*  # warm: environments from the cache, the report made again
calls "warm" / "$cm" doctor
calls "kept report" / "$cm" doctor
echo "wall cold $(median_ms "$runs" "$cm" doctor --no-cache) ms, kept $(median_ms "$runs" "$cm" doctor) ms"

echo "== 2. synthetic: 30 conda environments x 200 distributions"
python3 "$here/make_conda_machine.py" "$tmp/m30" --envs 30 --dists 200
sleep 3  # entries are not written for files changed in the last 2 s
run_env=(env -i $(cat "$tmp/m30.env") CUDAMATCH_CACHE_DIR="$tmp/cache-m30")
calls "cold (--no-cache)" "$tmp/m30" "${run_env[@]}" "$cm" doctor --root "$tmp/m30" --no-cache
"${run_env[@]}" "$cm" doctor --root "$tmp/m30" --cache >/dev/null 2>&1 || true
rm -f "$tmp/cache-m30"/report-*
calls "warm" "$tmp/m30" "${run_env[@]}" "$cm" doctor --root "$tmp/m30" --cache
calls "kept report" "$tmp/m30" "${run_env[@]}" "$cm" doctor --root "$tmp/m30" --cache
echo "wall cold $(median_ms "$runs" "${run_env[@]}" "$cm" doctor --root "$tmp/m30" --no-cache) ms," \
     "kept $(median_ms "$runs" "${run_env[@]}" "$cm" doctor --root "$tmp/m30" --cache) ms"

echo "== 2b. synthetic, the same 30 environments under a home on this machine's /"
python3 "$here/make_conda_machine.py" "$tmp/h30" --envs 30 --dists 200 --host-paths
sleep 3
host_env=(env -i $(cat "$tmp/h30.env") CUDAMATCH_CACHE_DIR="$tmp/cache-h30")
calls "cold (--no-cache)" / "${host_env[@]}" "$cm" doctor --no-cache
"${host_env[@]}" "$cm" doctor >/dev/null 2>&1 || true
rm -f "$tmp/cache-h30"/report-*
calls "warm" / "${host_env[@]}" "$cm" doctor
calls "kept report" / "${host_env[@]}" "$cm" doctor
echo "wall cold $(median_ms "$runs" "${host_env[@]}" "$cm" doctor --no-cache) ms," \
     "kept $(median_ms "$runs" "${host_env[@]}" "$cm" doctor) ms"

echo "== 3. synthetic through FUSE (bench/slowfs.py)"
for d in 0 "$delay"; do
  /usr/bin/python3 "$here/slowfs.py" "$tmp/m30" "$tmp/mnt" "$d" >"$out/fuse.log" 2>&1 &
  fuse_pid=$!
  for _ in $(seq 50); do mountpoint -q "$tmp/mnt" && break; sleep 0.1; done
  mountpoint -q "$tmp/mnt" || { echo "FUSE did not mount:"; cat "$out/fuse.log"; exit 1; }
  fuse_env=(env -i $(cat "$tmp/m30.env") CUDAMATCH_CACHE_DIR="$tmp/cache-fuse-$d")
  cold=$(median_ms 1 "${fuse_env[@]}" "$cm" doctor --root "$tmp/mnt" --no-cache)
  "${fuse_env[@]}" "$cm" doctor --root "$tmp/mnt" --cache >/dev/null 2>&1 || true
  rm -f "$tmp/cache-fuse-$d"/report-*
  warm=$(median_ms 1 "${fuse_env[@]}" "$cm" doctor --root "$tmp/mnt" --cache)
  kept=$(median_ms 3 "${fuse_env[@]}" "$cm" doctor --root "$tmp/mnt" --cache)
  echo "delay $d ms per operation: wall cold $cold ms, warm $warm ms, kept $kept ms"
  fusermount3 -u "$tmp/mnt"
  wait "$fuse_pid" || true
  fuse_pid=
done

echo "== 4. paired: doctor (the kept report) and collect_env on this machine"
export CUDAMATCH_CACHE_DIR="$tmp/cache-host"
hyperfine -N -i --warmup 3 --runs "${CUDAMATCH_PAIRED_RUNS:-10}" --export-json "$out/p.json" \
  -n doctor "$cm doctor" -n collect_env "/usr/bin/python3 -m torch.utils.collect_env" >/dev/null 2>&1
python3 - "$out/p.json" <<'PY'
import json, sys
r = {x["command"]: x["median"] * 1000 for x in json.load(open(sys.argv[1]))["results"]}
print(f"doctor {r['doctor']:.2f} ms, collect_env {r['collect_env']:.1f} ms: {r['collect_env'] / r['doctor']:.0f}x")
PY
