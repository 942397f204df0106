#!/usr/bin/env python3
"""A window-level QT plausibility rule for `ecg_intervals` (issue 30), measured before it is shipped.

A candidate rule empties a window's QT/QTc when the window's beat-to-beat QT values are incoherent
(their IQR above a threshold). It is measured on:
- the 15 MIT-BIH records of the QT Database (../shared/datasets/qtdb-mitdb): for every window row
  (lead 0, lead 1, combined) holding >= 3 beats annotated in `.q1c` (QRS onset and T offset), the
  error of the window's median QT against the median annotated QT of those beats; the rule's kept
  and dropped windows are compared (mean |error|, share with |error| > 40 ms);
- the 48 MIT-BIH Arrhythmia records (../shared/datasets/mitdb): the share of windows with a QT
  that the rule empties (no reference QT there; a rule that empties many windows of ordinary
  recordings does not hold up).

Runs the release `sensorpipe analyze` on each record (or reuses --out). In-sample: QTDB is the
development set of the delineator.

Usage: python3 scripts/ecg/qtdb-qt-plausibility.py [--binary PATH] [--out DIR] [--reuse]
"""
import argparse
import csv
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from wfdb_common import analyze, marks  # noqa: E402

QTDB = os.path.join(HERE, "../../../shared/datasets/qtdb-mitdb")
MITDB = os.path.join(HERE, "../../../shared/datasets/mitdb")
QTDB_RECORDS = ("sel100 sel102 sel103 sel104 sel114 sel116 sel117 sel123 sel213 sel221 sel223 sel230 sel231 "
                "sel232 sel233").split()


def windows(res):
    out = []
    with open(os.path.join(res, "ecg_intervals.csv")) as f:
        for r in csv.DictReader(f):
            if r["scope"] != "window" or not r["qt_ms"]:
                continue
            kind = "combined" if r["stream"].endswith("combined") else "lead"
            out.append(dict(stream=r["stream"], kind=kind, start=float(r["start"]), end=float(r["end"]),
                            qt=float(r["qt_ms"]), qt_iqr=float(r["qt_iqr_ms"]),
                            qtcf_iqr=float(r["qtc_fridericia_iqr_ms"])))
    return out


def annotated_qt(rec):
    q = marks(os.path.join(QTDB, rec + ".q1c"))
    on = np.array(sorted(q["QRS on"]))
    out = []
    for t in q["T off"]:
        before = on[(on < t) & (on > t - 0.8)]
        if len(before):
            out.append((before.max(), (t - before.max()) * 1000))
    return out


RULES = [("QT IQR > %d ms" % t, lambda w, t=t: w["qt_iqr"] > t) for t in (60, 80, 100, 120)] + [
    ("QTcF IQR > 60 ms", lambda w: w["qtcf_iqr"] > 60)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=os.path.join(HERE, "../../.build/release/sensorpipe"))
    ap.add_argument("--out", default="/tmp/qtdb-qt-plausibility")
    ap.add_argument("--reuse", action="store_true")
    a = ap.parse_args()
    scored = []  # (kind, window, error ms)
    for rec in QTDB_RECORDS:
        _, res = analyze(a.binary, QTDB, rec, os.path.join(a.out, "qtdb"), reuse=a.reuse)
        ann = annotated_qt(rec)
        for w in windows(res):
            v = [qt for (t, qt) in ann if w["start"] <= t < w["end"]]
            if len(v) >= 3:
                scored.append((w["kind"], rec, w, w["qt"] - float(np.median(v))))
    mit = []
    with open(os.path.join(MITDB, "RECORDS")) as f:
        records = f.read().split()
    for rec in records:
        _, res = analyze(a.binary, MITDB, rec, os.path.join(a.out, "mitdb"), reuse=a.reuse)
        mit += [(rec, w) for w in windows(res)]
    print("| rule | stream | QTDB windows kept: n, mean abs error ms, share abs error > 40 ms | QTDB windows emptied: n,"
          " mean abs error ms, share > 40 ms (records) | MIT-BIH windows with a QT emptied |")
    print("|---|---|---|---|---:|")

    def summary(rows):
        if not rows:
            return "0"
        e = np.abs([r[3] for r in rows])
        return "%d, %.1f, %.0f %%" % (len(e), e.mean(), 100 * np.mean(e > 40))
    for name, rule in [("none", lambda w: False)] + RULES:
        for kind in ("lead", "combined"):
            s = [r for r in scored if r[0] == kind]
            kept = [r for r in s if not rule(r[2])]
            dropped = [r for r in s if rule(r[2])]
            recs = sorted(set(r[1][3:] for r in dropped))
            m = [w for (_, w) in mit if w["kind"] == kind]
            share = 100 * np.mean([rule(w) for w in m]) if m else float("nan")
            print("| %s | %s | %s | %s%s | %.1f %% of %d |" % (
                name, kind, summary(kept), summary(dropped), " (" + " ".join(recs) + ")" if recs else "", share, len(m)))


if __name__ == "__main__":
    main()
