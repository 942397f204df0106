#!/usr/bin/env python3
"""Write the reference values for the ECG signal-quality tests (Tests/CardioTests/Fixtures/quality/).

Usage: python3 scripts/make-sqi-fixtures.py        (needs numpy, scipy, neurokit2: pip install neurokit2)

Every case is one 10-s synthetic ECG from `neurokit2.ecg_simulate` (fixed `random_state`), with
extra noise or baseline wander for some, saved as float32 `<case>.npy`; its R-peaks, found by
NeuroKit2 (`ecg_peaks` on `ecg_clean`ed signal, method 'neurokit'), as int64 `<case>_rpeaks.npy`.
`cases.json` holds, per case, two kinds of reference value, both computed here and never by the
Swift code under test:

* NeuroKit2's own numbers (`nk_*`): `_ecg_quality_kSQI` (Pearson kurtosis), `_ecg_quality_pSQI`,
  `_ecg_quality_basSQI`, the labels of `ecg_quality(method='zhao2018')` with approach 'simple' and
  'fuzzy' (three indices, qSQI left out), and the mean of `ecg_quality(method='templatematch')`
  over the beats. NeuroKit2's PSD differs from SensorPipe's on purpose (see docs in
  Sources/Cardio/Quality), so the Swift tests hold pSQI/basSQI to 2 % of these.
* Reference implementations with NumPy/SciPy of the definitions SensorPipe documents (`ref_*`):
  skewness (scipy.stats.skew), the Welch band-power ratios, Elgendi (2013) QRS detection, bSQI
  (Li et al. 2008), the Orphanidou et al. (2015) rules and template correlation, and the Zhao &
  Zhang (2018) heuristic fusion and fuzzy comprehensive evaluation with four indices. The Swift
  tests hold these to 1e-9 (indices), exactly (beat indices, labels).
"""
import json
import pathlib
import warnings

import numpy as np
import scipy.signal
import scipy.stats

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "Tests" / "CardioTests" / "Fixtures" / "quality"


# ---------------------------------------------------------------------------------------------
# Reference definitions (independent of the Swift code)
# ---------------------------------------------------------------------------------------------
def band_power(f, p, lo, hi):
    m = (f >= lo) & (f < hi)
    return float(np.trapezoid(p[m], f[m]))


def welch_psd(x, fs):
    x = x - x.mean()
    nper = len(x) // 2
    return scipy.signal.welch(x, fs=fs, window="hann", nperseg=nper, noverlap=nper // 2,
                              nfft=2 * nper, detrend=False, scaling="density")


def spectral_sqis(x, fs):
    """pSQI = P[5,15)/P[5,40), basSQI = 1 - P[0,1)/P[0,40): Welch PSD of the mean-removed window,
    Hann segments of n//2 samples, 50 % overlap, FFT length 2*(n//2), no per-segment detrend;
    band power by the trapezoid rule over the bins with lo <= f < hi."""
    f, p = welch_psd(x, fs)
    psqi = band_power(f, p, 5, 15) / band_power(f, p, 5, 40)
    bassqi = 1 - band_power(f, p, 0, 1) / band_power(f, p, 0, 40)
    return psqi, bassqi


