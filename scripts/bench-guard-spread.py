#!/usr/bin/env python3
"""Spread of the benchmark guard's ratios over repeated runs, and the limits that follow from it.

Runs the two guard commands of .ci/run (`sensorpipe-bench --quick --json --check` and
`sensorpipe-bench --batch --quick --check`) N times in a row with limits that cannot fail, from the
release build in .build/release (build it first: `swift build -c release`), and prints per guarded
figure the min / median / max over the runs and the limit the rule gives:

  ratio limits (thresholds.json, "at most"):     max observed × MARGIN, rounded up to 2 digits
  batch scaling efficiency ("at least"):         min observed ÷ MARGIN, rounded down to 2 digits
  batch peak RSS:                                the issue's 256 MB target (not a timing)

With --from DIR it reads the outputs of an earlier run (q<i>.json, b<i>.txt) instead of running.
With --write it rewrites Benchmarks/thresholds.json and Benchmarks/batch-thresholds.json.

  python3 scripts/bench-guard-spread.py --runs 10 --out /tmp/guard-spread
  python3 scripts/bench-guard-spread.py --from /tmp/guard-spread --write
"""
import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, ".build", "release", "sensorpipe-bench")
THRESHOLDS = os.path.join(ROOT, "Benchmarks", "thresholds.json")
BATCH_THRESHOLDS = os.path.join(ROOT, "Benchmarks", "batch-thresholds.json")
EFFICIENCY = "batch/min_scaling_efficiency_jobs2"
RSS = "batch/max_peak_rss_mb"


def round_up(x, digits=2):
    e = math.floor(math.log10(x)) - digits + 1
    return float(f"{math.ceil(x / 10**e - 1e-9) * 10**e:.{digits}g}")


def round_down(x, digits=2):
    e = math.floor(math.log10(x)) - digits + 1
    return float(f"{math.floor(x / 10**e + 1e-9) * 10**e:.{digits}g}")


def run(out, runs):
    os.makedirs(out, exist_ok=True)
    guarded = json.load(open(THRESHOLDS))
    loose = os.path.join(out, "loose.json")
    loose_batch = os.path.join(out, "loose-batch.json")
    json.dump({k: 1e9 for k in guarded if not k.startswith("_")}, open(loose, "w"))
    json.dump({EFFICIENCY: 0, RSS: 1e9}, open(loose_batch, "w"))
    for i in range(1, runs + 1):
        t0 = time.time()
        with open(os.path.join(out, f"q{i}.json"), "w") as o, open(os.path.join(out, f"q{i}.err"), "w") as e:
            subprocess.run([BENCH, "--quick", "--json", "--check", loose], stdout=o, stderr=e, check=True, cwd=ROOT)
        t1 = time.time()
        with open(os.path.join(out, f"b{i}.txt"), "w") as o, open(os.path.join(out, f"b{i}.err"), "w") as e:
            subprocess.run([BENCH, "--batch", "--quick", "--check", loose_batch], stdout=o, stderr=e, check=True, cwd=ROOT)
        t2 = time.time()
        load = open("/proc/loadavg").read().split()[0] if os.path.exists("/proc/loadavg") else "?"
        print(f"run {i}: quick {t1 - t0:.1f} s, batch {t2 - t1:.1f} s, load {load}", file=sys.stderr)


def read(out):
    ratios, batch = {}, {EFFICIENCY: [], RSS: []}
    i = 1
    while os.path.exists(os.path.join(out, f"q{i}.json")):
        for line in open(os.path.join(out, f"q{i}.json")):
            o = json.loads(line)
            if o.get("ratio") is not None:
                ratios.setdefault(o["name"], []).append(o["ratio"])
        err = open(os.path.join(out, f"b{i}.err")).read()
        m = re.search(r"batch scaling efficiency ([0-9.]+)", err)
        r = re.search(r"batch peak RSS ([0-9.]+) MB", err)
        if m:
            batch[EFFICIENCY].append(float(m.group(1)))
        if r:
            batch[RSS].append(float(r.group(1)))
        i += 1
    return ratios, batch


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--out", default="/tmp/sensorpipe-guard-spread")
    ap.add_argument("--from", dest="source")
    ap.add_argument("--margin", type=float, default=1.3)
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    out = a.source or a.out
    if not a.source:
        run(out, a.runs)
    ratios, batch = read(out)
    guarded = [k for k in json.load(open(THRESHOLDS)) if not k.startswith("_")]
    limits = {}
    print(f"| guarded ratio | runs | min | median | max | limit (max × {a.margin}) | max/median |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in sorted(guarded):
        v = ratios.get(name, [])
        if not v:
            print(f"| `{name}` | 0 | | | | not measured | |")
            continue
        limits[name] = round_up(max(v) * a.margin)
        print(f"| `{name}` | {len(v)} | {min(v):.4g} | {statistics.median(v):.4g} | {max(v):.4g} | "
              f"{limits[name]:.4g} | {max(v) / statistics.median(v):.3f} |")
    e = batch[EFFICIENCY]
    if e:
        limits[EFFICIENCY] = round_down(min(e) / a.margin)
        print(f"| `{EFFICIENCY}` (at least) | {len(e)} | {min(e):.4g} | {statistics.median(e):.4g} | {max(e):.4g} | "
              f"{limits[EFFICIENCY]:.4g} (min ÷ {a.margin}) | |")
    rss = batch[RSS]
    if rss:
        print(f"| `{RSS}` | {len(rss)} | {min(rss):.4g} | {statistics.median(rss):.4g} | {max(rss):.4g} | 256 (target) | |")
    if a.write:
        old = json.load(open(THRESHOLDS))
        new = {k: v for k, v in old.items() if k.startswith("_")}
        new.update({k: limits.get(k, old[k]) for k in old if not k.startswith("_")})
        new = {k: (int(v) if isinstance(v, float) and v.is_integer() else v) for k, v in new.items()}
        json.dump(new, open(THRESHOLDS, "w"), indent=2)
        open(THRESHOLDS, "a").write("\n")
        old_b = json.load(open(BATCH_THRESHOLDS))
        old_b[EFFICIENCY] = limits.get(EFFICIENCY, old_b.get(EFFICIENCY))
        old_b.setdefault(RSS, 256)
        json.dump(old_b, open(BATCH_THRESHOLDS, "w"), indent=2)
        open(BATCH_THRESHOLDS, "a").write("\n")


if __name__ == "__main__":
    main()
