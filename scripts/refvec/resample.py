"""Reference outputs of scipy.signal.resample_poly (default window, padtype) for PolyphaseResampler."""
import json
import numpy as np
from scipy import signal

# (up, down) as passed to resample_poly; SciPy reduces them by their gcd itself.
RATIOS = [(128, 512), (512, 125), (360, 500), (3, 2), (1, 1), (2, 1), (1, 3), (7, 3)]
SHORT_LENGTHS = [1, 2, 5, 17]
SHORT_RATIOS = [(128, 512), (512, 125), (3, 2)]
FLOAT_CASES = [("long", (128, 512)), ("mid", (360, 500)), ("mid", (512, 125))]


def test_signal(rng, n, fs):
    t = np.arange(n) / fs
    return (0.6 * np.sin(2 * np.pi * 1.2 * t) + 0.3 * np.sin(2 * np.pi * 17 * t + 0.4)
            + 0.2 * np.sin(2 * np.pi * 0.15 * t) + 0.3 * rng.standard_normal(n))


def generate(out):
    rng = np.random.default_rng(20261201)
    x = test_signal(rng, 3000, 512.0)
    np.save(out / "x_double.npy", x)
    for up, down in RATIOS:
        np.save(out / f"y_double_{up}_{down}.npy", signal.resample_poly(x, up, down))
    for n in SHORT_LENGTHS:
        xs = rng.standard_normal(n)
        np.save(out / f"x_short_{n}.npy", xs)
        for up, down in SHORT_RATIOS:
            np.save(out / f"y_short_{n}_{up}_{down}.npy", signal.resample_poly(xs, up, down))
    # float32 input: SciPy casts the filter to float32 and filters in float32.
    inputs = {"long": test_signal(rng, 100_000, 512.0).astype(np.float32),
              "mid": test_signal(rng, 20_000, 512.0).astype(np.float32)}
    for name, xf in inputs.items():
        np.save(out / f"x_float_{name}.npy", xf)
    for name, (up, down) in FLOAT_CASES:
        y = signal.resample_poly(inputs[name], up, down)
        assert y.dtype == np.float32
        np.save(out / f"y_float_{name}_{up}_{down}.npy", y)
    # The prototype filters (firwin with a Kaiser window, times up) for the reduced ratios.
    taps = {}
    for up, down in [(1, 4), (512, 125), (18, 25)]:
        m = max(up, down)
        h = signal.firwin(2 * 10 * m + 1, 1.0 / m, window=("kaiser", 5.0)) * up
        np.save(out / f"h_{up}_{down}.npy", h)
        taps[f"{up}_{down}"] = len(h)
    (out / "params.json").write_text(json.dumps({
        "ratios": RATIOS, "short_lengths": SHORT_LENGTHS, "short_ratios": SHORT_RATIOS,
        "float_cases": FLOAT_CASES, "filters": taps}, indent=1))
