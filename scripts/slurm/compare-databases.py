#!/usr/bin/env python3
"""Compares a merged SensorPipe database with one unsharded `sensorpipe run` over the same inputs.

    compare-databases.py SINGLE MERGED LABEL [SHARD ...]

Every table but `runs` must hold the same rows: the rows of each table are read with ids replaced
by the recording's path (ids, run ids and start/finish times of `recordings` differ between runs
by design), sorted, and compared in order; one line per table shows the row counts. With SHARD
databases given, they must also be disjoint (no recording in two shards) and together hold exactly
the single run's recordings. Used by scripts/slurm/simulate-array.sh and test-cluster.sh.

Exit codes: 0 the same, 1 a difference (each printed on stderr, prefixed with LABEL), 64 misuse.
"""
import collections
import sqlite3
import sys


def connect(path):
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


def snapshot(path):
    """Every table but `runs` as a sorted list of rows, with ids replaced by the recording's path."""
    con = connect(path)
    tables = [r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    path_of = dict(con.execute("SELECT id, path FROM recordings"))
    snap = {}
    for t in tables:
        if t == "runs":
            continue
        cols = [c[1] for c in con.execute(f'PRAGMA table_info("{t}")')]
        if t == "recordings":
            cols = [c for c in cols if c not in ("id", "run_id", "started_at", "finished_at")]
        quoted = ", ".join('"' + c + '"' for c in cols)
        rows = con.execute(f'SELECT {quoted} FROM "{t}"').fetchall()
        if "recording_id" in cols:
            i = cols.index("recording_id")
            rows = [r[:i] + (path_of.get(r[i], f"<no recording {r[i]}>"),) + r[i + 1:] for r in rows]
        # None sorts before everything; repr keeps mixed column types comparable.
        snap[t] = sorted(rows, key=lambda r: tuple((v is not None, repr(type(v)), v) for v in r))
    return snap


def main(argv):
    if len(argv) < 4:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 64
    single, merged, label, shards = argv[1], argv[2], argv[3], argv[4:]
    a, b = snapshot(single), snapshot(merged)
    problems = []
    for t in sorted(set(a) | set(b)):
        ra, rb = a.get(t, []), b.get(t, [])
        same = ra == rb
        print(f"  {t:<12} single {len(ra):>7}  merged {len(rb):>7}  {'same rows' if same else 'DIFFERENT'}")
        if not same:
            ca, cb = collections.Counter(ra), collections.Counter(rb)
            lost, extra = ca - cb, cb - ca
            example = next(iter(lost or extra), "(same rows, other order)")
            problems.append(f"{t}: {sum(lost.values())} row(s) only in the single run, "
                            f"{sum(extra.values())} only in the merge; e.g. {example!r:.300}")

    if shards:
        seen = {}
        for k, shard in enumerate(shards, start=1):
            for (p,) in connect(shard).execute("SELECT DISTINCT path FROM recordings"):
                if p in seen:
                    problems.append(f"{p} is in shards {seen[p]} and {k}")
                seen[p] = k
        single_paths = {p for (p,) in connect(single).execute("SELECT path FROM recordings")}
        if set(seen) != single_paths:
            problems.append(f"the shards hold {len(seen)} recording(s), the single run {len(single_paths)}")
        per_shard = collections.Counter(seen.values())
        print(f"  recordings per shard: {', '.join(f'{k}: {per_shard[k]}' for k in range(1, len(shards) + 1))}")

    for p in problems:
        print(f"DIFFERENCE ({label}): {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
