"""Reference vectors for DSP/FIR: windows, firwin designs, Kaiser formulas, convolution.

Arrays of many small cases are concatenated into one `.npy` with an index (offset, count and
parameters per case) in a JSON file, so the fixture folder stays small and readable.
"""
import json
import numpy as np
import scipy.signal as signal
import scipy.special as special


def _write_concatenated(out, stem, cases):
    """cases: list of (params dict, 1-D float64 array) -> <stem>.npy + <stem>.json."""
    offset = 0
    index = []
    for params, values in cases:
        entry = dict(params)
        entry["offset"] = offset
        entry["count"] = int(values.size)
        index.append(entry)
        offset += values.size
    data = np.concatenate([v for _, v in cases]) if cases else np.zeros(0)
    np.save(out / f"{stem}.npy", data.astype(np.float64))
    (out / f"{stem}.json").write_text(json.dumps(index, indent=1))


def _windows(out):
    names = [("rectangular", "boxcar", None), ("hann", "hann", None), ("hamming", "hamming", None),
             ("blackman", "blackman", None), ("kaiser", "kaiser", 0.0), ("kaiser", "kaiser", 2.5),
             ("kaiser", "kaiser", 8.6), ("kaiser", "kaiser", 14.0)]
    cases = []
    for name, scipy_name, beta in names:
        for m in [0, 1, 2, 3, 7, 16, 51, 256, 1025]:
            for sym in [True, False]:
                fn = getattr(signal.windows, scipy_name)
                w = fn(m, sym=sym) if beta is None else fn(m, beta, sym=sym)
                if m > 0:  # get_window (used by firwin) agrees with the window functions
                    spec = scipy_name if beta is None else (scipy_name, beta)
                    assert np.array_equal(w, signal.get_window(spec, m, fftbins=not sym))
                params = {"window": name, "count": m, "symmetric": sym}
                if beta is not None:
                    params["beta"] = beta
                cases.append((params, np.asarray(w, dtype=np.float64)))
    _write_concatenated(out, "windows", cases)


def _bessel(out):
    x = np.concatenate([np.linspace(0.0, 50.0, 201), [1e-8, 0.1, 75.0, 100.0, 200.0, 500.0]])
    np.save(out / "i0_x.npy", x)
    np.save(out / "i0.npy", special.i0(x))


def _designs(out):
    fs = 512.0
    cases = []

    def add(kind, numtaps, cutoff, window="hamming", pass_zero=None, scale=True, rate=fs):
        pz = {"lowpass": "lowpass", "highpass": "highpass", "bandpass": "bandpass",
              "bandstop": "bandstop"}.get(kind, pass_zero)
        h = signal.firwin(numtaps, cutoff, window=window, pass_zero=pz, scale=scale, fs=rate)
        params = {"kind": kind, "taps": numtaps, "cutoffs": list(np.atleast_1d(cutoff).astype(float)),
                  "sample_rate": rate, "scale": scale}
        if kind == "multiband":
            params["pass_zero"] = bool(pass_zero)
        if isinstance(window, tuple):
            params["window"] = window[0]
            params["beta"] = float(window[1])
        else:
            params["window"] = window
        cases.append((params, np.asarray(h, dtype=np.float64)))

    for n in [1, 2, 16, 31, 64, 101, 1025]:
        add("lowpass", n, 40.0)
        add("bandpass", n, [0.5, 40.0])
    for n in [1, 3, 31, 101, 1025]:
        add("highpass", n, 0.5)
        add("bandstop", n, [45.0, 55.0])
    for window in ["hann", "blackman", "boxcar", ("kaiser", 5.0)]:
        add("lowpass", 63, 20.0, window=window)
        add("bandpass", 63, [5.0, 30.0], window=window)
    add("lowpass", 51, 128.0)  # cutoff at fs/4: every other sinc term is ±0 rounding noise
    add("lowpass", 51, 20.0, scale=False)
    add("bandpass", 64, [5.0, 30.0], scale=False)
    add("lowpass", 21, 0.3, rate=2.0)  # normalised-frequency convention (fs = 2)
    add("multiband", 101, [20.0, 60.0, 100.0], pass_zero=True)
    add("multiband", 101, [20.0, 60.0, 100.0, 150.0], pass_zero=False)

    # Kaiser design from a specification (kaiserord, then firwin with ('kaiser', beta)).
    kaiser_specs = []
    for ripple, width_hz, kind, cutoff in [(60.0, 4.0, "lowpass", 40.0), (40.0, 1.0, "bandpass", [0.5, 40.0]),
                                           (80.0, 10.0, "highpass", 30.0), (25.0, 8.0, "bandstop", [45.0, 55.0])]:
        numtaps, beta = signal.kaiserord(ripple, width_hz / (0.5 * fs))
        if kind in ("highpass", "bandstop"):
            numtaps |= 1
        kaiser_specs.append({"ripple_db": ripple, "width_hz": width_hz, "sample_rate": fs,
                             "numtaps": int(signal.kaiserord(ripple, width_hz / (0.5 * fs))[0]),
                             "beta": float(beta)})
        add(kind, numtaps, cutoff, window=("kaiser", beta))
    _write_concatenated(out, "firwin", cases)

    atten = [0.0, 10.0, 21.0, 21.5, 30.0, 50.0, 50.5, 65.0, 120.0]
    kaiser = {
        "kaiserord": kaiser_specs,
        "kaiser_beta": [{"attenuation_db": a, "beta": float(signal.kaiser_beta(a))} for a in atten],
        "kaiser_atten": [{"taps": n, "width_hz": w, "sample_rate": fs,
                          "attenuation_db": float(signal.kaiser_atten(n, w / (0.5 * fs)))}
                         for n, w in [(11, 10.0), (101, 4.0), (1025, 1.0)]],
    }
    (out / "kaiser.json").write_text(json.dumps(kaiser, indent=1))


