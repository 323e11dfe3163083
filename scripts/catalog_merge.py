#!/usr/bin/env python3
"""Merge rows into the catalog's TSV tables, keeping each table sorted by its key.

  catalog_merge.py migrate CATALOG_DIR
      Moves torch_releases.tsv's `pypi_default` (the Linux x86_64 variant a plain
      `pip install torch` gets) to a `pypi_default` column (`yes`/empty) of torch_variants.tsv.
  catalog_merge.py merge CATALOG_DIR ROWS_DIR [--accept TABLE:KEY:COLUMN ...] [--fill-only] [--dry-run]
      Merges ROWS_DIR/*.tsv (the catalog's column layout, or the layout before `migrate`) into
      CATALOG_DIR. New rows are added; empty cells are filled; source cells are united; a
      non-empty value that differs from the catalog's is refused unless --accept names it
      (TABLE:KEY:COLUMN, KEY joined with '/', e.g. torch_releases.tsv:1.3.0:released), which
      marks the incoming row as the correction. Nothing is written when anything is refused.
  catalog_merge.py companions CATALOG_DIR
      Adds a companions.tsv row for every torchvision/torchaudio version torch_releases.tsv
      pairs, published for the oldest release naming it, citing that release row's sources.

Python 3 standard library only. Unknown values stay empty cells.
"""
import argparse
import os
import re
import sys


def version_key(text):
    parts = []
    for piece in re.split(r"[.+]", text):
        m = re.match(r"(\d+)(.*)", piece)
        parts.append((int(m.group(1)), m.group(2)) if m else (-1, piece))
    return tuple(parts)


def variant_key(tag):
    if tag == "cpu":
        return (0, ())
    m = re.fullmatch(r"cu(\d+)(\d)", tag)
    if m:
        return (1, (int(m.group(1)), int(m.group(2))))
    if tag.startswith("rocm"):
        return (2, tuple(int(p) for p in tag[4:].split(".") if p.isdigit()))
    return (3, (tag,))


TABLES = {
    "sources.tsv": (["id"], lambda r: r["id"].encode()),
    "torch_releases.tsv": (["torch"], lambda r: version_key(r["torch"])),
    "torch_variants.tsv": (["torch", "platform", "variant"],
                           lambda r: (version_key(r["torch"]), r["platform"], variant_key(r["variant"]))),
    "companions.tsv": (["package", "version"], lambda r: (r["package"], version_key(r["version"]))),
    "host_compilers.tsv": (["cuda"], lambda r: version_key(r["cuda"])),
}
VARIANT_HEADER = ["torch", "platform", "variant", "cudnn", "arch_list", "pypi_default", "source", "notes"]
COMPANION_HEADER = ["package", "version", "torch", "released", "python_min", "python_max", "source", "notes"]


class Table:
    def __init__(self, name, header, rows):
        self.name, self.header, self.rows = name, header, rows

    @classmethod
    def read(cls, path):
        with open(path, encoding="utf-8") as f:
            lines = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]
        header = lines[0].split("\t")
        rows = []
        for n, line in enumerate(lines[1:], 2):
            cells = line.split("\t")
            if len(cells) != len(header):
                sys.exit(f"{path}:{n}: {len(cells)} cells, header has {len(header)}")
            rows.append(dict(zip(header, cells)))
        return cls(os.path.basename(path), header, rows)

    def key(self, row):
        return "/".join(row[k] for k in TABLES[self.name][0])

    def index(self):
        return {self.key(r): r for r in self.rows}

    def write(self, path):
        self.rows.sort(key=TABLES[self.name][1])
        keys = [self.key(r) for r in self.rows]
        dup = {k for k in keys if keys.count(k) > 1}
        if dup:
            sys.exit(f"{self.name}: duplicate keys {sorted(dup)}")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\t".join(self.header) + "\n")
            for r in self.rows:
                f.write("\t".join(r.get(c, "") for c in self.header) + "\n")


def unite_sources(old, new):
    ids = [s for s in old.split(";") if s]
    ids += [s for s in new.split(";") if s and s not in ids]
    return ";".join(ids)


def unite_notes(old, new):
    if not old or old == new or old in new:
        return new or old
    if new in old:
        return old
    return old + " | " + new


def lift_pypi_default(releases, variants, extra_sources=None):
    """Old layout -> new: the release's pypi_default marks its linux-x86_64 variant row."""
    if "pypi_default" not in releases.header:
        return
    by_key = variants.index()
    for rel in releases.rows:
        tag = rel.pop("pypi_default")
        if not tag:
            continue
        key = f"{rel['torch']}/linux-x86_64/{tag}"
        row = by_key.get(key)
        if row is None:
            sys.exit(f"{releases.name}: {rel['torch']} names PyPI default {tag}, no variant row {key}")
        row["pypi_default"] = "yes"
        if extra_sources and rel["torch"] in extra_sources:
            row["source"] = unite_sources(row["source"], extra_sources[rel["torch"]])
    releases.header.remove("pypi_default")
    if "pypi_default" not in variants.header:
        variants.header[:] = VARIANT_HEADER
        for row in variants.rows:
            row.setdefault("pypi_default", "")


