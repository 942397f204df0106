#!/usr/bin/env python3
"""Thresholds of the respiration family's spectral-fusion quality index (issue 31), from simulated
signals without breathing only (no BIDMC data is read).

The index (Sources/Respiration/RespiratorySpectrum.swift, re-written here, not called): each
modulation's Hann-windowed periodogram of the 4-Hz, 0.1-0.7 Hz band-passed, detrended window
(as scripts/respiration/noise-gate.py) normalised to unit power over 0.05-1 Hz; the mean of the
normalised spectra of the window's modulations (the ECG and PPG beat intervals averaged into one
modulation; Zhu et al. 2015's mean of normalised spectra, Charlton et al. 2016's spectral fusion)
over the window and its S neighbours each side (--span S, default 2 as RespirationOptions.spectralSpan:
five windows, look-ahead two; Welch-style averaging across adjacent windows; span 1's earlier thresholds were ECG 0.22 / 0.45, PPG 0.28 / 0.50, fused 0.23 / 0.40 over the inner windows); its peak in 0.1-0.7 Hz; the index is the share of the fused spectrum's 0.05-1 Hz
power within +-1/(2 x window) Hz of the peak (peak concentration). The second index (local
concentration) is the share of the fused spectrum within +-3/window Hz of the peak that
lies within +-1/(2 x window) Hz of it; the peak is the rate when either index reaches its threshold.

The no-breathing cases are those of RespirationSyntheticTests: noBreathingGivesNoRate (beats at
72/min, independent uniform noise in every modulation, +-10 %) and
motionWithoutBreathingGivesNoRate (random walks with steps in the amplitudes and the PPG baseline,
jittered beat times); 40 runs of 640 s each (fixed seeds). The threshold per source (ecg: amplitude,
QRS area, interval; ppg: amplitude, intensity, interval; fused: all five) is the largest value of
each index over the pooled windows of both cases (1,600: 20 windows per run, the first and last
included), rounded up to 0.01: no simulated window
without breathing reaches either (`windows_reaching_either` counts those that do: 0). (The 99.5th percentile, the first choice, let 3 windows of the Swift
motion test's own realisation through: ECG 0.215 ≥ 0.21, fused 0.219 and 0.215 ≥ 0.21.)

With --shares T1,T2,... also the share of those windows whose index reaches each T (per source).

Two more indices (RespirationOptions.modulationIndices), tried when neither above reaches
its threshold, over each modulation's spectra averaged across the same windows (its Welch spectrum):
the single modulation's peak -- of the window's own modulations, the one whose spectrum's peak is the
most concentrated, its concentration and local concentration (peak-conditioned averaging's peakness,
Bailon et al. 2006) -- and, for fused rows only, the product spectrum's peak: the geometric mean of
the modulations' spectra (spectral multiplication, Nemati et al. 2010), its two indices. Their
thresholds are the largest values over 7,200 windows, rounded up (`modulation_threshold`,
`product_threshold`): the 1,600 above, the 1,600 of --seeds validation and 4,000 more (noise seeds
3000-3099, motion 4000-4099). A single modulation's spectrum averages fewer spectra than the mean
of all, so its index's tail is heavier: at the maxima over the first 1,600 windows alone (PPG
0.35 / 0.51, product 0.21 / 0.38) a window of the Swift motion test (seed 11) and of the new
no-breathing test got a rate. They apply only where the span is full (not a run's first and last
SPAN windows, where fewer spectra are averaged): every maximum of them lay at those edges
(`modulation_maximum_at_the_edges_and_inside`), so the thresholds, taken over all windows, are
conservative inside. For these the source rows' modulation sets are the streams' own: the ECG's beat
interval is the ECG's (`ecg_frequency`), the PPG's the PPG's; fused rows average the two into one
modulation as the family does. `windows_reaching_any` counts the windows for which any of the
source's tests passes (the union: what the family's spectral rule lets through); `--seeds validation`
draws 80 other runs (noise seeds 1000-1039, motion 2000-2039) to check the thresholds out of sample.
At span 2: single modulation ECG 0.38 / 0.59, PPG 0.38 / 0.53, fused 0.38 / 0.59; product (fused)
0.23 / 0.38. The product index is used for fused rows only (in an exploratory run, not this
script, it let more of the validation runs' windows through on ECG rows and added no BIDMC coverage
on PPG rows).

At --span 2 (today's default): ECG 0.22 / 0.43, PPG 0.22 / 0.43, fused 0.22 / 0.40 (concentration /
local concentration); --span 1: 0.24 / 0.47, 0.29 / 0.48, 0.27 / 0.45 (the earlier span-1 thresholds 0.22 / 0.45,
0.28 / 0.50, 0.23 / 0.40 came from the 18 inner windows per run only); --span 3: 0.21 / 0.40,
0.22 / 0.43, 0.20 / 0.37; --span 4: 0.19 / 0.36, 0.20 / 0.38, 0.19 / 0.35.

Rate bands (RespirationOptions.rateBands, SpectralThreshold.rateBands): the noise of a
beat-sampled, interpolated modulation is coloured (interpolation low-passes it, motion walks add a
low-frequency hump), so its most concentrated chance peaks lie at low rates. For each source and each
band's lower rate (12, 16, 20 breaths/min) `rate_bands` gives the largest concentration and local
concentration over the 7,200 windows (those of the single-modulation indices, edges included) whose
fused-spectrum peak lies at that rate or above (an upper envelope), rounded up (the family applies them
only where the span is full): ECG 0.22 / 0.38, 0.18 / 0.38, 0.16 / 0.38;
PPG 0.26 / 0.43, 0.22 / 0.42, 0.18 / 0.40; fused 0.21 / 0.38, 0.19 / 0.38, 0.16 / 0.33. The family
uses min(flat threshold, band's). `--bands-check` draws 7,200 other windows (noise seeds 5000-5179,
motion 6000-6179; not used for any threshold) and counts the windows reaching today's flat thresholds
and today's banded ones, per source (`flat`, `banded`): the out-of-sample false rate of each rule
(ECG 4 / 4, PPG 10 / 12, fused 0 / 0).

Joint index (RespirationOptions.jointIndex, SpectralThreshold.jointBands): the product of the
fused-spectrum peak's concentration and local concentration; per source and band (below 12, from 12, 16,
20 breaths/min) `joint_bands` is its largest value over the 7,200 windows whose span is full (the family
applies it only there) and whose peak lies at that rate or above, rounded up to 0.001: ECG 0.078, 0.070,
0.053, 0.043; PPG 0.090, 0.090, 0.071, 0.059; fused 0.076, 0.062, 0.049, 0.048. `--bands-check` also
counts the windows reaching today's banded thresholds or the joint index (`joint`; ECG 8, PPG 13,
fused 1 of 7,200). With --without-intervals (each source's windows without the beat interval, judged at
today's thresholds): ECG 409, PPG 717, fused 133 of 7,200 -- which is why the family gives a row whose
own modulations lack the beat interval no spectral rate (since session 22; before, such windows, where
the intervals are identical or, PPG, the pulses' window is unacceptable for its rhythm only, were
judged at these thresholds).

Usage: python3 scripts/respiration/spectral-threshold.py [--bands-check [--without-intervals]] [--span S] [--json] [--shares T1,T2,...] [--seeds validation]
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
# two windows, as RespirationOptions.spectralSpan; 1 averages nothing).
SPAN = int(sys.argv[sys.argv.index("--span") + 1]) if "--span" in sys.argv else 2
SOURCES = {
    "ecg": [("ecg_amplitude",), ("ecg_qrs_area",), ("frequency",)],
    "ppg": [("ppg_amplitude",), ("ppg_intensity",), ("frequency",)],
    "fused": [("ecg_amplitude",), ("ecg_qrs_area",), ("frequency",), ("ppg_amplitude",), ("ppg_intensity",)],
}


def spectrum(t, v, start):
    """Normalised periodogram of one modulation over one window (the estimator of noise-gate.py)."""
    m = (t >= start - MARGIN) & (t < start + WINDOW + MARGIN)
    y = ng.filtered(t[m], v[m], start)
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
        s["frequency"] = (s["ecg_frequency"] + s["ppg_frequency"]) / 2
        out.append(s)
    return out


# The modulations of each row for the single-modulation indices: a stream's own beat interval.
OWN = {
    "ecg": ["ecg_amplitude", "ecg_frequency", "ecg_qrs_area"],
    "ppg": ["ppg_amplitude", "ppg_frequency", "ppg_intensity"],
    "fused": ["ecg_amplitude", "ecg_qrs_area", "frequency", "ppg_amplitude", "ppg_intensity"],
}


def peak(f):
    """Rate (breaths/min), concentration and local concentration of spectrum f's peak in the band."""
    p = int(np.argmax(np.where(BAND, f, -1)))
    near = f[max(0, p - REACH):p + REACH + 1].sum()
    return FREQS[p] * 60, near / f[PURITY].sum(), near / f[max(0, p - 6 * REACH):p + 6 * REACH + 1].sum()


