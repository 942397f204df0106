#!/usr/bin/env python3
"""Do P waves help the supraventricular class? A study on MIT-BIH Arrhythmia (issue 30, item 4).

Runs `sensorpipe analyze` on the 44 EC57 records of ../shared/datasets/mitdb (the four paced
records excluded), reads `ecg_waves.csv` of the MLII lead (signal 1 in 114, as the EC57 suite),
and scores, against the reference `.atr` AAMI classes (150 ms matching, gross over the records):

- `today`: the ECG family's class (`ecg_waves.class` = `beats.class`);
- `+P rule`: a beat the family calls N is called S when it is premature (RR before it < 0.88 of
  the median RR of the eight preceding beats) and its atrial activity is not the sinus one: no
  P wave delineated, or a PR interval (QRS onset - P onset) more than 40 ms from the median PR of
  the eight preceding N beats with a P, or a P shape other than their most common shape;
- `RR only`: the same prematurity test without the P test (what the P evidence adds is the
  difference between this and `+P rule`);
- `+P absent only`: premature and no P wave delineated (P presence alone, no PR or shape test).

The rule and its constants were fixed before the run (not fitted). Scoring here is a plain
matched-beat count (EC57's gross SVEB/VEB Se and +P over matched beats, reference S beats the
detector missed counted as false negatives), so `today` differs slightly from the Swift EC57
suite's figures (`BeatClassificationValidationTests`); compare rows within this table.

Usage: python3 scripts/ecg/mitdb-p-aware-classes.py [--binary PATH] [--out DIR]
"""
import argparse
import csv
import os
from collections import Counter

import sys

import numpy as np
import wfdb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wfdb_common import analyze  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "../../../shared/datasets/mitdb")
PACED = {"102", "104", "107", "217"}
AAMI = {**{c: "N" for c in "NLRej"}, **{c: "S" for c in "AaJS"}, **{c: "V" for c in "VE"}, "F": "F",
        **{c: "Q" for c in "/fQ"}}


def rows_for(binary, rec, out):
    hea, res = analyze(binary, ROOT, rec, out, reuse=True)
    lines = [l for l in open(hea) if not l.startswith("#")][1:]
    names = [l.split()[-1] for l in lines if l.strip()]
    lead = names[1] if rec == "114" else names[0]
    rows = [r for r in csv.DictReader(open(os.path.join(res, "ecg_waves.csv"))) if r["stream"].split("/")[-1] == lead]
    rows.sort(key=lambda r: float(r["beat_time"]))
    return rows


def f(x):
    return float(x) if x not in ("", None) else None


def relabel(rows, use_p):
    out = []
    rrs, prs, shapes = [], [], []
    for r in rows:
        c = r["class"]
        rr = f(r["rr_before"])
        pon, qon = f(r["p_onset"]), f(r["qrs_onset"])
        pr = qon - pon if pon is not None and qon is not None else None
        premature = rr is not None and len(rrs) >= 4 and rr < 0.88 * float(np.median(rrs[-8:]))
        if c == "N" and premature:
            if use_p is False:
                c = "S"
            elif use_p == "absent":
                if r["p_status"] != "present":
                    c = "S"
            else:
                sinus_p = r["p_status"] == "present" and pr is not None
                if sinus_p and len(prs) >= 4 and abs(pr - float(np.median(prs[-8:]))) > 0.04:
                    sinus_p = False
                if sinus_p and len(shapes) >= 4 and r["p_shape"] != Counter(shapes[-8:]).most_common(1)[0][0]:
                    sinus_p = False
                if not sinus_p:
                    c = "S"
        if rr is not None:
            rrs.append(rr)
        if r["class"] == "N" and r["p_status"] == "present" and pr is not None:
            prs.append(pr)
            shapes.append(r["p_shape"])
        out.append(c)
    return out


def score(ref, det_times, det_classes, acc):
    t = np.asarray(det_times)
    used = np.zeros(len(t), bool)
    for s, cls in ref:
        j = int(np.argmin(np.abs(t - s))) if len(t) else -1
        if j < 0 or abs(t[j] - s) > 0.15 or used[j]:
            if cls in "SV":
                acc[cls]["fn"] += 1
            continue
        used[j] = True
        d = det_classes[j]
        for k in "SV":
            if cls == k and d == k:
                acc[k]["tp"] += 1
            elif cls == k:
                acc[k]["fn"] += 1
            elif d == k and cls != "Q":
                acc[k]["fp"] += 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=os.path.join(HERE, "../../.build/release/sensorpipe"))
    ap.add_argument("--out", default="/tmp/mitdb-p-aware")
    a = ap.parse_args()
    recs = [r for r in open(os.path.join(ROOT, "RECORDS")).read().split() if r not in PACED]
    variants = {"today": None, "RR only": False, "+P rule": True, "+P absent only": "absent"}
    acc = {v: {k: Counter() for k in "SV"} for v in variants}
    present = {k: Counter() for k in "NS"}  # reference class -> P delineated or not, matched beats
    for rec in recs:
        rows = rows_for(a.binary, rec, a.out)
        ann = wfdb.rdann(os.path.join(ROOT, rec), "atr")
        fs = 360.0
        ref = [(s / fs, AAMI[c]) for s, c in zip(ann.sample, ann.symbol) if c in AAMI]
        times = [float(r["beat_time"]) for r in rows]
        t = np.asarray(times)
        for s, cls in ref:
            j = int(np.argmin(np.abs(t - s))) if len(t) else -1
            if cls in "NS" and j >= 0 and abs(t[j] - s) <= 0.15:
                present[cls][rows[j]["p_status"] == "present"] += 1
        for v, use_p in variants.items():
            cls = [r["class"] for r in rows] if use_p is None else relabel(rows, use_p)
            score(ref, times, cls, acc[v])
    print("| classes | SVEB Se % | SVEB +P % | VEB Se % | VEB +P % |\n|---|---:|---:|---:|---:|")
    for v in variants:
        c = acc[v]
        se = lambda k: 100 * c[k]["tp"] / max(c[k]["tp"] + c[k]["fn"], 1)
        pp = lambda k: 100 * c[k]["tp"] / max(c[k]["tp"] + c[k]["fp"], 1)
        print(f"| {v} | {se('S'):.1f} | {pp('S'):.1f} | {se('V'):.1f} | {pp('V'):.1f} |")
    for k in "NS":
        c = present[k]
        print(f"\nreference {k} beats with a P wave delineated: {100 * c[True] / max(c[True] + c[False], 1):.1f} % of {c[True] + c[False]}")


if __name__ == "__main__":
    main()
