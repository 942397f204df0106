#!/usr/bin/env python3
"""Peer for the ECG wave delineation table: NeuroKit2's ecg_delineate (method "dwt") on the 15
QT Database records excerpted from MIT-BIH (../shared/datasets/qtdb-mitdb), scored exactly as
Tests/PipelineTests/QTDBWavesValidationTests.swift scores SensorPipe: each boundary of the
cardiologists' .q1c/.q2c marks matched to the nearest delineated boundary of the same kind
within 150 ms; error = delineated - annotated (ms); Se = matched / annotated.

NeuroKit2 gets its own pipeline: ecg_clean, ecg_peaks (its default detector), ecg_delineate
(dwt), per lead. Usage: python3 scripts/ecg/qtdb-neurokit-delineate.py [dataset folder]
"""
import lzma
import os
import sys
import tempfile
import warnings

import numpy as np
import neurokit2 as nk
import wfdb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wfdb_common import marks  # noqa: E402

warnings.filterwarnings("ignore")
ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../../shared/datasets/qtdb-mitdb")
RECORDS = "sel100 sel102 sel103 sel104 sel114 sel116 sel117 sel123 sel213 sel221 sel223 sel230 sel231 sel232 sel233".split()
KINDS = ["P on", "P peak", "P off", "QRS on", "QRS off", "T peak", "T off"]
NK = {"P on": "ECG_P_Onsets", "P peak": "ECG_P_Peaks", "P off": "ECG_P_Offsets", "QRS on": "ECG_R_Onsets",
      "QRS off": "ECG_R_Offsets", "T peak": "ECG_T_Peaks", "T off": "ECG_T_Offsets"}
FS = 250.0


def score(detected, annotated, acc):
    for k in KINDS:
        d = np.sort(np.asarray([x for x in detected[k] if np.isfinite(x)]))
        for a in annotated[k]:
            acc[k][1] += 1
            if len(d) == 0:
                continue
            j = np.searchsorted(d, a)
            cands = [d[i] for i in (j - 1, j) if 0 <= i < len(d)]
            b = min(cands, key=lambda x: abs(x - a))
            if abs(b - a) <= 0.15:
                acc[k][0].append((b - a) * 1000)


def main():
    tmp = tempfile.mkdtemp(prefix="qtdb-nk-")
    pooled = {}
    for rec in RECORDS:
        for ext in ("hea", "q1c", "q2c"):
            src = os.path.join(ROOT, f"{rec}.{ext}")
            if os.path.exists(src):
                with open(src, "rb") as f, open(os.path.join(tmp, f"{rec}.{ext}"), "wb") as g:
                    g.write(f.read())
        with lzma.open(os.path.join(ROOT, f"{rec}.dat.xz")) as f, open(os.path.join(tmp, f"{rec}.dat"), "wb") as g:
            g.write(f.read())
        sig, _ = wfdb.rdsamp(os.path.join(tmp, rec))
        for lead in (0, 1):
            x = nk.ecg_clean(sig[:, lead], sampling_rate=int(FS))
            _, info = nk.ecg_peaks(x, sampling_rate=int(FS))
            r = info["ECG_R_Peaks"]
            try:
                _, waves = nk.ecg_delineate(x, r, sampling_rate=int(FS), method="dwt")
            except Exception as e:  # noqa: BLE001 - a failure is a result
                print(f"{rec} lead {lead}: ecg_delineate failed: {e}", file=sys.stderr)
                waves = {v: [] for v in NK.values()}
            det = {k: [v / FS for v in waves.get(NK[k], []) if v == v] for k in KINDS}
            for annot in ("q1c", "q2c"):
                p = os.path.join(tmp, f"{rec}.{annot}")
                if not os.path.exists(p):
                    continue
                acc = pooled.setdefault((annot, lead), {k: [[], 0] for k in KINDS})
                score(det, marks(p), acc)
    print("| NeuroKit2 " + nk.__version__ + " ecg_delineate (dwt) | " + " | ".join(f"{k} mean ± SD (Se %)" for k in KINDS) + " |")
    print("|---|" + "---:|" * len(KINDS))
    for (annot, lead), acc in sorted(pooled.items()):
        cells = []
        for k in KINDS:
            e, n = acc[k]
            if n == 0:
                cells.append("–")
                continue
            m = np.mean(e) if e else float("nan")
            sd = np.std(e, ddof=1) if len(e) > 1 else float("nan")
            cells.append(f"{m:.1f} ± {sd:.1f} ({100 * len(e) / n:.0f}, n {n})")
        print(f"| {annot} lead {lead} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
