#!/usr/bin/env python3
"""Breath counting as an independent acceptance of the fused spectral peak (issue 31):
measured on the simulated no-breathing windows and on BIDMC's development records, not adopted
unless both say so.

The question: where today's spectral indices reject a row's fused-spectrum peak (span 2), would a
time-domain breath count of the same modulations that agrees with the peak separate breathing from
noise? The counts (each on one modulation's window, band-passed and detrended as the spectra,
scripts/respiration/noise-gate.py's estimator):

- `adv`: Schäfer & Kratky 2008 (Ann Biomed Eng 36:476) "advanced counting": the alternating
  local extrema; while the smallest absolute difference between consecutive extrema is below
  0.3 x the third quartile of those differences, that pair is removed; breaths are the intervals
  between the remaining maxima.
- `orig`: the original counting of the same paper as Charlton et al. 2016 (Physiol Meas 37:610)
  implement it (count-orig): maxima above 0.2 x the third quartile of the maxima's values, minima
  below zero; a breath is an interval between consecutive valid maxima holding exactly one valid
  minimum.

Rate = 60 / mean breath duration (two breaths or more). A rejected peak at R breaths/min is
accepted when, among the row's modulations, at least two read from two beat measurements (the
interval, the ECG's amplitudes, the PPG's amplitudes; as the family's smart fusion) have a count
within TOL breaths/min of R; optionally only for R at or above a rate edge (`min_rate`).

Noise side: scripts/respiration/spectral-threshold.py's 7,200 windows (the runs its thresholds are
the maxima over) and its --bands-check runs (7,200 others); the rule counts the windows it would
add to today's spectral rule (`added`) per source. BIDMC side (development part, in-sample): the
row's rejected peak is read from the Swift stage's `null_reason` (`sensorpipe analyze --preset
bidmc`); the modulations are re-measured here from the signals at the stage's beat times
(beats.csv, acceptable quality, class N for the ECG): R amplitude above the mean 110-70 ms before
the apex, QRS area over +-50 ms above that baseline; PPG amplitude = peak - minimum in the 0.6 s
before it, intensity = (peak + that minimum) / 2; an approximation of the published values, so the
BIDMC figures are an estimate of the rule's effect, not the Swift stage's.

Two tables: first (`conditional`) the agreement combined with the joint index (concentration x
local concentration) at a lower threshold: per rate band, its largest value over the threshold runs'
rejected, full-span windows whose counts agree (a noise maximum given agreement), its windows added
on BIDMC and in the bands-check runs; then the agreement alone.

Measured (BIDMC in-sample, an estimate through the re-measured modulations):
- Agreement alone adds noise windows by the tens to hundreds where today's rule lets 8 / 13 / 1
  (ECG / PPG / fused) of the 7,200 bands-check windows through: fused `orig`, 1/min, from 16/min:
  68.4 % at MAE 0.73 on BIDMC (+4.1 points) for +107 bands-check windows; `adv`, 2/min, from 16/min:
  74.3 % at 0.78 for +435. Band-passed noise has a mean frequency, and a count near the peak is
  as common in noise as in the weak breathing the rule would admit.
- With the joint index at its noise maximum given agreement: fused 64.3 % -> 66.5 % at 0.73 at
  best (`orig`, 2/min: +12 windows, +1 bands-check window), ECG 41.3 % -> 42.8 % (+4 noise),
  PPG 46.1 % -> 47.2 % (+6 noise): about two points of fused coverage, a maximum over few windows
  (its out-of-sample leak is the table's last column). Not adopted.

Usage: python3 scripts/respiration/count-agreement.py [--sensorpipe .build/release/sensorpipe]
(about 10 min: the noise side re-simulates 14,400 windows)
"""
import csv
import glob
import lzma
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
ng = __import__("noise-gate")
st = __import__("spectral-threshold")

