"""Reference PSDs from scipy.signal.periodogram, welch and lombscargle (SciPy 1.17).

Inputs are saved too. Float32 inputs are cast to float64 *before* SciPy sees them, so the
reference is SciPy's double-precision answer for exactly the values the Swift test reads.
Frequencies for Lomb-Scargle are given to SciPy as angular frequencies 2*pi*f (f in Hz).
"""
import json
import warnings

import numpy as np
from scipy import signal


def _save(out, name, a, dtype=np.float64):
    np.save(out / f"{name}.npy", np.ascontiguousarray(a, dtype=dtype))


def _sig512(rng, n):
    """A wearable-like 512 Hz signal: offset, drift, tones, noise (float32)."""
    t = np.arange(n) / 512.0
    x = (3.0 + 0.8 * t / t[-1]
         + 0.6 * np.sin(2 * np.pi * 1.2 * t) + 0.3 * np.sin(2 * np.pi * 17.0 * t + 0.4)
         + 0.05 * np.sin(2 * np.pi * 100.3 * t) + 0.2 * rng.standard_normal(n))
    return x.astype(np.float32)


def _tachogram(rng, n, fs=4.0):
    """An HRV-style evenly resampled RR series in ms at 4 Hz (float64)."""
    t = np.arange(n) / fs
    return (820.0 + 40.0 * np.sin(2 * np.pi * 0.1 * t) + 25.0 * np.sin(2 * np.pi * 0.27 * t + 1.0)
            + 10.0 * np.sin(2 * np.pi * 0.03 * t) + 8.0 * rng.standard_normal(n))


