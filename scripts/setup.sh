#!/usr/bin/env bash
# Installs what building and testing cudamatch needs, from Debian packages only.
#   scripts/setup.sh            build dependencies
#   scripts/setup.sh --test     + test tools (clang for sanitizers and fuzzing, Google Benchmark,
#                                 strace for the trace test of --root)
#                                 and what the packaging stage needs: Debian's Python packaging
#                                 tools, dpkg-dev, the aarch64 cross compiler, qemu-user-static,
#                                 GoogleTest's sources, man, zsh and fish for the generated files,
#                                 mingw-w64 binutils (windres, ld) for the Windows fixtures' DLLs,
#                                 the mingw-w64 C++ compiler (POSIX threads) and wine64 for the
#                                 Windows build and its suite (packaging/windows_check.sh)
#   scripts/setup.sh --testbed  + the real test bed: Debian's NVIDIA user-space driver (non-free)
#                                 and python3-torch, so integration tests compare against them
# As root it runs apt-get; otherwise it prints the exact command to run and exits 1.
set -euo pipefail

build_pkgs=(cmake ninja-build g++ nlohmann-json3-dev libfmt-dev libgtest-dev libgmock-dev)
test_pkgs=(clang libclang-rt-14-dev libbenchmark-dev hyperfine strace python3-fusepy fuse3 cmark-gfm)  # fusepy, fuse3: bench/cache.sh; cmark-gfm: markdown_render_test
ship_pkgs=(python3 python3-build python3-venv dpkg-dev binutils g++-aarch64-linux-gnu qemu-user-static googletest
           man-db groff-base zsh fish binutils-mingw-w64-x86-64 g++-mingw-w64-x86-64-posix wine wine64)
testbed_pkgs=(libcurl4 libcuda1 libnvidia-ml1 nvidia-smi python3-torch python3-torchvision python3-torchaudio)
nonfree_file=/etc/apt/sources.list.d/cudamatch-nonfree.sources

want=("${build_pkgs[@]}")
testbed=0
for arg in "$@"; do
  case "$arg" in
    --test) want+=("${test_pkgs[@]}" "${ship_pkgs[@]}") ;;
    --testbed) want+=("${test_pkgs[@]}" "${ship_pkgs[@]}" "${testbed_pkgs[@]}"); testbed=1 ;;
    *) echo "usage: scripts/setup.sh [--test] [--testbed]" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

# Debian's NVIDIA packages live in the non-free component.
need_nonfree=0
if [ $testbed -eq 1 ] && ! grep -rqs 'non-free' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  need_nonfree=1
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "cudamatch setup: missing packages: ${missing[*]}" >&2
  echo "Run as root:" >&2
  if [ $need_nonfree -eq 1 ]; then
    printf '  printf "Types: deb\\nURIs: http://deb.debian.org/debian\\nSuites: bookworm bookworm-updates\\nComponents: contrib non-free non-free-firmware\\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\\n" > %s\n' "$nonfree_file" >&2
  fi
  echo "  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi

if [ $need_nonfree -eq 1 ]; then
  printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm bookworm-updates\nComponents: contrib non-free non-free-firmware\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' > "$nonfree_file"
fi
echo "cudamatch setup: installing ${missing[*]}" >&2
apt-get update -q >/dev/null
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