GRID, WINDOW, MARGIN, N = ng.GRID, ng.WINDOW, ng.MARGIN, ng.N
MEASUREMENT = {"ecg_amplitude": "ecg", "ecg_qrs_area": "ecg", "ecg_frequency": "interval",
               "ppg_frequency": "interval", "frequency": "interval", "ppg_amplitude": "ppg",
               "ppg_intensity": "ppg"}
OWN = {"ecg": ["ecg_amplitude", "ecg_qrs_area", "ecg_frequency"],
       "ppg": ["ppg_amplitude", "ppg_intensity", "ppg_frequency"],
       "fused": ["ecg_amplitude", "ecg_qrs_area", "ecg_frequency", "ppg_amplitude", "ppg_intensity", "ppg_frequency"]}
RULES = [(tol, edge, kind) for kind in ("adv", "orig") for tol in (1.0, 2.0) for edge in (0, 16)]


def filtered(t, v, start):
    """One modulation's window: interpolated, band-passed, detrended (noise-gate.py's estimator)."""
    m = (t >= start - MARGIN) & (t < start + WINDOW + MARGIN)
    t, v = t[m], v[m]
    if len(t) < 8:
        return None
    return ng.filtered(t, v, start)


def extrema(y):
    d = np.diff(y)
    s = np.sign(d)
    k = np.where(s[:-1] * s[1:] < 0)[0] + 1
    return k, (s[k - 1] > 0)  # index, is maximum


def count_adv(y):
    k, top = extrema(y)
    k, top = list(k), list(top)
    if len(k) < 4:
        return None
    diffs = np.abs(np.diff(y[k]))
    q = 0.3 * np.percentile(diffs, 75)
    while len(k) >= 4:
        diffs = np.abs(np.diff(y[k]))
        j = int(np.argmin(diffs))
        if diffs[j] >= q:
            break
        del k[j:j + 2]
        del top[j:j + 2]
    peaks = [i for i, t in zip(k, top) if t]
    if len(peaks) < 3:
        return None
    return 60 * GRID * (len(peaks) - 1) / (peaks[-1] - peaks[0])


def count_orig(y):
    k, top = extrema(y)
    maxima = k[top]
    if len(maxima) < 3:
        return None
    q = 0.2 * np.percentile(y[maxima], 75)
    vmax = maxima[y[maxima] > q]
    vmin = k[(~top) & (y[k] < 0)]
    durations = [b - a for a, b in zip(vmax, vmax[1:]) if ((vmin > a) & (vmin < b)).sum() == 1]
    if len(durations) < 2:
        return None
    return 60 * GRID / np.mean(durations)


COUNT = {"adv": count_adv, "orig": count_orig}


def accepts(counts, rate, tol, kind):
    """Two modulations from two measurements count within tol of rate."""
    agreeing = {MEASUREMENT[m] for m, c in counts.items() if c[kind] is not None and abs(c[kind] - rate) <= tol}
    return len(agreeing) >= 2


def window_counts(series, start):
    out = {}
    for m, (t, v) in series.items():
        y = filtered(t, v, start)
        out[m] = {k: (f(y) if y is not None else None) for k, f in COUNT.items()}
    return out


