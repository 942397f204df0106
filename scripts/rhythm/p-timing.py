#!/usr/bin/env python3
"""P-evidence prototype (issue 29, not in the shipped model): is the atrial deflection before each QRS
time-locked to it (a P wave: fixed PR interval) or not (f waves; the previous beat's T wave, whose distance
to the next R follows the irregular RR)?

Independent NumPy implementation over the CinC 2017 records and the beats SensorPipe found in them (the
`beats` table of the database `scripts/rhythm/validation.sh` writes, `$RHYTHM_OUT/cinc.sqlite`: sample index
and class per beat). Per record, the PR segments as AtrialActivity cuts them (R - 300 ms ... R - 60 ms, only
after an interval >= 0.4 s and only for beats not classed V; 20-ms centred moving average, ends averaged over
the samples present; least-squares line removed), then:

  p_peak_mad_ms      median absolute deviation (ms) of the position of each segment's largest absolute
                     sample: small when the P apex keeps its distance to R (sinus: the PR interval is
                     constant), large without fixed atrio-ventricular coupling (AF). Ladavich S, Ghoraani B
                     (2015) Rate-independent detection of atrial fibrillation by statistical modeling of atrial
                     activity, Biomed Signal Process Control 18:274-281, model the P wave's presence and shape
                     beat by beat for the same reason.
  p_loo_corr_median  median correlation of each detrended segment with the mean of the others
                     (leave-one-out template): unlike the beat classifier's `p_correlation`, which correlates
                     the raw window, a common ramp (T-wave tail, baseline drift) does not count as a P wave.

It prints the medians per reference class, the same for AF records the classifier's per-beat P evidence
(`sinus_p_share`) calls mostly sinus, and the 5-fold CV of the shipped model kind (fit.py's folds and trees)
with and without each input. Usage:

  python3 scripts/rhythm/p-timing.py $RHYTHM_OUT/cinc.sqlite $RHYTHM_OUT/cinc-features.csv \
      ../shared/datasets/cinc2017/records [--no-cv]
"""
import argparse, csv, lzma, os, sqlite3, sys, tempfile
import numpy as np
import wfdb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit  # noqa: E402  (same folds, model kind and F1 as the shipped model)

RATE = 300.0


def segments_of(signal, beats, rate):
    p_start, p_end = int(round(0.300 * rate)), int(round(0.060 * rate))
    n = p_start - p_end
    width = max(1, int(round(0.020 * rate)) | 1)
    h = width // 2
    i = np.arange(n)
    lo, hi = np.maximum(0, i - h), np.minimum(n, i + h + 1)
    centred = i - (n - 1) / 2
    out, previous = [], None
    for sample, time, beat_class in beats:
        if previous is not None and time - previous >= 0.4 and beat_class != "V" and sample - p_start >= 0:
            x = signal[sample - p_start:sample - p_end]
            if len(x) == n and np.all(np.isfinite(x)):
                c = np.concatenate([[0.0], np.cumsum(x)])
                s = (c[hi] - c[lo]) / (hi - lo)
                s = s - s.mean()
                out.append(s - (centred @ s) / (centred @ centred) * centred)
        previous = time
    return np.array(out)


def measures(S, rate):
    if len(S) < 4:
        return {"p_peak_mad_ms": "", "p_loo_corr_median": ""}
    total = S.sum(axis=0)
    corr = []
    for k in range(len(S)):
        t = (total - S[k]) / (len(S) - 1)
        d = np.sqrt((S[k] @ S[k]) * (t @ t))
        corr.append(S[k] @ t / d if d > 0 else 0.0)
    peak = np.argmax(np.abs(S), axis=1) / rate * 1000
    return {"p_peak_mad_ms": float(np.median(np.abs(peak - np.median(peak)))), "p_loo_corr_median": float(np.median(corr))}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("db")
    ap.add_argument("features_csv")
    ap.add_argument("records")
    ap.add_argument("--no-cv", action="store_true")
    a = ap.parse_args()
    con = sqlite3.connect(f"file:{a.db}?mode=ro", uri=True)
    beats = {}
    for stream, sample, time, beat_class in con.execute(
            "SELECT stream, sample, time, class FROM beats WHERE source = 'ecg' AND time IS NOT NULL AND sample IS NOT NULL "
            "ORDER BY rowid"):
        beats.setdefault(stream.split("/")[0], []).append((sample, time, beat_class))
    extra = {}
    with tempfile.TemporaryDirectory() as tmp:
        for record, b in sorted(beats.items()):
            base = os.path.join(a.records, record)
            with open(base + ".hea") as f, open(os.path.join(tmp, record + ".hea"), "w") as g:
                g.write(f.read())
            with lzma.open(base + ".mat.xz") as f, open(os.path.join(tmp, record + ".mat"), "wb") as g:
                g.write(f.read())
            signal = wfdb.rdrecord(os.path.join(tmp, record)).p_signal[:, 0].astype(np.float32).astype(float)
            extra[record] = measures(segments_of(signal, b, RATE), RATE)
            os.remove(os.path.join(tmp, record + ".mat"))
    reference = os.path.join(a.records, "REFERENCE-v3.csv")
    rows = fit.load(a.features_csv, reference, 6)
    for r in rows:
        r.update({k: ("" if v == "" else repr(v)) for k, v in extra.get(r["record"], {"p_peak_mad_ms": "", "p_loo_corr_median": ""}).items()})

    def median(group, name):
        v = [float(r[name]) for r in group if r.get(name, "") != ""]
        return f"{np.median(v):.3f}" if v else "-"

    names = ["p_peak_mad_ms", "p_loo_corr_median", "sinus_p_share", "p_wave_coherence", "mean_hr_bpm"]
    print("medians: " + ", ".join(names))
    af = [r for r in rows if r["truth"] == "A"]
    groups = [(f"reference {c}", [r for r in rows if r["truth"] == c]) for c in fit.CLASSES]
    groups += [("AF, sinus_p_share >= 0.45", [r for r in af if r["sinus_p_share"] != "" and float(r["sinus_p_share"]) >= 0.45]),
               ("AF, sinus_p_share < 0.45", [r for r in af if r["sinus_p_share"] != "" and float(r["sinus_p_share"]) < 0.45])]
    for what, g in groups:
        print(f"  {what} ({len(g)}): " + ", ".join(median(g, n) for n in names))
    if a.no_cv:
        return
    kind = "trees:1"  # the shipped ecg-trees-v6 kind: 150 rounds at learning rate 0.1
    for label, inputs in (("shipped inputs", fit.ECG_INPUTS), ("+ p_peak_mad_ms", fit.ECG_INPUTS + ["p_peak_mad_ms"]),
                          ("+ p_loo_corr_median", fit.ECG_INPUTS + ["p_loo_corr_median"]),
                          ("+ both", fit.ECG_INPUTS + ["p_peak_mad_ms", "p_loo_corr_median"])):
        truth, pred, _ = fit.cv5(rows, kind, inputs, None, 6)
        print(f"5-fold CV, {label}: " + ", ".join(f"F1 {k} {v:.3f}" for k, v in fit.f1_table(truth, pred).items()), flush=True)


if __name__ == "__main__":
    main()
