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

Two rules are the ones `ecg_intervals` applies by default: the single-stream QT spread rule
(waves.qt_spread: QT IQR > SPREAD_ALLOWANCE_MS + RR_SLOPE x RR IQR, any row) and the cross-lead rule
(waves.qt_lead_agreement: LEAD_LIMIT_MS, over the leads' measured median QTs). The rules are
measured on a run with both off (each stream's QT as measured), then a run with the defaults checks that
the windows the shipped rules empty (null_reason "QT IQR ..." and "leads disagree on QT") are the ones
this script's copies of the rules empty. On MIT-BIH, where no QT is annotated, the lead rows a rule empties
are also compared with the other lead's QT of the same window (rule off): the median |difference| of the
emptied rows against the kept ones (a wrong T end shows as a lead far from the other). A second table lists the
MIT-BIH records where it empties windows, with each lead's median QT and QTcF, to judge whether one
lead's QT there is wrong (QTcF far outside 350-470 ms while the other lead's is inside).

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


RAW = ("--waves-qt-lead-agreement", "false", "--waves-qt-spread", "false")


def emptied(res, prefix):
    """The (stream, window start) rows a run empties with a null_reason starting with `prefix`."""
    with open(os.path.join(res, "ecg_intervals.csv")) as f:
        return {(r["stream"], float(r["start"])) for r in csv.DictReader(f)
                if r["scope"] == "window" and r["null_reason"].startswith(prefix)}


def windows(res):
    out = []
    with open(os.path.join(res, "ecg_intervals.csv")) as f:
        for r in csv.DictReader(f):
            if r["scope"] != "window" or not r["qt_ms"]:
                continue
            kind = "combined" if r["stream"].endswith("combined") else "lead"
            out.append(dict(stream=r["stream"], kind=kind, start=float(r["start"]), end=float(r["end"]),
                            qt=float(r["qt_ms"]), qt_iqr=float(r["qt_iqr_ms"]), rr_iqr=float(r["rr_iqr_ms"]),
                            qtcf=float(r["qtc_fridericia_ms"]),
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


# The cross-lead rule: in a window where the leads' median QTs (lead rows of one device, same window)
# differ by more than this, the lead rows and the combined row lose QT/QTc. Chosen from physiology
# before it was measured: the QT dispersion across the 12 leads (max - min) is 30-60 ms in healthy
# subjects, its upper normal limit about 70 ms, and values above 100 ms are rare even in disease
# (Malik M, Batchvarov VN, J Am Coll Cardiol 2000;36:1749-1766); two leads differ by at most the
# dispersion.
LEAD_LIMIT_MS = 100


# The single-stream rule: a window's QT IQR above SPREAD_ALLOWANCE_MS + RR_SLOPE x its RR IQR. Chosen
# from physiology before it was measured (ECGIntervals.qtSpreadLimit): the beat-to-beat QT variability
# at a steady rate has an SD of 2-10 ms (Berger et al. 1997; Baumert et al. 2016) and a delineator inside
# the CSE tolerance (T offset 2 sigma 30.6 ms) adds an IQR of about 21 ms; the allowance is 100 ms, the
# most two measurements of one heart's QT may differ by (LEAD_LIMIT_MS), four times both together; the
# steady-state QT/RR slope is 0.15-0.25 (Framingham; Bazett at 60-80 /min), 0.3 is above it.
SPREAD_ALLOWANCE_MS = 100
RR_SLOPE = 0.3


def spread(w):
    return w["qt_iqr"] > SPREAD_ALLOWANCE_MS + RR_SLOPE * w["rr_iqr"]


def cross_lead(rows):
    """Marks each window row `disagree` (the spread of the lead rows' median QTs of its device and
    window, ms, or None with fewer than two lead rows with a QT; the shipped rule compares a lead the
    spread rule emptied with its measured median too) and `other` (a lead row: |its QT - the other
    lead's|, ms)."""
    by = {}
    for w in rows:
        device = w["stream"].rsplit("/", 1)[0]
        by.setdefault((device, w["start"]), []).append(w)
    for ws in by.values():
        q = [w["qt"] for w in ws if w["kind"] == "lead"]
        d = max(q) - min(q) if len(q) >= 2 else None
        for w in ws:
            w["disagree"] = d
            o = [v["qt"] for v in ws if v["kind"] == "lead" and v is not w]
            w["other"] = abs(w["qt"] - o[0]) if w["kind"] == "lead" and len(o) == 1 else None


def shipped_spread(w):
    return spread(w)


def shipped_lead(w):
    """The cross-lead rule's rows as shipped: a row the spread rule empties keeps that reason."""
    return not spread(w) and w["disagree"] is not None and w["disagree"] > LEAD_LIMIT_MS


RULES = [("QT IQR > %d ms" % t, lambda w, t=t: w["qt_iqr"] > t) for t in (60, 80, 100, 120)] + [
    ("QTcF IQR > 60 ms", lambda w: w["qtcf_iqr"] > 60),
    ("QT IQR > %d ms + %.1f x RR IQR (shipped, waves.qt_spread)" % (SPREAD_ALLOWANCE_MS, RR_SLOPE), spread),
    ("leads' QT differ > %d ms" % LEAD_LIMIT_MS,
     lambda w: w["disagree"] is not None and w["disagree"] > LEAD_LIMIT_MS),
    ("both (shipped defaults)", lambda w: shipped_spread(w) or shipped_lead(w))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=os.path.join(HERE, "../../.build/release/sensorpipe"))
    ap.add_argument("--out", default="/tmp/qtdb-qt-plausibility")
    ap.add_argument("--reuse", action="store_true")
    a = ap.parse_args()
    scored = []  # (kind, window, error ms)
    mismatch = []  # records where the shipped rule and this copy of it empty different windows

    def check(root, rec, ws, sub):
        _, res = analyze(a.binary, root, rec, os.path.join(a.out, sub), reuse=a.reuse)
        for prefix, rule in (("QT IQR", shipped_spread), ("leads disagree on QT", shipped_lead)):
            if {(w["stream"], w["start"]) for w in ws if rule(w)} != emptied(res, prefix):
                mismatch.append(rec + " (" + prefix + ")")
    for rec in QTDB_RECORDS:
        _, res = analyze(a.binary, QTDB, rec, os.path.join(a.out, "qtdb-raw"), reuse=a.reuse, options=RAW)
        ann = annotated_qt(rec)
        ws = windows(res)
        cross_lead(ws)
        check(QTDB, rec, ws, "qtdb")
        for w in ws:
            v = [qt for (t, qt) in ann if w["start"] <= t < w["end"]]
            if len(v) >= 3:
                scored.append((w["kind"], rec, w, w["qt"] - float(np.median(v))))
    mit = []
    with open(os.path.join(MITDB, "RECORDS")) as f:
        records = f.read().split()
    for rec in records:
        _, res = analyze(a.binary, MITDB, rec, os.path.join(a.out, "mitdb-raw"), reuse=a.reuse, options=RAW)
        ws = windows(res)
        cross_lead(ws)
        check(MITDB, rec, ws, "mitdb")
        mit += [(rec, w) for w in ws]
    print("| rule | stream | QTDB windows kept: n, mean abs error ms, share abs error > 40 ms | QTDB windows emptied: n,"
          " mean abs error ms, share > 40 ms (records) | MIT-BIH windows with a QT emptied | MIT-BIH lead rows: abs"
          " difference to the other lead's QT, median and share > 50 ms, kept / emptied |")
    print("|---|---|---|---|---:|---:|")

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
            other = "–"
            if kind == "lead":
                ok = [w["other"] for w in m if w["other"] is not None and not rule(w)]
                no = [w["other"] for w in m if w["other"] is not None and rule(w)]
                def d(v):
                    return "%.0f ms, %.0f %%" % (np.median(v), 100 * np.mean(np.array(v) > 50)) if v else "–"
                other = "%s / %s" % (d(ok), d(no))
            print("| %s | %s | %s | %s%s | %.1f %% of %d | %s |" % (
                name, kind, summary(kept), summary(dropped), " (" + " ".join(recs) + ")" if recs else "", share, len(m),
                other))


    print()
    print("MIT-BIH records where the cross-lead rule (leads' QT differ > %d ms) empties windows: windows emptied of the"
          " combined stream's windows with a QT; each stream's median over its windows (rule off) of QT / QTcF, ms"
          % LEAD_LIMIT_MS)
    print()
    print("| record | windows emptied | streams: QT / QTcF (median of windows) |")
    print("|---|---:|---|")
    rule = RULES[-2][1]
    total = 0
    for rec in records:
        ws = [w for (r, w) in mit if r == rec]
        comb = [w for w in ws if w["kind"] == "combined"]
        hit = sum(rule(w) for w in comb)
        total += hit
        if not hit:
            continue
        streams = []
        for s in sorted(set(w["stream"] for w in ws), key=lambda s: (s.endswith("combined"), s)):
            v = [w for w in ws if w["stream"] == s]
            streams.append("%s %.0f / %.0f" % (s.rsplit("/", 1)[1], np.median([w["qt"] for w in v]),
                                               np.median([w["qtcf"] for w in v])))
        print("| %s | %d of %d | %s |" % (rec, hit, len(comb), ", ".join(streams)))
    print()
    print("MIT-BIH records where the QT spread rule (QT IQR > %d ms + %.1f x RR IQR) empties windows (rule off:"
          " windows emptied of the stream's windows with a QT, and the emptied windows' QT IQR / RR IQR, ms)"
          % (SPREAD_ALLOWANCE_MS, RR_SLOPE))
    print()
    print("| record | stream: windows emptied (QT IQR / RR IQR, median of the emptied) |")
    print("|---|---|")
    for rec in records:
        ws = [w for (r, w) in mit if r == rec]
        out = []
        for s in sorted(set(w["stream"] for w in ws), key=lambda s: (s.endswith("combined"), s)):
            v = [w for w in ws if w["stream"] == s]
            hit = [w for w in v if spread(w)]
            if hit:
                out.append("%s %d of %d (%.0f / %.0f)" % (s.rsplit("/", 1)[1], len(hit), len(v),
                                                          np.median([w["qt_iqr"] for w in hit]),
                                                          np.median([w["rr_iqr"] for w in hit])))
        if out:
            print("| %s | %s |" % (rec, ", ".join(out)))
    print()
    print("Shipped rules (defaults) against this script's copies: %s." % (
        "the same windows emptied in all %d records" % (len(QTDB_RECORDS) + len(records)) if not mismatch
        else "DIFFERENT windows in " + " ".join(mismatch)))


if __name__ == "__main__":
    main()
