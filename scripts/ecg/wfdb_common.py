"""Shared helpers of the ECG validation scripts in scripts/ecg: reading the QT Database boundary
marks and running `sensorpipe analyze` on a compressed WFDB record of ../shared/datasets."""
import lzma
import os
import subprocess

import wfdb

KINDS = ["P on", "P peak", "P off", "QRS on", "QRS off", "T peak", "T off"]


def marks(path, fs=250.0):
    """Annotated boundary times (s) per kind of a .q1c/.q2c/.pu file, from ( peak ) triplets
    (U waves skipped)."""
    ann = wfdb.rdann(path[:-4], path[-3:])
    sym, smp = ann.symbol, ann.sample
    out = {k: [] for k in KINDS}
    for i, s in enumerate(sym):
        if s in "()" or s == "u":
            continue
        on = smp[i - 1] / fs if i > 0 and sym[i - 1] == "(" else None
        off = smp[i + 1] / fs if i + 1 < len(sym) and sym[i + 1] == ")" else None
        if s == "p":
            out["P peak"].append(smp[i] / fs)
            if on is not None: out["P on"].append(on)
            if off is not None: out["P off"].append(off)
        elif s == "t":
            out["T peak"].append(smp[i] / fs)
            if off is not None: out["T off"].append(off)
        else:
            if on is not None: out["QRS on"].append(on)
            if off is not None: out["QRS off"].append(off)
    return out


def analyze(binary, root, rec, out, reuse=False, options=()):
    """Unpacks root/rec.{hea,dat.xz} into out/data and runs `sensorpipe analyze` into out/rec
    (with the analysis `options`, e.g. ("--waves-qt-lead-agreement", "false")); returns (header
    path, result folder). With `reuse`, an existing result folder is kept."""
    cache = os.path.join(out, "data")
    os.makedirs(cache, exist_ok=True)
    hea, dat = os.path.join(cache, rec + ".hea"), os.path.join(cache, rec + ".dat")
    if not os.path.exists(hea):
        with open(os.path.join(root, rec + ".hea")) as f, open(hea, "w") as g:
            g.write(f.read())
    if not os.path.exists(dat):
        with lzma.open(os.path.join(root, rec + ".dat.xz")) as f, open(dat, "wb") as g:
            g.write(f.read())
    res = os.path.join(out, rec)
    if not (reuse and os.path.exists(os.path.join(res, "ecg_waves.csv"))):
        subprocess.run([binary, "analyze", hea, "--out", res, *options], check=True, stdout=subprocess.DEVNULL)
    return hea, res
