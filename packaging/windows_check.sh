#!/usr/bin/env bash
# The Windows build, checked under wine: cross-builds cudamatch.exe and the unit suite with
# mingw-w64 (cmake/x86_64-w64-mingw32.cmake), runs the suite in one wine process, runs the same
# commands with cudamatch.exe and the Linux binary and requires identical output, and runs doctor
# on wine's own C: drive with the stand-in nvml.dll / nvcuda.dll in System32 (the live driver
# path: NVML's answer, a crash and a hang inside it).
#   packaging/windows_check.sh [LINUX_BUILD_DIR] [WINDOWS_BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
linux=${1:-build}
win=${2:-build-win}
jobs=$(nproc 2>/dev/null || echo 2)
work=$(mktemp -d)
# No Mono or Gecko installer at wineboot; the stand-in NVIDIA DLLs are loaded as they are.
export WINEPREFIX="$work/wine" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=;nvml,nvcuda=n"
trap 'wineserver -k >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
fail() { echo "windows: error: $*" >&2; exit 1; }

cmake -S . -B "$win" -G Ninja --toolchain cmake/x86_64-w64-mingw32.cmake -DCMAKE_BUILD_TYPE=Release \
  -DCUDAMATCH_TESTS=ON --no-warn-unused-cli >/dev/null
cmake --build "$win" -j "$jobs" --target cudamatch cudamatch_tests
# Only DLLs every Windows has (libgcc, libstdc++ and winpthread are linked in).
for f in "$win/cudamatch.exe" "$win/cudamatch_tests.exe"; do
  for dll in $(x86_64-w64-mingw32-objdump -p "$f" | sed -n 's/^\s*DLL Name: //p' | tr '[:upper:]' '[:lower:]'); do
    case "$dll" in kernel32.dll|msvcrt.dll|shell32.dll|winhttp.dll) ;; *) fail "$f needs $dll, not a system DLL" ;; esac
  done
done
x86_64-w64-mingw32-objdump -p "$win/cudamatch.exe" | sed -n 's/^\s*DLL Name: /cudamatch.exe needs /p'
wineboot -i >/dev/null 2>&1

echo "-- unit suite under wine"
CUDAMATCH_SOURCE_DIR="$PWD" wine "$win/cudamatch_tests.exe" --gtest_brief=1

# Same command, same output: Linux binary vs cudamatch.exe. A fixture machine's environment goes
# to both (wine takes a Windows PATH from WINEPATH); the root is printed in each system's spelling.
compare() {  # compare NAME MACHINE|- ARGS...
  local name=$1 machine=$2; shift 2
  local envs=(LANG=C.UTF-8) root_unix="" root_win=""
  if [ "$machine" != - ]; then
    mapfile -t envs < <(grep -v '^#' "tests/fixtures/machines/$machine/env" | grep -v '^$')
    root_unix="$PWD/tests/fixtures/machines/$machine/root"
    root_win="Z:${root_unix//\//\\}"
    set -- "$@" --root "$root_unix"
  fi
  envs+=(CUDAMATCH_NOW=1767225600)  # one run time for both (JSON's meta.run_time)
  local wine_envs=("${envs[@]/#PATH=/WINEPATH=}") rc_l=0 rc_w=0
  env -i "${envs[@]}" "$linux/cudamatch" "$@" >"$work/$name.linux" 2>&1 || rc_l=$?
  env "${wine_envs[@]}" wine "$win/cudamatch.exe" "$@" >"$work/$name.raw" 2>&1 || rc_w=$?
  if [ -n "$root_win" ]; then
    python3 - "$work/$name.raw" "$work/$name.win" "$root_win" "$root_unix" <<'PY'
import sys
raw, out, win, unix = sys.argv[1:]
text = open(raw, encoding="utf-8").read()
text = text.replace(win.replace("\\", "\\\\"), unix).replace(win, unix)
open(out, "w", encoding="utf-8").write(text)
PY
  else
    cp "$work/$name.raw" "$work/$name.win"
  fi
  [ $rc_l = $rc_w ] || fail "$name: exit $rc_l on Linux, $rc_w under wine"
  diff -u "$work/$name.linux" "$work/$name.win" || fail "$name: cudamatch.exe prints other text than the Linux binary"
  echo "same output ($(wc -l <"$work/$name.linux") lines, exit $rc_l): $name"
}
echo "-- cudamatch.exe against the Linux binary"
compare version - --version
compare lookup - lookup torch==2.1.0 --os windows
compare lookup-linux - lookup torch==2.1.0 --os linux
compare plan - plan --no-detect --driver 566.36 --gpu "RTX 4080 Laptop GPU" --python 3.11 --os windows
compare doctor-pythonorg win-pythonorg-cpu doctor --os windows
compare doctor-pythonorg-zh win-pythonorg-cpu doctor --os windows --lang zh
compare doctor-pythonorg-json win-pythonorg-cpu doctor --os windows --json
compare doctor-conda win-conda-cu121 doctor --os windows
# Without --os, cudamatch.exe answers for Windows.
wine "$win/cudamatch.exe" lookup torch==2.1.0 >"$work/default.win"
"$linux/cudamatch" lookup torch==2.1.0 --os windows >"$work/default.linux"
diff -u "$work/default.linux" "$work/default.win" || fail "cudamatch.exe does not answer for Windows by default"

echo "-- doctor on wine's C: drive with stand-in NVIDIA DLLs"
sys32="$WINEPREFIX/drive_c/windows/system32"
cp "$win/fake-nvidia/nvml.dll" "$win/fake-nvidia/nvcuda.dll" "$sys32/"
live() { wine "$win/cudamatch.exe" doctor --lang en "$@" >"$work/live.out" 2>&1 || [ $? -le 1 ] || fail "doctor exited $?"; }
expect() { grep -qF -- "$1" "$work/live.out" || { cat "$work/live.out"; fail "doctor's report lacks: $1"; }; }
live
expect "user-space driver  566.36"
expect "NVIDIA GeForce RTX 4080 Laptop GPU"
expect "12.7"
FAKE_NVML_MODE=crash_init live
expect "NVML crashed with access violation (0xC0000005)"
t0=$SECONDS
FAKE_NVML_MODE=block_init FAKE_CUDA_MODE=block live --driver-timeout 1
expect "did not answer within 1 s"
[ $((SECONDS - t0)) -lt 30 ] || fail "doctor with a hanging NVML took $((SECONDS - t0)) s"
echo "doctor on C: answered from the stand-in DLLs, and survived their crash and hang"
