#!/usr/bin/env python3
"""T-offset study on the QT Database (issue 30, docs/VALIDATION.md "ECG waves", T offset).

A NumPy model of the combined row's T-offset rule (ECGWavesFamily.Combiner: the median T offset of the
leads whose value lies within 40 ms of the median of that lead's own last 8 beats, all leads when none
does), run on the lead rows of SensorPipe's own `ecg_waves.csv` (the lead beats matched to the reference
lead's beat within 150 ms, as the Swift combiner does), to measure variants of the lead combination before
porting them to Swift. Reads the output folder of `python3 scripts/ecg/qtdb-waves-errors.py` (default
/tmp/qtdb-waves-errors; env RES). In-sample figures (the 15 records the rules were chosen on).

Prints: a check that the model reproduces the combined row's T offsets beat for beat; per record and lead the
q1c T-offset error with the lead's median T height (|x(T peak) − x(T offset)|, or the largest excursion in
the 200 ms before the offset for a one-slope T) and its ratio to a noise level (1.4826 · MAD of the first
difference); the two annotators against each other per record (q2c − q1c), and the combined T offset against their mean
on the records with both; and the pooled combined rows
(q1c, q2c: mean ± SD, Se %) of the shipped rule and of the variants: the latest or earliest coherent
offset instead of the median; a lead with a flat T (height below
r × the beat's largest T height among the leads, Minnesota Code 5-3's "flat T" read relative to the other
lead) or a T height below k × its noise gives way, after or before the coherence rule.
Usage: python3 scripts/ecg/qtdb-waves-errors.py && python3 scripts/ecg/qtdb-t-offset-study.py
"""
import csv
import os
import sys

import numpy as np
import wfdb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wfdb_common import marks  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../shared/datasets/qtdb-mitdb")
RES = os.environ.get("RES", "/tmp/qtdb-waves-errors")
RECS = "sel100 sel102 sel103 sel104 sel114 sel116 sel117 sel123 sel213 sel221 sel223 sel230 sel231 sel232 sel233".split()
FS = 250.0
MATCH, COHERENCE, HISTORY = 0.15, 0.04, 8


def f(v):
    return float(v) if v != "" else None


def load():
    data = {}
    for rec in RECS:
        sig = wfdb.rdrecord(os.path.join(RES, "data", rec))
        rows = {}
        with open(os.path.join(RES, rec, "ecg_waves.csv")) as fh:
            for r in csv.DictReader(fh):
                rows.setdefault(r["stream"].split("/")[-1], []).append(r)
        data[rec] = (sig.p_signal, sig.sig_name, rows)
    return data


def height(x, r):
    """The T's height: |x(T peak) − x(T offset)|, or the largest excursion from x(T offset) in the 200 ms
    before it when no peak is set (one slope found)."""
    to, tp = f(r["t_offset"]), f(r["t_peak"])
    if to is None or r["t_status"] != "present":
        return None
    i1 = int(round(to * FS))
    if i1 >= len(x):
        return None
    if tp is not None:
        return abs(x[int(round(tp * FS))] - x[i1])
    return float(np.max(np.abs(x[max(0, i1 - int(0.2 * FS)):i1 + 1] - x[i1])))


def noise(x):
    d = np.diff(x)
    return 1.4826 * np.median(np.abs(d - np.median(d)))


def score(dets, m):
    times = np.array(sorted(dets))
    e = []
    for t in m:
        if len(times) == 0:
            continue
        j = int(np.argmin(np.abs(times - t)))
        if abs(times[j] - t) <= MATCH:
            e.append(1000 * (times[j] - t))
    return e


