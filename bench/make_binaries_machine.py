#!/usr/bin/env python3
"""Generates a machine for `cudamatch doctor --root` whose CUDA libraries are large sparse files.

    bench/make_binaries_machine.py OUT_DIR [--envs N] [--extensions E] [--size-gb G]
                                           [--containers C] [--placeholder]

Each of N conda environments (/opt/conda/envs/envNNNN) gets torch 2.4.0+cu121 with its nvidia-*-cu12 wheels, a torch/lib/libtorch_cuda.so
of G GiB (default 2) and E extensions (xformers-like packages, each a 256 MiB _C.so). Every
library is an ELF object of tests/fixtures/fatbin (built by nvcc) rewritten as a sparse file: its
ELF header and section headers at the start, and a .nv_fatbin section near the end that repeats
the object's real fatbin container C times (default 2000 for torch, as libtorch_cuda.so has
thousands of translation units; 20 for extensions), each entry's payload stretched by a hole to
fill the section, so that the reader walks as many entry headers, as far apart, as in a real
libtorch_cuda.so. Only the headers hold bytes; the files take a few MB of disk.
"""
import argparse
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures", "fatbin")
SITE = "lib/python3.11/site-packages"
WHEELS = {  # nvidia-* wheels torch 2.4.0 pins: dist name, version, lib dir, sonames
    "nvidia_cuda_runtime_cu12": ("12.1.105", "cuda_runtime", ["libcudart.so.12"]),
    "nvidia_cublas_cu12": ("12.1.3.1", "cublas", ["libcublas.so.12", "libcublasLt.so.12"]),
    "nvidia_cudnn_cu12": ("9.1.0.70", "cudnn", ["libcudnn.so.9"]),
}


def sections(elf):
    shoff, = struct.unpack_from("<Q", elf, 40)
    shnum, shstrndx = struct.unpack_from("<HH", elf, 60)
    hdrs = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + 64 * i) for i in range(shnum)]
    names_off = hdrs[shstrndx][4]
    out = {}
    for i, h in enumerate(hdrs):
        name = elf[names_off + h[0]:elf.index(b"\0", names_off + h[0])].decode()
        out[name] = (i, h[4], h[5], shoff + 64 * i)  # index, offset, size, header position
    return out


def containers(fatbin):
    """The containers of a fatbin section: [(header, [(entry header, payload)])]."""
    out, pos = [], 0
    while pos + 16 <= len(fatbin):
        magic, _, hsize, body = struct.unpack_from("<IHHQ", fatbin, pos)
        assert magic == 0xBA55ED50
        entries, e = [], pos + hsize
        while e < pos + hsize + body:
            _, _, ehsize, payload = struct.unpack_from("<HHIQ", fatbin, e)
            entries.append((bytearray(fatbin[e:e + ehsize]), fatbin[e + ehsize:e + ehsize + payload]))
            e += ehsize + payload
        out.append((bytearray(fatbin[pos:pos + hsize]), entries))
        pos = (pos + hsize + body + 7) & ~7
    return out


def write_library(path, fixture, size, copies, placeholder=False):
    if placeholder:  # the same tree with an empty file: the baseline without any ELF to read
        write(path)
        return
    elf = open(os.path.join(FIXTURES, fixture), "rb").read()
    sec = sections(elf)
    _, off, length, shdr = sec[".nv_fatbin"]
    template = containers(elf[off:off + length])[0]
    start = (size // 8) & ~7
    room = size - start - 4096
    per_entry = ((room // copies - len(template[0])) // len(template[1])) & ~7
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(elf)
        pos = start
        for _ in range(copies):
            body = 0
            entries = []
            for header, payload in template[1]:
                stretched = max(len(payload), per_entry - len(header)) & ~7
                h = bytearray(header)
                struct.pack_into("<Q", h, 8, stretched)
                entries.append((h, payload, stretched))
                body += len(h) + stretched
            chdr = bytearray(template[0])
            struct.pack_into("<Q", chdr, 8, body)
            f.seek(pos)
            f.write(chdr)
            p = pos + len(chdr)
            for h, payload, stretched in entries:
                f.seek(p)
                f.write(h + payload)
                p += len(h) + stretched
            pos = p
        section_size = pos - start
        f.seek(shdr + 24)
        f.write(struct.pack("<QQ", start, section_size))
        f.truncate(size)


def write(path, text=""):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def make_env(root, n, args):
    prefix = os.path.join(root, "opt/conda/envs/env%04d" % n)
    site = os.path.join(prefix, SITE)
    write(os.path.join(prefix, "conda-meta/history"))
    write(os.path.join(site, "torch/version.py"), "__version__ = '2.4.0+cu121'\ncuda = '12.1'\nhip = None\n")
    write(os.path.join(site, "torch-2.4.0+cu121.dist-info/METADATA"),
          "Metadata-Version: 2.1\nName: torch\nVersion: 2.4.0+cu121\n")
    write_library(os.path.join(site, "torch/lib/libtorch_cuda.so"), "torch_cu12_sm75_80_86_90_ptx90.so",
                  args.size_gb << 30, args.containers, args.placeholder)
    for dist, (version, part, libs) in WHEELS.items():
        write(os.path.join(site, "%s-%s.dist-info/METADATA" % (dist, version)),
              "Metadata-Version: 2.1\nName: %s\nVersion: %s\n" % (dist.replace("_", "-"), version))
        for lib in libs:
            write(os.path.join(site, "nvidia", part, "lib", lib))
    for e in range(args.extensions):
        name = "ext%02d" % e
        info = os.path.join(site, "%s-1.0.dist-info" % name)
        write(os.path.join(info, "METADATA"), "Metadata-Version: 2.1\nName: %s\nVersion: 1.0\n"
              "Requires-Dist: torch ==2.4.0\n" % name)
        write(os.path.join(info, "RECORD"), "%s/__init__.py,,\n%s/_C.so,,\n" % (name, name))
        write(os.path.join(site, name, "__init__.py"))
        write_library(os.path.join(site, name, "_C.so"), "ext_cudart12_sm75_80.so", 256 << 20, 20, args.placeholder)
    return prefix


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--envs", type=int, default=1)
    p.add_argument("--extensions", type=int, default=0)
    p.add_argument("--size-gb", type=int, default=2)
    p.add_argument("--containers", type=int, default=2000)
    p.add_argument("--placeholder", action="store_true", help="empty library files (the baseline)")
    args = p.parse_args()
    for n in range(args.envs):
        make_env(args.out, n, args)
    write(os.path.join(args.out, "opt/conda/conda-meta/history"))
    write(os.path.join(args.out, "etc/os-release"), 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n')


if __name__ == "__main__":
    main()
