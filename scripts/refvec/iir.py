"""Reference designs and filter outputs from scipy.signal for the IIR (SOS) area.

Writes, under Tests/DSPTests/Fixtures/iir/:
- designs.json: scipy.signal.butter(N, Wn, btype, fs=fs, output='sos') over a grid of orders,
  band types, sample rates and edges, with sosfilt_zi(sos) and sosfiltfilt's default padlen.
- x.npy: a 1e5-sample ECG-like test signal at 512 Hz, float32 (the Swift side reads the same).
- bp4_*.npy: order-4 band-pass 0.5-40 Hz at 512 Hz: sosfilt, sosfilt with zi = sosfilt_zi*x[0],
  sosfiltfilt on the whole signal (float32 outputs of float64 computations), plus float64
  outputs on the first 10,000 samples for the Double tests.
- <name>_sosfilt.npy / <name>_sosfiltfilt.npy: other designs on the first 5,000 samples (float64).
- zi_*.npy: sosfilt with an arbitrary zi (final conditions zf too).
- pad_*.npy: sosfiltfilt with explicit padlen.
All filtering is done in float64 on the float32 signal promoted to float64.
"""
import json

import numpy as np
from scipy import signal

FS = 512.0


def ecg_like(n, fs, rng):
    """Sum of QRS-like Gaussian pulses at ~72 bpm with T waves, baseline wander, mains, noise."""
    t = np.arange(n) / fs
    x = np.zeros(n)
    beat = 0.0
    while beat < t[-1] + 1:
        rr = 0.83 + 0.05 * rng.standard_normal()
        x += 1.2 * np.exp(-0.5 * ((t - beat) / 0.012) ** 2)            # R
        x -= 0.25 * np.exp(-0.5 * ((t - beat - 0.03) / 0.01) ** 2)     # S
        x += 0.3 * np.exp(-0.5 * ((t - beat - 0.25) / 0.04) ** 2)      # T
        beat += rr
    x += 0.4 * np.sin(2 * np.pi * 0.15 * t) + 0.2 * np.sin(2 * np.pi * 0.33 * t + 1.0)
    x += 0.05 * np.sin(2 * np.pi * 50 * t)
    x += 0.03 * rng.standard_normal(n)
    x += 1.5  # electrode offset
    return x.astype(np.float32)


def sosfilt_longdouble(sos, x, zi):
    """sosfilt (transposed direct form II, as SciPy) in np.longdouble."""
    ld = np.longdouble
    c = sos.astype(ld)
    z = np.array(zi, dtype=ld)
    out = np.empty(len(x), dtype=ld)
    for i, v in enumerate(np.asarray(x, dtype=ld)):
        for k in range(len(c)):
            b0, b1, b2, _, a1, a2 = c[k]
            o = b0 * v + z[k, 0]
            z[k, 0] = b1 * v - a1 * o + z[k, 1]
            z[k, 1] = b2 * v - a2 * o
            v = o
        out[i] = v
    return out


def sosfilt_zi_longdouble(sos):
    """sosfilt_zi by the explicit 2x2 solution, in np.longdouble."""
    ld = np.longdouble
    zi = np.zeros((len(sos), 2), dtype=ld)
    scale = ld(1)
    for k, (b0, b1, b2, _, a1, a2) in enumerate(sos.astype(ld)):
        r0, r1 = b1 - a1 * b0, b2 - a2 * b0
        z0 = (r0 + r1) / (1 + a1 + a2)
        zi[k] = [scale * z0, scale * (r1 - a2 * z0)]
        scale *= (b0 + b1 + b2) / (1 + a1 + a2)
    return zi


def sosfiltfilt_longdouble(sos, x):
    """sosfiltfilt with SciPy's defaults (odd padding, zi * edge) in np.longdouble."""
    ntaps = 2 * len(sos) + 1 - min((sos[:, 2] == 0).sum(), (sos[:, 5] == 0).sum())
    p = 3 * ntaps
    x = np.asarray(x, dtype=np.longdouble)
    ext = np.concatenate((2 * x[0] - x[p:0:-1], x, 2 * x[-1] - x[-2:-(p + 2):-1]))
    zi = sosfilt_zi_longdouble(sos)
    y = sosfilt_longdouble(sos, ext, zi * ext[0])[::-1]
    y = sosfilt_longdouble(sos, y, zi * y[0])[::-1]
    return y[p:-p].astype(np.float64)


def design_grid():
    designs = []
    orders = [1, 2, 3, 4, 5, 8, 10, 15, 20]
    for fs in [512.0, 125.0, 1000.0]:
        singles = [0.5, 0.08 * fs, 0.4 * fs]
        bands = [(0.5, min(40.0, 0.3 * fs)), (0.1 * fs, 0.2 * fs), (0.05, 0.5)]
        for order in orders:
            for btype in ["lowpass", "highpass"]:
                for f in singles:
                    designs.append((order, btype, [f], fs))
            for btype in ["bandpass", "bandstop"]:
                for lo, hi in bands:
                    designs.append((order, btype, [lo, hi], fs))
    return designs