def combined(data, rec, rule):
    """The combined T offsets of a record under `rule` (a function of the beat's lead parts), and the shipped
    combined row's."""
    sigs, names, rows = data[rec]
    nz = [noise(sigs[:, i]) for i in range(len(names))]
    lead_rows = [rows[n] for n in names]
    lead_t = [np.array([float(r["beat_time"]) for r in rows[n]]) for n in names]
    used = [set() for _ in names]
    hist = [[] for _ in names]
    out = []
    for c in rows["combined"]:
        bt = float(c["beat_time"])
        parts = []
        for li, lr in enumerate(lead_rows):
            j = int(np.searchsorted(lead_t[li], bt))
            cand = [k for k in (j - 1, j, j + 1)
                    if 0 <= k < len(lr) and k not in used[li] and abs(lead_t[li][k] - bt) <= MATCH]
            if not cand:
                continue
            k = min(cand, key=lambda k: abs(lead_t[li][k] - bt))
            used[li].add(k)
            r = lr[k]
            v = f(r["t_offset"]) if r["t_status"] == "present" else None
            if v is None:
                continue
            rel = v - float(r["beat_time"])
            h = hist[li]
            coh = len(h) < 3 or abs(rel - np.median(h)) <= COHERENCE
            h.append(rel)
            if len(h) > HISTORY:
                h.pop(0)
            parts.append(dict(v=v, coh=coh, h=height(sigs[:, li], r), n=nz[li]))
        v = rule(parts)
        if v is not None:
            out.append(v)
    return out, [f(c["t_offset"]) for c in rows["combined"] if f(c["t_offset"]) is not None]


def shipped(parts):
    k = [p for p in parts if p["coh"]] or parts
    return float(np.median([p["v"] for p in k])) if k else None


def extreme(pick):
    def rule(parts):
        k = [p for p in parts if p["coh"]] or parts
        return pick(p["v"] for p in k) if k else None
    return rule


def flat_after(r):
    def rule(parts):
        k = [p for p in parts if p["coh"]] or parts
        hs = [p["h"] for p in k if p["h"] is not None]
        if len(k) >= 2 and hs:
            k = [p for p in k if p["h"] is not None and p["h"] >= r * max(hs)] or k
        return float(np.median([p["v"] for p in k])) if k else None
    return rule


def flat_before(r):
    def rule(parts):
        hs = [p["h"] for p in parts if p["h"] is not None]
        k = parts
        if len(parts) >= 2 and hs:
            k = [p for p in parts if p["h"] is not None and p["h"] >= r * max(hs)] or parts
        k = [p for p in k if p["coh"]] or k
        return float(np.median([p["v"] for p in k])) if k else None
    return rule


def above_noise(kk):
    def rule(parts):
        k = [p for p in parts if p["coh"]] or parts
        k = [p for p in k if p["h"] is not None and p["h"] >= kk * p["n"]] or k
        return float(np.median([p["v"] for p in k])) if k else None
    return rule


def evaluate(data, rule, label, per_record=False):
    res = {}
    for ann in ["q1c", "q2c"]:
        pooled, per, total = [], [], 0
        for rec in RECS:
            p = os.path.join(ROOT, f"{rec}.{ann}")
            if not os.path.exists(p):
                continue
            m = marks(p)["T off"]
            e = score(combined(data, rec, rule)[0], m)
            pooled += e
            total += len(m)
            if e:
                per.append(f"{rec[3:]} {np.mean(e):+.0f}±{np.std(e, ddof=1) if len(e) > 1 else 0:.0f}")
        e = np.array(pooled)
        res[ann] = (e.mean(), e.std(ddof=1), 100 * len(e) / total, per)
    print(f"- {label}: q1c {res['q1c'][0]:+.1f} ± {res['q1c'][1]:.1f} (Se {res['q1c'][2]:.1f}) | "
          f"q2c {res['q2c'][0]:+.1f} ± {res['q2c'][1]:.1f} (Se {res['q2c'][2]:.1f})")
    if per_record:
        for ann in ["q1c", "q2c"]:
            print(f"  {ann} per record: " + ", ".join(res[ann][3]))


def both_annotators():
    """(record, q1c T-off marks, q2c T-off marks as an array) for the records whose .q2c has T-off marks."""
    for rec in RECS:
        p2 = os.path.join(ROOT, f"{rec}.q2c")
        if not os.path.exists(p2):
            continue
        m1, m2 = marks(os.path.join(ROOT, f"{rec}.q1c"))["T off"], np.array(marks(p2)["T off"])
        if len(m2):
            yield rec, m1, m2


