#!/usr/bin/env python3
"""Why BIDMC windows get no breathing rate (issue 31): per record, the causes the respiration
table gives and the evidence whether breathing is visible in each modulation at all.

For every development record of ../shared/datasets/bidmc/records (the split of bidmc-validate.py),
runs `sensorpipe analyze --preset bidmc` (or reads the folders `bidmc-validate.py --keep DIR` left)
and prints:

1. Causes, over the reference windows (annotator 1, >= 2 breath intervals inside; as
   bidmc-validate.py): per source (ecg, ppg, fused) the windows with a rate, with "too few usable
   beats", with the spectral and smart-fusion gates failing ("gates"), and other reasons.
2. The beat gates upstream: ECG beats usable (class N in a window labelled excellent or barely
   acceptable, the respiration family's rule) and the ecg_quality windows labelled unacceptable;
   PPG pulses usable (window good or acceptable) and the ppg_quality windows labelled unacceptable,
   split by why: template correlation below 0.66 (the pulse shape; Orphanidou et al. 2015), or a
   correlation >= 0.66 with the window's feasibility rules failing (pulse rate 40-180/min, longest
   interval < 3 s, longest / shortest < 2.2), and among the latter the windows whose ECG RR
   intervals break the same ratio rule (the rhythm itself, ectopic beats or atrial fibrillation,
   not the optical signal).
3. Modulation against the reference, measured here (NumPy, not the Swift code) at SensorPipe's own
   beat and pulse times (beats.csv) on the record's signals: lead II's morphology signal (the beat
   classifier's causal second-order Butterworth 0.7 Hz high-pass and 35 Hz low-pass at 125 Hz) at
   the detected sample (`R@peak`: the published r_above_baseline until session 22), and the R apex
   nearest it, parabola-refined, of the lead low-passed at 35 Hz without the high-pass (`R apex`:
   since), both above the signal's mean over 110-70 ms before the peak; the RR interval; the PPG's pulse amplitude (peak - foot, the foot the minimum
   since the previous pulse, at most 1.5 s back) and intensity ((peak + foot) / 2). Per modulation
   two figures over the record's windows: `r`, the median over windows of the largest absolute
   correlation (lags up to +-2 s) between the modulation (interpolated to 4 Hz, band-passed
   0.1-0.7 Hz forward and backward, noise-gate.py's window) and the impedance RESP signal
   band-passed the same way; `hit`, the share of reference windows whose modulation's own
   periodogram peak (0.1-0.7 Hz, the window alone) lies within 2 breaths/min of the reference.
   Chance levels, printed last: the same figures against another record's RESP and reference
   (each record paired with the next), where no agreement but chance exists.

Usage:
  python3 scripts/respiration/bidmc-diagnose.py [--keep DIR] [--sensorpipe EXE] [--data DIR]
      [--records 10,11,22]
"""
import argparse
import csv
import lzma
import os
import subprocess
import sys
import tempfile

import numpy as np
from scipy.signal import butter, lfilter, sosfiltfilt

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
ng = __import__("noise-gate")
bv = __import__("bidmc-validate")

FS = bv.FS
WINDOW = bv.WINDOW
RESP_SOS = butter(2, [0.1, 0.7], btype="band", fs=FS, output="sos")


def signals(path):
    """The record's columns by name (the CSV's order differs between records)."""
    with lzma.open(path, "rt") as f:
        head = [x.strip() for x in f.readline().split(",")]
        data = np.loadtxt(f, delimiter=",")
    return {k: data[:, i] for i, k in enumerate(head)}


