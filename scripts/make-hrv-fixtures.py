#!/usr/bin/env python3
"""Write the NeuroKit2 reference values that the Cardio HRV tests compare against.

Usage: python3 scripts/make-hrv-fixtures.py

Writes Tests/CardioTests/Fixtures/hrv/: fixed NN-interval series (inputs, .npy, ms) and, per
series, a JSON file with NeuroKit2's `hrv_time`, `hrv_frequency` (Welch and Lomb-Scargle) and
`hrv_nonlinear` outputs, plus a few independent reference values computed here where NeuroKit2's
own value is not the documented definition (see `extra` in each JSON and the notes below). A
second group of fixtures holds beat series with injected artefacts and NeuroKit2's
`signal_fixpeaks(method="Kubios")` detections (Lipponen & Tarvainen 2019).

Requires: numpy, scipy, pandas, neurokit2 (0.2.13), astropy (Lomb-Scargle), wfdb (MIT-BIH
annotations). `pip install neurokit2==0.2.13 astropy wfdb`.

Real-derived series: N-to-N intervals of MIT-BIH Arrhythmia Database record 100 reference
annotations (G. B. Moody and R. G. Mark, "The impact of the MIT-BIH Arrhythmia Database", IEEE
Eng. Med. Biol. 20(3):45-50, 2001; PhysioNet, A. L. Goldberger et al., Circulation
101(23):e215-e220, 2000; doi:10.13026/C2F305; Open Data Commons Attribution licence v1.0), read
from ../shared/datasets/mitdb when present (otherwise the committed .npy files are kept).

Notes on the extra references:
- `frequency_welch` is `hrv_frequency(..., normalize=False)`: NeuroKit2's default
  (`normalize=True`) divides the PSD by its maximum, so band powers are unitless; SensorPipe
  reports ms^2. Ratios (LFHF, LFn, HFn) are the same either way (`frequency_welch_normalized`).
- `frequency_lomb` is `hrv_frequency(psd_method="lomb", interpolation_rate=None,
  normalize=False)`: astropy's Lomb-Scargle on the raw beat times, 'psd' normalisation (units
  ms^2, not ms^2/Hz) and, with > 200 frequencies, astropy's approximate 'fast' method.
  `frequency_lomb_exact` repeats NeuroKit2's pipeline with astropy's exact 'cython' method.
- `tinn_task_force`: TINN by exhaustive least-squares triangle fit over the whole histogram
  (Task Force 1996). NeuroKit2's `_hrv_TINN` never resets its inner loop variable and caps the
  error at 2**14, so it only tries the first N and returns 0 for long recordings.
"""
import json
import pathlib
import warnings

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "Tests" / "CardioTests" / "Fixtures" / "hrv"
MITDB = ROOT.parent / "shared" / "datasets" / "mitdb"


def _save(name, a, dtype=np.float64):
    np.save(OUT / f"{name}.npy", np.ascontiguousarray(a, dtype=dtype))


def _clean(d):
    out = {}
    for k, v in d.items():
        v = float(v)
        out[k.removeprefix("HRV_")] = None if not np.isfinite(v) else v
    return out


def synthetic_nn(rng, count, mean, lf, hf, vlf, noise, quantize=False):
    """NN series (ms) from a continuous-time RR modulation sampled at the beats.

    rr(t) = mean + lf sin(2 pi 0.1 t) + hf sin(2 pi f_resp t) + VLF random walk + white noise, with
    a slowly drifting respiratory frequency (0.22-0.3 Hz).
    """
    rr = np.empty(count)
    t = 0.0
    walk = 0.0
    phase_hf = rng.uniform(0, 2 * np.pi)
    phase_lf = rng.uniform(0, 2 * np.pi)
    for k in range(count):
        walk = 0.995 * walk + vlf * rng.standard_normal()
        f_resp = 0.26 + 0.04 * np.sin(2 * np.pi * t / 137.0)
        phase_hf += 2 * np.pi * f_resp * (rr[k - 1] / 1000 if k else mean / 1000)
        value = (mean + lf * np.sin(2 * np.pi * 0.1 * t + phase_lf) + hf * np.sin(phase_hf)
                 + walk + noise * rng.standard_normal())
        rr[k] = value
        t += value / 1000
    if quantize:
        rr = np.round(rr)
    return rr