def main():
    data = load()
    bad = [rec for rec in RECS
           for d, c in [combined(data, rec, shipped)]
           if len(d) != len(c) or max(abs(a - b) for a, b in zip(d, c)) > 1e-9]
    print(f"model reproduces the combined T offsets of {len(RECS) - len(bad)} of {len(RECS)} records beat for beat"
          + (f" (not: {' '.join(bad)})" if bad else ""))
    print("\n## Per record and lead (q1c T off error mean ± SD ms; median T height, mV; height / noise)")
    for rec in RECS:
        sigs, names, rows = data[rec]
        m = marks(os.path.join(ROOT, f"{rec}.q1c"))["T off"]
        cells = []
        for li, n in enumerate(names):
            rs = [r for r in rows[n] if r["t_status"] == "present" and r["t_offset"] != ""]
            e = score([float(r["t_offset"]) for r in rs], m)
            hs = [h for h in (height(sigs[:, li], r) for r in rs) if h is not None]
            cells.append(f"{n} {np.mean(e):+.0f} ± {np.std(e, ddof=1):.0f}, T {np.median(hs):.3f} mV, "
                         f"{np.median(hs) / noise(sigs[:, li]):.0f}× noise")
        print(f"- {rec}: " + "; ".join(cells))
    print("\n## The annotators: q2c − q1c T off per record, ms (nearest q2c mark within 150 ms)")
    pooled = []
    for rec, m1, m2 in both_annotators():
        d = [1000 * (m2[j] - t) for t in m1 for j in [int(np.argmin(np.abs(m2 - t)))] if abs(m2[j] - t) <= MATCH]
        pooled += d
        print(f"- {rec}: {np.mean(d):+.0f} ± {np.std(d, ddof=1) if len(d) > 1 else 0:.0f} (n {len(d)})")
    print(f"- pooled: {np.mean(pooled):+.1f} ± {np.std(pooled, ddof=1):.1f} (n {len(pooled)})")
    print("\n## Combined T off against the two annotators' mean (each q1c mark averaged with its nearest q2c mark "
          "within 150 ms; the records with both), and against q1c on the same records")
    for label, rule in [("shipped (median of the coherent leads)", shipped), ("flat T gives way, r 0.25", flat_after(0.25))]:
        e_mean, e_q1 = [], []
        for rec, m1, m2 in both_annotators():
            both = [(t + m2[j]) / 2 for t in m1 for j in [int(np.argmin(np.abs(m2 - t)))] if abs(m2[j] - t) <= MATCH]
            dets = combined(data, rec, rule)[0]
            e_mean += score(dets, both)
            e_q1 += score(dets, m1)
        print(f"- {label}: annotators' mean {np.mean(e_mean):+.1f} ± {np.std(e_mean, ddof=1):.1f} (n {len(e_mean)}); "
              f"q1c {np.mean(e_q1):+.1f} ± {np.std(e_q1, ddof=1):.1f} (n {len(e_q1)})")
    print("\n## Combined T offset rules (pooled, ms)")
    evaluate(data, shipped, "shipped (median of the coherent leads)", per_record=True)
    evaluate(data, extreme(max), "latest of the coherent leads")
    evaluate(data, extreme(min), "earliest of the coherent leads")
    for r in [0.2, 0.25, 0.33, 0.5]:
        evaluate(data, flat_after(r), f"flat T gives way (height < {r} × the largest), after coherence",
                 per_record=(r == 0.25))
    for r in [0.25, 0.33, 0.5]:
        evaluate(data, flat_before(r), f"flat T gives way (height < {r} × the largest), before coherence")
    for kk in [5, 8, 10]:
        evaluate(data, above_noise(kk), f"T height below {kk} × the lead's noise gives way")


if __name__ == "__main__":
    main()
