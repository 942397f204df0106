#!/usr/bin/env python3
"""Prototype of the PPG spectral heart-rate method (Cardio/PPG/PPGSpectralHeartRate.swift) used to
choose its parameters on the 12 SPC 2015 *training* recordings only (issue 11). Not a reference
for any test: the Swift suite compares against the ECG-derived ground truth directly.

Per 8-s window (2-s step) at 25 Hz (band-pass 0.4-4 Hz, order-2 Butterworth, every 5th sample of
125 Hz): Hann window, 2048-point power spectra normalised to their maximum; PPG channels averaged
(S), accelerometer axes weighted by min(1, RMS/0.05 g) and summed (A); Wiener gain
W = S_bar / (S_bar + alpha*A), S_bar the mean of the last 2 S; emission S*W**gamma over 40-220 bpm;
Viterbi with a Gaussian random walk (sigma bpm per step, max 12 bpm). Online = arg-max of the
forward score; offline = the Viterbi path. After Temko 2017 (WFPV) and Zhang et al. 2015 (TROIKA).

    python3 scripts/ppg/spc2015-prototype.py [../shared/datasets/spc2015]

Per state f the emission is C(f) * (1 + lam * min(cap, C~(2f) / C(f))), C = S * W**gamma and C~(2f) the
cleaned power at the second harmonic divided by the band-pass's power gain there relative to f
(harmonic evidence after Temko 2017 and Salehizadeh et al. 2016, SpaMA).

Online, the reported rate is the emission's peak within +-refine bins of the tracked state
(TROIKA-style peak selection around the tracker's choice).

Prints the training-set MAE for each parameter set of the grids below. Chosen (training set
only): alpha 1; harmonic lam 1, cap 0.5 in both modes (on the grid, lam 2 or 3 makes recording
10, heart rate up to 176 bpm, lock partly onto half its rate online); offline gamma 1.25,
sigma 3 (1.02 bpm; its neighbours gamma 1-1.25 / sigma 3-4 are within 0.01 bpm except gamma 1 /
sigma 4, where recording 10 locks onto half its rate); online gamma 3, sigma 4, refine 2
(2.26 bpm; sigma 3-4 / refine 2-3 all give 2.26-2.29; gamma 2.5 locks recording 10 onto half
its rate, 13.6 bpm); online acquisition (first window) lam 10, cap 1 (2.08 bpm; lam 3 / cap 0.5
2.23, lam 10 / cap 0.5 2.16: the rule decides the first window of recordings 01, 02 and 03, few
windows, so this choice rests on little data).
"""
import glob
import itertools
import os
import sys

import numpy as np
import scipy.io as sio
import scipy.signal as ss

D = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../../shared/datasets/spc2015")
NFFT = 2048
FR = np.fft.rfftfreq(NFFT, 1 / 25) * 60
SEL = (FR >= 40) & (FR <= 220)


def training():
    for i in range(1, 13):
        f = [x for x in sorted(glob.glob(f"{D}/Training_data/DATA_{i:02d}_TYPE0*.mat")) if "BPM" not in x][0]
        s = sio.loadmat(f)["sig"]
        yield os.path.basename(f), s[1:3], s[3:6], sio.loadmat(f.replace(".mat", "_BPMtrace.mat"))["BPM0"].ravel()


def spectra(ppg, acc):
    sos = ss.butter(2, [0.4, 4], "bandpass", fs=125, output="sos")
    pf = ss.sosfilt(sos, ppg, axis=1)[:, ::5]
    af = ss.sosfilt(sos, acc, axis=1)[:, ::5]
    k_count = (ppg.shape[1] - 1000) // 250 + 1
    win = np.hanning(200)
    S, A, R = [], [], []
    for k in range(k_count):
        a, b = k * 50, k * 50 + 200
        X = np.abs(np.fft.rfft((pf[:, a:b] - pf[:, a:b].mean(1, keepdims=True)) * win, NFFT, axis=1)) ** 2
        S.append((X / X.max(1, keepdims=True)).mean(0))
        Y = np.abs(np.fft.rfft((af[:, a:b] - af[:, a:b].mean(1, keepdims=True)) * win, NFFT, axis=1)) ** 2
        A.append(Y / Y.max(1, keepdims=True))
        R.append(af[:, a:b].std(1))
    return np.array(S), np.array(A), np.array(R)


IDX = np.where(SEL)[0]


def band_gain(hz, lo=0.4, hi=4.0):
    """|H(f)|^2 of the order-2 Butterworth band-pass (analog prototype, as in the Swift code)."""
    x = (hz * hz - lo * hi) / (hz * (hi - lo))
    return 1 / (1 + x**4)


COMP = band_gain(FR[IDX] / 60) / band_gain(2 * FR[IDX] / 60)


