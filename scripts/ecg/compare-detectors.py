#!/usr/bin/env python3
"""Runs peer R-peak detectors (sleepecg, NeuroKit2 `neurokit`) on MIT-BIH and NSTDB and scores them
with the same ANSI/AAMI EC57 beat-by-beat rule as `Cardio.BeatMatching` (150 ms window, beat codes
only, ventricular flutter/fibrillation episodes between `[` and `]` excluded), then times them on a
24 h, 512 Hz workload (the 48 MIT-BIH records, channel 0, resampled to 512 Hz and concatenated to
44,236,800 samples).

Usage:
    python3 scripts/ecg/compare-detectors.py [--datasets ../shared/datasets] [--out results.json]
        [--skip-timing] [--records 100,101]

Needs `pip install wfdb sleepecg neurokit2`. Records are decompressed (`xz -dc`) into a temporary
folder. Prints Markdown tables; `--out` also writes every number as JSON.
"""
import argparse, json, lzma, os, shutil, sys, tempfile, time

import numpy as np

# WFDB beat annotation codes (PhysioBank "Beat annotations"; `isqrs` in the WFDB library).
BEAT_CODES = set("NLRBAaJSVrFejnE/fQ?")
WINDOW_SECONDS = 0.150
NSTDB_START_SECONDS = 300.0
NSTDB_LEVELS = ["24", "18", "12", "06", "00", "_6"]


def ec57_match(reference, detections, fs, start=0, end=None, excluded=()):
    """Beat-by-beat matching identical to Swift `BeatMatching`: returns (tp, fn, fp, offsets)."""
    w = int(round(WINDOW_SECONDS * fs))
    end = np.iinfo(np.int64).max if end is None else end

    def keep(x):
        x = np.asarray(x, dtype=np.int64)
        m = (x >= start) & (x < end)
        for a, b in excluded:
            m &= ~((x >= a) & (x <= b))
        return np.sort(x[m])

    r, d = keep(reference), keep(detections)
    i = j = tp = fn = fp = 0
    offsets = []
    while i < len(r) and j < len(d):
        dt = d[j] - r[i]
        if dt < -w:
            fp += 1; j += 1
        elif dt > w:
            fn += 1; i += 1
        elif j + 1 < len(d) and abs(d[j + 1] - r[i]) < abs(dt):
            fp += 1; j += 1
        elif i + 1 < len(r) and abs(d[j] - r[i + 1]) < abs(dt):
            fn += 1; i += 1
        else:
            tp += 1; offsets.append(int(dt)); i += 1; j += 1
    fn += len(r) - i
    fp += len(d) - j
    return tp, fn, fp, offsets


def summarize(tp, fn, fp, offsets_ms):
    se = tp / (tp + fn) if tp + fn else float("nan")
    ppv = tp / (tp + fp) if tp + fp else float("nan")
    f1 = 2 * tp / (2 * tp + fn + fp) if tp else 0.0
    if offsets_ms:
        o = np.asarray(offsets_ms, dtype=float)
        mad = float(np.median(np.abs(o - np.median(o))))
    else:
        mad = float("nan")
    return dict(tp=tp, fn=fn, fp=fp, se=se, ppv=ppv, f1=f1, jitter_mad_ms=mad)


def load(folder, record, tmp):
    import wfdb
    for ext in ("hea", "atr"):
        shutil.copy(os.path.join(folder, f"{record}.{ext}"), tmp)
    dat = os.path.join(tmp, f"{record}.dat")
    if not os.path.exists(dat):
        with lzma.open(os.path.join(folder, f"{record}.dat.xz")) as f, open(dat, "wb") as g:
            shutil.copyfileobj(f, g)
    rec = wfdb.rdrecord(os.path.join(tmp, record), channels=[0])
    ann = wfdb.rdann(os.path.join(tmp, record), "atr")
    beats = np.array([s for s, c in zip(ann.sample, ann.symbol) if c in BEAT_CODES], dtype=np.int64)
    vf, open_at = [], None
    for s, c in zip(ann.sample, ann.symbol):
        if c == "[":
            open_at = s
        elif c == "]" and open_at is not None:
            vf.append((int(open_at), int(s))); open_at = None
    if open_at is not None:
        vf.append((int(open_at), int(rec.sig_len)))
    return rec.p_signal[:, 0].astype(np.float64), float(rec.fs), beats, vf


def detect_sleepecg(x, fs):
    import sleepecg
    return np.asarray(sleepecg.detect_heartbeats(x, fs), dtype=np.int64)


def detect_neurokit(x, fs):
    import neurokit2 as nk
    cleaned = nk.ecg_clean(x, sampling_rate=fs, method="neurokit")
    _, info = nk.ecg_peaks(cleaned, sampling_rate=fs, method="neurokit")
    return np.asarray(info["ECG_R_Peaks"], dtype=np.int64)


DETECTORS = {"sleepecg": detect_sleepecg, "neurokit2": detect_neurokit}