def generate(out):
    rng = np.random.default_rng(20261201)
    params = {"welch": [], "periodogram": [], "lombscargle": [], "lombscargle_psd": []}

    x512 = _sig512(rng, 100_003)           # not a multiple of any hop used below
    _save(out, "x512", x512, np.float32)
    x4 = _tachogram(rng, 1201)             # odd length, float64
    _save(out, "x4", x4)
    signals = {"x512": (x512.astype(np.float64), 512.0), "x4": (x4, 4.0)}

    # --- Welch -----------------------------------------------------------------------------
    welch_cases = [
        # name, signal, length (None = all), kwargs
        ("w256_default", "x512", None, dict(nperseg=256)),
        ("w1000_linear_spectrum", "x512", None, dict(nperseg=1000, detrend="linear",
                                                     scaling="spectrum")),
        ("w4096_none_density", "x512", None, dict(nperseg=4096, detrend=False)),
        ("w4096_median_spectrum", "x512", None, dict(nperseg=4096, scaling="spectrum",
                                                     average="median")),
        ("w1000_median_even", "x512", 8_000, dict(nperseg=1000, noverlap=0, average="median")),
        ("w255_boxcar_pad512", "x512", 50_001, dict(nperseg=255, noverlap=100, nfft=512,
                                                    window="boxcar")),
        ("w1001_odd_linear", "x512", 30_000, dict(nperseg=1001, noverlap=700, detrend="linear")),
        ("w1001_pad1501_spectrum", "x512", 30_000, dict(nperseg=1001, nfft=1501,
                                                        scaling="spectrum")),
        ("hrv_w256_linear", "x4", None, dict(nperseg=256, detrend="linear")),
        ("hrv_w1000_constant", "x4", None, dict(nperseg=1000)),
        ("hrv_short_shrink", "x4", 200, dict(nperseg=256, detrend="linear")),
        ("hrv_short_shrink_nfft512", "x4", 200, dict(nperseg=256, nfft=512)),
    ]
    for name, sig, length, kw in welch_cases:
        x, fs = signals[sig]
        x = x if length is None else x[:length]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")     # nperseg > len(x) warning in the shrink case
            f, p = signal.welch(x, fs=fs, **kw)
        _save(out, f"welch_{name}_f", f)
        _save(out, f"welch_{name}_p", p)
        params["welch"].append(dict(name=name, signal=sig, length=len(x), fs=fs,
                                    nperseg=kw["nperseg"], noverlap=kw.get("noverlap"),
                                    nfft=kw.get("nfft"), window=kw.get("window", "hann"),
                                    detrend=str(kw.get("detrend", "constant")),
                                    scaling=kw.get("scaling", "density"),
                                    average=kw.get("average", "mean")))

    # --- Periodogram -----------------------------------------------------------------------
    periodogram_cases = [
        ("p1000_boxcar_constant", "x512", 1000, dict()),
        ("p1001_hann_linear_spectrum", "x512", 1001, dict(window="hann", detrend="linear",
                                                         scaling="spectrum")),
        ("p1000_pad1024_none", "x512", 1000, dict(nfft=1024, detrend=False)),
        ("p1000_pad1025_hann", "x512", 1000, dict(nfft=1025, window="hann")),
        ("p1000_trunc600_linear", "x512", 1000, dict(nfft=600, detrend="linear")),
        ("p20001_boxcar_constant", "x512", 20_001, dict()),
        ("hrv_p1201_constant", "x4", None, dict()),
        ("hrv_p1200_hann_linear", "x4", 1200, dict(window="hann", detrend="linear")),
    ]
    for name, sig, length, kw in periodogram_cases:
        x, fs = signals[sig]
        x = x if length is None else x[:length]
        f, p = signal.periodogram(x, fs=fs, **kw)
        _save(out, f"periodogram_{name}_f", f)
        _save(out, f"periodogram_{name}_p", p)
        params["periodogram"].append(dict(name=name, signal=sig, length=len(x), fs=fs,
                                          nfft=kw.get("nfft"), window=kw.get("window", "boxcar"),
                                          detrend=str(kw.get("detrend", "constant")),
                                          scaling=kw.get("scaling", "density")))

    # --- Lomb-Scargle on RR-interval-like uneven times -----------------------------------
    n_beats = 351
    rr = np.empty(n_beats)
    t = 0.0
    times = np.empty(n_beats)
    for i in range(n_beats):
        r = (0.82 + 0.04 * np.sin(2 * np.pi * 0.1 * t) + 0.025 * np.sin(2 * np.pi * 0.27 * t)
             + 0.01 * rng.standard_normal())
        t += r
        times[i] = t
        rr[i] = 1000.0 * r                      # ms, with its large mean (floating mean matters)
    weights = rng.uniform(0.2, 1.0, n_beats)
    _save(out, "ls_times", times)
    _save(out, "ls_values", rr)
    _save(out, "ls_weights", weights)
    # Evenly spaced grid (Swift: start + j*step) and an unsorted arbitrary list.
    grid_start, grid_step, grid_count = 0.0033, 0.001, 497
    grid_hz = grid_start + np.arange(grid_count) * grid_step
    list_hz = rng.uniform(0.003, 0.6, 300)
    _save(out, "ls_list_hz", list_hz)
    params["ls_grid"] = dict(start=grid_start, step=grid_step, count=grid_count)
    ls_cases = []
    for normalize in ["power", "normalize", "amplitude"]:
        for floating in [False, True]:
            ls_cases.append((normalize, floating, False))
    ls_cases += [("power", True, True), ("normalize", True, True), ("amplitude", False, True),
                 ("power", False, True)]
    for normalize, floating, weighted in ls_cases:
        for freq_name, f_hz in [("grid", grid_hz), ("list", list_hz)]:
            p = signal.lombscargle(times, rr, 2 * np.pi * f_hz, normalize=normalize,
                                   weights=weights if weighted else None, floating_mean=floating)
            name = f"ls_{normalize}_{'float' if floating else 'fixed'}_" \
                   f"{'w' if weighted else 'u'}_{freq_name}"
            if normalize == "amplitude":
                p = np.column_stack([p.real, p.imag]).ravel()
            _save(out, name, p)
            params["lombscargle"].append(dict(name=name, normalize=normalize,
                                              floating_mean=floating, weighted=weighted,
                                              frequencies=freq_name))

    # --- Lomb-Scargle 'psd' normalisation vs the periodogram for even sampling ------------
    # For evenly sampled data at the Fourier frequencies k*fs/N (0 < k < N/2) the one-sided
    # LS PSD must equal scipy.signal.periodogram's density (boxcar).
    y4 = x4[:1200]
    t4 = np.arange(1200) / 4.0
    f, p_none = signal.periodogram(y4, fs=4.0, detrend=False)
    _, p_const = signal.periodogram(y4, fs=4.0, detrend="constant")
    _save(out, "lspsd_t", t4)
    _save(out, "lspsd_f", f[1:600])
    _save(out, "lspsd_p_none", p_none[1:600])
    _save(out, "lspsd_p_constant", p_const[1:600])

    (out / "params.json").write_text(json.dumps(params, indent=1))
