#!/usr/bin/env python3
"""Thresholds of the respiration family's spectral-fusion quality index (issue 31), from simulated
signals without breathing only (no BIDMC data is read).

The index (Sources/Respiration/RespiratorySpectrum.swift, re-written here, not called): each
modulation's Hann-windowed periodogram of the 4-Hz, 0.1-0.7 Hz band-passed, detrended window
(as scripts/respiration/noise-gate.py) normalised to unit power over 0.05-1 Hz; the mean of the
normalised spectra of the window's modulations (the ECG and PPG beat intervals averaged into one
modulation; Zhu et al. 2015's mean of normalised spectra, Charlton et al. 2016's spectral fusion)
over the window and its S neighbours each side (--span S, default 2 as RespirationOptions.spectralSpan:
five windows, look-ahead two; Welch-style averaging across adjacent windows; session 15 used 1,
whose thresholds were ECG 0.22 / 0.45, PPG 0.28 / 0.50, fused 0.23 / 0.40 over the inner windows); its peak in 0.1-0.7 Hz; the index is the share of the fused spectrum's 0.05-1 Hz
power within +-1/(2 x window) Hz of the peak (peak concentration). The second index (local
concentration, session 15) is the share of the fused spectrum within +-3/window Hz of the peak that
lies within +-1/(2 x window) Hz of it; the peak is the rate when either index reaches its threshold.

The no-breathing cases are those of RespirationSyntheticTests: noBreathingGivesNoRate (beats at
72/min, independent uniform noise in every modulation, +-10 %) and
motionWithoutBreathingGivesNoRate (random walks with steps in the amplitudes and the PPG baseline,
jittered beat times); 40 runs of 640 s each (fixed seeds). The threshold per source (ecg: amplitude,
QRS area, interval; ppg: amplitude, intensity, interval; fused: all five) is the largest value of
each index over the pooled windows of both cases (1,600: 20 windows per run, the first and last
included since session 16), rounded up to 0.01: no simulated window
without breathing reaches either (`windows_reaching_either` counts those that do: 0). (The 99.5th percentile, the first choice, let 3 windows of the Swift
motion test's own realisation through: ECG 0.215 ≥ 0.21, fused 0.219 and 0.215 ≥ 0.21.)

With --shares T1,T2,... also the share of those windows whose index reaches each T (per source).

At --span 2 (today's default): ECG 0.22 / 0.43, PPG 0.22 / 0.43, fused 0.22 / 0.40 (concentration /
local concentration); --span 1: 0.24 / 0.47, 0.29 / 0.48, 0.27 / 0.45 (session 15's 0.22 / 0.45,
0.28 / 0.50, 0.23 / 0.40 came from the 18 inner windows per run only); --span 3: 0.21 / 0.40,
0.22 / 0.43, 0.20 / 0.37; --span 4: 0.19 / 0.36, 0.20 / 0.38, 0.19 / 0.35.

Usage: python3 scripts/respiration/spectral-threshold.py [--span S] [--json] [--shares T1,T2,...]
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
ng = __import__("noise-gate")

GRID, WINDOW, MARGIN, N = ng.GRID, ng.WINDOW, ng.MARGIN, ng.N
FREQS, BAND = ng.FREQS, ng.BAND
PURITY = (FREQS >= 0.05) & (FREQS <= 1.0)
REACH = int(round(1 / (2 * WINDOW) * 256))
# Windows each side averaged into the fused spectrum (--span S; default 2: five windows, look-ahead
# two windows, as RespirationOptions.spectralSpan; session 15's rule was 1).
SPAN = int(sys.argv[sys.argv.index("--span") + 1]) if "--span" in sys.argv else 2
SOURCES = {
    "ecg": [("ecg_amplitude",), ("ecg_qrs_area",), ("frequency",)],
    "ppg": [("ppg_amplitude",), ("ppg_intensity",), ("frequency",)],
    "fused": [("ecg_amplitude",), ("ecg_qrs_area",), ("frequency",), ("ppg_amplitude",), ("ppg_intensity",)],
}


def spectrum(t, v, start):
    """Normalised periodogram of one modulation over one window (the estimator of noise-gate.py)."""
    m = (t >= start - MARGIN) & (t < start + WINDOW + MARGIN)
    t, v = t[m], v[m]
    pad = int(MARGIN * GRID)
    grid = start + (np.arange(N + 2 * pad) - pad) / GRID
    x = np.interp(grid, t, v)
    x = x - x.mean()
    y = ng.sosfiltfilt(ng.SOS, x)[pad:pad + N]
    i = np.arange(N) - (N - 1) / 2
    y = y - y.mean() - (i @ y) / (i @ i) * i
    p = np.abs(ng.DFT @ (y * (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(N) / (N - 1))))) ** 2
    return p / p[PURITY].sum()


def beats(seed, motion):
    """Beat times and modulation values of one no-breathing run (RespirationSyntheticTests)."""
    rng = np.random.default_rng(seed)
    noise = 0.02 if motion else 0.1
    t, rows = 0.5, []
    while t < 640:
        def u():
            return rng.uniform(-1, 1) * noise
        amp, area = 1 + u(), 0.08 * (1 + u())
        foot, pa = 1.0 + u() * 0.05, 0.5 * (1 + u())
        rows.append([t, amp, area, foot, pa, t + 0.2])
        t += 60 / 72 * (1 + u() * 0.5)
    b = np.array(rows)
    if motion:
        for cols, tcol in (([1, 2], 0), ([3, 4], 5)):
            drift = np.zeros(2)
            for i in range(len(b)):
                for j, c in enumerate(cols):
                    drift[j] += 0.03 * rng.uniform(-1, 1) + (0.3 * rng.uniform(-1, 1) if rng.uniform() < 0.03 else 0)
                    b[i, c] *= 1 + drift[j]
                b[i, tcol] += 0.08 * rng.uniform(-1, 1)
    return b


def windows(b):
    """Per window of the run (0 … 608 s, as the Swift stream computes them: the first and last
    windows' margins lie outside the beats, where the interpolation holds the nearest value): the
    normalised spectrum of each modulation."""
    te, tp = b[:, 0], b[:, 5]
    foot, pa = b[:, 3], b[:, 4]
    series = {"ecg_amplitude": (te, b[:, 1]), "ecg_qrs_area": (te, b[:, 2]), "ppg_amplitude": (tp, pa),
              "ppg_intensity": (tp, foot + pa / 2), "ecg_frequency": (te[1:], np.diff(te)),
              "ppg_frequency": (tp[1:], np.diff(tp))}
    out = []
    for k in range(0, 20):
        s = {m: spectrum(t, v, k * WINDOW) for m, (t, v) in series.items()}
        s["frequency"] = (s.pop("ecg_frequency") + s.pop("ppg_frequency")) / 2
        out.append(s)
    return out


def indices(run, k, mods):
    """Concentration and local concentration of window k's fused-spectrum peak."""
    spectra = [run[j][m] for j in range(k - SPAN, k + SPAN + 1) if 0 <= j < len(run) for (m,) in mods]
    f = np.mean(spectra, axis=0)
    p = int(np.argmax(np.where(BAND, f, -1)))
    near = f[max(0, p - REACH):p + REACH + 1].sum()
    return near / f[PURITY].sum(), near / f[max(0, p - 6 * REACH):p + 6 * REACH + 1].sum()


def index(run, k, mods):
    return indices(run, k, mods)[0]


def main():
    runs = [windows(beats(seed, False)) for seed in range(40)] + [windows(beats(100 + seed, True)) for seed in range(40)]
    out = {}
    for source, mods in SOURCES.items():
        both = [indices(r, k, mods) for r in runs for k in range(len(r))]
        x = [c for c, _ in both]
        loc = [v for _, v in both]
        p = float(np.percentile(x, 99.5))
        t, tl = float(np.ceil(max(x) * 100) / 100), float(np.ceil(max(loc) * 100) / 100)
        out[source] = dict(windows=len(x), p99_5=p, maximum=float(max(x)), threshold=t,
                           local_maximum=float(max(loc)), local_threshold=tl,
                           windows_reaching_either=int(sum(c >= t or v >= tl for c, v in both)))
        if "--shares" in sys.argv:
            ts = [float(t) for t in sys.argv[sys.argv.index("--shares") + 1].split(",")]
            out[source]["shares"] = {str(t): float(np.mean([v >= t for v in x])) for t in ts}
    if "--json" in sys.argv:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(k, v)
    return 0


if __name__ == "__main__":
    sys.exit(main())
