#!/usr/bin/env python3
"""Cadence per clock minute on the Oxford step-counter validation walks against the ground-truth
device's step timing (issue 32, item 5; ../shared/datasets/oxford-step-counter-validation,
Salvi et al. 2018).

Each walk (3-4 min) goes through `sensorpipe analyze --preset oxford-steps`; SensorPipe's steps per
clock minute are the sums of `motion_epochs.steps` (5-s epochs) over the minute, the ground
truth's the increments of the dataset's cumulative ground-truth column (column 6) at the samples'
times (the preset's clock: the file name's Unix start + (t_ns - t0_ns) / 1e9). A walk is far
shorter than the 16-h valid day, so `motion_daily`'s cadence outcomes are empty on it: the table
applies their definitions (peak 1-min = highest minute, minutes >= 100 steps) to the minute series
of both sides. It validates the input of the cadence outcomes (the steps' minute placement), not
SensorPipe's day-level code (that is `ActivityRhythmParityTests`).

Usage: scripts/motion/compare-cadence-oxford.py [SENSORPIPE]   (default .build/release/sensorpipe)
"""
import csv
import lzma
import os
import subprocess
import sys
import tempfile
from collections import Counter

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
folder = os.environ.get("SENSORPIPE_DATASETS", os.path.join(root, "..", "shared", "datasets"))
folder = os.path.join(folder, "oxford-step-counter-validation")
binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, ".build", "release", "sensorpipe")
if not os.path.isdir(folder):
    sys.exit(f"{folder} is absent: nothing to compare")

print("| walk | truth steps | SensorPipe steps | minutes | peak 1-min truth | peak 1-min SensorPipe | "
      "min >= 100 truth | min >= 100 SensorPipe | minute MAE (steps) |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
maes, peaks = [], []
for name in sorted(f for f in os.listdir(folder) if f.endswith(".csv.xz")):
    start = int(name.split("_")[-1].split(".")[0]) / 1000
    truth = Counter()
    t0 = previous = None
    with lzma.open(os.path.join(folder, name), "rt") as f:
        for row in csv.reader(f):
            ns, count = int(row[0]), int(row[5])
            t0 = ns if t0 is None else t0
            if previous is not None and count > previous:
                truth[int((start + (ns - t0) / 1e9) // 60)] += count - previous
            previous = count
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([binary, "analyze", os.path.join(folder, name), "--preset", "oxford-steps", "--out", out],
                       check=True, capture_output=True)
        mine = Counter()
        with open(os.path.join(out, "motion_epochs.csv")) as f:
            for r in csv.DictReader(f):
                mine[int(float(r["epoch_start"]) // 60)] += int(r["steps"])
    minutes = sorted(set(truth) | set(mine))
    mae = sum(abs(truth[m] - mine[m]) for m in minutes) / len(minutes)
    maes.append(mae)
    pt, pm = max(truth.values()), max(mine.values())
    peaks.append(abs(pm - pt) / pt * 100)
    key = "_".join(name.split("_")[:2])
    print(f"| {key} | {sum(truth.values())} | {sum(mine.values())} | {len(minutes)} | {pt} | {pm} | "
          f"{sum(1 for m in minutes if truth[m] >= 100)} | {sum(1 for m in minutes if mine[m] >= 100)} | {mae:.1f} |")
print(f"\nMean minute MAE {sum(maes) / len(maes):.2f} steps; peak 1-min cadence mean absolute "
      f"error {sum(peaks) / len(peaks):.2f} %.")