def noise_side():
    """Windows each rule adds to today's spectral rule, over the simulated no-breathing runs."""
    seeds = [(s, False) for s in range(40)] + [(s, True) for s in range(100, 140)]
    for n, mo in st.MORE:
        seeds += [(s, False) for s in n] + [(s, True) for s in mo]
    check = [(s, False) for s in range(5000, 5180)] + [(s, True) for s in range(6000, 6180)]
    result, records = {}, []
    for label, group in (("threshold runs", seeds), ("bands-check runs", check)):
        added = {(src, r): 0 for src in OWN for r in RULES}
        total = 0
        for seed, motion in group:
            b = st.beats(seed, motion)
            run = st.windows(b)
            te, tp = b[:, 0], b[:, 5]
            series = {"ecg_amplitude": (te, b[:, 1]), "ecg_qrs_area": (te, b[:, 2]), "ppg_amplitude": (tp, b[:, 4]),
                      "ppg_intensity": (tp, b[:, 3] + b[:, 4] / 2), "ecg_frequency": (te[1:], np.diff(te)),
                      "ppg_frequency": (tp[1:], np.diff(tp))}
            for k in range(len(run)):
                total += 1
                counts = window_counts(series, k * WINDOW)
                full = st.SPAN <= k < len(run) - st.SPAN
                for src, mods in st.SOURCES.items():
                    rate, c, v = st.fused_peak(run, k, mods)
                    (c0, l0), _, _ = st.DEFAULTS[src]
                    tc, tl = st.banded(src, rate, c0, l0) if full else (c0, l0)
                    if c >= tc or v >= tl or (full and c * v >= st.joint(src, rate)):
                        continue
                    own = {m: counts[m] for m in OWN[src]}
                    agreeing = []
                    for r in RULES:
                        tol, edge, kind = r
                        if rate >= edge and accepts(own, rate, tol, kind):
                            added[(src, r)] += 1
                            agreeing.append(RULES.index(r))
                    records.append((label, src, rate, c, v, full, agreeing))
        result[label] = (total, added)
    return result, records


PEAK = re.compile(r"fused spectrum's peak \(([0-9.]+) breaths/min\) concentration ([0-9.]+) below [0-9.]+ and local concentration ([0-9.]+)")


