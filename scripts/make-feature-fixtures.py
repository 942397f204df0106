#!/usr/bin/env python3
"""Write the reference values of the feature catalog (Tests/FeaturesTests/Fixtures/reference/).

Usage: python3 scripts/make-feature-fixtures.py        (needs numpy, scipy, pycatch22 1.0.2)

Every case is a short synthetic signal (fixed seeds), saved as `<case>.npy` (float64 holding
float32-exact values: the Swift code reads blocks of Float). `cases.json` holds, per case, the
sample rate, the channels and, per channel, every feature of the default catalog computed here
with NumPy/SciPy straight from the definitions in docs/FEATURES.md, never by the Swift code:

* statistics: numpy mean/std/var/min/max/median/percentile (linear), scipy.stats.iqr, skew,
  kurtosis (Fisher, biased), median_abs_deviation; histogram entropy with numpy.histogram(10)
  and scipy.stats.entropy;
* temporal: sign-bit crossings, numpy.diff, the biased autocorrelation by direct summation
  (numpy.correlate, not an FFT), numpy.polyfit slope, scipy.signal.find_peaks;
* spectral: scipy.signal.welch (hann, nperseg=min(n, 10 s * fs), noverlap=nperseg//2,
  detrend='constant', density) and the definitions on its output.

Undefined values are null; a window is flat (skewness, kurtosis, autocorrelation and spectral
features undefined) when its variance is within rounding of zero, scipy.stats.skew's rule. The `gappy` case masks samples 100..149 (NaN in the file): its
reference is computed on the remaining 450 samples, concatenated (never interpolated). The
`triaxial` case has x, y, z columns; its `mag` channel is sqrt(x²+y²+z²) and `xyz_sma` the signal
magnitude area.

catch22: `catch22_<case>.npy` (float64 series) and `catch22.json` hold, per case, the 22 values
`pycatch22.catch22_all(x, mask_nans=False)` (pycatch22 1.0.2, catch22 C v1.1.0) gives: noise,
sine, AR(1), random walk, a short (45) and a long (4000) series, and a constant one (every
feature NaN, written null). The Swift code never computes them.
"""
import json
import pathlib
import warnings

import numpy as np
import scipy.signal
import scipy.stats

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "Tests" / "FeaturesTests" / "Fixtures" / "reference"
BANDS = [(0.1, 0.5), (0.5, 3.0), (3.0, 8.0), (8.0, 20.0)]
WELCH_SEGMENT_S = 10.0
ACF_LAG_S = 1.0


def band_name(lo, hi):
    def word(x):
        return (str(int(x)) if x == int(x) else str(x)).replace(".", "p")

    return f"bandpower_{word(lo)}_{word(hi)}hz"


def features(x, fs):
    x = np.asarray(x, dtype=np.float64)
    n = len(x)
    out = {}
    mean = np.mean(x)
    out["mean"] = mean
    out["std"] = np.std(x)
    out["var"] = np.var(x)
    out["min"] = np.min(x)
    out["max"] = np.max(x)
    out["range"] = np.max(x) - np.min(x)
    out["median"] = np.median(x)
    out["iqr"] = scipy.stats.iqr(x)
    for p in (5, 25, 75, 95):
        out[f"p{p:02d}"] = np.percentile(x, p)
    # scipy.stats.skew's rule: a variance within rounding of zero means a flat window.
    flat = np.var(x) <= (np.finfo(np.float64).resolution * mean) ** 2
    out["skewness"] = None if flat else scipy.stats.skew(x)
    out["kurtosis"] = None if flat else scipy.stats.kurtosis(x)
    out["rms"] = np.sqrt(np.mean(x * x))
    out["median_abs_dev"] = scipy.stats.median_abs_deviation(x)
    out["mean_abs_dev"] = np.mean(np.abs(x - mean))
    counts, _ = np.histogram(x, bins=10)
    out["hist_entropy"] = 0.0 if np.ptp(x) == 0 else scipy.stats.entropy(counts)

    sb = np.signbit(x)
    out["zero_crossing_rate"] = np.count_nonzero(sb[1:] != sb[:-1]) * fs / n
    sm = np.signbit(x - mean)
    out["mean_crossing_rate"] = np.count_nonzero(sm[1:] != sm[:-1]) * fs / n
    out["mean_abs_diff"] = np.mean(np.abs(np.diff(x))) if n > 1 else None
    y = x - mean
    full = np.correlate(y, y, mode="full")[n - 1 :]
    r0 = full[0]
    lag = int(round(ACF_LAG_S * fs))
    if not flat and r0 > 0 and n > 1:
        acf = full / r0
        out["acf_lag1"] = acf[1]
        out[f"acf_{int(round(ACF_LAG_S * 1000))}ms"] = acf[lag] if 1 <= lag < n else None
        zeros = np.nonzero(acf[1:] <= 0)[0]
        out["acf_first_zero"] = (zeros[0] + 1) / fs if len(zeros) else None
    else:
        out["acf_lag1"] = None
        out[f"acf_{int(round(ACF_LAG_S * 1000))}ms"] = None
        out["acf_first_zero"] = None
    out["slope"] = np.polyfit(np.arange(n) / fs, x, 1)[0] if n > 1 else None
    out["peak_count"] = len(scipy.signal.find_peaks(x)[0])

    nperseg = min(n, max(1, int(round(WELCH_SEGMENT_S * fs))))
    f, p = scipy.signal.welch(
        x, fs=fs, window="hann", nperseg=nperseg, noverlap=nperseg // 2, detrend="constant", scaling="density"
    )
    cumulative = np.cumsum(p)
    total = cumulative[-1]
    names = [
        "dominant_frequency",
        "dominant_power",
        "spectral_centroid",
        "spectral_spread",
        "spectral_entropy",
        "spectral_flatness",
        "spectral_rolloff",
        "spectral_edge_frequency",
    ] + [band_name(lo, hi) for lo, hi in BANDS]
    if flat or not (total > 0):
        for k in names:
            out[k] = None
    else:
        k = 1 + int(np.argmax(p[1:]))
        out["dominant_frequency"] = f[k]
        out["dominant_power"] = p[k]
        centroid = np.sum(f * p) / total
        out["spectral_centroid"] = centroid
        out["spectral_spread"] = np.sqrt(np.sum((f - centroid) ** 2 * p) / total)
        q = p / total
        q = q[q > 0]
        out["spectral_entropy"] = -np.sum(q * np.log(q)) / np.log(len(p))
        above = p[1:]
        out["spectral_flatness"] = 0.0 if np.any(above == 0) else np.exp(np.mean(np.log(above))) / np.mean(above)
        out["spectral_rolloff"] = f[np.argmax(cumulative >= 0.85 * total)]
        out["spectral_edge_frequency"] = f[np.argmax(cumulative >= 0.95 * total)]
        df = f[1] - f[0]
        for lo, hi in BANDS:
            if lo >= fs / 2:
                out[band_name(lo, hi)] = None
            else:
                m = (f >= lo) & (f < hi)
                out[band_name(lo, hi)] = np.sum(p[m]) * fs / nperseg
    return {k: (None if v is None else float(v)) for k, v in out.items()}


