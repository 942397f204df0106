#!/usr/bin/env python3
"""Which beats the fusion check flags, and what leaving their intervals out does (issue 10).

Reads the beats the HRV chain suite writes (HRV_BEATS_DIR=DIR swift test -c release --filter
HRVChainValidation; the `fusion` column is BeatFeatures.fusionSuspected, the `fiducial` column
makes the intervals those of the chain) and the records' reference annotations with wfdb, and
prints:
1. the annotated class of every flagged beat (nearest annotated beat within 150 ms, EC57), with
   the share of the beats classified N that are flagged;
2. per record with flagged beats: the count, and the whole-record SDNN and RMSSD error against
   the annotations' own N-N intervals (both beats N, L, R, e or j; 300-2000 ms; RMSSD over
   adjacent pairs) of the intervals the chain used, and of those plus the intervals left out only
   because of a flagged beat (the chain without the fusion check; the correction works on timing
   alone, so the other exclusions do not change);
3. the median and 90th percentile of both errors over all dumped records;
4. the same figures for other bounds of the check (4 to 15 spreads), from the dumped
   `amplitude_spreads` (BeatFeatures.amplitudeDeviationSpreads, independent of the bound: every
   normal beat updates the running statistics): a sensitivity table, not a choice (the chain's
   bound, 5, was fixed before measuring). Intervals are taken back only where the flag alone
   excluded them (both beats N, certain, not flagged by the correction, in range and quality),
   so the bound-5 row reproduces the chain.

Usage: scripts/ecg/nn-fusion-study.py DUMP_DIR [MITDB_DIR]
"""
import collections, csv, glob, math, os, sys
import numpy as np
import wfdb

DUMP = sys.argv[1] if len(sys.argv) > 1 else '/tmp/hrv-beats'
DS = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                         '../../../shared/datasets/mitdb')
FS = 360.0
NORMAL = set('NLRej')
BEATS = set('NLRBAaJSVrFejnE/fQ?')
TOLERANCE = int(0.150 * FS)
UNCERTAIN_VPROB = 0.2  # ECGAnalyzer.uncertainVentricularProbability


def sdnn_rmssd(iv):
    """iv: (start, end) times in samples; RMSSD over pairs that share a beat."""
    ms = np.array([(e - s) / FS * 1000 for s, e in iv])
    d = [ms[i] - ms[i - 1] for i in range(1, len(iv)) if abs(iv[i][0] - iv[i - 1][1]) < 1e-6]
    return ms.std(ddof=1), math.sqrt(np.mean(np.square(d)))


def pct(x, q):
    return float(np.percentile(np.array(x), q))