def emissions(S, A, R, alpha, gamma, lam=1.0, cap=0.5, acq=None, avg=2, scale=0.05):
    """C = S * W**gamma; emission C(f) * (1 + lam * min(cap, C(2f) |H(f)|^2/|H(2f)|^2 / C(f)));
    acq = (lam, cap) of the first window (online acquisition)."""
    out, hist = [], []
    for k in range(len(S)):
        ak = (np.minimum(1, R[k] / scale)[:, None] * A[k]).sum(0)
        hist = (hist + [S[k]])[-avg:]
        sb = np.mean(hist, 0)
        C = S[k] * (sb / (sb + alpha * ak + 1e-12)) ** gamma
        c1, c2 = C[IDX], C[2 * IDX] * COMP
        lk, ck = acq if (acq and k == 0) else (lam, cap)
        e = c1 * (1 + lk * np.minimum(ck, c2 / (c1 + 1e-9)))
        out.append(e / e.sum())
    return np.array(out)


def track(E, sigma, online, maxjump=12, refine=0):
    """refine (online only): report the emission peak within +-refine bins of the tracked state."""
    fr = FR[SEL]
    n, d = len(fr), fr[1] - fr[0]
    offs = np.arange(-int(maxjump / d), int(maxjump / d) + 1)
    tl = -0.5 * (offs * d / sigma) ** 2
    L = np.log(E + 1e-9)
    def pick(k, s):
        lo, hi = max(0, s - refine), min(n, s + refine + 1)
        return fr[lo + np.argmax(E[k][lo:hi])]

    score, bp, out = L[0].copy(), np.zeros((len(E), n), int), [pick(0, np.argmax(L[0]))]
    for k in range(1, len(E)):
        ns, arg = np.full(n, -np.inf), np.zeros(n, int)
        for o, t in zip(offs, tl):
            src = np.arange(n) - o
            ok = (src >= 0) & (src < n)
            v = np.full(n, -np.inf)
            v[ok] = score[src[ok]] + t
            better = v > ns
            ns[better], arg[better] = v[better], src[better]
        score = ns + L[k]
        score -= score.max()
        bp[k] = arg
        out.append(pick(k, np.argmax(score)))
    if online:
        return np.array(out)
    s, path = np.argmax(score), []
    for k in range(len(E) - 1, -1, -1):
        path.append(s)
        s = bp[k][s]
    return fr[np.array(path[::-1])]


def main():
    data = [(name, spectra(p, a), bpm) for name, p, a, bpm in training()]

    def mae(mode, alpha, gamma, sigma, lam, cap, refine=0, acq=None):
        return np.mean(
            [
                np.mean(np.abs(track(emissions(*sp, alpha, gamma, lam, cap, acq), sigma, mode == "online", refine=refine)[: len(b)] - b))
                for _, sp, b in data
            ]
        )

    # Stage 1 (before the harmonic evidence): alpha, gamma, sigma without it (lam 0).
    for mode, alpha, gamma, sigma in itertools.product(("online", "offline"), (0.5, 1, 2), (1, 2, 3), (3, 6)):
        print(f"{mode:8s} alpha {alpha} gamma {gamma} sigma {sigma} lam 0: training MAE {mae(mode, alpha, gamma, sigma, 0, 0.5):.2f} bpm")
    # Stage 2: harmonic weight and cap at the stage-1 choices, then gamma and sigma again.
    for (mode, gamma, sigma), lam, cap in itertools.product((("online", 3, 6), ("offline", 1.5, 3)), (1, 2, 3), (0.25, 0.5, 1)):
        print(f"{mode:8s} gamma {gamma} sigma {sigma} lam {lam} cap {cap}: training MAE {mae(mode, 1, gamma, sigma, lam, cap):.3f} bpm")
    for gamma, sigma in itertools.product((0.75, 1, 1.25, 1.5, 2), (2.5, 3, 4)):
        print(f"offline  gamma {gamma} sigma {sigma} lam 1 cap 0.5: training MAE {mae('offline', 1, gamma, sigma, 1, 0.5):.3f} bpm")
    # Stage 3 (online): refinement radius with gamma and sigma.
    for gamma, sigma, refine in itertools.product((2.5, 3, 4), (3, 4, 5, 6), (0, 1, 2, 3)):
        print(f"online   gamma {gamma} sigma {sigma} refine {refine} lam 1 cap 0.5: training MAE {mae('online', 1, gamma, sigma, 1, 0.5, refine):.3f} bpm")
    # Stage 4 (online): acquisition weight and cap of the harmonic evidence in the first window.
    for lam, cap in itertools.product((1, 3, 10), (0.5, 1)):
        print(f"online   gamma 3 sigma 4 refine 2 acquisition lam {lam} cap {cap}: training MAE {mae('online', 1, 3, 4, 1, 0.5, 2, (lam, cap)):.3f} bpm")


if __name__ == "__main__":
    main()
