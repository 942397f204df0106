#!/usr/bin/env python3
"""Rhythm (issue 29): why the BIDMC finger-PPG labels disagree with the ECG labels, window by window.

Reads what `scripts/rhythm/bidmc-kappa.py` left in its output folder (per record `rhythm.csv` and
`beats.csv` of `sensorpipe analyze --preset bidmc`) and, for every 30-s window with an ECG and a
PPG row, splits the disagreement into its two parts:

1. the model: the PPG is labelled by the timing-only `rr` model, the ECG lead by the `ecg` trees
   (RR timing plus P waves, beat classes, QRS morphology). Here the `rr` model (its coefficients
   read from Sources/Rhythm/RhythmModelParameters.swift) is also applied to the ECG lead's own
   beat times: `rr(ECG)`. Where `rr(ECG)` already differs from the ECG label, the PPG cannot
   agree from timing alone, however well it times its pulses.
2. the pulse timing: `rr(ECG)` against the PPG label (`rr(PPG)`): the same model on two timings
   of the same heartbeats. The pulses are matched to the beats (each pulse to the beat at the
   median beat-to-pulse delay, within 150 ms): missed and extra pulses, and the spread of the
   delay (pulse-arrival-time jitter: detection jitter and respiratory modulation), which inflates
   the PPG's successive differences over the ECG's.

The window measures follow Sources/Rhythm/RRIrregularity.swift (intervals of 0.25-2.5 s between
consecutive beats in [start, end)); the script checks that its `rr(PPG)` reproduces the PPG rows'
`af_probability` (to 1e-6), so the re-implementation is the Swift one.

  python3 scripts/rhythm/bidmc-disagreement.py [--out /tmp/sensorpipe-rhythm/bidmc] [--windows]
"""
import argparse
import csv
import glob
import math
import os
import re
import statistics
import sys
from collections import Counter

LABELS = ["sinus", "af", "other", "noisy"]


def rr_model(root):
    text = open(os.path.join(root, "Sources", "Rhythm", "RhythmModelParameters.swift")).read()
    block = text[text.index("static let rr = RhythmModel("):]
    def arr(name):
        m = re.search(name + r":\s*\[(.*?)\]\s*,\s*\w+:", block, re.S) if name != "weights" else None
        return [float(x) for x in re.findall(r"-?\d+\.\d+(?:e-?\d+)?", m.group(1))]
    inputs = re.findall(r'"([a-z_]+)"', block[block.index("inputs:"):block.index("means:")])
    means, scales = arr("means"), arr("scales")
    w = block[block.index("weights:"):block.index("intercepts:")]
    weights = [[float(x) for x in re.findall(r"-?\d+\.\d+(?:e-?\d+)?", row)] for row in re.findall(r"\[([^\[\]]*)\]", w)]
    intercepts = [float(x) for x in re.findall(r"-?\d+\.\d+(?:e-?\d+)?", block[block.index("intercepts:"):].split(")")[0])]
    return inputs, means, scales, weights, intercepts


def median(x):
    s = sorted(x)
    m = len(s) // 2
    return s[m] if len(s) % 2 else 0.5 * (s[m - 1] + s[m])


