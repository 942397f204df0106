#!/usr/bin/env python3
"""Independent references for `motion_rhythm` and `motion_daily`'s day outcomes (issue 32).

Input: the epochs SensorPipe computed on the synthetic (simulated, not recorded) week of
`Tests/MotionTests/ActivityOutcomeTests.swift` (`SimulatedWeek`), exported by

    SENSORPIPE_RHYTHM_EXPORT=/tmp/rhythm swift test -c release --filter ActivityOutcomeTests

(the valid days 0-3: 4 x 17 280 epochs of 5 s from 2023-11-15 00:00 UTC, and the nights' sleep
bouts). Output, in Tests/MotionTests/Fixtures/rhythm/:
  - enmo.npy (<f4; ENMO mg of worn epochs, NaN otherwise), steps.npy (<i4), nights.json (bouts);
  - reference.json: the numbers `ActivityRhythmParityTests` compares SensorPipe's with.

References, none computed by SensorPipe code:
  - pyActigraphy 1.2.2 (pip; pandas 1.5.3, NumPy 1.26): IS and IV (`raw.IS/IV(freq, binarize=False)`
    on the 5-s epochs, pyActigraphy resampling them by sum), L5, M10 and their onsets
    (`pyActigraphy.metrics.metrics._lmx`, what `raw.L5/M10/RA` call, on a BaseRaw whose data are
    the bins: pyActigraphy's L5/M10 run at the data's own resolution, so it is given the hourly
    and 1-min means; its profile is concatenated twice so windows wrap midnight, and the onset of
    a window found in the second copy is taken modulo 24 h), RA = (M10 - L5)/(M10 + L5) as `raw.RA`.
    pyActigraphy's IS and IV use pandas' sample variances (ddof = 1); the papers (Witting 1990)
    and SensorPipe use population variances. The script converts with the exact factors on a
    complete series (N bins, p bins a day): IS_paper = IS_pyA * (p - 1) * N / (p * (N - 1)),
    IV_paper = IV_pyA * N / (N - 1); the raw pyActigraphy values are kept in the JSON.
  - NumPy from the papers' formulas (no peer package implements them on ENMO epochs here; said
    so in docs/VALIDATION.md): cosinor (Cornelissen 2014; numpy.linalg.lstsq), Rowlands 2018's
    acceleration above the most active X min and intensity gradient, the MVPA bouts (GGIR's
    80 % rule as worded in SensorPipe's column docs, by brute force over every window),
    sedentary runs (Chastin & Granat 2010), cadence (Tudor-Locke 2012) and the sleep regularity
    index (Phillips 2017; Fischer 2021's missing-data form).

Usage: scripts/motion/compare-rhythm.py EXPORT_DIR
Setup (pyActigraphy's optional readers pull packages that no longer build; install it without
them): pip install --no-deps pyactigraphy==1.2.2 spm1d stochastic pyexcel pyexcel-io
pyexcel-ods3 pyexcel-xlsx lml accelerometer && pip install pandas==1.5.3 "numpy<2" scipy lmfit
statsmodels joblib numba matplotlib tqdm pytz imbalanced-learn lxml plotly
"""
import csv
import json
import os
import sys

import numpy as np
import pandas as pd

EPOCH = 5
SLOTS = 86_400 // EPOCH
DAYS = 4
CUTS = (44.8, 100.6, 428.8)  # MotionOptions' defaults: sedentary below, moderate from, vigorous from


def load(export):
    rows = list(csv.DictReader(open(os.path.join(export, "simulated-epochs.csv"))))
    t0 = int(rows[0]["epoch_start"]) // 86_400 * 86_400
    enmo = np.full(DAYS * SLOTS, np.nan, dtype=np.float32)
    steps = np.zeros(DAYS * SLOTS, dtype=np.int32)
    for r in rows:
        i = (int(r["epoch_start"]) - t0) // EPOCH
        if i < 0 or i >= DAYS * SLOTS:
            continue
        if r["enmo_mg"] and r["non_wear"] == "0":
            enmo[i] = np.float32(float(r["enmo_mg"]))
        steps[i] = int(r["steps"])
    nights = []
    for r in csv.DictReader(open(os.path.join(export, "simulated-nights.csv"))):
        spans = [[float(a) - t0, float(b) - t0] for a, b in (s.split("-") for s in r["spans"].split())]
        nights.append({"night": r["night"], "window_start": float(r["window_start"]) - t0, "spans": spans})
    return t0, enmo, steps, nights


