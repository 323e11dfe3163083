#!/usr/bin/env python3
"""File-system calls of one cudamatch run, per Python environment, from an strace log.

  strace -f -y -e trace=%file,read,pread64,getdents64 -o TRACE cudamatch doctor ...
  cudamatch doctor --json ... > JSON
  bench/fs_calls.py TRACE JSON [--root DIR] [--repeats] [--summary]

Each call is attributed to the path it acts on (the quoted path, joined to the directory
descriptor strace -y names; a /proc/self/fd/N reopen to the file N was opened as; a read,
pread64 or getdents64 to its descriptor's path). A call belongs to an environment when its path
lies under one of the environment's site-packages directories or under its prefix (a prefix of
/usr or /usr/local counts only through its site directories and lib/pythonX.Y). Prints the
total, the calls per environment (mean, max; each environment's count unless --summary) and, with --repeats, the paths acted on by more
than one open, stat or listing.
"""
import collections
import json
import re
import sys

CALL = re.compile(r'^(\d+) +(?:<\.\.\. (\w+) resumed>|(\w+)\()(.*)$')
FDARG = re.compile(r'^(-?\d+|AT_FDCWD)(?:<([^>]*)>)?, "((?:[^"\\]|\\.)*)"')
FDONLY = re.compile(r'^(\d+)<([^>]*)>')
QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')
RET = re.compile(r'\)\s+= (-?\d+)')


def join(base, rel):
    if rel.startswith('/'):
        return rel
    if rel in ('', '.'):
        return base
    return base.rstrip('/') + '/' + rel


def calls(trace):
    pending = {}
    for line in open(trace, errors='replace'):
        m = CALL.match(line.rstrip('\n'))
        if not m:
            continue
        pid, resumed, name, rest = m.groups()
        if rest.endswith('<unfinished ...>'):
            pending[pid] = (name, rest[:-len('<unfinished ...>')])
            continue
        if resumed:
            name, head = pending.pop(pid, (resumed, ''))
            rest = head + rest
        yield pid, name, rest


def paths(trace):
    """(syscall, path) for every call; paths are as the process saw them."""
    opened = {}  # (pid, fd) -> path
    for pid, name, rest in calls(trace):
        path = None
        m = FDARG.match(rest)
        if m:
            fd, fdpath, rel = m.groups()
            base = fdpath if fdpath is not None else opened.get((pid, fd), '')
            path = join(base, rel) if (base or rel.startswith('/')) else rel
        else:
            m = FDONLY.match(rest)
            if m:
                path = m.group(2)
            else:
                q = QUOTED.search(rest)
                path = q.group(1) if q else None
        if path and path.startswith('/proc/self/fd/'):
            path = opened.get((pid, path.rsplit('/', 1)[1]), path)
        r = RET.search(rest)
        if name in ('openat', 'open', 'openat2') and r and int(r.group(1)) >= 0 and path:
            opened[(pid, r.group(1))] = path
        yield name, path


def env_roots(env, root):
    prefix = env['prefix']
    dirs = list(env.get('site_packages') or [])
    if prefix in ('/usr', '/usr/local'):
        if env.get('version'):
            dirs.append(prefix + '/lib/python' + env['version'])
    else:
        dirs.append(prefix)
    return [root.rstrip('/') + d if root != '/' else d for d in dirs]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    root = '/'
    if '--root' in sys.argv:
        root = sys.argv[sys.argv.index('--root') + 1]
        args.remove(root)
    trace, report = args[:2]
    envs = json.load(open(report))['pythons']
    roots = [(env['prefix'], env_roots(env, root)) for env in envs]
    per_env = collections.Counter()
    by_call = collections.Counter()
    seen = collections.Counter()
    total = 0
    for name, path in paths(trace):
        total += 1
        by_call[name] += 1
        if path and name in ('openat', 'newfstatat', 'statx', 'lstat', 'stat', 'readlink', 'getdents64'):
            seen[(name, path)] += 1
        if not path:
            continue
        best = None  # the longest directory that holds the path: envs/x, not the base env above it
        for prefix, dirs in roots:
            for d in dirs:
                if (path == d or path.startswith(d.rstrip('/') + '/')) and (best is None or len(d) > best[1]):
                    best = (prefix, len(d))
        if best:
            per_env[best[0]] += 1
    in_envs = sum(per_env.values())
    print(f'calls: {total} ({", ".join(f"{k} {v}" for k, v in by_call.most_common())})')
    print(f'environments: {len(envs)}; calls inside them: {in_envs}; per environment: '
          f'mean {in_envs / max(len(envs), 1):.1f}, max {max(per_env.values(), default=0)}')
    if '--summary' not in sys.argv:
        for prefix, _ in roots:
            print(f'  {per_env[prefix]:6d}  {prefix}')
    if '--repeats' in sys.argv:
        rep = [(n, k) for k, n in seen.items() if n > 1]
        print(f'paths acted on more than once by the same call: {len(rep)}')
        for n, (name, path) in sorted(rep, reverse=True)[:40]:
            print(f'  {n:4d}  {name} {path}')


if __name__ == '__main__':
    main()
