#!/usr/bin/env python3
"""Where SensorPipe's large wave-boundary errors come from on the QT Database (issue 30).

Runs `sensorpipe analyze` on the 15 MIT-BIH records of QTDB (../shared/datasets/qtdb-mitdb,
unpacked with xz), reads `ecg_waves.csv`, and scores every annotated boundary of `.q1c` (and
`.q2c` where it exists) as Tests/PipelineTests/QTDBWavesValidationTests.swift does (nearest
delineated boundary of the same kind within 150 ms; error = delineated - annotated, ms). Prints,
per stream kind (lead 0, lead 1, combined) and boundary kind: mean ± SD, Se, the share of
|error| > 40 ms ("gross") and the SD without them, then the gross errors per record, then a
list of the gross errors with the beat's class, RR, and the delineated shape, for reading.

Usage: python3 scripts/ecg/qtdb-waves-errors.py [--binary PATH] [--out DIR] [--list KIND]
"""
import argparse
import csv
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wfdb_common import KINDS, analyze, marks  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "../../../shared/datasets/qtdb-mitdb")
RECORDS = "sel100 sel102 sel103 sel104 sel114 sel116 sel117 sel123 sel213 sel221 sel223 sel230 sel231 sel232 sel233".split()
COL = {"P on": "p_onset", "P peak": "p_peak", "P off": "p_offset", "QRS on": "qrs_onset", "QRS off": "qrs_offset",
       "T peak": "t_peak", "T off": "t_offset"}
FS = 250.0
GROSS = 40.0


def run(binary, rec, out):
    _, res = analyze(binary, ROOT, rec, out)
    rows = {}
    with open(os.path.join(res, "ecg_waves.csv")) as f:
        for r in csv.DictReader(f):
            rows.setdefault(r["stream"], []).append(r)
    return rows


def header_signals(rec):
    """Signal names in the record header's order (lead 0, lead 1 as the validation suite names them)."""
    with open(os.path.join(ROOT, f"{rec}.hea")) as f:
        lines = [ln.split() for ln in f if ln.strip() and not ln.startswith("#")]
    return [ln[-1] for ln in lines[1:]]