def measures(times, a, b):
    t = [x for x in times if a <= x < b]
    rr = [t[i] - t[i - 1] for i in range(1, len(t)) if 0.25 <= t[i] - t[i - 1] <= 2.5]
    n = len(rr)
    if n < 6:
        return None
    mean = sum(rr) / n
    d = [rr[i] - rr[i - 1] for i in range(1, n)]
    ssd = 0.0
    for x in d:
        ssd += x * x
    var = 0.0
    for x in rr:
        var += (x - mean) * (x - mean)
    lo, hi = min(rr), max(rr)
    if hi - lo <= 0:
        ent = 0.0
    else:
        bins = [0] * 16
        for x in rr:
            bins[min(15, int((x - lo) / (hi - lo) * 16))] += 1
        ent = -sum(c / n * math.log(c / n) for c in bins if c) / math.log(16)
    turns = sum(1 for i in range(1, n - 1) if (rr[i] - rr[i - 1]) * (rr[i + 1] - rr[i]) < 0)
    a2 = b2 = 0
    for i in range(n - 1):
        for j in range(i + 1, n - 1):
            if abs(rr[i] - rr[j]) <= 0.030:
                b2 += 1
                if abs(rr[i + 1] - rr[j + 1]) <= 0.030:
                    a2 += 1
    sampen = -math.log(max(a2, 1) / b2) if b2 > 0 else math.log(n) + math.log(n - 1)
    med = median(rr)
    ad = [abs(x) for x in d]
    return {
        "mean_hr_bpm": 60 / mean,
        "nrmssd": math.sqrt(ssd / (n - 1)) / mean,
        "shannon_entropy": ent,
        "turning_point_ratio": turns / (n - 2),
        "cosen": sampen + math.log(2 * 0.030) - math.log(mean),
        "mad_delta_ratio": median(ad) / med,
        "large_delta_share": sum(1 for x in ad if x > 0.125 * med) / len(ad),
        "rr_cv": math.sqrt(var / (n - 1)) / mean,
        "rr_coverage": sum(rr) / (b - a),
        "rr": rr,
    }


def probabilities(model, m):
    inputs, means, scales, weights, intercepts = model
    z = []
    for i, name in enumerate(inputs):
        v = m[name[4:]] if name.startswith("log_") else m[name]
        if name.startswith("log_"):
            v = math.log(max(v, 1e-4))
        z.append((v - means[i]) / scales[i])
    s = [intercepts[c] + sum(weights[c][i] * z[i] for i in range(len(z))) for c in range(len(intercepts))]
    top = max(s)
    e = [math.exp(x - top) for x in s]
    return [x / sum(e) for x in e]