def welch(run, k, mods):
    """Each modulation's spectra averaged over window k and its SPAN neighbours each side."""
    return {m: np.mean([run[j][m] for j in range(k - SPAN, k + SPAN + 1) if 0 <= j < len(run)], axis=0) for m in mods}


def single(run, k, mods):
    """Indices of the most concentrated single modulation's peak."""
    return max((peak(w) for w in welch(run, k, mods).values()), key=lambda v: v[1])[1:]


def product(run, k, mods):
    """Indices of the product spectrum's peak (geometric mean of the normalised Welch spectra)."""
    w = welch(run, k, mods).values()
    return peak(np.exp(np.mean([np.log(x / x.sum() + 1e-12) for x in w], axis=0)))[1:]


def indices(run, k, mods):
    """Concentration and local concentration of window k's fused-spectrum peak."""
    spectra = [run[j][m] for j in range(k - SPAN, k + SPAN + 1) if 0 <= j < len(run) for (m,) in mods]
    f = np.mean(spectra, axis=0)
    p = int(np.argmax(np.where(BAND, f, -1)))
    near = f[max(0, p - REACH):p + REACH + 1].sum()
    return near / f[PURITY].sum(), near / f[max(0, p - 6 * REACH):p + 6 * REACH + 1].sum()


# Today's rate bands (SpectralThreshold.rateBands): lower rate, concentration, local concentration.
RATE_EDGES = (12, 16, 20)
RATE_BANDS = {"ecg": [(12, 0.22, 0.38), (16, 0.18, 0.38), (20, 0.16, 0.38)],
              "ppg": [(12, 0.26, 0.43), (16, 0.22, 0.42), (20, 0.18, 0.40)],
              "fused": [(12, 0.21, 0.38), (16, 0.19, 0.38), (20, 0.16, 0.33)]}