def mitdb_nn(record):
    """N-to-N intervals (ms) and the time (s) of each interval's closing beat."""
    import wfdb
    ann = wfdb.rdann(str(MITDB / record), "atr")
    fs = 360.0
    beat_symbols = set("NLRBAaJSVrFejnE/fQ?")
    samples = [s for s, sym in zip(ann.sample, ann.symbol) if sym in beat_symbols]
    symbols = [sym for sym in ann.symbol if sym in beat_symbols]
    nn, times = [], []
    for k in range(1, len(samples)):
        if symbols[k] == "N" and symbols[k - 1] == "N":
            nn.append((samples[k] - samples[k - 1]) / fs * 1000)
            times.append(samples[k] / fs)
    return np.array(nn), np.array(times)


def tinn_task_force(rri, binsize=1000 / 128):
    """TINN (ms): least-squares triangle over the whole histogram, NeuroKit2's binning."""
    bins = np.arange(0, np.max(rri) + binsize, binsize)
    counts, edges = np.histogram(rri, bins=bins)
    x = edges[:-1]                        # bin k's count sits at its left edge, as NeuroKit2
    peak = int(np.argmax(counts))
    X, Y = x[peak], counts[peak]
    best = (np.inf, 0.0, 0.0)
    for n in range(0, peak):
        for m in range(peak + 1, len(x) + 1):
            M = x[m] if m < len(x) else edges[-1]
            q = np.zeros(len(x))
            left = (x >= x[n]) & (x <= X)
            q[left] = Y * (x[left] - x[n]) / (X - x[n])
            right = (x > X) & (x < M)
            q[right] = Y * (M - x[right]) / (M - X)
            err = np.sum((counts - q) ** 2)
            if err < best[0]:
                best = (err, x[n], M)
    return best[2] - best[1]


def lomb_exact(nk, rri, rri_time):
    """NeuroKit2's Lomb-Scargle pipeline with astropy's exact ('cython') method."""
    import astropy.timeseries
    from neurokit2.hrv.intervals_process import intervals_process
    rri, t, _ = intervals_process(rri, intervals_time=rri_time, interpolate=True, interpolation_rate=None)
    signal = rri - np.mean(rri)
    n = len(signal)
    min_frequency = (2 * np.median(np.diff(t))) / (n / 2)
    ls = astropy.timeseries.LombScargle(t, signal, normalization="psd")
    frequency = ls.autofrequency(minimum_frequency=min_frequency)
    power = ls.power(frequency, method="cython")
    keep = (frequency >= min_frequency) & (frequency <= 0.5)
    frequency, power = frequency[keep], power[keep]
    bands = {"ULF": (0, 0.0033), "VLF": (0.0033, 0.04), "LF": (0.04, 0.15), "HF": (0.15, 0.4), "VHF": (0.4, 0.5)}
    out = {}
    for name, (lo, hi) in bands.items():
        w = (frequency >= lo) & (frequency < hi)
        p = np.trapezoid(power[w], frequency[w])
        out[name] = np.nan if p == 0 else p
    tp = np.nansum(list(out.values()))
    out.update(TP=tp, LFHF=out["LF"] / out["HF"], LFn=out["LF"] / tp, HFn=out["HF"] / tp, LnHF=np.log(out["HF"]))
    return _clean(out), {"min_frequency": min_frequency, "frequency_count": int(len(frequency)),
                         "mean_sample_rate": (len(t) - 1) / (t[-1] - t[0])}


def hrv_reference(name, rri, rri_time=None):
    import neurokit2 as nk
    _save(f"{name}_nn", rri)
    data = {"RRI": rri}
    if rri_time is not None:
        _save(f"{name}_times", rri_time)
        data["RRI_Time"] = rri_time
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        time_domain = nk.hrv_time(dict(data))
        welch = nk.hrv_frequency(dict(data), normalize=False)
        welch_normalized = nk.hrv_frequency(dict(data))
        lomb = nk.hrv_frequency(dict(data), psd_method="lomb", interpolation_rate=None, normalize=False)
        nonlinear = nk.hrv_nonlinear(dict(data))
        exact, lomb_info = lomb_exact(nk, rri, rri_time)
    keep_nonlinear = ["SD1", "SD2", "SD1SD2", "S", "CSI", "CVI", "CSI_Modified", "SampEn", "ApEn",
                      "DFA_alpha1", "DFA_alpha2"]
    nl = _clean(nonlinear.iloc[0].to_dict())
    doc = {
        "series": name,
        "count": int(len(rri)),
        "has_times": rri_time is not None,
        "time": _clean(time_domain.iloc[0].to_dict()),
        "frequency_welch": _clean(welch.iloc[0].to_dict()),
        "frequency_welch_normalized": _clean(welch_normalized.iloc[0].to_dict()),
        "frequency_lomb": _clean(lomb.iloc[0].to_dict()),
        "frequency_lomb_exact": exact,
        "lomb_grid": lomb_info,
        "nonlinear": {k: nl.get(k) for k in keep_nonlinear},
        "extra": {"TINN_task_force": float(tinn_task_force(rri))},
    }
    (OUT / f"{name}.json").write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    print(f"{name}: {len(rri)} beats")


