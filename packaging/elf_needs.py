#!/usr/bin/env python3
"""What an ELF executable needs from the system it runs on.

    packaging/elf_needs.py BINARY            prints the machine, the NEEDED libraries, every
                                             symbol version per library, and the highest GLIBC_
    packaging/elf_needs.py --max-glibc BINARY  prints only the highest GLIBC_ version ("2.34")
    packaging/elf_needs.py --portable BINARY   also fails when the binary needs libstdc++
                                               (GLIBCXX_ or CXXABI_ versions)

The versions come from `readelf -W -V -d` (binutils reads ELF files of any architecture), the
machine from the ELF header. Used by CI and by the wheel builder's tag check.
"""
import re
import subprocess
import sys

MACHINES = {62: "x86_64", 183: "aarch64"}
CXX_RUNTIME_PREFIXES = ("GLIBCXX_", "CXXABI_")


def elf_machine(path):
    """The architecture name from the ELF header's e_machine (little-endian ELF64 only)."""
    with open(path, "rb") as f:
        header = f.read(20)
    if header[:4] != b"\x7fELF" or header[4] != 2 or header[5] != 1:
        raise ValueError(f"{path}: not a little-endian 64-bit ELF file")
    machine = int.from_bytes(header[18:20], "little")
    if machine not in MACHINES:
        raise ValueError(f"{path}: unsupported ELF machine {machine}")
    return MACHINES[machine]


def _readelf(path, *flags):
    return subprocess.run(["readelf", "-W", *flags, path], check=True, capture_output=True,
                          text=True, env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"}).stdout


def needed_libraries(path):
    # " 0x0000000000000001 (NEEDED)             Shared library: [libc.so.6]"
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", _readelf(path, "-d"))


def version_needs(path):
    """{library: [version names]} from .gnu.version_r."""
    # "  000000: Version: 1  File: libc.so.6  Cnt: 9"
    # "  0x0010:   Name: GLIBC_2.34  Flags: none  Version: 8"
    needs, current = {}, None
    for line in _readelf(path, "-V").splitlines():
        m = re.search(r"File: (\S+)\s+Cnt:", line)
        if m:
            current = needs.setdefault(m.group(1), [])
            continue
        m = re.search(r"Name: (\S+)\s+Flags:", line)
        if m and current is not None:
            current.append(m.group(1))
    return needs


def version_key(name):
    """GLIBC_2.34 -> (2, 34); names without a dotted number sort first."""
    m = re.search(r"_(\d+(?:\.\d+)*)$", name)
    return tuple(int(x) for x in m.group(1).split(".")) if m else ()


def max_glibc(needs):
    """The highest GLIBC_ version needed, as (2, 34), or None when glibc is not versioned."""
    versions = [version_key(v) for vs in needs.values() for v in vs if v.startswith("GLIBC_2")]
    return max(versions) if versions else None


def cxx_runtime_needs(needs):
    return sorted({v for vs in needs.values() for v in vs if v.startswith(CXX_RUNTIME_PREFIXES)})


def main(argv):
    mode = argv[1] if len(argv) == 3 else None
    if len(argv) not in (2, 3) or mode not in (None, "--max-glibc", "--portable"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path = argv[-1]
    needs = version_needs(path)
    top = max_glibc(needs)
    top_text = ".".join(map(str, top)) if top else "none"
    if mode == "--max-glibc":
        print(top_text)
        return 0
    print(f"machine: {elf_machine(path)}")
    print(f"needed: {' '.join(needed_libraries(path))}")
    for lib, versions in sorted(needs.items()):
        print(f"{lib}: {' '.join(sorted(versions, key=version_key))}")
    print(f"highest GLIBC: {top_text}")
    cxx = cxx_runtime_needs(needs)
    if mode == "--portable" and cxx:
        print(f"error: {path} needs the C++ runtime's symbol versions {' '.join(cxx)}; "
              "link it with -static-libstdc++", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
