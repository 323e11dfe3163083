#!/bin/sh
# Runs an aarch64 program of the cross build under qemu-user, through the target's loader: its
# libraries come from LD_LIBRARY_PATH (as they would on an aarch64 machine), then from the
# cross toolchain's directory. The loader's --library-path stands for LD_LIBRARY_PATH, so both go
# there; qemu's -L is not used because it looks up "/" itself in the target directory.
target=/usr/aarch64-linux-gnu
exec /usr/bin/qemu-aarch64-static "$target/lib/ld-linux-aarch64.so.1" \
  --library-path "${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$target/lib" "$@"