def generate(out):
    rng = np.random.default_rng(20261201)
    records = []
    for order, btype, edges, fs in design_grid():
        wn = edges[0] if len(edges) == 1 else edges
        sos = signal.butter(order, wn, btype, fs=fs, output="sos")
        ntaps = 2 * len(sos) + 1 - min((sos[:, 2] == 0).sum(), (sos[:, 5] == 0).sum())
        records.append({
            "order": order, "btype": btype, "edges": edges, "fs": fs,
            "sos": sos.tolist(), "zi": signal.sosfilt_zi(sos).tolist(), "padlen": int(3 * ntaps),
        })
    (out / "designs.json").write_text(json.dumps(records))

    n = 100_000
    x = ecg_like(n, FS, rng)
    np.save(out / "x.npy", x)
    x64 = x.astype(np.float64)

    # Main design: order-4 band-pass 0.5-40 Hz at 512 Hz (4 sections).
    sos = signal.butter(4, [0.5, 40.0], "bandpass", fs=FS, output="sos")
    zi = signal.sosfilt_zi(sos)
    y = signal.sosfilt(sos, x64)
    yzi, _ = signal.sosfilt(sos, x64, zi=zi * x64[0])
    yff = signal.sosfiltfilt(sos, x64)
    np.save(out / "bp4_sosfilt.npy", y.astype(np.float32))
    np.save(out / "bp4_sosfilt_zi.npy", yzi.astype(np.float32))
    np.save(out / "bp4_sosfiltfilt.npy", yff.astype(np.float32))
    m = 10_000
    np.save(out / "bp4_sosfilt_f64.npy", y[:m])
    np.save(out / "bp4_sosfilt_zi_f64.npy", yzi[:m])
    np.save(out / "bp4_sosfiltfilt_f64.npy", signal.sosfiltfilt(sos, x64[:m]))

    # Other designs on the first 5,000 samples, float64 outputs.
    short = x64[:5000]
    others = {
        "lp5": (5, 8.0, "lowpass", 125.0),              # 3 sections, one first-order
        "hp2": (2, 0.5, "highpass", 512.0),             # 1 section
        "bs10": (10, [45.0, 55.0], "bandstop", 512.0),  # 10 sections (3 groups of 4)
        "bp8low": (8, [0.05, 0.5], "bandpass", 512.0),  # 8 sections, poles very near z = 1
        "lp20": (20, 30.0, "lowpass", 250.0),           # 10 sections
    }
    params = {}
    for name, (order, wn, btype, fs) in others.items():
        s = signal.butter(order, wn, btype, fs=fs, output="sos")
        np.save(out / f"{name}_sosfilt.npy", signal.sosfilt(s, short))
        np.save(out / f"{name}_sosfiltfilt.npy", signal.sosfiltfilt(s, short))
        params[name] = {"order": order, "edges": wn if isinstance(wn, list) else [wn],
                        "btype": btype, "fs": fs, "count": len(short)}

    # bp8low's steady state is ill-conditioned (1 + a1 + a2 ~ 1e-7): sosfilt_zi's float64 solve
    # is off by ~1e-10 relative, which shows in sosfiltfilt. An extended-precision (x87 long
    # double) sosfiltfilt with exact steady-state zi is the accuracy reference for that design.
    s = signal.butter(8, [0.05, 0.5], "bandpass", fs=512.0, output="sos")
    np.save(out / "bp8low_sosfiltfilt_longdouble.npy", sosfiltfilt_longdouble(s, short))

    # A hand-made cascade with a zero leading numerator coefficient (b0 = 0: the general
    # numerator path); five sections. (SciPy requires a0 = 1.)
    general = np.vstack([sos, [[0.0, 0.5, 0.25, 1.0, -0.5, 0.09]]])
    np.save(out / "general_sosfilt.npy", signal.sosfilt(general, short))
    np.save(out / "general_sosfiltfilt.npy", signal.sosfiltfilt(general, short))

    # Arbitrary initial conditions (scipy's DF-II-transposed state layout) and final conditions.
    zi_arbitrary = rng.standard_normal((len(sos), 2))
    yz, zf = signal.sosfilt(sos, short, zi=zi_arbitrary)
    np.save(out / "zi_arbitrary.npy", zi_arbitrary.ravel())
    np.save(out / "zi_sosfilt.npy", yz)
    np.save(out / "zi_zf.npy", zf.ravel())

    # sosfiltfilt with explicit padding lengths.
    pads = [0, 1, 200]
    for p in pads:
        np.save(out / f"pad_{p}.npy", signal.sosfiltfilt(sos, short, padlen=p))

    (out / "params.json").write_text(json.dumps({
        "fs": FS, "count": n, "prefix": m, "short": len(short), "others": params, "pads": pads,
        "general": general.tolist(),
        "bp4": {"order": 4, "edges": [0.5, 40.0], "btype": "bandpass", "fs": FS},
    }, indent=1))