def f32(x):
    return np.asarray(x, dtype=np.float32).astype(np.float64)


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(20261202)
    cases = {}

    def add(name, fs, columns, note):
        data = np.column_stack([f32(c) for c in columns.values()])
        np.save(OUT / f"{name}.npy", data)
        channels = {}
        valid = np.all(np.isfinite(data), axis=1)
        kept = data[valid]
        for j, c in enumerate(columns):
            channels[c] = features(kept[:, j], fs)
        if list(columns) == ["x", "y", "z"]:
            mag = np.sqrt(np.sum(kept**2, axis=1))
            channels["mag"] = features(mag, fs)
            channels["xyz"] = {"sma": float(np.mean(np.sum(np.abs(kept), axis=1)))}
        cases[name] = {"sample_rate": fs, "columns": list(columns), "note": note, "channels": channels}

    t = np.arange(500) / 50.0
    add("sine_noise", 50.0, {"value": 0.3 * np.sin(2 * np.pi * 1.8 * t) + 0.05 * rng.standard_normal(500) + 0.02}, "1.8 Hz sine + noise, 10 s at 50 Hz")
    walk = np.cumsum(rng.standard_normal(5120)) * 3.0
    add("random_walk", 512.0, {"value": walk}, "random walk, 10 s at 512 Hz")
    add("short_odd", 50.0, {"value": rng.standard_normal(37)}, "37 samples (odd Welch segment)")
    add("ties", 25.0, {"value": np.round(rng.standard_normal(250) * 2)}, "integer values: ties and plateaus, 25 Hz")
    add("constant", 50.0, {"value": np.full(500, 0.981)}, "constant window: undefined values are null")
    gx = 0.2 * np.sin(2 * np.pi * 2.1 * t) + 0.03 * rng.standard_normal(500)
    gy = 0.1 * np.cos(2 * np.pi * 2.1 * t) + 0.03 * rng.standard_normal(500)
    gz = -1.0 + 0.25 * np.sin(2 * np.pi * 4.2 * t + 0.3) + 0.03 * rng.standard_normal(500)
    add("triaxial", 50.0, {"x": gx, "y": gy, "z": gz}, "three axes with gravity on z, 50 Hz")
    gappy = 0.5 * np.sin(2 * np.pi * 0.9 * t) + 0.1 * rng.standard_normal(500)
    gappy[100:150] = np.nan
    add("gappy", 50.0, {"value": gappy}, "samples 100..149 masked: reference on the other 450")

    with open(OUT / "cases.json", "w") as fh:
        json.dump(cases, fh, indent=1, sort_keys=True)
        fh.write("\n")
    print(f"wrote {len(cases)} cases to {OUT}")
    catch22_fixtures()


def catch22_fixtures():
    import pycatch22
    import scipy.signal

    import importlib.metadata

    assert importlib.metadata.version("pycatch22") == "1.0.2", "the fixtures are pycatch22 1.0.2 values"
    rng = np.random.default_rng(2022)
    series = {
        "noise": rng.standard_normal(500),
        "sine": np.sin(2 * np.pi * np.arange(500) / 27.0) + 0.2 * rng.standard_normal(500),
        "ar1": scipy.signal.lfilter([1.0], [1.0, -0.8], rng.standard_normal(600)),
        "random_walk": np.cumsum(rng.standard_normal(700)),
        "short": rng.standard_normal(45),
        "long": scipy.signal.lfilter([1.0], [1.0, -0.95], rng.standard_normal(4000)),
        "constant": np.full(200, 0.981),
    }
    out = {}
    for name, x in series.items():
        np.save(OUT / f"catch22_{name}.npy", np.asarray(x, dtype=np.float64))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = pycatch22.catch22_all(list(map(float, x)), mask_nans=False)
        out[name] = {k: (None if v != v else float(v)) for k, v in zip(r["names"], r["values"])}
    with open(OUT / "catch22.json", "w") as fh:
        json.dump(out, fh, indent=1, sort_keys=True)
        fh.write("\n")
    print(f"wrote {len(out)} catch22 cases to {OUT}")


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    main()
