"""Reference results of scipy.signal.find_peaks for PeakFinder.

Each case is a signal `<case>.npy` plus parameter sets; for each (case, set) the expected peaks and
the properties SciPy returned are saved as one float64 matrix `<case>__<set>.npy` whose columns
are listed per run in params.json ("peak" first; indices are exact in float64).

Ties: `_select_by_peak_distance` orders peaks with `np.argsort(heights)`, NumPy's *unstable*
quicksort, whose order for equal heights depends on the CPU's SIMD sort (AVX-512 vs AVX2 vs
generic). SensorPipe breaks such ties as a stable sort does (of equal heights, the later peak is
kept), so the expected values are computed by SciPy's own find_peaks with np.argsort forced to
kind='stable'. Cases where the tie order changes SciPy's answer are flagged `tie_sensitive`.
"""
import contextlib
import json
import numpy as np
from scipy import signal

COLUMNS = ["peak", "peak_heights", "left_thresholds", "right_thresholds", "prominences",
           "left_bases", "right_bases", "widths", "width_heights", "left_ips", "right_ips",
           "plateau_sizes", "left_edges", "right_edges"]


@contextlib.contextmanager
def stable_argsort():
    original = np.argsort
    np.argsort = lambda a, *args, **kw: original(a, kind="stable")
    try:
        yield
    finally:
        np.argsort = original


def to_kwargs(p):
    kw = {}
    for key in ["height", "threshold", "prominence", "width", "plateau_size"]:
        if key in p:
            lo, hi = p[key]
            kw[key] = (lo, hi)
    for key in ["distance", "wlen", "rel_height"]:
        if key in p:
            kw[key] = p[key]
    return kw


def run(x, p):
    kw = to_kwargs(p)
    peaks_default, _ = signal.find_peaks(x, **kw)
    with stable_argsort():
        peaks, props = signal.find_peaks(x, **kw)
    columns = ["peak"] + [name for name in COLUMNS[1:] if name in props]
    table = np.column_stack([peaks] + [props[name] for name in columns[1:]]).astype(np.float64)
    table = table.reshape(len(peaks), len(columns))
    sensitive = not np.array_equal(peaks_default, peaks)
    return table, columns, sensitive


def ecg_like(rng, fs, seconds, quantum=None):
    """Sum-of-Gaussians ECG (after McSharry et al. 2003) with varying RR, wander and noise."""
    n = int(fs * seconds)
    t = np.arange(n) / fs
    x = np.zeros(n)
    beat = 0.3
    waves = [(-0.2, 0.025, 0.12), (-0.04, 0.01, -0.15), (0.0, 0.012, 1.2), (0.04, 0.01, -0.25),
             (0.25, 0.04, 0.3)]  # (offset s, width s, amplitude mV): P, Q, R, S, T
    while beat < seconds - 0.5:
        for off, width, amp in waves:
            x += amp * np.exp(-0.5 * ((t - beat - off) / width) ** 2)
        beat += 0.8 + 0.1 * rng.standard_normal()
    x += 0.15 * np.sin(2 * np.pi * 0.3 * t) + 0.02 * rng.standard_normal(n)
    if quantum:
        x = np.round(x / quantum) * quantum
    return x