def bidmc_side(exe):
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "datasets", "bidmc", "records")
    bv = __import__("bidmc-validate")
    rows = []  # (source, reference, accepted rate or None, rejected peak or None, counts)
    for name in bv.SPLIT["development"]:
        sig = os.path.join(root, f"{name}_Signals.csv.xz")
        if not os.path.exists(sig):
            continue
        a1, _ = bv.breaths(os.path.join(root, f"{name}_Breaths.csv"))
        ref = bv.reference(a1)
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run([exe, "analyze", sig, "--out", tmp, "--preset", "bidmc", "--features-catalog", "none"],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            with open(os.path.join(tmp, "respiration.csv")) as f:
                resp = list(csv.DictReader(f))
            with open(os.path.join(tmp, "beats.csv")) as f:
                beats = list(csv.DictReader(f))
        with lzma.open(sig, "rt") as f:
            r = csv.reader(f)
            head = [h.strip() for h in next(r)]
            data = np.array([[float(x) for x in row] for row in r])
        ecg, ppg = data[:, head.index("II")], data[:, head.index("PLETH")]
        fs = 125.0

        def good(b, src):
            return b["source"] == src and b["time"] != "" and b["quality"] != "unacceptable" and (src == "ppg" or b["class"] == "N")
        ri = np.array([int(round(float(b["time"]) * fs)) for b in beats if good(b, "ecg")])
        ri = ri[(ri > 20) & (ri < len(ecg) - 10)]
        base = np.array([ecg[i - 14:i - 8].mean() for i in ri])
        amp = ecg[ri] - base
        area = np.array([(ecg[i - 6:i + 7] - b0).sum() / fs for i, b0 in zip(ri, base)])
        pi = np.array([int(round(float(b["time"]) * fs)) for b in beats if good(b, "ppg")])
        pi = pi[pi > 80]
        foot = np.array([ppg[i - 75:i].min() for i in pi])
        te, tp = ri / fs, pi / fs

        def intervals(t):
            d = np.diff(t)
            ok = (d > 0.25) & (d < 2.5)
            return t[1:][ok], d[ok]
        series = {"ecg_amplitude": (te, amp), "ecg_qrs_area": (te, area), "ecg_frequency": intervals(te),
                  "ppg_amplitude": (tp, ppg[pi] - foot), "ppg_intensity": (tp, (ppg[pi] + foot) / 2),
                  "ppg_frequency": intervals(tp)}
        for row in resp:
            k = int(round(float(row["window_start"]) / WINDOW))
            if k not in ref or row["source"] not in OWN:
                continue
            rate = float(row["breaths_per_min"]) if row["breaths_per_min"] else None
            m = PEAK.search(row["null_reason"])
            peak = float(m.group(1)) if m and rate is None else None
            counts = window_counts({m_: series[m_] for m_ in OWN[row["source"]]}, k * WINDOW) if peak else None
            cv = (float(m.group(2)), float(m.group(3))) if peak else None
            full = 2 <= k <= 12
            rows.append((row["source"], ref[k], rate, peak, counts, cv, full))
    return rows


def band(rate):
    return sum(rate >= e for e in (12, 16, 20))


def conditional(rows, records):
    """Count agreement and the joint index above its largest value over the threshold runs'
    rejected no-breathing windows whose counts agree (full span, per rate band): the windows added
    on BIDMC and in the bands-check runs."""
    print("| rule | source | joint thresholds given agreement (below 12, 12, 16, 20) | BIDMC coverage | MAE | added | their MAE | bands-check noise added |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for src in OWN:
        mine = [r for r in rows if r[0] == src]
        base = [(r[2], r[1]) for r in mine if r[2] is not None]
        for ri, rule in enumerate(RULES):
            tol, edge, kind = rule
            ag = [x for x in records if x[1] == src and x[0] == "threshold runs" and x[5] and ri in x[6]]
            th = [max([x[3] * x[4] for x in ag if band(x[2]) == b] + [0.0]) for b in range(4)]
            th = [np.ceil(t * 1000) / 1000 for t in th]
            leak = sum(1 for x in records if x[1] == src and x[0] == "bands-check runs" and x[5] and ri in x[6]
                       and x[3] * x[4] >= th[band(x[2])])
            add = [(r[3], r[1]) for r in mine if r[3] is not None and r[6] and r[3] >= edge and accepts(r[4], r[3], tol, kind)
                   and r[5][0] * r[5][1] >= th[band(r[3])]]
            both = base + add
            mae_add = f"{np.mean([abs(a - b) for a, b in add]):.2f}" if add else "—"
            print(f"| {kind}, {tol:g}, {edge} | {src} | {' / '.join(f'{t:.3f}' for t in th)} | {len(both) / len(mine):.1%} | "
                  f"{np.mean([abs(a - b) for a, b in both]):.2f} | {len(add)} | {mae_add} | {leak} |")


def main():
    exe = sys.argv[sys.argv.index("--sensorpipe") + 1] if "--sensorpipe" in sys.argv else ".build/release/sensorpipe"
    rows = bidmc_side(exe)
    noise, records = noise_side()
    conditional(rows, records)
    print("| rule (count, tolerance, from rate) | source | BIDMC coverage | BIDMC MAE | added windows | their MAE | noise added (threshold runs) | noise added (bands-check runs) |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for src in OWN:
        mine = [r for r in rows if r[0] == src]
        base = [(r[2], r[1]) for r in mine if r[2] is not None]
        print(f"| today | {src} | {len(base) / len(mine):.1%} | {np.mean([abs(a - b) for a, b in base]):.2f} | | | | |")
        for rule in RULES:
            tol, edge, kind = rule
            add = [(r[3], r[1]) for r in mine if r[3] is not None and r[3] >= edge and accepts(r[4], r[3], tol, kind)]
            both = base + add
            (n1, a1), (n2, a2) = noise["threshold runs"], noise["bands-check runs"]
            mae_add = f"{np.mean([abs(a - b) for a, b in add]):.2f}" if add else "—"
            print(f"| {kind}, {tol:g}, {edge} | {src} | {len(both) / len(mine):.1%} | {np.mean([abs(a - b) for a, b in both]):.2f} | "
                  f"{len(add)} | {mae_add} | {a1[(src, rule)]} of {n1} | {a2[(src, rule)]} of {n2} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
