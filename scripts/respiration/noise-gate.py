#!/usr/bin/env python3
"""How often pure noise gets a breathing rate (issue 31), per quality-gate setting: an independent
re-implementation (NumPy/SciPy) of the respiration family's per-window estimator, run on the
no-breathing case of RespirationSyntheticTests.noBreathingGivesNoRate.

The case: beats at 72/min whose R amplitude, QRS area, PPG pulse amplitude and PPG baseline carry
independent uniform noise (±10 %, baseline ±0.5 %) and whose intervals jitter (±5 %), no breathing;
the PPG pulse follows its beat by 0.2 s (so ECG and PPG intervals are one modulation). 40 runs of
640 s (fixed seeds), full 32-s windows only.

The estimator (Sources/Respiration, re-written here, not called): each modulation linearly
interpolated onto a 4-Hz grid with 4 s either side, band-passed 0.1-0.7 Hz (Butterworth, order 2,
forward-backward), cut to the window, detrended, Hann-windowed; the periodogram peak in 0.1-0.7 Hz;
spectral purity (share of the 0.05-1 Hz power within +-2/32 Hz of the peak) >= 0.3; the
autocorrelation of the detrended window at the peak's period >= A; the breath count (upward zero
crossings) within C breaths/min of the peak. Per source: >= 2 passing modulations with SD < 4,
from two beat measurements (not only R amplitude and QRS area, or PPG amplitude and intensity).
Fused: every passing modulation, intervals counted once, the one furthest from the median left out
while >= 3 disagree; >= 2 with SD < 4, from two measurements.

Usage: python3 scripts/respiration/noise-gate.py [--json]
"""
import json
import sys

import numpy as np
from scipy.signal import butter, sosfiltfilt

GRID, WINDOW, MARGIN = 4.0, 32.0, 4.0
SETTINGS = [(0.0, 20.0), (0.2, 3.0), (0.3, 3.0), (0.4, 3.0)]
SOS = butter(2, [0.1, 0.7], btype="band", fs=GRID, output="sos")
FREQS = np.arange(13, 257) / 256.0
BAND = (FREQS >= 0.1) & (FREQS <= 0.7)
N = int(WINDOW * GRID)
DFT = np.exp(-2j * np.pi * np.outer(FREQS, np.arange(N)) / GRID)


def filtered(t, v, start):
    """One modulation's window starting at `start`: interpolated onto the GRID-Hz grid with MARGIN s
    each side, band-passed forwards and backwards, cut to the window and detrended (the stage's
    estimator; spectral-threshold.py and count-agreement.py use it too)."""
    pad = int(MARGIN * GRID)
    grid = start + (np.arange(N + 2 * pad) - pad) / GRID
    x = np.interp(grid, t, v)
    x = x - x.mean()
    y = sosfiltfilt(SOS, x)[pad:pad + N]
    i = np.arange(N) - (N - 1) / 2
    return y - y.mean() - (i @ y) / (i @ i) * i


def estimate(t, v, start):
    y = filtered(t, v, start)
    p = np.abs(DFT @ (y * (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(N) / (N - 1))))) ** 2
    k = int(np.argmax(np.where(BAND, p, -1)))
    purity = p[max(0, k - 16):k + 17].sum() / p.sum()
    f = FREQS[k]
    lag = GRID / f
    energy = y @ y
    l0 = int(lag)
    w = lag - l0

    def ac(j):
        return (y[:N - j] @ y[j:]) / energy if j < N else 0.0
    acf = ac(l0) * (1 - w) + ac(l0 + 1) * w
    z = np.where((y[:-1] < 0) & (y[1:] >= 0))[0]
    zt = z + (-y[z]) / (y[z + 1] - y[z])
    counted = 60 * GRID * (len(zt) - 1) / (zt[-1] - zt[0]) if len(zt) >= 3 else None
    return f * 60, purity, acf, counted


def passes(e, acf_min, tol):
    rate, purity, acf, counted = e
    return purity >= 0.3 and acf >= acf_min and counted is not None and abs(counted - rate) <= tol


# The beat measurement each modulation is read from: the interval, or one sensor's amplitudes (R
# amplitude and QRS area; PPG amplitude and intensity). Agreement needs two measurements (issue 31:
# modulations of one measurement share its noise).
MEASUREMENT = {"ecg_amplitude": "ecg", "ecg_qrs_area": "ecg", "frequency": "interval", "ppg_amplitude": "ppg",
               "ppg_intensity": "ppg"}


def agree(named, reject):
    """named: (modulation name, rate) pairs."""
    named = list(named)
    while reject and len(named) >= 3 and np.std([r for _, r in named], ddof=1) >= 4:
        rates = np.array([r for _, r in named])
        named.pop(int(np.argmax(np.abs(rates - np.median(rates)))))
    rates = [r for _, r in named]
    return (len(rates) >= 2 and np.std(rates, ddof=1) < 4
            and len({MEASUREMENT[k] for k, _ in named}) >= 2)


def windows(seed):
    rng = np.random.default_rng(seed)
    t, rows = 0.5, []
    while t < 640:
        def u():
            return rng.uniform(-1, 1) * 0.1
        amp, area = 1 + u(), 0.08 * (1 + u())
        foot, pa = 1.0 + u() * 0.05, 0.5 * (1 + u())
        rows.append((t, amp, area, pa, foot + pa / 2))
        t += 60 / 72 * (1 + u() * 0.5)
    b = np.array(rows)
    times, rr = b[:, 0], np.diff(b[:, 0])
    for k in range(1, 19):
        s = k * WINDOW

        def cut(tt, v):
            m = (tt >= s - MARGIN) & (tt < s + WINDOW + MARGIN)
            return estimate(tt[m], v[m], s)
        yield {"ecg_amplitude": cut(times, b[:, 1]), "ecg_qrs_area": cut(times, b[:, 2]),
               "frequency": cut(times[1:], rr), "ppg_amplitude": cut(times, b[:, 3]), "ppg_intensity": cut(times, b[:, 4])}


def main():
    all_windows = [w for seed in range(40) for w in windows(seed)]
    out = []
    for acf_min, tol in SETTINGS:
        fused = ecg = ppg = 0
        for w in all_windows:
            ok = {k: e[0] for k, e in w.items() if passes(e, acf_min, tol)}
            e_rates = [(k, ok[k]) for k in ("ecg_amplitude", "ecg_qrs_area", "frequency") if k in ok]
            p_rates = [(k, ok[k]) for k in ("ppg_amplitude", "ppg_intensity", "frequency") if k in ok]
            ecg += agree(e_rates, False)
            ppg += agree(p_rates, False)
            fused += agree(list(ok.items()), True)
        n = len(all_windows)
        out.append(dict(min_autocorrelation=acf_min, count_agreement_bpm=tol, windows=n,
                        ecg_share=ecg / n, ppg_share=ppg / n, fused_share=fused / n))
    if "--json" in sys.argv:
        print(json.dumps(out))
    else:
        for r in out:
            print(r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