def generate(out):
    rng = np.random.default_rng(20261202)
    cases = {}
    t = np.arange(3000) / 250
    cases["noisy"] = np.sin(2 * np.pi * 1.3 * t) + 0.5 * np.sin(2 * np.pi * 0.21 * t) \
        + 0.3 * rng.standard_normal(3000)
    cases["white"] = rng.standard_normal(1000)
    cases["ecg"] = ecg_like(rng, 360, 12)
    cases["ecg_adc"] = ecg_like(rng, 360, 12, quantum=0.005)  # integer ADC counts: ties, plateaus
    cases["quantized"] = np.round(rng.standard_normal(2000) * 2)
    cases["plateaus"] = np.array([0, 1, 1, 0, 2, 2, 2, 2, 1, 3, 3, 3, 0, 5, 5, 5, 5, 6, 1, 4, 4,
                                  4, 4, 4, 4, 0, 4, 4, 1, 2, 2, 3, 3, 3, 3, 2, 7, 7], float)
    cases["ties"] = np.array([0, 5, 0, 5, 0, 5, 0, 3, 0, 5, 0, 0, 0, 5, 1, 5, 0, 2, 2, 0, 5, 0,
                              4, 0, 4, 0, 4, 0, 4, 0], float)
    cases["edges"] = np.array([9, 1, 2, 1, 3, 3, 8], float)
    cases["monotonic"] = np.arange(10, dtype=float)
    cases["constant"] = np.ones(8)
    cases["short3"] = np.array([0.0, 1.0, 0.0])
    cases["short2"] = np.array([0.0, 1.0])
    cases["empty"] = np.zeros(0)

    # Parameter sets: (lo, hi) pairs use None for an open end.
    sets = {
        "none": {},
        "height": {"height": (0.5, None)},
        "height_band": {"height": (0.2, 1.0)},
        "distance": {"distance": 25},
        "distance_frac": {"distance": 7.3},
        "prominence": {"prominence": (0.5, None)},
        "prominence_band_wlen": {"prominence": (0.2, 1.5), "wlen": 51},
        "prominence_wlen_even": {"prominence": (0.0, None), "wlen": 20},
        "threshold": {"threshold": (0.05, None)},
        "threshold_band": {"threshold": (0.01, 0.5)},
        "width": {"width": (3, None)},
        "width_rel": {"width": (1, 40), "rel_height": 0.8, "prominence": (0.3, None)},
        "plateau": {"plateau_size": (2, None)},
        "all": {"height": (0.0, None), "threshold": (0.0, None), "distance": 10,
                "prominence": (0.2, None), "width": (0, None), "wlen": 101, "plateau_size": (1, 3)},
        "ecg_r": {"height": (0.5, None), "distance": 72, "prominence": (0.6, None)},
        "ecg_r_wlen": {"distance": 108, "prominence": (0.4, 3.0), "wlen": 360, "width": (1, 30)},
        "tie_distance": {"distance": 3},
        "tie_distance_long": {"distance": 9},
        "props_only": {"prominence": (None, None), "width": (None, None), "height": (None, None),
                       "threshold": (None, None), "plateau_size": (None, None)},
    }
    plan = {
        "noisy": ["none", "height", "height_band", "distance", "distance_frac", "prominence",
                  "prominence_band_wlen", "prominence_wlen_even", "threshold", "threshold_band",
                  "width", "width_rel", "all", "props_only"],
        "white": ["none", "distance", "prominence", "width_rel", "all", "props_only"],
        "ecg": ["none", "ecg_r", "ecg_r_wlen", "width_rel", "props_only"],
        "ecg_adc": ["none", "ecg_r", "ecg_r_wlen", "plateau", "distance", "props_only"],
        "quantized": ["none", "tie_distance", "tie_distance_long", "plateau", "prominence",
                      "all", "props_only"],
        "plateaus": ["none", "plateau", "distance", "tie_distance", "props_only", "all"],
        "ties": ["none", "tie_distance", "tie_distance_long", "props_only"],
        "edges": ["none", "props_only", "distance"],
        "monotonic": ["none", "props_only"],
        "constant": ["none", "props_only"],
        "short3": ["none", "props_only"],
        "short2": ["none", "props_only"],
        "empty": ["none", "props_only"],
    }
    index = []
    for case, x in cases.items():
        np.save(out / f"{case}.npy", x)
        for name in plan[case]:
            table, columns, sensitive = run(x, sets[name])
            np.save(out / f"{case}__{name}.npy", table)
            index.append({"case": case, "set": name, "peaks": len(table), "columns": columns,
                          "tie_sensitive": sensitive})
    (out / "params.json").write_text(json.dumps(
        {"sets": sets, "runs": index}, indent=1))
    flagged = [f"{r['case']}/{r['set']}" for r in index if r["tie_sensitive"]]
    print(f"peaks: {len(index)} runs; tie-sensitive under this NumPy's argsort: {flagged}")