def centered_moving_average(z, w):
    """Mean of z[k-h : k-h+w] (h = (w-1)//2), clipped at the ends and divided by the samples present."""
    n = len(z)
    c = np.concatenate([[0.0], np.cumsum(z)])
    k = np.arange(n)
    lo = np.clip(k - (w - 1) // 2, 0, n)
    hi = np.clip(k - (w - 1) // 2 + w, 0, n)
    return (c[hi] - c[lo]) / (hi - lo)


def elgendi2013(x, fs):
    """Elgendi (2013): 3rd-order Butterworth 8-20 Hz forward-backward, squaring, centred moving
    averages of W1 = 97 ms and W2 = 611 ms, offset 0.08 * mean(squared), blocks where MA_QRS >
    MA_beat + offset lasting >= W1 samples, one beat at the first maximum of the squared signal
    in each block."""
    sos = scipy.signal.butter(3, [8, 20], btype="bandpass", fs=fs, output="sos")
    y = scipy.signal.sosfiltfilt(sos, x.astype(np.float64))
    z = y * y
    w1 = int(round(0.097 * fs))
    w2 = int(round(0.611 * fs))
    ma_qrs = centered_moving_average(z, w1)
    ma_beat = centered_moving_average(z, w2)
    blocks = ma_qrs > ma_beat + 0.08 * z.mean()
    peaks = []
    i, n = 0, len(z)
    while i < n:
        if not blocks[i]:
            i += 1
            continue
        j = i
        while j < n and blocks[j]:
            j += 1
        if j - i >= w1:
            peaks.append(i + int(np.argmax(z[i:j])))
        i = j
    return np.array(peaks, dtype=np.int64)


def bsqi(a, b, tol, n):
    """Li et al. (2008): matched / (|A| + |B| - matched), a beat matching at most one other beat
    within `tol` samples (two-pointer greedy over the sorted lists). Beats closer than `tol` to
    either end of the n-sample window are left out of both lists (one detector may see a beat cut
    by the window edge that the other misses)."""
    a = sorted(int(x) for x in a if tol <= x < n - tol)
    b = sorted(int(x) for x in b if tol <= x < n - tol)
    i = j = m = 0
    while i < len(a) and j < len(b):
        if abs(a[i] - b[j]) <= tol:
            m += 1
            i += 1
            j += 1
        elif a[i] < b[j]:
            i += 1
        else:
            j += 1
    union = len(a) + len(b) - m
    return 0.0 if union == 0 else m / union


def orphanidou(x, peaks, fs):
    n = len(x)
    peaks = np.array(sorted(p for p in peaks if 0 <= p < n), dtype=np.int64)
    out = {"hr": None, "max_gap": None, "rr_ratio": None, "feasible": False, "corr": None}
    if len(peaks) < 2:
        return out
    rr = np.diff(peaks)
    hr = 60.0 * fs / rr.mean()
    gaps = np.concatenate([[peaks[0]], rr, [n - peaks[-1]]]) / fs
    ratio = rr.max() / rr.min()
    out.update(hr=float(hr), max_gap=float(gaps.max()), rr_ratio=float(ratio))
    out["feasible"] = bool(40 <= hr <= 180 and gaps.max() <= 3 and ratio <= 2.2)
    w = int(np.round(np.median(rr)))
    beats = [x[p - w // 2: p - w // 2 + w].astype(np.float64) for p in peaks
             if p - w // 2 >= 0 and p - w // 2 + w <= n]
    if len(beats) >= 2:
        t = np.mean(beats, axis=0)
        out["corr"] = float(np.mean([np.corrcoef(b, t)[0, 1] for b in beats]))
    return out


def zhao_fuzzy(q, p, k, b):
    """Zhao & Zhang (2018) fuzzy comprehensive evaluation as SensorPipe reads it (see
    ZhaoZhangFuzzyEvaluation.swift): memberships to (excellent, barely acceptable, unacceptable),
    weights (0.4, 0.4, 0.1, 0.1), bounded sum, weighted average of 1, 2, 3 with weights b_j^2."""
    q, b = 100 * q, 100 * b
    r = []
    r.append([0.0 if q <= 80 else (q / 100 if q >= 90 else 1 / (1 + 1 / (0.3 * (q - 80)) ** 2)),
              1 / (1 + ((q - 75) / 7.5) ** 2),
              1.0 if q <= 55 else 1 / (1 + ((q - 55) / 5) ** 2)])
    up_h = 0.0 if p <= 0.25 else (1.0 if p >= 0.35 else (p - 0.25) / 0.1)
    if p < 0.18 or p >= 0.32:
        up_i = 0.0
    elif p < 0.22:
        up_i = 25 * (p - 0.18)
    elif p < 0.28:
        up_i = 1.0
    else:
        up_i = 25 * (0.32 - p)
    up_j = 1.0 if p < 0.15 else (0.0 if p > 0.25 else (0.25 - p) / 0.1)
    r.append([up_h, up_i, up_j])
    r.append([1.0, 0.0, 0.0] if k > 5 else [0.0, 0.0, 1.0])
    r.append([0.0 if b <= 90 else (b / 100 if b >= 95 else 1 / (1 + 1 / (0.8718 * (b - 90)) ** 2)),
              1 / (1 + ((b - 92) / 2.5) ** 2),
              1.0 if b <= 85 else 1 / (1 + ((b - 85) / 5) ** 2)])
    w = [0.4, 0.4, 0.1, 0.1]
    s = [min(1.0, sum(w[i] * r[i][j] for i in range(4))) for j in range(3)]
    v = sum(s[j] ** 2 * (j + 1) for j in range(3)) / sum(s[j] ** 2 for j in range(3))
    label = "excellent" if v < 1.5 else ("unacceptable" if v >= 2.4 else "barely_acceptable")
    return v, label, r


def zhao_simple(q, p, k, b, max_hr):
    qc = 2 if q > 0.90 else (0 if q < 0.60 else 1)
    l1, l2, l3 = (0.5, 0.8, 0.4) if max_hr < 130 else (0.4, 0.7, 0.3)
    pc = 2 if l1 < p < l2 else (1 if l3 < p < l1 else 0)
    kc = 2 if k > 5 else 0
    bc = 2 if b >= 0.95 else (0 if b < 0.9 else 1)
    c = [qc, pc, kc, bc]
    opt, sus, unq = c.count(2), c.count(1), c.count(0)
    if unq >= 3 or (unq == 2 and sus >= 1) or (unq == 1 and sus == 3):
        return "unacceptable"
    if opt >= 3 and unq == 0:
        return "excellent"
    return "barely_acceptable"


# ---------------------------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------------------------
CASES = [
    # name, sampling rate (Hz), heart rate (bpm), ecg_simulate noise (mV), seed, extra
    ("clean_360", 360, 60, 0.01, 1, None),
    ("noise010_250", 250, 90, 0.1, 2, None),
    ("noise030_500", 500, 75, 0.3, 3, None),
    ("clean_125", 125, 70, 0.05, 4, None),
    ("wander_1000", 1000, 70, 0.05, 5, ("wander", 0.6, 0.8)),
    ("noise100_360", 360, 80, 1.0, 6, None),
    ("tachy_360", 360, 140, 0.05, 7, None),
    ("muscle_360", 360, 65, 0.02, 8, ("muscle", 0.0, 0.25)),
    ("gaussian_360", 360, 0, 0.0, 9, ("gaussian", 0.0, 1.0)),
]


def make_signal(fs, hr, noise, seed, extra):
    import neurokit2 as nk
    n = 10 * fs
    rng = np.random.default_rng(seed)
    if extra is not None and extra[0] == "gaussian":
        return rng.normal(0, extra[2], n)
    x = nk.ecg_simulate(duration=10, sampling_rate=fs, heart_rate=hr, noise=noise, random_state=seed)
    t = np.arange(n) / fs
    if extra is not None and extra[0] == "wander":
        x = x + extra[2] * np.sin(2 * np.pi * extra[1] * t + 0.3)
    if extra is not None and extra[0] == "muscle":
        sos = scipy.signal.butter(4, [20, 0.45 * fs], btype="bandpass", fs=fs, output="sos")
        x = x + scipy.signal.sosfilt(sos, rng.normal(0, extra[2] * 3, n))
    return x


def main():
    import neurokit2 as nk
    from neurokit2.ecg.ecg_quality import _ecg_quality_basSQI, _ecg_quality_kSQI, _ecg_quality_pSQI
    OUT.mkdir(parents=True, exist_ok=True)
    print(f"numpy {np.__version__}, scipy {scipy.__version__}, neurokit2 {nk.__version__}")
    table = {"neurokit2": nk.__version__, "cases": {}}
    for name, fs, hr, noise, seed, extra in CASES:
        x32 = make_signal(fs, hr, noise, seed, extra).astype(np.float32)
        x = x32.astype(np.float64)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _, info = nk.ecg_peaks(nk.ecg_clean(x, sampling_rate=fs), sampling_rate=fs, method="neurokit")
            rpeaks = np.asarray(info["ECG_R_Peaks"], dtype=np.int64)
            nk_psqi = float(_ecg_quality_pSQI(x, sampling_rate=fs))
            nk_bassqi = float(_ecg_quality_basSQI(x, sampling_rate=fs))
            nk_simple = nk.ecg_quality(x, rpeaks=rpeaks, sampling_rate=fs, method="zhao2018", approach="simple")
            nk_fuzzy = nk.ecg_quality(x, rpeaks=rpeaks, sampling_rate=fs, method="zhao2018", approach="fuzzy")
            try:
                tm = nk.ecg_quality(x, rpeaks=rpeaks, sampling_rate=fs, method="templatematch")
                nk_template = float(np.mean(tm[rpeaks[:-1]])) if len(rpeaks) > 2 else None
            except Exception:  # noqa: BLE001 - NeuroKit2 raises on too few beats
                nk_template = None
        np.save(OUT / f"{name}.npy", x32)
        np.save(OUT / f"{name}_rpeaks.npy", rpeaks)
        secondary = elgendi2013(x, fs)
        np.save(OUT / f"{name}_elgendi.npy", secondary)
        psqi, bassqi = spectral_sqis(x, fs)
        ksqi = float(scipy.stats.kurtosis(x, fisher=False))
        q = bsqi(rpeaks, secondary, int(round(0.15 * fs)), len(x))
        f, p = welch_psd(x, fs)
        bas_from_04 = 1 - band_power(f, p, 0.4, 1) / band_power(f, p, 0.4, 40)
        orph = orphanidou(x, rpeaks, fs)
        max_hr = 60.0 * fs / np.min(np.diff(rpeaks)) if len(rpeaks) > 1 else 1.0
        v, fuzzy_label, memberships = zhao_fuzzy(q, psqi, ksqi, bassqi)
        table["cases"][name] = {
            "sample_rate": fs,
            "nk_kSQI": float(_ecg_quality_kSQI(x)),
            "nk_pSQI": nk_psqi,
            "nk_basSQI": nk_bassqi,
            "nk_label_simple": nk_simple,
            "nk_label_fuzzy": nk_fuzzy,
            "nk_template_mean": nk_template,
            "ref_kSQI": ksqi,
            "ref_sSQI": float(scipy.stats.skew(x)),
            "ref_pSQI": psqi,
            "ref_basSQI": bassqi,
            "ref_basSQI_from_0p4": bas_from_04,
            "ref_bSQI": q,
            "ref_hr": orph["hr"],
            "ref_max_gap": orph["max_gap"],
            "ref_rr_ratio": orph["rr_ratio"],
            "ref_feasible": orph["feasible"],
            "ref_template_corr": orph["corr"],
            "ref_max_hr": float(max_hr),
            "ref_fuzzy_score": v,
            "ref_fuzzy_memberships": memberships,
            "ref_label_fuzzy": fuzzy_label,
            "ref_label_simple": zhao_simple(q, psqi, ksqi, bassqi, max_hr),
        }
        c = table["cases"][name]
        print(f"{name:14s} k={ksqi:7.3f} p={psqi:.4f}/{nk_psqi:.4f} bas={bassqi:.4f}/{nk_bassqi:.4f} "
              f"[{bas_from_04:.4f}] b={q:.3f} corr={orph['corr']} V={v:.3f} {fuzzy_label:17s} {c['ref_label_simple']:17s} "
              f"nk: {nk_simple} / {nk_fuzzy}")
    with open(OUT / "cases.json", "w") as f:
        json.dump(table, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