BOUNDS = [4, 5, 6, 7, 8, 10, 12, 15]
symbols, flagged_total, normal_total = collections.Counter(), 0, 0
errors, errors_without = [], []
grid = {b: [] for b in BOUNDS}
print('| record | flagged | of N % | SDNN err % | without check | RMSSD err % | without check |')
print('|---|---:|---:|---:|---:|---:|---:|')
for path in sorted(glob.glob(f'{DUMP}/*.csv')):
    name = os.path.basename(path)[:-4]
    ann = wfdb.rdann(os.path.join(DS, name), 'atr')
    beats = [(s, c) for s, c in zip(ann.sample, ann.symbol) if c in BEATS]
    at = np.array([b[0] for b in beats])
    ref = [(beats[i - 1][0], beats[i][0]) for i in range(1, len(beats))
           if beats[i - 1][1] in NORMAL and beats[i][1] in NORMAL
           and 300 <= (beats[i][0] - beats[i - 1][0]) / FS * 1000 <= 2000]
    rows = [r for r in csv.DictReader(open(path)) if r['correction'] != 'removedExtra']

    def nearest(s):
        i = np.searchsorted(at, s)
        c = [j for j in (i - 1, i) if 0 <= j < len(at) and abs(at[j] - s) <= TOLERANCE]
        return beats[min(c, key=lambda j: abs(at[j] - s))][1] if c else '-'

    flagged = [r.get('fusion') == '1' for r in rows]
    n_flagged = sum(flagged)
    n_normal = sum(r['class'] == 'N' for r in rows)
    flagged_total += n_flagged
    normal_total += n_normal
    for r, f in zip(rows, flagged):
        if f:
            symbols[nearest(int(r['sample']))] += 1

    def t(r):
        return int(r['sample']) + float(r['fiducial'] or 0)

    # An interval runs from the previous detected beat (a pause the chain keeps spans the beat
    # the correction inserted; the row of an inserted beat has no sample).
    spreads = [float(r['amplitude_spreads']) if r.get('amplitude_spreads') else None for r in rows]
    # Intervals the chain would use without any fusion flag: (interval, opening row, closing row).
    base = []
    used, without, last = [], [], None
    for i in range(len(rows)):
        if not rows[i]['sample']:
            continue
        j, last = last, i
        if j is None or rows[i]['nn_ms'] == '':
            continue
        a, b = rows[j], rows[i]
        iv = (t(a), t(b))
        if b['nn_excluded'] == '':
            used.append(iv)
            without.append(iv)
            base.append((iv, j, i))
        elif (j == i - 1 and b['nn_excluded'] == 'unclassifiable' and (flagged[j] or flagged[i])
              and a['class'] == 'N' and b['class'] == 'N'
              and all(float(r['vprob'] or 0) < UNCERTAIN_VPROB for r in (a, b))
              and a['artefact'] == '' and b['artefact'] == ''
              and 300 <= (iv[1] - iv[0]) / FS * 1000 <= 2000 and b['quality'] != 'unacceptable'):
            without.append(iv)
            base.append((iv, j, i))
    rs, rr = sdnn_rmssd(ref)
    for bound in BOUNDS:
        flag = [x is not None and x > bound for x in spreads]
        gs, gr = sdnn_rmssd([iv for iv, j, i in base if not (flag[j] or flag[i])])
        grid[bound].append((abs(gs - rs) / rs, abs(gr - rr) / rr, sum(flag)))
    us, ur = sdnn_rmssd(used)
    ws, wr = sdnn_rmssd(without)
    e = (abs(us - rs) / rs, abs(ur - rr) / rr)
    w = (abs(ws - rs) / rs, abs(wr - rr) / rr)
    errors.append(e)
    errors_without.append(w)
    if n_flagged:
        print(f'| {name} | {n_flagged} | {100 * n_flagged / max(n_normal, 1):.2f} | {100 * e[0]:.1f} | {100 * w[0]:.1f} '
              f'| {100 * e[1]:.1f} | {100 * w[1]:.1f} |')

print(f'\n{flagged_total} beats flagged ({100 * flagged_total / normal_total:.2f} % of the {normal_total} beats classified N) '
      f'in {len(errors)} records; annotated class of the flagged beats:')
print(', '.join(f'{k} {v}' for k, v in symbols.most_common()))
for label, ev in (('chain', errors), ('without the fusion check', errors_without)):
    s, r = [x[0] for x in ev], [x[1] for x in ev]
    print(f'{label}: SDNN median {100 * pct(s, 50):.2f} % p90 {100 * pct(s, 90):.2f} % | '
          f'RMSSD median {100 * pct(r, 50):.2f} % p90 {100 * pct(r, 90):.2f} %')

print('\n| bound (spreads) | flagged | SDNN median % | SDNN p90 % | RMSSD median % | RMSSD p90 % |')
print('|---:|---:|---:|---:|---:|---:|')
for bound in BOUNDS:
    g = grid[bound]
    s, r = [x[0] for x in g], [x[1] for x in g]
    print(f'| {bound} | {sum(x[2] for x in g)} | {100 * pct(s, 50):.2f} | {100 * pct(s, 90):.2f} | '
          f'{100 * pct(r, 50):.3f} | {100 * pct(r, 90):.2f} |')
