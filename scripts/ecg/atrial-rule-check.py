#!/usr/bin/env python3
"""Sensitivity of the atrial (P-wave) rule of Cardio.BeatClassifier (step 9) to its thresholds.

Input: the per-beat feature CSVs the EC57 suite writes,
    BEATS_FEATURES_DIR=/tmp/beats swift test -c release --filter BeatClassificationValidation
(p_correlation, p_agreement, sinus_rr_s, rr_irregularity do not depend on the class: the sinus P
template and the sinus RR are built whatever the rule decides). For each set of round thresholds
the script re-decides the beats the committed rule could have touched and prints matched-beat SVEB
Se/+P for DS1 (the records the thresholds were checked on) and DS2 (held out) apart. Approximate:
a beat classified S that also meets the committed atrial conditions is taken as S by the atrial
rule (the timing rules are not re-run, so a stricter variant understates Se: it loses beats the
timing rules would have kept), and the run rule's reaction is not simulated; the EC57 suite gives
the official figures (the committed row reproduces them within a few tenths). A table to read, not an optimiser: the committed values are the
round ones marked `*`.

Usage: scripts/ecg/atrial-rule-check.py /tmp/beats
"""
import csv, glob, itertools, os, sys
import numpy as np

DS1 = {101, 106, 108, 109, 112, 114, 115, 116, 118, 119, 122, 124, 201, 203, 205, 207, 208, 209, 215, 220, 223, 230}
COMMITTED = dict(pc=0.2, agreement=0.8, prematurity=0.85, sinus=0.6, irregular=0.10, qrs=0.9)


def main(d):
    rows = []
    for f in sorted(glob.glob(os.path.join(d, "*.csv"))):
        rows += list(csv.DictReader(open(f)))
    col = lambda k: np.array([float(r[k]) if r[k] != "" else np.nan for r in rows])
    rec = np.array([int(r["record"]) for r in rows])
    ds1 = np.isin(rec, list(DS1))
    ref = np.array([r["reference"] for r in rows])
    cls = np.array([r["class"] for r in rows])
    pc, ag, cn = col("p_correlation"), col("p_agreement"), col("normal_correlation")
    rr, rn, srr, irr = col("rr_previous_s"), col("rr_normal_s"), col("sinus_rr_s"), col("rr_irregularity")
    prem = rr / rn
    with np.errstate(invalid="ignore"):
        def atrial(t):
            base = (pc < t["pc"]) & (ag >= t["agreement"]) & (cn >= t["qrs"]) & np.isfinite(irr)
            return base & (((prem < t["prematurity"]) & (irr < t["irregular"])) | (rr < t["sinus"] * srr))
        committed = atrial(COMMITTED) & (cls == "S")
        without = cls.copy()
        without[committed] = "N"

        def score(new, m):
            tp = np.sum(m & (new == "S") & (ref == "S"))
            fp = np.sum(m & (new == "S") & np.isin(ref, ["N", "V", "O"]))
            return 100 * tp / max(np.sum(m & (ref == "S")), 1), 100 * tp / max(tp + fp, 1)

        print("| P corr < | agreement ≥ | prematurity < | sinus RR × | DS1 Se % | DS1 +P % | DS2 Se % | DS2 +P % |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|")
        for p, g, r, s in itertools.product([0.1, 0.2, 0.3], [0.7, 0.8, 0.9], [0.8, 0.85, 0.9], [0.5, 0.6, 0.7]):
            t = dict(COMMITTED, pc=p, agreement=g, prematurity=r, sinus=s)
            new = without.copy()
            new[atrial(t) & (without == "N")] = "S"
            a, b = score(new, ds1), score(new, ~ds1)
            mark = "*" if (p, g, r, s) == (0.2, 0.8, 0.85, 0.6) else ""
            print("| %s%.1f | %.1f | %.2f | %.1f | %.1f | %.1f | %.1f | %.1f |" % (mark, p, g, r, s, a[0], a[1], b[0], b[1]))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/beats")