def pyactigraphy_row(enmo, t0, bin_s):
    from pyActigraphy.io import BaseRaw
    from pyActigraphy.metrics.metrics import _lmx

    index = pd.date_range(pd.Timestamp(t0, unit="s"), periods=len(enmo), freq=f"{EPOCH}s")
    series = pd.Series(enmo.astype(np.float64), index=index)
    freq = "1H" if bin_s == 3600 else "1min"

    def raw(data, period, step):
        return BaseRaw(
            name="simulated", uuid="simulated", format="Pandas", axial_mode="mono-axial", start_time=data.index[0],
            period=pd.Timedelta(period), frequency=pd.Timedelta(step), data=data, light=None)

    epochs = raw(series, f"{DAYS}D", f"{EPOCH}s")
    is_pya = float(epochs.IS(freq=freq, binarize=False))
    iv_pya = float(epochs.IV(freq=freq, binarize=False))
    n = len(epochs.resampled_data(freq=freq))
    p = 86_400 // bin_s
    bins = series.resample(freq, origin="start").mean()
    bins.index.freq = pd.tseries.frequencies.to_offset(freq)
    binned = raw(bins, f"{DAYS}D", freq)
    l5_start, l5 = _lmx(binned.data, "5H", lowest=True)
    m10_start, m10 = _lmx(binned.data, "10H", lowest=False)
    return {
        "is_pyactigraphy": is_pya, "iv_pyactigraphy": iv_pya, "bins": n, "bins_per_day": p,
        "interdaily_stability": is_pya * (p - 1) * n / (p * (n - 1)),
        "intradaily_variability": iv_pya * n / (n - 1),
        "l5_mg": float(l5), "l5_onset_h": l5_start.total_seconds() / 3600 % 24,
        "m10_mg": float(m10), "m10_onset_h": m10_start.total_seconds() / 3600 % 24,
        "relative_amplitude": float((m10 - l5) / (m10 + l5)),
    }


def cosinor(x, bin_s):
    t = (np.arange(len(x)) + 0.5) * bin_s
    w = 2 * np.pi / 86_400
    ok = np.isfinite(x)
    a = np.column_stack([np.ones(ok.sum()), np.cos(w * t[ok]), np.sin(w * t[ok])])
    (m, b, g), *_ = np.linalg.lstsq(a, x[ok], rcond=None)
    peak = (np.arctan2(g, b) / w / 3600) % 24
    return {"cosinor_mesor_mg": m, "cosinor_amplitude_mg": float(np.hypot(b, g)), "cosinor_acrophase_h": float(peak)}


def sri(enmo, nights):
    """Minute states: sleep when most worn epochs of the minute lie in a night's bouts; known when
    every worn epoch lies in a noon-to-noon window with a sleep period window."""
    t = np.arange(len(enmo)) * EPOCH
    known = np.zeros(len(enmo), bool)
    asleep = np.zeros(len(enmo), bool)
    for n in nights:
        known |= (t >= n["window_start"]) & (t < n["window_start"] + 86_400)
        for a, b in n["spans"]:
            asleep |= (t >= a) & (t < b)
    worn = np.isfinite(enmo).reshape(-1, 12)
    n_worn = worn.sum(1)
    all_known = ~((~known.reshape(-1, 12)) & worn).any(1)
    n_asleep = (asleep.reshape(-1, 12) & worn).sum(1)
    state = np.where((2 * n_worn >= 12) & (n_worn > 0) & all_known, (2 * n_asleep > n_worn).astype(int), -1)
    a, b = state[:-1440], state[1440:]
    pairs = (a >= 0) & (b >= 0)
    return {"sri": float(200 * np.mean(a[pairs] == b[pairs]) - 100), "sri_pairs": int(pairs.sum())}


