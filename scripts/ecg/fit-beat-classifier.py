#!/usr/bin/env python3
"""Fits the two-stage logistic model of Cardio.BeatClassifier on MIT-BIH DS1 (de Chazal et al. 2004).

Input: the per-beat feature CSVs written by the validation suite,
    BEATS_FEATURES_DIR=/tmp/beats swift test -c release --filter BeatClassification
(the features do not depend on the model: clusters, templates and RR averages are built without it).
Training set: DS1 records, reference classes N, S, V (F, Q, unmatched and flutter beats left out);
V against not-V, L2-regularised logistic regression by Newton's method. Stage 1 uses the beat's
own features (and their squares and products); stage 2 adds the cluster history (log(1 + prior
beats in the cluster), the running mean m of the stage-1 probability of the cluster's earlier
beats, m outside the normal cluster, m²), exactly as the Swift code computes them. Prints the Swift weight arrays and the DS1/DS2 figures (not EC57: the
validation suite does the official scoring).

Usage: scripts/ecg/fit-beat-classifier.py /tmp/beats
"""
import csv, glob, math, os, sys
import numpy as np

DS1 = {101, 106, 108, 109, 112, 114, 115, 116, 118, 119, 122, 124, 201, 203, 205, 207, 208, 209, 215, 220, 223, 230}


def num(x, default):
    return float(x) if x != "" else default


def inputs(r):
    corr = num(r["normal_correlation"], 1.0)
    w = num(r["qrs_width_s"], 0.1)
    wn = num(r["normal_qrs_width_s"], num(r["qrs_width_s"], 0.0))
    dw = num(r["qrs_width_s"], 0.0) - wn
    amp = math.log(min(max(num(r["amplitude_ratio"], 1.0), 0.1), 10))
    rrn = num(r["rr_normal_s"], float("nan"))
    prem = num(r["rr_previous_s"], float("nan")) / rrn
    prem = 1.0 if math.isnan(prem) else min(max(prem, 0.2), 3)
    pause = num(r["rr_next_s"], float("nan")) / rrn
    pause = 1.0 if math.isnan(pause) else min(max(pause, 0.2), 3)
    pol = 0.0 if r["polarity_matches"] == "0" else 1.0
    inn = float(r["in_normal_cluster"])
    dw = min(max(10 * dw, -1.5), 1.5)
    return [1, corr, 1 - corr * corr, dw, abs(amp), amp, prem, pause, pol, inn, 10 * w,
            (1 - corr) * (1 - prem), (1 - corr) * dw,
            corr * corr, dw * dw, amp * amp, prem * prem, pause * pause, prem * pause, inn * corr, inn * dw,
            pause / prem, (1 - pol) * (1 - corr)]


def fit(X, y, l2=1e-3, iterations=40):
    w = np.zeros(X.shape[1])
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-X @ w))
        g = X.T @ (p - y) + l2 * w
        H = (X * (p * (1 - p))[:, None]).T @ X + l2 * np.eye(len(w))
        w -= np.linalg.solve(H, g)
    return w


def main(d):
    rows = []
    for f in sorted(glob.glob(os.path.join(d, "*.csv"))):
        rows += list(csv.DictReader(open(f)))
    valid = np.array([r["class"] != "Q" or r["normal_correlation"] != "" for r in rows])
    X1 = np.array([inputs(r) for r in rows])
    ref = np.array([r["reference"] for r in rows])
    ds1 = np.array([int(r["record"]) in DS1 for r in rows])
    y = (ref == "V").astype(float)
    train = ds1 & np.isin(ref, ["N", "S", "V"]) & valid
    w1 = fit(X1[train], y[train])
    p1 = 1 / (1 + np.exp(-X1 @ w1))
    hist = np.zeros((len(rows), 2))
    clusters = {}
    for i, r in enumerate(rows):
        if r["cluster"] == "-1":
            continue
        key = (r["record"], r["cluster"])
        count, score = clusters.get(key, (0, 0.5))
        hist[i] = (math.log1p(count), score)
        clusters[key] = (count + 1, score + (p1[i] - score) / min(count + 1, 8))
    X2 = np.column_stack([X1, hist, hist[:, 1] * (1 - X1[:, 9]), hist[:, 1] ** 2])
    w2 = fit(X2[train], y[train])
    p2 = 1 / (1 + np.exp(-X2 @ w2))
    fmt = lambda w: "[" + ", ".join("%.4f" % v for v in w) + "]"
    print("static let stage1Weights: [Double] = " + fmt(w1))
    print("static let stage2Weights: [Double] = " + fmt(w2))
    for name, m in [("DS1", ds1), ("DS2", ~ds1)]:
        pred = (p2 > 0.5) & valid & m
        tp = np.sum(pred & (ref == "V")); fn = np.sum(m & (ref == "V")) - tp
        fp = np.sum(pred & np.isin(ref, ["N", "S", "O"]))
        print("%s: V Se %.1f %%, +P %.1f %% (beats classified, no EC57 missed-beat accounting)"
              % (name, 100 * tp / (tp + fn), 100 * tp / (tp + fp)))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/beats")
