#!/bin/sh
# The whole-binary golden and fixture suites over the environment cache and the report cache,
# three ways: cold (an empty cache directory; each run fills it), warm (the same directory again:
# kept reports are shown again) and corrupted (every entry damaged on purpose: a flipped byte, a
# cut, another format line, in turn). Every run passes CUDAMATCH_CACHE=on, so the caches are used
# under --root as well.
#   cmake/cache_suite.sh TESTS_BINARY GTEST_FILTER
set -eu
tests=$1
filter=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export CUDAMATCH_CACHE=on CUDAMATCH_CACHE_DIR="$dir/cache"
run() {
  echo "== $1"
  "$tests" --gtest_brief=1 --gtest_filter="$filter"
}
run cold
entries=$(find "$dir/cache" -name 'env-*' -type f | wc -l)
reports=$(find "$dir/cache" -name 'report-*' -type f | wc -l)
echo "entries written: $entries environments, $reports reports"
[ "$entries" -gt 0 ] || { echo "no cache entry was written"; exit 1; }
[ "$reports" -gt 0 ] || { echo "no report was kept"; exit 1; }
run warm
n=0
for f in "$dir"/cache/env-* "$dir"/cache/report-*; do
  case $((n % 3)) in
    0) python3 -c 'import sys; p=sys.argv[1]; b=bytearray(open(p,"rb").read()); b[len(b)//2]^=1; open(p,"wb").write(b)' "$f" ;;
    1) python3 -c 'import sys; p=sys.argv[1]; b=open(p,"rb").read(); open(p,"wb").write(b[:len(b)//2])' "$f" ;;
    2) python3 -c 'import sys; p=sys.argv[1]; b=open(p,"rb").read(); open(p,"wb").write(b"cudamatch-cache 0\n"+b.split(b"\n",1)[1])' "$f" ;;
  esac
  n=$((n + 1))
done
echo "entries corrupted: $n"
run corrupted
