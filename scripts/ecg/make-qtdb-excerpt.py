#!/usr/bin/env python3
"""Writes Datasets/qtdb/sel100x.{hea,dat,q1c}: QT Database record sel100, both leads,
samples 147500-157500 (590-630 s, the stretch holding the first cardiologist's 30 annotated
beats), unchanged digital values (format 212), and the .q1c marks inside it shifted by -147500
samples. QTDB is ODC-By 1.0 (PhysioNet); see Datasets/qtdb/SOURCE.md.
Usage: python3 scripts/ecg/make-qtdb-excerpt.py [qtdb-mitdb folder]
"""
import lzma
import os
import shutil
import sys
import tempfile

import numpy as np
import wfdb

SRC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../../shared/datasets/qtdb-mitdb")
OUT = os.path.join(os.path.dirname(__file__), "../../Datasets/qtdb")
FROM, TO = 147500, 157500

tmp = tempfile.mkdtemp()
for ext in ("hea", "q1c"):
    shutil.copy(os.path.join(SRC, f"sel100.{ext}"), tmp)
with lzma.open(os.path.join(SRC, "sel100.dat.xz")) as f, open(os.path.join(tmp, "sel100.dat"), "wb") as g:
    g.write(f.read())
rec = wfdb.rdrecord(os.path.join(tmp, "sel100"), sampfrom=FROM, sampto=TO, physical=False)
os.makedirs(OUT, exist_ok=True)
wfdb.wrsamp("sel100x", fs=rec.fs, units=rec.units, sig_name=rec.sig_name, d_signal=rec.d_signal, fmt=rec.fmt,
            adc_gain=rec.adc_gain, baseline=rec.baseline, write_dir=OUT)
ann = wfdb.rdann(os.path.join(tmp, "sel100"), "q1c")
keep = (ann.sample >= FROM) & (ann.sample < TO)
# wfdb refuses digits in an extension: written as .qac, then renamed.
wfdb.wrann("sel100x", "qac", ann.sample[keep] - FROM, symbol=list(np.array(ann.symbol)[keep]), write_dir=OUT)
os.replace(os.path.join(OUT, "sel100x.qac"), os.path.join(OUT, "sel100x.q1c"))
print(f"{keep.sum()} marks, {TO - FROM} samples")
