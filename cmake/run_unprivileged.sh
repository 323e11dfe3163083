#!/bin/sh
# Runs the test binary as an unprivileged user (nobody), for the tests that must hold without
# root's permission overrides: run_unprivileged.sh TEST_BINARY GTEST_ARGS...
# Exits 77 (ctest: skipped) when that cannot be arranged: not root, no setpriv, or the build and
# source trees not readable by that user.
bin=$1
shift
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null 2>&1; then
  echo "skipped: needs root and setpriv to switch to an unprivileged user" >&2
  exit 77
fi
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
if ! as_nobody test -x "$bin" || ! as_nobody test -r "${CUDAMATCH_SOURCE_DIR:-.}/README.md"; then
  echo "skipped: user 65534 cannot reach $bin or ${CUDAMATCH_SOURCE_DIR:-.}" >&2
  exit 77
fi
tmp=$(mktemp -d)
chmod 0777 "$tmp"
as_nobody env HOME="$tmp" TMPDIR="$tmp" "$bin" "$@"
status=$?
rm -rf "$tmp"
exit $status
