#!/usr/bin/env python3
"""Writes Datasets/respiration/: the first 160 s of BIDMC record bidmc_01 (the first record, not
chosen for its results) — columns Time [s], RESP, PLETH, II copied unchanged from the CSV release, xz-compressed —
and both annotators' breath marks inside that span, for RespirationExcerptTests.

Source: ../shared/datasets/bidmc/records (PhysioNet `bidmc` v1.0.0, ODC-By 1.0; see its SOURCE.md).
Usage: python3 scripts/respiration/make-bidmc-excerpt.py
"""
import csv
import lzma
import os

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, "..", ".."))
src = os.path.join(root, "..", "shared", "datasets", "bidmc", "records")
out = os.path.join(root, "Datasets", "respiration")
SECONDS = 160
os.makedirs(out, exist_ok=True)
with lzma.open(os.path.join(src, "bidmc_01_Signals.csv.xz"), "rt") as f:
    r = csv.reader(f)
    header = [h.strip() for h in next(r)]
    keep = [header.index(c) for c in ["Time [s]", "RESP", "PLETH", "II"]]
    rows = []
    for row in r:
        if float(row[0]) >= SECONDS:
            break
        rows.append([row[i].strip() for i in keep])
with lzma.open(os.path.join(out, "bidmc_01_excerpt_Signals.csv.xz"), "wt", preset=9, newline="") as f:
    f.write("Time [s], RESP, PLETH, II\n")
    for row in rows:
        f.write(",".join(row) + "\n")
with open(os.path.join(src, "bidmc_01_Breaths.csv")) as f, open(os.path.join(out, "bidmc_01_excerpt_Breaths.csv"), "w") as g:
    lines = f.read().splitlines()
    g.write(lines[0] + "\n")
    for line in lines[1:]:
        a = [x.strip() for x in line.split(",")]
        if a[0] and int(a[0]) < SECONDS * 125:
            g.write(",".join(a) + "\n")
