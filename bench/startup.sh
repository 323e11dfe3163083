#!/usr/bin/env bash
# Start-up cost: whole-process medians against /bin/true, all in one hyperfine run.
#   bench/startup.sh [BINARY] [RUNS]      (default build/cudamatch, 300 runs each)
# Targets (bench/README.md): --version within 1.5x /bin/true, lookup --json within 2.5x,
# plan --no-detect within 3x, doctor within 5 ms. Also the mean CPU time (user + system) of
# each, which a busy machine disturbs less than wall time.
set -euo pipefail
cm=${1:-build/cudamatch}
runs=${2:-300}
json=$(mktemp)
trap 'rm -f "$json"' EXIT
hyperfine -N -i --warmup 20 --runs "$runs" --export-json "$json" \
  -n true /bin/true \
  -n version "$cm --version" \
  -n lookup "$cm lookup torch==2.1.0 --json" \
  -n plan "$cm plan --no-detect --driver 535.104.05 --gpu 'RTX 4090' --python 3.10" \
  -n doctor "$cm doctor" >/dev/null
python3 - "$json" <<'EOF'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
base = results["true"]["median"]
limits = {"version": 1.5, "lookup": 2.5, "plan": 3.0}
print(f"{'command':8} {'median ms':>10} {'ratio':>7} {'user+sys ms':>12} {'ratio':>7}  target")
cpu_base = results["true"]["user"] + results["true"]["system"]
for name, r in results.items():
    med = r["median"] * 1000
    target = f"<= {limits[name]}x" if name in limits else ("<= 5 ms" if name == "doctor" else "")
    cpu = r["user"] + r["system"]
    print(f"{name:8} {med:10.3f} {r['median'] / base:6.2f}x {cpu * 1000:12.3f} {cpu / cpu_base:6.2f}x  {target}")
EOF
