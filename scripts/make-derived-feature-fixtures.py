#!/usr/bin/env python3
"""Write the reference features of two derived series (Tests/FeaturesTests/Fixtures/reference/).

Usage: python3 scripts/make-derived-feature-fixtures.py        (needs numpy, scipy)

The features family computes windowed features over the derived series other families publish
(docs/FEATURES.md, "Derived series"). This script builds two such series with fixed seeds and
computes, independently of the Swift code, what every window must hold:

* `derived_nn.npy` (columns: beat time s, NN interval ms; NaN = an interval excluded from HRV):
  an event series of 600 beats, AR(1) intervals around 820 ms, 4 % excluded, and beats between
  300 and 330 s dropped (a gap); no nominal rate.
* `derived_enmo.npy` (columns: epoch start s, ENMO mg; NaN = an epoch without metrics): 5-s
  epochs (nominal rate 0.2 Hz) over 20 minutes, 5 % without metrics and epochs 700–760 s absent.

Windows: 60 s every 60 s, starts at multiples of 60 s on the clock; a window holds the samples
with start <= t < end (present = every row, valid = finite value); rate = the nominal rate, else
1 / the median interval between the window's present samples; valid fraction
min(1, valid / (60 s * rate)); features when valid >= 2 and fraction >= 0.8, computed with the
NumPy/SciPy definitions of scripts/make-feature-fixtures.py (`features`) on the window's valid
values in time order at that rate. The NN series is an event series: no spectral features.
`derived.json` holds per series and window: start, present and valid counts, rate, fraction,
whether features were computed and, if so, their values.
"""
import importlib.util
import json
import pathlib
import warnings

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "Tests" / "FeaturesTests" / "Fixtures" / "reference"
SPEC = importlib.util.spec_from_file_location("catalog", ROOT / "scripts" / "make-feature-fixtures.py")
catalog = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(catalog)

LENGTH = 60.0
STEP = 60.0
MIN_FRACTION = 0.8
SPECTRAL = {
    "dominant_frequency", "dominant_power", "spectral_centroid", "spectral_spread", "spectral_entropy",
    "spectral_flatness", "spectral_rolloff", "spectral_edge_frequency",
} | {catalog.band_name(lo, hi) for lo, hi in catalog.BANDS}


def windows(t, v, nominal_rate, event):
    out = []
    k0 = int(np.floor(t[0] / STEP))
    k1 = int(np.floor(t[-1] / STEP))
    for k in range(k0, k1 + 1):
        start = k * STEP
        inside = (t >= start) & (t < start + LENGTH)
        present = int(np.count_nonzero(inside))
        if present == 0:
            continue
        x = v[inside]
        valid = x[np.isfinite(x)]
        if nominal_rate is not None:
            rate = nominal_rate
        elif present >= 2:
            rate = 1.0 / np.median(np.diff(t[inside]))
        else:
            rate = float("nan")
        fraction = min(1.0, len(valid) / (LENGTH * rate)) if np.isfinite(rate) else 0.0
        row = {"start": start, "present": present, "valid": int(len(valid)), "rate": float(rate), "fraction": fraction}
        if len(valid) >= 2 and np.isfinite(rate) and fraction >= MIN_FRACTION:
            f = catalog.features(valid, rate)
            row["features"] = {name: value for name, value in f.items() if not (event and name in SPECTRAL)}
        out.append(row)
    return out


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(13)
    e = rng.standard_normal(600)
    nn = np.empty(600)
    nn[0] = 0.0
    for i in range(1, 600):
        nn[i] = 0.85 * nn[i - 1] + 25.0 * e[i]
    nn += 820.0
    times = 1_000_003.7 + np.cumsum(nn) / 1000.0
    values = nn.copy()
    values[rng.random(600) < 0.04] = np.nan
    keep = ~((times - times[0] >= 300) & (times - times[0] < 330))
    times, values = times[keep], values[keep]
    np.save(OUT / "derived_nn.npy", np.column_stack([times, values]))

    et = 1_000_020.0 + 5.0 * np.arange(240)
    enmo = rng.gamma(2.0, 15.0, 240)
    enmo[rng.random(240) < 0.05] = np.nan
    keep = ~((et - et[0] >= 700) & (et - et[0] < 760))
    et, enmo = et[keep], enmo[keep]
    np.save(OUT / "derived_enmo.npy", np.column_stack([et, enmo]))

    out = {
        "nn": {"nominal_rate": None, "event": True, "windows": windows(times, values, None, True)},
        "enmo": {"nominal_rate": 0.2, "event": False, "windows": windows(et, enmo, 0.2, False)},
    }
    with open(OUT / "derived.json", "w") as fh:
        json.dump(out, fh, indent=1, sort_keys=True)
        fh.write("\n")
    print({k: len(v["windows"]) for k, v in out.items()})


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    main()