def merge_table(cat, incoming, accept, log, fill_only=False):
    refused = []
    existing = cat.index()
    for row in incoming.rows:
        key = cat.key(row)
        old = existing.get(key)
        if old is None and fill_only:
            log.append(f"{cat.name}: skipped {key} (not in the catalog; --fill-only)")
            continue
        if old is None:
            cat.rows.append({c: row.get(c, "") for c in cat.header})
            existing[key] = cat.rows[-1]
            log.append(f"{cat.name}: added {key}")
            continue
        for col in cat.header:
            new = row.get(col, "")
            if col == "source":
                old[col] = unite_sources(old[col], new)
            elif col == "notes":
                old[col] = unite_notes(old[col], new)
            elif new and old[col] != new:
                if old[col] and f"{cat.name}:{key}:{col}" not in accept:
                    refused.append(f"{cat.name}: {key} {col}: catalog {old[col]!r}, incoming {new!r}")
                    continue
                log.append(f"{cat.name}: {key} {col}: {old[col]!r} -> {new!r}")
                old[col] = new
    return refused


def cmd_migrate(args):
    rel = Table.read(os.path.join(args.catalog, "torch_releases.tsv"))
    var = Table.read(os.path.join(args.catalog, "torch_variants.tsv"))
    lift_pypi_default(rel, var)
    rel.write(os.path.join(args.catalog, "torch_releases.tsv"))
    var.write(os.path.join(args.catalog, "torch_variants.tsv"))


def cmd_merge(args):
    cat = {n: Table.read(os.path.join(args.catalog, n)) for n in TABLES
           if os.path.exists(os.path.join(args.catalog, n))}
    inc = {n: Table.read(os.path.join(args.rows, n)) for n in TABLES
           if os.path.exists(os.path.join(args.rows, n))}
    if "torch_releases.tsv" in inc:
        # Sources an incoming release row adds back its PyPI default on the variant row.
        old_rel = cat["torch_releases.tsv"].index()
        added = {}
        for r in inc["torch_releases.tsv"].rows:
            before = old_rel.get(r["torch"], {}).get("source", "").split(";")
            added[r["torch"]] = ";".join(s for s in r["source"].split(";") if s not in before)
        var = inc.get("torch_variants.tsv") or Table("torch_variants.tsv", list(VARIANT_HEADER), [])
        merged_var = Table("torch_variants.tsv", list(var.header), [dict(r) for r in var.rows])
        for r in cat["torch_variants.tsv"].rows:  # defaults may name rows only the catalog has
            if cat["torch_variants.tsv"].key(r) not in merged_var.index():
                merged_var.rows.append({**r, "_catalog_only": "1"})
        lift_pypi_default(inc["torch_releases.tsv"], merged_var, added)
        merged_var.rows = [r for r in merged_var.rows
                           if not r.pop("_catalog_only", None) or r.get("pypi_default") == "yes"]
        inc["torch_variants.tsv"] = merged_var
    log, refused = [], []
    for name in ["sources.tsv", "torch_releases.tsv", "torch_variants.tsv", "companions.tsv",
                 "host_compilers.tsv"]:
        if name in inc:
            refused += merge_table(cat[name], inc[name], set(args.accept), log, args.fill_only)
    print("\n".join(log))
    if refused:
        print("refused (differing non-empty values; --accept TABLE:KEY:COLUMN if the incoming row "
              "is the correction):\n  " + "\n  ".join(refused), file=sys.stderr)
        return 1
    if not args.dry_run:
        for name, table in cat.items():
            if name in inc:
                table.write(os.path.join(args.catalog, name))
    return 0


def cmd_companions(args):
    rel = Table.read(os.path.join(args.catalog, "torch_releases.tsv"))
    path = os.path.join(args.catalog, "companions.tsv")
    comp = Table.read(path) if os.path.exists(path) else Table("companions.tsv", list(COMPANION_HEADER), [])
    have = comp.index()
    for r in sorted(rel.rows, key=TABLES["torch_releases.tsv"][1]):
        for pkg in ("torchvision", "torchaudio"):
            v = r[pkg]
            if not v or f"{pkg}/{v}" in have:
                continue
            row = {c: "" for c in comp.header}
            row.update(package=pkg, version=v, torch=r["torch"], source=r["source"],
                       notes=f"Paired in torch_releases.tsv (torch {r['torch']} row)")
            comp.rows.append(row)
            have[f"{pkg}/{v}"] = row
    comp.write(path)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("migrate")
    m.add_argument("catalog")
    g = sub.add_parser("merge")
    g.add_argument("catalog")
    g.add_argument("rows")
    g.add_argument("--accept", action="append", default=[])
    g.add_argument("--dry-run", action="store_true")
    g.add_argument("--fill-only", action="store_true", help="only fill rows the catalog already has")
    c = sub.add_parser("companions")
    c.add_argument("catalog")
    args = p.parse_args()
    return {"migrate": cmd_migrate, "merge": cmd_merge, "companions": cmd_companions}[args.cmd](args) or 0


if __name__ == "__main__":
    sys.exit(main())