def _convolution(out):
    rng = np.random.default_rng(20261201)
    fs = 512.0
    # Long Float case: 1e5 samples through the 1025-tap 0.5–40 Hz band-pass.
    x = rng.standard_normal(100_000).astype(np.float32)
    h = signal.firwin(1025, [0.5, 40.0], pass_zero="bandpass", fs=fs)
    y = np.convolve(x.astype(np.float64), h, mode="same")
    np.save(out / "conv_long_x.npy", x)
    np.save(out / "conv_long_h.npy", h)
    np.save(out / "conv_long_y.npy", y.astype(np.float32))
    # Short Double cases, odd and even tap counts, 'same' alignment.
    short = []
    xs = rng.standard_normal(3000)
    np.save(out / "conv_short_x.npy", xs)
    for m in [1, 2, 31, 64, 257, 1000]:
        hs = rng.standard_normal(m)
        short.append(({"taps": m, "part": "h"}, hs))
        short.append(({"taps": m, "part": "y"}, np.convolve(xs, hs, mode="same")))
    _write_concatenated(out, "conv_short", short)
    # Signals shorter than the filter: y[n] = sum_k h[k] x[n + (M-1)//2 - k], len(y) == len(x),
    # i.e. the 'full' convolution sliced at the delay (np.convolve 'same' would return M samples).
    edge = []
    for m in [31, 64]:
        hs = rng.standard_normal(m)
        edge.append(({"taps": m, "part": "h"}, hs))
        for n in [1, 2, 5, 30, 31, 40]:
            xe = rng.standard_normal(n)
            d = (m - 1) // 2
            edge.append(({"taps": m, "length": n, "part": "x"}, xe))
            edge.append(({"taps": m, "length": n, "part": "y"}, np.convolve(xe, hs, mode="full")[d:d + n]))
    _write_concatenated(out, "conv_edge", edge)
    (out / "params.json").write_text(json.dumps({
        "conv_long": {"taps": 1025, "band_hz": [0.5, 40.0], "sample_rate": fs, "window": "hamming",
                      "count": int(x.size), "note": "y = np.convolve(float64(x), h, 'same'), stored float32"},
        "conv_short": {"count": int(xs.size), "note": "y = np.convolve(x, h, 'same') in float64"},
    }, indent=1))


def generate(out):
    _windows(out)
    _bessel(out)
    _designs(out)
    _convolution(out)
