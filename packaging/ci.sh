#!/usr/bin/env bash
# CI stage "packaging" (docs/packaging.md), run by `./dev test` after the unit suite:
#   packaging/ci.sh [BUILD_DIR] [STEP...]      steps: portable wheel deb aarch64 windows (default: all)
# BUILD_DIR is a native Release build (default: build). Each step prints its time.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
[ $# -gt 0 ] && shift
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(portable wheel deb aarch64 windows)
version=$(sed -n 's/^project(cudamatch VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Debian's Python, which python3-build and python3-venv belong to (not a pyenv or conda one on PATH).
py=/usr/bin/python3

fail() { echo "packaging: error: $*" >&2; exit 1; }

# The binary needs glibc only, and at most the versions it prints.
step_portable() {
  "$py" packaging/elf_needs.py --portable "$build/cudamatch"
}

# cudamatch, installed from the wheel in a fresh venv, run from there without activating it.
try_installed() {
  local exe=$1 rc
  "$exe" --version
  "$exe" lookup torch==2.1.0 >/dev/null
  "$exe" plan --no-detect --driver 535.104.05 --gpu "RTX 4090" --python 3.10 >/dev/null
  rc=0; "$exe" doctor --json >"$work/doctor.json" || rc=$?
  [ $rc -le 1 ] || fail "doctor --json exited $rc"
  "$py" - "$work/doctor.json" "$work/venv" <<'EOF'
import json, os, sys
doc = json.load(open(sys.argv[1]))
own = [p for p in doc["pythons"] if p.get("cudamatch_own")]
venv = os.path.realpath(sys.argv[2])
if [p["prefix"] for p in own] != [venv]:
    sys.exit(f"doctor does not list {venv} as cudamatch's own environment: {own}")
print(f"doctor lists {venv} as cudamatch's own environment")
EOF
}

step_wheel() {
  "$py" -m build --no-isolation --wheel --outdir "$work/dist" \
    -C binary="$PWD/$build/cudamatch" -C version="$version" packaging >/dev/null
  local whl
  whl=$(ls "$work"/dist/cudamatch-"$version"-py3-none-manylinux_2_*_x86_64.whl)
  echo "built $(basename "$whl")"
  if "$py" packaging/cudamatch_wheel.py --binary "$build/cudamatch" --version "$version" \
       --plat manylinux_2_17_x86_64 --outdir "$work/refused" 2>"$work/refused.txt"; then
    fail "a manylinux_2_17 tag was accepted for a binary that needs $("$py" packaging/elf_needs.py --max-glibc "$build/cudamatch")"
  fi
  echo "refused as it should: $(cat "$work/refused.txt")"
  "$py" -m venv "$work/venv"
  "$work/venv/bin/python" -m pip install --quiet --no-index "$whl"
  [ -x "$work/venv/bin/cudamatch" ] || fail "the installed script is not executable"
  try_installed "$work/venv/bin/cudamatch"
  "$work/venv/bin/python" -m pip uninstall --quiet --yes cudamatch
  [ ! -e "$work/venv/bin/cudamatch" ] || fail "uninstall left bin/cudamatch"
}

step_deb() {
  if [ "$(id -u)" -ne 0 ]; then echo "skipped: installing a .deb needs root"; return; fi
  cmake -S . -B "$build" -DCMAKE_INSTALL_PREFIX=/usr >/dev/null
  cmake --build "$build" --target cudamatch cudamatch_docs >/dev/null
  (cd "$build" && cpack -G DEB >/dev/null)
  local deb
  deb=$(ls "$build"/deb/cudamatch_"$version"_*.deb)
  dpkg-deb --field "$deb" Package Version Architecture Depends
  dpkg -i "$deb" >/dev/null
  /usr/bin/cudamatch --version
  /usr/bin/cudamatch lookup torch==2.1.0 >/dev/null
  for f in /usr/share/man/man1/cudamatch.1 /usr/share/bash-completion/completions/cudamatch \
           /usr/share/zsh/vendor-completions/_cudamatch /usr/share/fish/vendor_completions.d/cudamatch.fish; do
    [ -s "$f" ] || fail "$f is missing from the package"
  done
  MANPAGER=cat man cudamatch | head -n 3
  dpkg -r cudamatch >/dev/null
  [ ! -e /usr/bin/cudamatch ] || fail "dpkg -r left /usr/bin/cudamatch"
}

step_aarch64() {
  local dir=build-aarch64
  cmake -S . -B "$dir" -G Ninja --toolchain cmake/aarch64-linux-gnu.cmake -DCMAKE_BUILD_TYPE=Release \
    -DCUDAMATCH_TESTS=ON >/dev/null
  cmake --build "$dir" -j "$(nproc 2>/dev/null || echo 2)"
  "$py" packaging/elf_needs.py --portable "$dir/cudamatch"
  # Integration.* compare doctor with this host's NVIDIA driver and python3-torch: an aarch64
  # process under qemu cannot load the host's x86_64 libraries, so those six stay native-only.
  ctest --test-dir "$dir" --output-on-failure -j "$(nproc 2>/dev/null || echo 2)" \
    -E "${CUDAMATCH_AARCH64_SKIP:-^Integration\.}"
  "$py" packaging/cudamatch_wheel.py --binary "$dir/cudamatch" --version "$version" --outdir "$work/dist"
}

# The mingw-w64 cross build: its suite, and cudamatch.exe against this build's output, under wine.
step_windows() {
  packaging/windows_check.sh "$build" build-win
}

for s in "${steps[@]}"; do
  echo "-- packaging: $s" >&2
  t0=$SECONDS
  "step_$s"
  echo "-- packaging: $s took $((SECONDS - t0)) s" >&2
done
