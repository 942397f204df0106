#!/usr/bin/env python3
"""MIT-BIH false af windows (issue 29): every lead-0 30-s window SensorPipe labels `af` whose
reference is not AF (< 50 % of it annotated AFIB/AFL), with what the annotators say is in it:
the rhythm notes (`.atr` aux, share of the window per rhythm) and the beat annotations (counts of
each symbol), read with the `wfdb` package. Also the reference rhythm of each episode-edge window.

    scripts/rhythm/mitdb-false-af.py /tmp/sensorpipe-rhythm/mitdb.sqlite ../shared/datasets/mitdb

Prints a Markdown table per false window and a summary by dominant reference rhythm.
"""
import os, sqlite3, sys
from collections import Counter, defaultdict

import wfdb

NAMES = {"(N": "sinus", "(AFIB": "AF", "(AFL": "AFL", "(SVTA": "SVTA", "(B": "ventr. bigeminy", "(T": "ventr. trigeminy",
         "(VT": "VT", "(IVR": "idioventr.", "(NOD": "nodal", "(P": "paced", "(PREX": "pre-excitation", "(SBR": "sinus brady",
         "(BII": "2° block", "(AB": "atrial bigeminy", "(VFL": "VFL", "(PB": "?", "(M": "?"}
BEATS = "NLRejAaJSVEF/fQ"


def main(db, folder):
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    rows = [dict(r) for r in con.execute(
        "SELECT stream, window_start AS a, window_end AS b, label, af_probability AS p, beats, mean_hr_bpm AS hr, "
        "nrmssd, nv_nrmssd, ectopic_share, p_wave_coherence AS pwc, qrs_coherence AS qc, atrial_residual AS ar, hf_noise AS hf "
        "FROM rhythm WHERE source = 'ecg' ORDER BY stream, window_start")]
    per = defaultdict(list)
    for r in rows:
        per[r["stream"].split("/")[0]].append(r)
    out = ["| record | window (s) | reference rhythm (share) | beats (annotated) | af p | P coh | nRMSSD | nv nRMSSD | ectopic share |",
           "|---|---|---|---|---|---|---|---|---|"]
    summary, records = Counter(), Counter()
    for rec in sorted({f[:-4] for f in os.listdir(folder) if f.endswith(".hea")}):
        header = open(os.path.join(folder, rec + ".hea")).read().splitlines()
        lead0 = header[1].split()[-1]
        n, fs = int(header[0].split()[3]), float(header[0].split()[2])
        ws = [w for w in per[rec] if w["stream"].endswith("/" + lead0)]
        ann = wfdb.rdann(os.path.join(folder, rec), "atr")
        changes = [(s / fs, a.strip("\x00")) for s, a in zip(ann.sample, ann.aux_note) if a.startswith("(")]
        spans, cur, since = [], None, 0.0
        for t, a in changes + [(n / fs, "(END")]:
            if cur is not None:
                spans.append((since, t, cur))
            cur, since = a, t
        for w in ws:
            a, b = w["a"], w["b"]
            share = Counter()
            for x, y, r in spans:
                share[r] += max(0.0, min(b, y) - max(a, x))
            af = share["(AFIB"] + share["(AFL"]
            if w["label"] != "af" or af >= 0.5 * (b - a):
                continue
            beats = Counter(s for s, t in zip(ann.symbol, ann.sample) if a <= t / fs < b and s in BEATS)
            top = max(share, key=share.get)
            summary[NAMES.get(top, top)] += 1
            records[rec] += 1
            rhythm = ", ".join(f"{NAMES.get(r, r)} {v / (b - a):.0%}" for r, v in share.most_common() if v > 0)
            bs = " ".join(f"{k}{v}" for k, v in beats.most_common())
            f = lambda x: "" if x is None else f"{x:.2f}"
            out.append(f"| {rec} | {a:.0f}–{b:.0f} | {rhythm} | {bs} | {f(w['p'])} | {f(w['pwc'])} | {f(w['nrmssd'])} | "
                       f"{f(w['nv_nrmssd'])} | {f(w['ectopic_share'])} |")
    print("\n".join(out))
    print()
    print(f"{sum(summary.values())} false af windows; by dominant reference rhythm: "
          + ", ".join(f"{k} {v}" for k, v in summary.most_common()))
    print("by record: " + ", ".join(f"{k} {v}" for k, v in records.most_common()))


if __name__ == "__main__":
    main(*sys.argv[1:3])