def kind_of(stream):
    return "combined" if stream.endswith("combined") else stream.split("/")[-1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=os.path.join(HERE, "../../.build/release/sensorpipe"))
    ap.add_argument("--out", default="/tmp/qtdb-waves-errors")
    ap.add_argument("--list", default="", help="boundary kind whose gross errors to list, e.g. 'T off'")
    a = ap.parse_args()
    acc = {}  # (annotator, lead index name, kind) -> list of (rec, err, row)
    n = {}
    for rec in RECORDS:
        rows = run(a.binary, rec, a.out)
        streams = sorted(rows)
        lead_names = {}
        order = header_signals(rec)
        leads = [s for s in streams if not s.endswith("combined")]
        for s in leads:
            lead_names[s] = f"lead {order.index(kind_of(s))}"
        for s in streams:
            if s.endswith("combined"):
                lead_names[s] = "combined"
        for annotator in ["q1c", "q2c"]:
            path = os.path.join(ROOT, f"{rec}.{annotator}")
            if not os.path.exists(path):
                continue
            m = marks(path)
            for s in streams:
                ln = lead_names[s]
                for k in KINDS:
                    det = []
                    for r in rows[s]:
                        v = r[COL[k]]
                        if v != "":
                            det.append((float(v), r))
                    det.sort(key=lambda x: x[0])
                    times = np.array([d[0] for d in det])
                    n[(annotator, ln, k)] = n.get((annotator, ln, k), 0) + len(m[k])
                    n[(annotator, ln, k, rec)] = n.get((annotator, ln, k, rec), 0) + len(m[k])
                    for t in m[k]:
                        if len(times) == 0:
                            continue
                        j = int(np.argmin(np.abs(times - t)))
                        if abs(times[j] - t) <= 0.15:
                            acc.setdefault((annotator, ln, k), []).append((rec, 1000 * (times[j] - t), det[j][1], t))
    for annotator in ["q1c", "q2c"]:
        print(f"\n## {annotator}: mean ± SD (Se %, n) | gross >{GROSS:.0f} ms % | SD without gross")
        for ln in ["lead 0", "lead 1", "combined"]:
            cells = []
            for k in KINDS:
                e = np.array([x[1] for x in acc.get((annotator, ln, k), [])])
                tot = n.get((annotator, ln, k), 0)
                if tot == 0:
                    cells.append(f"{k}: –")
                    continue
                if len(e) == 0:
                    cells.append(f"{k}: Se 0")
                    continue
                g = np.abs(e) > GROSS
                core = e[~g]
                cells.append(f"{k}: {e.mean():.1f}±{e.std(ddof=1) if len(e) > 1 else 0:.1f} ({100*len(e)/tot:.0f}, {tot}) "
                             f"g {100*g.mean():.0f}% core {core.mean() if len(core) else 0:.1f}±{core.std(ddof=1) if len(core) > 1 else 0:.1f}")
            print(f"- {ln}: " + " | ".join(cells))
        print(f"\n### {annotator} gross errors per record (count gross / matched, missed) — combined")
        for k in KINDS:
            parts = []
            for rec in RECORDS:
                e = [x[1] for x in acc.get((annotator, "combined", k), []) if x[0] == rec]
                tot = n.get((annotator, "combined", k, rec), 0)
                if tot == 0:
                    continue
                g = sum(abs(x) > GROSS for x in e)
                miss = tot - len(e)
                if g or miss:
                    parts.append(f"{rec[3:]}:{g}/{len(e)}" + (f" miss {miss}" if miss else "") + f" ({np.mean(e) if e else 0:+.0f})")
            print(f"- {k}: " + ", ".join(parts))
    print("\n### Where the SD comes from: each record's share of the pooled squared deviation (q1c, combined; "
          "record mean ± SD, ms)")
    for k in ["P on", "QRS off", "T off"]:
        e = np.array([x[1] for x in acc.get(("q1c", "combined", k), [])])
        if len(e) < 2:
            continue
        mu, total = e.mean(), ((e - e.mean()) ** 2).sum()
        parts = []
        for rec in RECORDS:
            r = np.array([x[1] for x in acc.get(("q1c", "combined", k), []) if x[0] == rec])
            if len(r):
                parts.append((((r - mu) ** 2).sum() / total, rec, r))
        parts.sort(reverse=True)
        print(f"- {k} (pooled {mu:.1f} ± {e.std(ddof=1):.1f}): " + ", ".join(
            f"{rec[3:]} {100 * sh:.0f}% ({r.mean():+.0f} ± {r.std():.0f})" for sh, rec, r in parts if sh >= 0.05))
    print("\n### The two annotators against each other: q2c − q1c, ms (each q1c mark matched to the nearest q2c mark "
          "of its kind within 150 ms; records with a .q2c)")
    for k in KINDS:
        d, per = [], []
        for rec in RECORDS:
            p2 = os.path.join(ROOT, f"{rec}.q2c")
            if not os.path.exists(p2):
                continue
            m1, m2 = marks(os.path.join(ROOT, f"{rec}.q1c"))[k], np.array(marks(p2)[k])
            if len(m2) == 0 or len(m1) == 0:
                continue
            e = [1000 * (m2[j] - t) for t in m1 for j in [int(np.argmin(np.abs(m2 - t)))] if abs(m2[j] - t) <= 0.15]
            d += e
            if e:
                per.append(f"{rec[3:]} {np.mean(e):+.0f}")
        if len(d) > 1:
            print(f"- {k}: {np.mean(d):.1f} ± {np.std(d, ddof=1):.1f} (n {len(d)}); per record mean: " + ", ".join(per))
    if a.list:
        for ln in ["lead 0", "lead 1", "combined"]:
            print(f"\n### q1c {a.list} gross, {ln}")
            for rec, e, r, t in acc.get(("q1c", ln, a.list), []):
                if abs(e) > GROSS:
                    print(f"{rec} t={t:8.3f} err {e:+6.0f} class {r['class']} rr {r['rr_before'][:5]} "
                          f"p {r['p_status']}/{r['p_shape']} t {r['t_status']}/{r['t_shape']} q {r['signal_quality']}")


if __name__ == "__main__":
    main()