def match(beats, pulses):
    """Pulses matched to beats at the median beat-to-following-pulse delay (±150 ms)."""
    lags = []
    j = 0
    for p in pulses:
        while j + 1 < len(beats) and beats[j + 1] <= p:
            j += 1
        if beats and beats[j] <= p:
            lags.append(p - beats[j])
    if not lags:
        return None
    lag = median(lags)
    delays, missed, extra = {}, 0, 0
    j = 0
    used = Counter()
    for p in pulses:
        while j + 1 < len(beats) and abs(beats[j + 1] + lag - p) < abs(beats[j] + lag - p):
            j += 1
        if beats and abs(beats[j] + lag - p) <= 0.150:
            used[j] += 1
            if used[j] == 1:
                delays[j] = p - beats[j]
            else:
                extra += 1
        else:
            extra += 1
    missed = sum(1 for k in range(len(beats)) if k not in used)
    return lag, delays, missed, extra


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, "..", ".."))
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="/tmp/sensorpipe-rhythm/bidmc")
    ap.add_argument("--windows", action="store_true", help="print every window")
    a = ap.parse_args()
    model = rr_model(root)
    folders = sorted(glob.glob(os.path.join(a.out, "bidmc_*")))
    if not folders:
        print(f"bidmc-disagreement: nothing in {a.out}: run scripts/rhythm/bidmc-kappa.py first", file=sys.stderr)
        return 1
    three = Counter()
    stats = {}
    worst = 0.0
    rows_out = []
    for folder in folders:
        rec = os.path.basename(folder)
        rows = list(csv.DictReader(open(os.path.join(folder, "rhythm.csv"))))
        beats = {}
        for r in csv.DictReader(open(os.path.join(folder, "beats.csv"))):
            if r["time"]:
                beats.setdefault(r["source"], []).append(float(r["time"]))
        ecg_t, ppg_t = sorted(beats.get("ecg", [])), sorted(beats.get("ppg", []))
        by = {}
        for r in rows:
            by.setdefault(r["source"], {})[round(float(r["window_start"]), 3)] = r
        for t0 in sorted(by.get("ecg", {})):
            e, p = by["ecg"][t0], by.get("ppg", {}).get(t0)
            if p is None or e["label"] == "insufficient" or p["label"] == "insufficient":
                continue
            w0, w1 = float(e["window_start"]), float(e["window_end"])
            me, mp = measures(ecg_t, w0, w1), measures(ppg_t, w0, w1)
            if me is None or mp is None:
                continue
            pe, pp = probabilities(model, me), probabilities(model, mp)
            if p["af_probability"]:
                worst = max(worst, abs(pp[1] - float(p["af_probability"])))
            rr_ecg = LABELS[max(range(4), key=lambda c: pe[c])]
            rr_ppg = p["label"]
            key = (e["label"], rr_ecg, rr_ppg)
            three[key] += 1
            bw = [x for x in ecg_t if w0 - 1 <= x < w1 + 1]
            pw = [x for x in ppg_t if w0 - 1 <= x < w1 + 1]
            m = match(bw, pw)
            core = [k for k, x in enumerate(bw) if w0 <= x < w1]
            if m:
                lag, delays, missed, extra = m
                dl = [delays[k] for k in core if k in delays]
                missed = sum(1 for k in core if k not in delays)
                sd = statistics.pstdev(dl) * 1000 if len(dl) > 1 else float("nan")
                # Successive delay differences (ms): the PAT jitter that enters ΔRR.
                dd = [delays[k] - delays[k - 1] for k in core if k in delays and k - 1 in delays]
                rmsdd = math.sqrt(sum(x * x for x in dd) / len(dd)) * 1000 if dd else float("nan")
            else:
                lag, missed, extra, sd, rmsdd = float("nan"), len(core), len(pw), float("nan"), float("nan")
            s = stats.setdefault(key, [])
            s.append((missed, extra, sd, rmsdd, me["nrmssd"], mp["nrmssd"], me["shannon_entropy"], mp["shannon_entropy"]))
            rows_out.append((rec, w0, e["label"], rr_ecg, rr_ppg, len(core), missed, extra, lag * 1000, sd, rmsdd,
                             me["nrmssd"], mp["nrmssd"], me["shannon_entropy"], mp["shannon_entropy"],
                             me["mad_delta_ratio"], mp["mad_delta_ratio"], pe, pp))
    print(f"rr(PPG) re-computed against the PPG rows' af_probability: largest difference {worst:.2e}")
    print()
    print("| ECG label | rr(ECG) | PPG label (rr(PPG)) | windows | missed pulses (mean) | extra pulses (mean) | delay SD ms (median) | RMS Δdelay ms (median) | nRMSSD ECG → PPG (median) | entropy ECG → PPG (median) |")
    print("|---|---|---|---:|---:|---:|---:|---:|---|---|")
    for key, n in sorted(three.items(), key=lambda kv: -kv[1]):
        s = stats[key]
        col = lambda i: [x[i] for x in s if not math.isnan(x[i])]
        med = lambda i: median(col(i)) if col(i) else float("nan")
        print(f"| {key[0]} | {key[1]} | {key[2]} | {n} | {sum(col(0)) / n:.2f} | {sum(col(1)) / n:.2f} | {med(2):.1f} | {med(3):.1f} | "
              f"{med(4):.4f} → {med(5):.4f} | {med(6):.2f} → {med(7):.2f} |")
    if a.windows:
        print()
        print("record window ECG rr(ECG) PPG beats missed extra lag_ms delaySD RMSddelay nRMSSD_e nRMSSD_p ent_e ent_p mad_e mad_p p(ecg;s,a,o,n) p(ppg)")
        for r in rows_out:
            print(r[0], int(r[1]), *r[2:5], *r[5:8], *(f"{x:.1f}" for x in r[8:11]), *(f"{x:.4f}" for x in r[11:17]),
                  " ".join(f"{x:.2f}" for x in r[17]), "|", " ".join(f"{x:.2f}" for x in r[18]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
