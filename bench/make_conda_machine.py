#!/usr/bin/env python3
"""A synthetic login node: N conda environments of D distributions each, as pip and conda write them.

  bench/make_conda_machine.py DIR [--envs 30] [--dists 200] [--host-paths]

DIR becomes a machine image for `cudamatch doctor --root DIR`: Ubuntu's os-release, a driver
(550.54.14, one RTX 4090 in /proc), and ~/miniconda3 (user dave) with envs/env00..envNN. Each
environment has python3.11, conda-meta/ (history and one record per conda package) and
lib/python3.11/site-packages holding D distributions: torch 2.3.1+cu121 (version.py, METADATA
with its nvidia-* Requires-Dist, torch/lib with the split CUDA libraries as empty files), eleven
nvidia-*-cu12 wheels, and pure-Python distributions with a package directory, __init__.py and
a RECORD of sha256 hashes and sizes (INSTALLER "pip" or "conda", as each tool writes it).
With --host-paths the home directory is DIR/home/dave as this machine sees it (environments.txt
and DIR.env name host paths), so that plain `cudamatch doctor` with that HOME finds the
environments on this machine's own "/", as a user on a login node runs it.
"""
import argparse
import base64
import hashlib
import json
import os

NVIDIA = [("nvidia-cublas-cu12", "12.1.3.1"), ("nvidia-cuda-cupti-cu12", "12.1.105"),
          ("nvidia-cuda-nvrtc-cu12", "12.1.105"), ("nvidia-cuda-runtime-cu12", "12.1.105"),
          ("nvidia-cudnn-cu12", "8.9.2.26"), ("nvidia-cufft-cu12", "11.0.2.54"),
          ("nvidia-curand-cu12", "10.3.2.106"), ("nvidia-cusolver-cu12", "11.4.5.107"),
          ("nvidia-cusparse-cu12", "12.1.0.106"), ("nvidia-nccl-cu12", "2.20.5"),
          ("nvidia-nvtx-cu12", "12.1.105")]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def record_line(site, rel):
    data = open(os.path.join(site, rel), "rb").read()
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{rel},sha256={digest},{len(data)}"


def dist(site, name, version, files, requires=(), installer="pip"):
    """A .dist-info directory and the files it owns (relative paths -> content)."""
    for rel, text in files.items():
        write(os.path.join(site, rel), text)
    info = f"{name.replace('-', '_')}-{version}.dist-info"
    meta = [f"Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}", "Summary: synthetic"]
    meta += [f"Requires-Dist: {r}" for r in requires]
    write(os.path.join(site, info, "METADATA"), "\n".join(meta) + "\n\n")
    write(os.path.join(site, info, "INSTALLER"), installer + "\n")
    write(os.path.join(site, info, "WHEEL"), "Wheel-Version: 1.0\nGenerator: bdist_wheel (0.43.0)\n"
          "Root-Is-Purelib: true\nTag: py3-none-any\n\n")
    lines = [record_line(site, rel) for rel in files]
    lines += [record_line(site, f"{info}/{n}") for n in ("METADATA", "INSTALLER", "WHEEL")]
    lines.append(f"{info}/RECORD,,")
    write(os.path.join(site, info, "RECORD"), "\n".join(lines) + "\n")


def environment(prefix, dists):
    site = os.path.join(prefix, "lib/python3.11/site-packages")
    write(os.path.join(prefix, "bin/python3.11"), "")
    os.chmod(os.path.join(prefix, "bin/python3.11"), 0o755)
    os.symlink("python3.11", os.path.join(prefix, "bin/python3"))
    write(os.path.join(prefix, "conda-meta/history"), "==> 2024-06-01 10:00:00 <==\n+defaults::python-3.11.9-h955ad1f_0\n")
    write(os.path.join(prefix, "conda-meta/python-3.11.9-h955ad1f_0.json"),
          json.dumps({"name": "python", "version": "3.11.9", "files": ["bin/python3.11"]}))
    torch_files = {"torch/__init__.py": "", "torch/version.py":
                   "__version__ = '2.3.1+cu121'\ndebug = False\ncuda = '12.1'\nhip = None\n"}
    for lib in ("libtorch_cuda.so", "libc10_cuda.so", "libtorch_cpu.so"):
        torch_files[f"torch/lib/{lib}"] = ""
    dist(site, "torch", "2.3.1+cu121", torch_files, [f"{n}=={v}; platform_system == \"Linux\"" for n, v in NVIDIA])
    for name, version in NVIDIA:
        part = name[len("nvidia-"):-len("-cu12")].replace("-", "_")
        dist(site, name, version, {f"nvidia/{part}/__init__.py": ""})
    for i in range(dists - 1 - len(NVIDIA)):
        pkg = f"pkg{i:03d}"
        files = {f"{pkg}/__init__.py": f"# {pkg}\n", f"{pkg}/core.py": "def f():\n    return 1\n"}
        dist(site, f"pkg{i:03d}", f"1.{i % 10}.0", files, installer="conda" if i % 3 == 0 else "pip")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--envs", type=int, default=30)
    ap.add_argument("--dists", type=int, default=200)
    ap.add_argument("--host-paths", action="store_true")
    a = ap.parse_args()
    root = a.dir
    seen = os.path.abspath(root) if a.host_paths else ""  # the home as the run will name it
    write(os.path.join(root, "etc/os-release"), 'NAME="Ubuntu"\nVERSION_ID="22.04"\nPRETTY_NAME="Ubuntu 22.04.4 LTS"\nID=ubuntu\n')
    write(os.path.join(root, "proc/driver/nvidia/version"),
          "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 01:44:30 UTC 2024\n"
          "GCC version:  gcc version 12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04)\n")
    write(os.path.join(root, "proc/driver/nvidia/gpus/0000:01:00.0/information"),
          "Model: \t\t NVIDIA GeForce RTX 4090\nIRQ:   \t\t 140\nBus Location: \t 0000:01:00.0\n")
    home = os.path.join(root, "home/dave")
    conda = os.path.join(home, "miniconda3")
    write(os.path.join(conda, "conda-meta/history"), "")
    envs = []
    for n in range(a.envs):
        prefix = os.path.join(conda, f"envs/env{n:02d}")
        environment(prefix, a.dists)
        envs.append(f"{seen}/home/dave/miniconda3/envs/env{n:02d}")
    write(os.path.join(home, ".conda/environments.txt"), "\n".join(envs) + "\n")
    write(os.path.join(os.path.dirname(root.rstrip("/")) or ".", os.path.basename(root.rstrip("/")) + ".env"),
          f"HOME={seen}/home/dave\nPATH={seen}/home/dave/miniconda3/bin:/usr/bin:/bin\nLANG=C.UTF-8\n")


if __name__ == "__main__":
    main()
