#!/usr/bin/env python3
"""Writes the R-peak test fixtures to Tests/CardioTests/Fixtures/rpeaks/.

A 30 s excerpt (0:00-0:30) of MIT-BIH Arrhythmia Database record 119, channel 0 (MLII), in mV,
float32, with its EC57 beat annotations; and the same excerpt resampled with
scipy.signal.resample_poly to 125, 250, 500 and 1000 Hz (annotations scaled to each rate).
Record 119 has normal beats and ventricular bigeminy (PVCs of the opposite polarity).

Source: MIT-BIH Arrhythmia Database (PhysioNet, ODC-By 1.0): Moody GB, Mark RG, The impact of
the MIT-BIH Arrhythmia Database, IEEE Eng Med Biol 20(3):45-50, 2001; Goldberger AL et al.,
PhysioBank, PhysioToolkit, and PhysioNet, Circulation 101(23):e215-e220, 2000.

Usage: python3 scripts/ecg/make-rpeak-fixtures.py [--datasets ../shared/datasets]
"""
import argparse, json, lzma, os, shutil, tempfile

import numpy as np
import scipy.signal
import wfdb

BEAT_CODES = set("NLRBAaJSVrFejnE/fQ?")
RECORD, SECONDS = "119", 30


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, "..", ".."))
    ap = argparse.ArgumentParser()
    ap.add_argument("--datasets", default=os.path.join(root, "..", "shared", "datasets"))
    args = ap.parse_args()
    out = os.path.join(root, "Tests", "CardioTests", "Fixtures", "rpeaks")
    os.makedirs(out, exist_ok=True)
    src = os.path.join(args.datasets, "mitdb")
    tmp = tempfile.mkdtemp()
    try:
        for ext in ("hea", "atr"):
            shutil.copy(os.path.join(src, f"{RECORD}.{ext}"), tmp)
        with lzma.open(os.path.join(src, f"{RECORD}.dat.xz")) as f, open(os.path.join(tmp, f"{RECORD}.dat"), "wb") as g:
            shutil.copyfileobj(f, g)
        fs = 360
        n = SECONDS * fs
        rec = wfdb.rdrecord(os.path.join(tmp, RECORD), channels=[0], sampto=n)
        ann = wfdb.rdann(os.path.join(tmp, RECORD), "atr", sampto=n)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    x = rec.p_signal[:, 0]
    beats = np.array([s for s, c in zip(ann.sample, ann.symbol) if c in BEAT_CODES], dtype=np.int64)
    np.save(os.path.join(out, "mitdb119_360.npy"), x.astype(np.float32))
    np.save(os.path.join(out, "mitdb119_360_beats.npy"), beats)
    rates = {125: (25, 72), 250: (25, 36), 500: (25, 18), 1000: (25, 9)}
    for rate, (up, down) in rates.items():
        y = scipy.signal.resample_poly(x, up, down)
        np.save(os.path.join(out, f"mitdb119_{rate}.npy"), y.astype(np.float32))
        np.save(os.path.join(out, f"mitdb119_{rate}_beats.npy"), np.round(beats * rate / fs).astype(np.int64))
    with open(os.path.join(out, "params.json"), "w") as f:
        json.dump({"record": RECORD, "channel": 0, "seconds": SECONDS, "unit": "mV", "rates": [360, *rates],
                   "beats": int(len(beats)), "source": "MIT-BIH Arrhythmia Database 1.0.0 (PhysioNet), ODC-By 1.0"},
                  f, indent=1)
    print(f"{len(beats)} beats; wrote {out}")


if __name__ == "__main__":
    main()