def fused_peak(run, k, mods):
    """Rate, concentration and local concentration of window k's fused-spectrum peak."""
    return peak(np.mean([run[j][m] for j in range(k - SPAN, k + SPAN + 1) if 0 <= j < len(run) for (m,) in mods], axis=0))


def banded(source, rate, c0, l0):
    """The family's thresholds for a peak at `rate`: the flat (c0, l0), lowered to the rate band's."""
    c, v = c0, l0
    for edge, bc, bl in RATE_BANDS[source]:
        if rate >= edge:
            c, v = min(c0, bc), min(l0, bl)
    return c, v


# Today's joint index (SpectralThreshold.jointBands): lower rate, largest concentration x local
# concentration over the full-span windows whose peak lies at that rate or above.
JOINT_EDGES = (0, 12, 16, 20)
JOINT_BANDS = {"ecg": [(0, 0.078), (12, 0.070), (16, 0.053), (20, 0.043)],
               "ppg": [(0, 0.090), (12, 0.090), (16, 0.071), (20, 0.059)],
               "fused": [(0, 0.076), (12, 0.062), (16, 0.049), (20, 0.048)]}


def joint(source, rate):
    """Today's joint-index threshold for a peak at `rate` (full span only)."""
    return [t for edge, t in JOINT_BANDS[source] if rate >= edge][-1]


def bands_check():
    """Windows of 7,200 other simulated runs' windows reaching today's flat and banded thresholds, and
    the banded ones or today's joint index (`joint`). With --without-intervals each source's windows
    without the beat-interval modulation (the family leaves out a modulation without beat-to-beat
    variation, e.g. a paced rhythm's or a coarsely sampled recording's intervals, and judges the
    rest at the source's thresholds)."""
    runs = [windows(beats(seed, False)) for seed in range(5000, 5180)] + [windows(beats(seed, True)) for seed in range(6000, 6180)]
    out = {}
    sources = SOURCES
    if "--without-intervals" in sys.argv:
        sources = {k: [m for m in v if m != ("frequency",)] for k, v in SOURCES.items()}
    for source, mods in sources.items():
        (c0, l0), _, _ = DEFAULTS[source]
        peaks = [(fused_peak(r, k, mods), SPAN <= k < len(r) - SPAN) for r in runs for k in range(len(r))]
        flat = sum(c >= c0 or v >= l0 for (_, c, v), _ in peaks)
        # The bands apply only where the span is full (as the family applies them).
        band = sum(c >= t[0] or v >= t[1] for (r, c, v), full in peaks for t in [banded(source, r, c0, l0) if full else (c0, l0)])
        both = sum(c >= t[0] or v >= t[1] or (full and c * v >= joint(source, r))
                   for (r, c, v), full in peaks for t in [banded(source, r, c0, l0) if full else (c0, l0)])
        out[source] = dict(windows=len(peaks), flat=int(flat), banded=int(band), joint=int(both))
    return out


def index(run, k, mods):
    return indices(run, k, mods)[0]


def up(x):
    return float(np.ceil(max(x) * 100) / 100)