def bouts_bruteforce(flag, length, per_minute):
    """Every epoch of a window of `length` epochs that starts and ends flagged, holds >= 80 %
    flagged epochs and no unflagged run longer than 1 min."""
    covered = np.zeros(len(flag), bool)
    for s in range(len(flag) - length + 1):
        w = flag[s:s + length]
        if not (w[0] and w[-1]) or w.sum() < 0.8 * length:
            continue
        run = longest = 0
        for f in w:
            run = 0 if f else run + 1
            longest = max(longest, run)
        if longest <= per_minute:
            covered[s:s + length] = True
    return covered


def day_outcomes(enmo, steps):
    worn = enmo[np.isfinite(enmo)].astype(np.float64)
    desc = np.sort(worn)[::-1]
    out = {f"accel_top{x}min_mg": float(desc[x * 60 // EPOCH - 1]) for x in (60, 30, 15, 5)}
    edges = np.concatenate([np.arange(0, 4001, 25.0), [8000.0]])
    counts, _ = np.histogram(worn[worn < 8000], bins=edges)
    mid = (edges[:-1] + edges[1:]) / 2
    keep = counts > 0
    x, y = np.log(mid[keep]), np.log(counts[keep] * EPOCH / 60)
    slope, intercept = np.polyfit(x, y, 1)
    out.update(ig_gradient=float(slope), ig_intercept=float(intercept), ig_r2=float(np.corrcoef(x, y)[0, 1] ** 2))
    e64 = enmo.astype(np.float64)
    mvpa = np.isfinite(e64) & (np.nan_to_num(e64, nan=-1) >= CUTS[1])
    for m in (1, 5, 10):
        out[f"mvpa_bout{m}_min"] = float(bouts_bruteforce(mvpa, m * 12, 12).sum() * EPOCH / 60)
    sed = np.isfinite(e64) & (np.nan_to_num(e64, nan=1e9) < CUTS[0])
    edges_sed = np.diff(np.concatenate([[0], sed.astype(int), [0]]))
    runs = np.flatnonzero(edges_sed == -1) - np.flatnonzero(edges_sed == 1)
    mean_run = runs.sum() * EPOCH / 60 / len(runs)
    out.update(
        sed_bouts=int(len(runs)), sed_bout_mean_min=float(mean_run),
        sed_in_bouts30_min=float(runs[runs >= 360].sum() * EPOCH / 60), sed_to_active_tp=float(1 / mean_run))
    minute_worn = np.isfinite(enmo).reshape(-1, 12).sum(1)
    minute_steps = steps.reshape(-1, 12).sum(1).astype(np.float64)
    cad = np.sort(minute_steps[2 * minute_worn >= 12])
    out.update(
        cadence_peak1_spm=float(cad[-1]), cadence_peak30_spm=float(cad[-30:].mean()),
        cadence_ge100_min=int((cad >= 100).sum()), cadence_p95_spm=float(np.percentile(cad, 95)))
    return out


def main():
    export = sys.argv[1]
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    fixtures = os.path.join(root, "Tests", "MotionTests", "Fixtures", "rhythm")
    os.makedirs(fixtures, exist_ok=True)
    t0, enmo, steps, nights = load(export)
    np.save(os.path.join(fixtures, "enmo.npy"), enmo)
    np.save(os.path.join(fixtures, "steps.npy"), steps)
    reference = {"start": t0, "epoch_s": EPOCH, "days": DAYS, "nights": nights, "rhythm": {}, "daily": []}
    for name, bin_s in (("hourly", 3600), ("1min", 60)):
        row = pyactigraphy_row(enmo, t0, bin_s)
        x = enmo.astype(np.float64).reshape(-1, bin_s // EPOCH).mean(1)
        row.update(cosinor(x, bin_s))
        if bin_s == 60:
            row.update(sri(enmo, nights))
        reference["rhythm"][name] = row
    for d in range(DAYS):
        reference["daily"].append(day_outcomes(enmo[d * SLOTS:(d + 1) * SLOTS], steps[d * SLOTS:(d + 1) * SLOTS]))
    with open(os.path.join(fixtures, "reference.json"), "w") as f:
        json.dump(reference, f, indent=1, default=float)
        f.write("\n")
    print(json.dumps(reference["rhythm"], indent=1, default=float))


if __name__ == "__main__":
    main()