# MARK: - Artefacts (Lipponen & Tarvainen 2019 via NeuroKit2's Kubios method)

def artefact_case(name, rng, count, inject):
    """Peaks (sample indices at 1000 Hz) of a clean series with artefacts injected at fixed places."""
    import neurokit2 as nk
    rr = synthetic_nn(rng, count, 820, 25, 15, 2.0, 6.0, quantize=True)
    peaks = np.concatenate([[1000], 1000 + np.cumsum(rr)]).astype(np.int64)
    truth = {}
    peaks = list(peaks)
    offset = 0                     # earlier deletions/insertions shift later indices
    for index, kind in sorted(inject):
        index += offset
        if kind == "ectopic":      # premature beat followed by a compensatory pause
            peaks[index] = peaks[index] - int(0.3 * (peaks[index] - peaks[index - 1]))
        elif kind == "missed":     # beat not detected
            del peaks[index]
            offset -= 1
        elif kind == "extra":      # a false detection between two beats
            peaks.insert(index, peaks[index - 1] + int(0.45 * (peaks[index] - peaks[index - 1])))
            offset += 1
        elif kind == "long":       # a late detection (long then short interval)
            peaks[index] = peaks[index] + int(0.35 * (peaks[index + 1] - peaks[index]))
        truth[int(index)] = kind
    peaks = np.array(peaks, dtype=np.int64)
    _save(f"{name}_peaks", peaks, np.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        info, clean_iter = nk.signal_fixpeaks(peaks, sampling_rate=1000, iterative=True, method="Kubios")
        info1, clean_once = nk.signal_fixpeaks(peaks, sampling_rate=1000, iterative=False, method="Kubios")
    _save(f"{name}_corrected", clean_iter, np.int64)
    _save(f"{name}_corrected_once", clean_once, np.int64)
    doc = {
        "series": name,
        "sampling_rate": 1000,
        "injected": {str(k): v for k, v in sorted(truth.items())},
        "first_pass": {k: [int(i) for i in info1[k]] for k in ["ectopic", "missed", "extra", "longshort"]},
        "iterative": {k: [int(i) for i in info[k]] for k in ["ectopic", "missed", "extra", "longshort"]},
    }
    _save(f"{name}_drrs", info1["drrs"])
    _save(f"{name}_mrrs", info1["mrrs"])
    (OUT / f"{name}.json").write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    print(f"{name}: {len(peaks)} peaks, first pass {doc['first_pass']}")


def main():
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["hrv", "artefacts"], help="write only one group")
    args = parser.parse_args()
    import neurokit2
    import scipy
    print(f"neurokit2 {neurokit2.__version__}, numpy {np.__version__}, scipy {scipy.__version__}")
    OUT.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(20261207)
    if args.only != "artefacts":
        write_hrv(rng)
    if args.only != "hrv":
        write_artefacts(np.random.default_rng(20261208))


def write_hrv(rng):
    hrv_reference("syn300", synthetic_nn(rng, 300, 850, 35, 22, 1.5, 8.0))
    hrv_reference("syn1200q", synthetic_nn(rng, 1200, 780, 28, 12, 2.0, 5.0, quantize=True))
    hrv_reference("syn5000", synthetic_nn(rng, 5000, 900, 45, 30, 3.0, 10.0))
    if MITDB.exists():
        nn, times = mitdb_nn("100")
        hrv_reference("mitdb100", nn, times)
    else:
        print("mitdb not found: keeping the committed mitdb100 fixtures")


def write_artefacts(rng):
    artefact_case("artefacts1", rng, 900,
                  [(120, "ectopic"), (260, "missed"), (400, "extra"), (555, "long"), (700, "ectopic")])
    artefact_case("artefacts2", rng, 2400,
                  [(100, "missed"), (300, "missed"), (650, "extra"), (900, "ectopic"), (1300, "long"),
                   (1700, "extra"), (2100, "ectopic")])


if __name__ == "__main__":
    main()
