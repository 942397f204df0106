#!/usr/bin/env python3
"""Writes high-rate two-lead WFDB copies of the first 5 minutes of MIT-BIH 100 (hr100 at 1280 Hz,
hr100k at 1000 Hz: ECG quality runs up to 1000 Hz, so only the latter has intervals and a median
beat), to exercise the waves resampler's general moving-average path (half 2), which no bundled
dataset reaches. Polyphase resampling (scipy.signal.resample_poly), format 16; used to check that
speed work on WaveGrid leaves ecg_waves/ecg_intervals/ecg_median_beats byte-identical.

Usage: scripts/ecg/make-highrate-ecg.py OUTDIR   (reads ../shared/datasets/mitdb/100)
"""
import lzma, os, shutil, sys, tempfile

import numpy as np
import scipy.signal
import wfdb

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
src = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "datasets", "mitdb")
with tempfile.TemporaryDirectory() as tmp:
    shutil.copy(os.path.join(src, "100.hea"), tmp)
    with lzma.open(os.path.join(src, "100.dat.xz")) as f, open(os.path.join(tmp, "100.dat"), "wb") as g:
        g.write(f.read())
    rec = wfdb.rdrecord(os.path.join(tmp, "100"), sampto=360 * 300)
for name, fs, up, down in [("hr100", 1280, 32, 9), ("hr100k", 1000, 25, 9)]:
    x = scipy.signal.resample_poly(rec.p_signal, up, down, axis=0)
    wfdb.wrsamp(name, fs=fs, units=rec.units, sig_name=rec.sig_name, p_signal=x, fmt=["16", "16"],
                adc_gain=[2000.0, 2000.0], baseline=[0, 0], write_dir=out)
    print(out, name, fs, x.shape)
