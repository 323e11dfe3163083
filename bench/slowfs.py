#!/usr/bin/python3
"""A read-only FUSE passthrough that sleeps before every operation: a slow network file system.

  bench/slowfs.py SOURCE MOUNTPOINT [DELAY_MS]      (default 0.5; Debian: python3-fusepy, fuse3)

Every call the kernel sends (lookup/getattr, readdir, open, read, readlink, release, ...) waits
DELAY_MS first, as a round trip to an NFS, Lustre or GPFS server would. The kernel's attribute
cache is off (timeout 0), so each stat a program makes reaches this process, as on a network file
system that revalidates attributes; names already looked up (directories on the way, files
found missing) are remembered for a second, as NFS clients keep their name caches. Runs in the foreground until unmounted
(fusermount3 -u MOUNTPOINT) or killed.
"""
import errno
import os
import sys
import time

import fusepy

STAT_KEYS = ("st_mode", "st_ino", "st_dev", "st_nlink", "st_uid", "st_gid", "st_size",
             "st_atime", "st_mtime", "st_ctime", "st_atime_ns", "st_mtime_ns", "st_ctime_ns")


class Slow(fusepy.Operations):
    def __init__(self, root, delay_s):
        self.root = root
        self.delay = delay_s

    def _wait(self):
        end = time.perf_counter() + self.delay
        while time.perf_counter() < end:  # sleep() overshoots sub-millisecond waits
            pass

    def _path(self, path):
        return self.root + path

    def __call__(self, op, *args):
        self._wait()
        try:
            return super().__call__(op, *args)
        except OSError as e:
            raise fusepy.FuseOSError(e.errno or errno.EIO)

    def getattr(self, path, fh=None):
        st = os.lstat(self._path(path))
        out = {k: getattr(st, k) for k in STAT_KEYS if hasattr(st, k)}
        for k in ("st_atime", "st_mtime", "st_ctime"):
            out[k] = getattr(st, k + "_ns") / 1e9
        return out

    def readdir(self, path, fh):
        return [".", ".."] + os.listdir(self._path(path))

    def readlink(self, path):
        return os.readlink(self._path(path))

    def open(self, path, flags):
        return os.open(self._path(path), os.O_RDONLY)

    def read(self, path, size, offset, fh):
        return os.pread(fh, size, offset)

    def release(self, path, fh):
        os.close(fh)
        return 0

    def access(self, path, mode):
        if not os.access(self._path(path), mode):
            raise fusepy.FuseOSError(errno.EACCES)
        return 0

    def statfs(self, path):
        s = os.statvfs(self._path(path))
        return {k: getattr(s, k) for k in ("f_bavail", "f_bfree", "f_blocks", "f_bsize", "f_favail",
                                             "f_ffree", "f_files", "f_flag", "f_frsize", "f_namemax")}


def main():
    source, mountpoint = os.path.abspath(sys.argv[1]), sys.argv[2]
    delay_ms = float(sys.argv[3]) if len(sys.argv) > 3 else 0.5
    fusepy.FUSE(Slow(source, delay_ms / 1000), mountpoint, foreground=True, ro=True, nothreads=True,
                use_ino=True, attr_timeout=0, entry_timeout=1, negative_timeout=1)


if __name__ == "__main__":
    main()
