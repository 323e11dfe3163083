#!/usr/bin/env python3
"""Builds the cudamatch wheel: the native binary as the wheel's only script, nothing else.

As a PEP 517 build backend (packaging/pyproject.toml), e.g. with Debian's python3-build:
    python3 -m build --no-isolation --wheel --outdir dist \\
        -C binary=build/cudamatch -C version=0.1.0 [-C plat=manylinux_2_34_x86_64] packaging
As a command:
    packaging/cudamatch_wheel.py --binary build/cudamatch --version 0.1.0 [--plat TAG] --outdir dist

The platform tag defaults to manylinux_<highest GLIBC the binary needs>_<its machine>. A tag
given by hand is checked: the build fails when it claims an older glibc than the binary needs,
another machine, or when the binary needs a library beyond glibc and libgcc_s (libstdc++).
The wheel is cudamatch-<version>-py3-none-<tag>.whl holding
    cudamatch-<version>.data/scripts/cudamatch   (mode 0755, installed on PATH as is)
    cudamatch-<version>.dist-info/{METADATA,WHEEL,RECORD}
Timestamps come from SOURCE_DATE_EPOCH (default 1980-01-01), so equal inputs give equal wheels.
"""
import argparse
import base64
import hashlib
import os
import re
import sys
import time
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import elf_needs  # noqa: E402

NAME = "cudamatch"
SUMMARY = "Which CUDA, driver, GPU and PyTorch versions fit together, and why"
# Libraries of glibc itself, and GCC's libgcc_s.so.1 (on every glibc system: glibc loads it
# itself for thread cancellation): the only ones the binary may need.
SYSTEM_LIBRARIES = {"libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1",
                    "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1", "libgcc_s.so.1"}
LEGACY_TAGS = {"manylinux1": (2, 5), "manylinux2010": (2, 12), "manylinux2014": (2, 17)}


class TagError(Exception):
    pass


def parse_plat(tag):
    """'manylinux_2_28_x86_64' -> ((2, 28), 'x86_64'); 'linux_x86_64' -> (None, 'x86_64')."""
    m = re.fullmatch(r"manylinux_(\d+)_(\d+)_(x86_64|aarch64)", tag)
    if m:
        return (int(m.group(1)), int(m.group(2))), m.group(3)
    m = re.fullmatch(r"(manylinux1|manylinux2010|manylinux2014)_(x86_64|aarch64)", tag)
    if m:
        return LEGACY_TAGS[m.group(1)], m.group(2)
    m = re.fullmatch(r"linux_(x86_64|aarch64)", tag)
    if m:
        return None, m.group(1)
    raise TagError(f"unsupported platform tag {tag!r}")


def check_binary(binary, plat):
    """Returns the platform tag to use; raises TagError when the binary does not fit it."""
    machine = elf_needs.elf_machine(binary)
    needs = elf_needs.version_needs(binary)
    needed = elf_needs.max_glibc(needs)
    if needed is None:
        raise TagError(f"{binary}: no GLIBC symbol versions found; is it a glibc binary?")
    extra = sorted(set(elf_needs.needed_libraries(binary)) - SYSTEM_LIBRARIES)
    if extra:
        raise TagError(f"{binary} needs {', '.join(extra)}, which are not part of glibc; "
                       "link libstdc++ statically (CUDAMATCH_PORTABLE)")
    needed_text = ".".join(map(str, needed))
    if plat is None:
        return f"manylinux_{needed[0]}_{needed[1]}_{machine}"
    claimed, tag_machine = parse_plat(plat)
    if tag_machine != machine:
        raise TagError(f"tag {plat} is for {tag_machine}, but {binary} is a {machine} binary")
    if claimed is not None and claimed < needed:
        raise TagError(f"tag {plat} claims glibc {'.'.join(map(str, claimed))}, but {binary} needs "
                       f"GLIBC_{needed_text}; build it against an older glibc (docs/packaging.md)")
    return plat


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def _metadata(version):
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {version}\nSummary: {SUMMARY}\n"
            "Requires-Python: >=3\n").encode()


def _wheel_file(tag):
    return ("Wheel-Version: 1.0\nGenerator: cudamatch_wheel\nRoot-Is-Purelib: false\n"
            f"Tag: py3-none-{tag}\n").encode()


def write_wheel(binary, version, tag, outdir):
    if not re.fullmatch(r"\d+(\.\d+)*([ab]|rc)?\d*(\.post\d+)?(\.dev\d+)?", version):
        raise TagError(f"version {version!r} is not a plain PEP 440 version")
    with open(binary, "rb") as f:
        exe = f.read()
    dist_info = f"{NAME}-{version}.dist-info"
    files = [(f"{NAME}-{version}.data/scripts/{NAME}", exe, 0o755),
             (f"{dist_info}/METADATA", _metadata(version), 0o644),
             (f"{dist_info}/WHEEL", _wheel_file(tag), 0o644)]
    record = [_record_line(p, d) for p, d, _ in files] + [f"{dist_info}/RECORD,,"]
    files.append((f"{dist_info}/RECORD", ("\n".join(record) + "\n").encode(), 0o644))
    stamp = time.gmtime(max(int(os.environ.get("SOURCE_DATE_EPOCH", "315532800")), 315532800))[:6]
    name = f"{NAME}-{version}-py3-none-{tag}.whl"
    os.makedirs(outdir, exist_ok=True)
    with zipfile.ZipFile(os.path.join(outdir, name), "w", zipfile.ZIP_DEFLATED) as z:
        for path, data, mode in files:
            info = zipfile.ZipInfo(path, stamp)
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    return name


# PEP 517 hooks.
def get_requires_for_build_wheel(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    settings = config_settings or {}
    for key in ("binary", "version"):
        if not settings.get(key):
            raise TagError(f"config setting {key!r} is required (-C {key}=...)")
    binary = os.path.abspath(settings["binary"])
    tag = check_binary(binary, settings.get("plat") or None)
    return write_wheel(binary, settings["version"], tag, wheel_directory)


def main(argv):
    p = argparse.ArgumentParser(description="Build the cudamatch wheel from a built binary.")
    p.add_argument("--binary", required=True)
    p.add_argument("--version", required=True)
    p.add_argument("--plat", help="platform tag; default: from the binary's glibc needs")
    p.add_argument("--outdir", default="dist")
    args = p.parse_args(argv)
    try:
        tag = check_binary(args.binary, args.plat)
        print(os.path.join(args.outdir, write_wheel(args.binary, args.version, tag, args.outdir)))
    except (TagError, ValueError, OSError) as e:
        print(f"cudamatch_wheel: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