def pct(v):
    return f"{100 * v:.2f}"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.path.normpath(os.path.join(here, "..", "..", "..", "shared", "datasets"))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--datasets", default=default)
    ap.add_argument("--out")
    ap.add_argument("--skip-timing", action="store_true")
    ap.add_argument("--records", help="comma-separated MIT-BIH records (default: all 48)")
    args = ap.parse_args()
    available = {}
    for name, fn in DETECTORS.items():
        try:
            fn(np.sin(np.linspace(0, 60, 3600)) ** 15, 360.0)
            available[name] = fn
        except ImportError as e:
            print(f"{name}: not available ({e}); pip install failed or not run", file=sys.stderr)
    mitdb = os.path.join(args.datasets, "mitdb")
    nstdb = os.path.join(args.datasets, "nstdb")
    records = args.records.split(",") if args.records else open(os.path.join(mitdb, "RECORDS")).read().split()
    results = {"mitdb": {}, "nstdb": {}, "timing": {}}
    tmp = tempfile.mkdtemp()
    try:
        # MIT-BIH, whole record.
        gross = {n: [0, 0, 0, []] for n in available}
        for rec in records:
            x, fs, beats, vf = load(mitdb, rec, tmp)
            for n, fn in available.items():
                tp, fnn, fp, off = ec57_match(beats, fn(x, fs), fs, excluded=vf)
                off_ms = [1000.0 * o / fs for o in off]
                results["mitdb"].setdefault(n, {})[rec] = summarize(tp, fnn, fp, off_ms)
                g = gross[n]; g[0] += tp; g[1] += fnn; g[2] += fp; g[3] += off_ms
            print(rec, {n: (results["mitdb"][n][rec]["fn"], results["mitdb"][n][rec]["fp"]) for n in available},
                  file=sys.stderr, flush=True)
        for n in available:
            results["mitdb"][n]["gross"] = summarize(*gross[n])
        # NSTDB 118/119 at each SNR, scored from 5:00.
        for base in ("118", "119"):
            for lvl in NSTDB_LEVELS:
                rec = f"{base}e{lvl}"
                if not os.path.exists(os.path.join(nstdb, f"{rec}.hea")):
                    continue
                x, fs, beats, vf = load(nstdb, rec, tmp)
                for n, fn in available.items():
                    tp, fnn, fp, off = ec57_match(beats, fn(x, fs), fs, start=int(NSTDB_START_SECONDS * fs), excluded=vf)
                    results["nstdb"].setdefault(n, {})[rec] = summarize(tp, fnn, fp, [1000.0 * o / fs for o in off])
        # Timing: 24 h at 512 Hz.
        if not args.skip_timing:
            import scipy.signal
            parts, total, target = [], 0, 44_236_800
            for rec in open(os.path.join(mitdb, "RECORDS")).read().split():
                x, fs, _, _ = load(mitdb, rec, tmp)
                y = scipy.signal.resample_poly(x, 64, 45)  # 360 -> 512 Hz
                parts.append(y); total += len(y)
                if total >= target:
                    break
            day = np.concatenate(parts)[:target]
            while len(day) < target:
                day = np.concatenate([day, day])[:target]
            for n, fn in available.items():
                t0 = time.perf_counter(); peaks = fn(day, 512.0); t1 = time.perf_counter()
                results["timing"][n] = dict(seconds=t1 - t0, samples=target, beats=int(len(peaks)))
                print(f"timing {n}: {t1 - t0:.2f} s, {len(peaks)} beats", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    # Markdown.
    print("### Peers on MIT-BIH (48 records, channel 0, whole record, EC57 150 ms, VF excluded)\n")
    print("| detector | TP | FN | FP | Se % | +P % | F1 % | jitter MAD ms |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for n in available:
        g = results["mitdb"][n]["gross"]
        print(f"| {n} | {g['tp']} | {g['fn']} | {g['fp']} | {pct(g['se'])} | {pct(g['ppv'])} | {pct(g['f1'])} | {g['jitter_mad_ms']:.1f} |")
    print("\n### Peers on NSTDB (118/119 with `em` noise, scored from 5:00): Se % / +P %\n")
    print("| record | " + " | ".join(f"{n} Se | {n} +P" for n in available) + " |")
    print("|---|" + "---:|---:|" * len(available))
    for rec in sorted(results["nstdb"].get(next(iter(available), ""), {}), key=lambda r: (r[:3], -int(r[4:].replace("_", "-")))):
        cells = []
        for n in available:
            s = results["nstdb"][n][rec]
            cells += [pct(s["se"]), pct(s["ppv"])]
        print(f"| {rec} | " + " | ".join(cells) + " |")
    if results["timing"]:
        print("\n### Peer timing, 24 h at 512 Hz (44,236,800 samples, one run)\n")
        print("| detector | seconds | Msamples/s |")
        print("|---|---:|---:|")
        for n, t in results["timing"].items():
            print(f"| {n} | {t['seconds']:.2f} | {t['samples'] / t['seconds'] / 1e6:.1f} |")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