# Today's thresholds (RespirationOptions defaults and SpectralThreshold at span 2), for the counts of
# windows reaching them on another set of runs (--seeds validation).
DEFAULTS = {"ecg": ((0.22, 0.43), (0.38, 0.59), None), "ppg": ((0.22, 0.43), (0.38, 0.53), None),
            "fused": ((0.22, 0.40), (0.38, 0.59), (0.23, 0.38))}
# The runs the single-modulation indices' thresholds are the maxima over (noise seeds, motion seeds).
MORE = [(range(1000, 1040), range(2000, 2040)), (range(3000, 3100), range(4000, 4100))]


def main():
    if "--bands-check" in sys.argv:
        print(json.dumps(bands_check()))
        return 0
    noise, motion = (range(1000, 1040), range(2000, 2040)) if "--seeds" in sys.argv else (range(40), range(100, 140))
    runs = [windows(beats(seed, False)) for seed in noise] + [windows(beats(seed, True)) for seed in motion]
    # Unless --seeds validation: the single-modulation indices' thresholds over 7,200 windows.
    extra = [] if "--seeds" in sys.argv else [windows(beats(seed, m)) for n, mo in MORE for m, seeds in ((False, n), (True, mo))
                                               for seed in seeds]
    out = {}
    for source, mods in SOURCES.items():
        both = [indices(r, k, mods) for r in runs for k in range(len(r))]
        one = [single(r, k, OWN[source]) for r in runs for k in range(len(r))]
        prod = [product(r, k, OWN[source]) for r in runs for k in range(len(r))] if source == "fused" else None
        one_all = one + [single(r, k, OWN[source]) for r in extra for k in range(len(r))]
        prod_all = prod + [product(r, k, OWN[source]) for r in extra for k in range(len(r))] if prod else None
        x = [c for c, _ in both]
        loc = [v for _, v in both]
        p = float(np.percentile(x, 99.5))
        t, tl = up(x), up(loc)
        out[source] = dict(windows=len(x), p99_5=p, maximum=float(max(x)), threshold=t,
                           local_maximum=float(max(loc)), local_threshold=tl,
                           windows_reaching_either=int(sum(c >= t or v >= tl for c, v in both)),
                           modulation_windows=len(one_all),
                           modulation_threshold=[up([c for c, _ in one_all]), up([v for _, v in one_all])])
        if prod:
            out[source]["product_threshold"] = [up([c for c, _ in prod_all]), up([v for _, v in prod_all])]
        # The union of today's tests at today's thresholds (without the modulation indices: the first two only);
        # the modulation indices apply only where the span is full (not the first and last SPAN windows).
        (c0, l0), (c1, l1), pr = DEFAULTS[source]
        before = [c >= c0 or v >= l0 for c, v in both]
        full = [SPAN <= k < len(r) - SPAN for r in runs for k in range(len(r))]
        after = [b or (f and (c >= c1 or v >= l1 or (pr is not None and (pc >= pr[0] or pl >= pr[1]))))
                 for b, f, (c, v), (pc, pl) in zip(before, full, one, prod or [(0, 0)] * len(one))]
        edge = [c for f, (c, _) in zip([SPAN <= k < len(r) - SPAN for r in runs + extra for k in range(len(r))], one_all) if not f]
        out[source]["modulation_maximum_at_the_edges_and_inside"] = [
            float(max(edge)), float(max(c for f, (c, _) in zip([SPAN <= k < len(r) - SPAN for r in runs + extra for k in range(len(r))], one_all) if f))]
        out[source]["windows_reaching_today_before_session_17"] = int(sum(before))
        out[source]["windows_reaching_any_today"] = int(sum(after))
        if extra:
            # Rate bands: the envelope of each index over the 7,200 windows whose peak lies at each edge or above.
            peaks = [fused_peak(r, k, mods) for r in runs + extra for k in range(len(r))]
            out[source]["rate_bands"] = [(e, up([c for r, c, _ in peaks if r >= e]), up([v for r, _, v in peaks if r >= e]))
                                         for e in RATE_EDGES]
            out[source]["rate_band_windows"] = [int(sum(r >= e for r, _, _ in peaks)) for e in RATE_EDGES]
            # Joint index: the largest concentration x local concentration over the windows
            # whose span is full (where the family applies it) and whose peak lies at each edge or above,
            # rounded up to 0.001.
            full_all = [SPAN <= k < len(r) - SPAN for r in runs + extra for k in range(len(r))]
            out[source]["joint_bands"] = [(e, float(np.ceil(max(c * v for (r, c, v), f in zip(peaks, full_all) if f and r >= e) * 1000) / 1000))
                                          for e in JOINT_EDGES]
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