def table(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def morphology(x, high_pass=True):
    """The beat classifier's signals at 125 Hz: causal 2nd-order Butterworth sections, 0.7 Hz
    high-pass then 35 Hz low-pass (the morphology signal), or the 35 Hz low-pass alone (the
    signal r_above_baseline and qrs_area are read from since the R apex is searched), started at
    rest on the first value."""
    b, a = butter(2, 35, btype="low", fs=FS)
    if not high_pass:
        return lfilter(b, a, x - x[0]) + x[0]
    hb, ha = butter(2, 0.7, btype="high", fs=FS)
    return lfilter(b, a, lfilter(hb, ha, x - x[0]))


def ecg_amplitudes(v, u, samples):
    """Per beat: the morphology signal `v` at the detected sample (`R@peak`), and the R apex of
    the low-passed signal `u` nearest it (climbing on the side of the deflection, at most 80 ms;
    parabola through the apex; `R apex`), each above its signal's mean over 110-70 ms before the
    detected sample."""
    pre, post, reach = round(0.110 * FS), round(0.070 * FS), round(0.080 * FS)
    at, apex = [], []
    for c in samples:
        if c - pre < 0 or c + reach + 1 >= len(v):
            at.append(np.nan)
            apex.append(np.nan)
            continue
        at.append(v[c] - v[c - pre:c - post + 1].mean())
        base = u[c - pre:c - post + 1].mean()
        s = 1.0 if u[c] >= base else -1.0
        k = c
        step = 1 if s * u[k + 1] > s * u[k] else -1
        while abs(k + step - c) <= reach and s * u[k + step] > s * u[k]:
            k += step
        a, b, d = u[k - 1], u[k], u[k + 1]
        curv = a - 2 * b + d
        top = b - 0.125 * (a - d) ** 2 / curv if s * curv < 0 and s * a <= s * b and s * d <= s * b else b
        apex.append(top - base)
    return np.array(at), np.array(apex)


def ppg_values(x, samples):
    """Per pulse: amplitude (peak - foot) and intensity ((peak + foot) / 2), the foot the minimum
    since the previous pulse, at most 1.5 s back."""
    amp, inten = [], []
    prev = None
    for p in samples:
        lo = max(0, p - int(1.5 * FS)) if prev is None else max(prev, p - int(1.5 * FS))
        foot = x[lo:p + 1].min()
        amp.append(x[p] - foot)
        inten.append((x[p] + foot) / 2)
        prev = p
    return np.array(amp), np.array(inten)


def evidence(t, v, resp, ref):
    """(`r`, `hit`) of one modulation (see the module's documentation), or (nan, nan)."""
    ok = np.isfinite(v) & np.isfinite(t)
    t, v = t[ok], v[ok]
    if len(t) < 20:
        return np.nan, np.nan
    rs = sosfiltfilt(RESP_SOS, resp - resp.mean())
    rt = np.arange(len(rs)) / FS
    lags = range(-int(2 * ng.GRID), int(2 * ng.GRID) + 1)
    corrs, hits = [], []
    for k in sorted(ref):
        start = k * WINDOW
        inside = (t >= start - ng.MARGIN) & (t < start + WINDOW + ng.MARGIN)
        if inside.sum() < 8:
            continue
        y = ng.filtered(t[inside], v[inside], start)
        pad = int(2 * ng.GRID)
        grid = start + (np.arange(-pad, ng.N + pad)) / ng.GRID
        z = np.interp(grid, rt, rs)
        best = 0.0
        for lag in lags:
            seg = z[pad + lag:pad + lag + ng.N]
            if y.std() > 0 and seg.std() > 0:
                best = max(best, abs(np.corrcoef(y, seg)[0, 1]))
        corrs.append(best)
        rate = ng.estimate(t[inside], v[inside], start)[0]
        hits.append(abs(rate - ref[k]) <= 2)
    if not corrs:
        return np.nan, np.nan
    return float(np.median(corrs)), float(np.mean(hits))


def causes(resp_rows, ref):
    """Per source: counts of rate / too few usable beats / gates / other over reference windows."""
    out = {}
    for source in ("ecg", "ppg", "fused"):
        c = {"rate": 0, "few beats": 0, "gates": 0, "other": 0, "no row": 0}
        rows = {int(round(float(r["window_start"]) / WINDOW)): r for r in resp_rows if r["source"] == source}
        for k in ref:
            r = rows.get(k)
            if r is None:
                c["no row"] += 1
            elif r["breaths_per_min"]:
                c["rate"] += 1
            elif "too few usable beats" in r["null_reason"]:
                c["few beats"] += 1
            elif "fewer than" in r["null_reason"] and "pass quality" in r["null_reason"]:
                c["gates"] += 1
            else:
                c["other"] += 1
        out[source] = c
    return out


def ratio(intervals):
    return max(intervals) / min(intervals) if len(intervals) >= 2 and min(intervals) > 0 else np.nan


def record(name, data, out, exe, partner):
    if not os.path.exists(os.path.join(out, "respiration.csv")):
        subprocess.run(
            [exe, "analyze", os.path.join(data, name + "_Signals.csv.xz"), "--out", out, "--preset", "bidmc",
             "--features-catalog", "none"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    sig = signals(os.path.join(data, name + "_Signals.csv.xz"))
    a1, _ = bv.breaths(os.path.join(data, name + "_Breaths.csv"))
    ref = bv.reference(a1)
    beats = table(os.path.join(out, "beats.csv"))
    # Detected beats only (the artefact correction's inserted beats have no detection time).
    ecg = [b for b in beats if b["source"] == "ecg" and b["time"]]
    ppg = [b for b in beats if b["source"] == "ppg" and b["time"]]
    eq = table(os.path.join(out, "ecg_quality.csv"))
    pq = table(os.path.join(out, "ppg_quality.csv"))
    line = {"record": name, "causes": causes(table(os.path.join(out, "respiration.csv")), ref)}
    usable = [b["class"] == "N" and b["quality"] in ("excellent", "barely_acceptable") for b in ecg]
    line["ecg usable"] = np.mean(usable) if usable else np.nan
    line["ecg unacceptable windows"] = sum(w["label"] == "unacceptable" for w in eq) / max(1, len(eq))
    line["ppg usable"] = np.mean([b["quality"] in ("good", "acceptable") for b in ppg]) if ppg else np.nan
    et = np.array([float(b["time"]) for b in ecg])
    shape = feasibility = rhythm = 0
    for w in pq:
        if w["label"] != "unacceptable":
            continue
        tc = float(w["template_correlation"]) if w["template_correlation"] else np.nan
        if not tc >= 0.66:
            shape += 1
            continue
        feasibility += 1
        a, b = float(w["window_start"]), float(w["window_end"])
        if ratio(np.diff(et[(et >= a) & (et < b)])) >= 2.2:
            rhythm += 1
    line["ppg unacceptable"] = (len(pq), shape, feasibility, rhythm)
    # The modulations at SensorPipe's beat and pulse times.
    resp, refs = partner if partner else (sig["RESP"], ref)
    es = np.round(et * FS).astype(int)
    ok = np.array(usable, bool)
    at, apex = ecg_amplitudes(morphology(sig["II"]), morphology(sig["II"], high_pass=False), es)
    rr = np.diff(et)
    rr_ok = ok[1:] & ok[:-1] & (rr > 0.25) & (rr < 2.5)
    ps = np.round(np.array([float(b["time"]) for b in ppg]) * FS).astype(int)
    pt = np.array([float(b["time"]) for b in ppg])
    pok = np.array([b["quality"] in ("good", "acceptable") for b in ppg], bool)
    amp, inten = ppg_values(sig["PLETH"], ps)
    line["evidence"] = {
        "R@peak": evidence(et[ok], at[ok], resp, refs),
        "R apex": evidence(et[ok], apex[ok], resp, refs),
        "RR": evidence(et[1:][rr_ok], rr[rr_ok], resp, refs),
        "PPG amp": evidence(pt[pok], amp[pok], resp, refs),
        "PPG int": evidence(pt[pok], inten[pok], resp, refs),
        "PPG int, all pulses": evidence(pt, inten, resp, refs),
    }
    return line, (sig["RESP"], ref)


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap = argparse.ArgumentParser()
    ap.add_argument("--sensorpipe", default=os.path.join(root, ".build", "release", "sensorpipe"))
    ap.add_argument("--data", default=os.path.join(root, "..", "shared", "datasets", "bidmc", "records"))
    ap.add_argument("--keep", default=None, help="read (or write) each record's sensorpipe output folder here")
    ap.add_argument("--records", default=None, help="comma-separated record numbers (default: the development part)")
    args = ap.parse_args()
    names = bv.SPLIT["development"]
    if args.records:
        names = [f"bidmc_{int(x):02d}" for x in args.records.split(",")]
    names = [n for n in names if os.path.exists(os.path.join(args.data, n + "_Signals.csv.xz"))]
    tmp = tempfile.mkdtemp()
    lines, own = [], {}
    for n in names:
        out = os.path.join(args.keep or tmp, n)
        os.makedirs(out, exist_ok=True)
        line, own[n] = record(n, args.data, out, args.sensorpipe, None)
        lines.append(line)
    mods = list(lines[0]["evidence"]) if lines else []
    print("Causes over reference windows (rate / too few usable beats / gates / other), upstream gates, and")
    print("modulation evidence (r: median |corr| with RESP; hit: share of windows whose own peak is within 2/min):\n")
    head = ["record", "ecg", "ppg", "fused", "ecg usable", "ecg unacc. win", "ppg usable",
            "ppg unacc. win: shape / feasibility (rhythm)"] + [m + " r / hit" for m in mods]
    print("| " + " | ".join(head) + " |")
    print("|" + " --- |" * len(head))
    for ln in lines:
        c = ln["causes"]
        cell = lambda s: f"{c[s]['rate']} / {c[s]['few beats']} / {c[s]['gates']} / {c[s]['other']}"
        n, sh, fe, rh = ln["ppg unacceptable"]
        ev = [f"{r:.2f} / {h:.2f}" for r, h in ln["evidence"].values()]
        print(f"| {ln['record']} | {cell('ecg')} | {cell('ppg')} | {cell('fused')} | {ln['ecg usable']:.2f} | "
              f"{ln['ecg unacceptable windows']:.2f} | {ln['ppg usable']:.2f} | {sh} / {fe} ({rh}) of {n} | " + " | ".join(ev) + " |")
    tot = {s: {k: sum(ln["causes"][s][k] for ln in lines) for k in ("rate", "few beats", "gates", "other")}
           for s in ("ecg", "ppg", "fused")}
    print("\nTotals:", "; ".join(f"{s}: rate {t['rate']}, too few usable beats {t['few beats']}, gates {t['gates']}, "
                                 f"other {t['other']}" for s, t in tot.items()))
    med = {m: np.nanmedian([ln["evidence"][m][0] for ln in lines]) for m in mods}
    hit = {m: np.nanmean([ln["evidence"][m][1] for ln in lines]) for m in mods}
    print("Median r / mean hit over records:", "; ".join(f"{m} {med[m]:.2f} / {hit[m]:.2f}" for m in mods))
    # Chance: each record's modulations against the next record's RESP and reference.
    if len(names) >= 2:
        chance = []
        for i, n in enumerate(names):
            out = os.path.join(args.keep or tmp, n)
            ln, _ = record(n, args.data, out, args.sensorpipe, own[names[(i + 1) % len(names)]])
            chance.append(ln)
        cm = {m: np.nanmedian([ln["evidence"][m][0] for ln in chance]) for m in mods}
        ch = {m: np.nanmean([ln["evidence"][m][1] for ln in chance]) for m in mods}
        print("Chance (another record's RESP and reference):", "; ".join(f"{m} {cm[m]:.2f} / {ch[m]:.2f}" for m in mods))


if __name__ == "__main__":
    main()
