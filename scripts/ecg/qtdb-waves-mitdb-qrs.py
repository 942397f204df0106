#!/usr/bin/env python3
"""QRS width of normal beats on the 48 MIT-BIH records, two `sensorpipe` binaries side by side (issue 30).

MIT-BIH has no QRS boundary marks, so this is a plausibility check out of the QT Database's 15 excerpts:
for each stream (lead, combined) of `ecg_waves.csv`, the median QRS duration (qrs_offset − qrs_onset) of
the beats SensorPipe classes N, and the share of them wider than 150 ms (a normal-conducted QRS lasts
< 120 ms; paced and bundle-branch beats, which the N class also holds, are wider). Prints a markdown table
of the records where the share changes by 1 point or more in some stream, and the share pooled over the
records without pacing (MIT-BIH 102, 104, 107, 217 are paced).

Usage: python3 scripts/ecg/qtdb-waves-mitdb-qrs.py --baseline OLD_BINARY [--binary NEW_BINARY] [--out DIR]
"""
import argparse
import csv
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wfdb_common import analyze  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "../../../shared/datasets/mitdb")
PACED = {"102", "104", "107", "217"}


def widths(binary, rec, out):
    _, res = analyze(binary, ROOT, rec, out, reuse=True)
    per = {}
    with open(os.path.join(res, "ecg_waves.csv")) as f:
        for r in csv.DictReader(f):
            if r["class"] == "N" and r["qrs_onset"] and r["qrs_offset"]:
                per.setdefault(r["stream"].split("/")[-1], []).append(1000 * (float(r["qrs_offset"]) - float(r["qrs_onset"])))
    return {k: np.array(v) for k, v in per.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=os.path.join(HERE, "../../.build/release/sensorpipe"))
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--out", default="/tmp/qtdb-waves-mitdb-qrs")
    a = ap.parse_args()
    recs = sorted({f.split(".")[0] for f in os.listdir(ROOT) if f.endswith(".hea")})
    print("| record | stream: median QRS ms / share > 150 ms, baseline → this build |")
    print("|---|---|")
    pooled = {"baseline": [0, 0], "build": [0, 0]}
    for rec in recs:
        old, new = widths(a.baseline, rec, a.out + "/baseline"), widths(a.binary, rec, a.out + "/build")
        cells, changed = [], False
        for s in sorted(set(old) | set(new)):
            o, n = old.get(s, np.array([])), new.get(s, np.array([]))
            so, sn = (100 * np.mean(x > 150) if len(x) else float("nan") for x in (o, n))
            changed |= abs(so - sn) >= 1
            cells.append(f"{s} {np.median(o):.0f} / {so:.1f} % → {np.median(n):.0f} / {sn:.1f} %")
            if rec not in PACED:
                pooled["baseline"][0] += int(np.sum(o > 150)); pooled["baseline"][1] += len(o)
                pooled["build"][0] += int(np.sum(n > 150)); pooled["build"][1] += len(n)
        if changed:
            print(f"| {rec}{' (paced)' if rec in PACED else ''} | " + "; ".join(cells) + " |")
    b, n = pooled["baseline"], pooled["build"]
    print(f"\nN beats wider than 150 ms, all streams of the {len(recs) - len(PACED)} records without pacing: "
          f"{100 * b[0] / b[1]:.1f} % of {b[1]} → {100 * n[0] / n[1]:.1f} % of {n[1]}")


if __name__ == "__main__":
    main()
