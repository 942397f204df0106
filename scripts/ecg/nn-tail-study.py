#!/usr/bin/env python3
"""Where the HRV error of a record comes from (issue 10): the chain's NN intervals against the
annotations' own N-N intervals, beat by beat.

Reads the beats the HRV chain suite writes (HRV_BEATS_DIR=DIR swift test -c release --filter
HRVChainValidation) and the records' reference annotations (.atr), matches each detected beat to
the nearest annotated beat within 150 ms, and prints per record: whole-record SDNN and RMSSD of
the reference, of the intervals the chain used (between detected beats) and of only those used
intervals that are annotated N-N intervals; the used intervals that are not (by annotated symbol
pair, '-' for a detection without a beat, '*' for a pair that skips an annotated beat); and the
annotated N-N intervals the chain left out, by exclusion reason and the chain's two classes.

Usage: scripts/ecg/nn-tail-study.py DUMP_DIR [RECORDS (comma-separated)] [MITDB_DIR]
"""
import collections, csv, glob, importlib.util, math, os, sys
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location('study', os.path.join(HERE, 'nn-rules-study.py'))
study = importlib.util.module_from_spec(spec)
argv = sys.argv
sys.argv = argv[:1]
spec.loader.exec_module(study)
DUMP = argv[1] if len(argv) > 1 else '/tmp/hrv-beats'
RECORDS = argv[2].split(',') if len(argv) > 2 and argv[2] else None
DS = argv[3] if len(argv) > 3 else study.DS
FS = 360.0


def sdnn_rmssd(iv):
    ms = np.array([(e - s) / FS * 1000 for s, e in iv])
    d = [ms[i] - ms[i - 1] for i in range(1, len(iv)) if iv[i][0] == iv[i - 1][1]]
    return ms.std(ddof=1), math.sqrt(np.mean(np.square(d)))


for path in sorted(glob.glob(f'{DUMP}/*.csv')):
    name = os.path.basename(path)[:-4]
    if RECORDS and name not in RECORDS:
        continue
    ann = [x for x in study.read_atr(f'{DS}/{name}.atr') if x[1] in study.BEATS]
    at = np.array([a[0] for a in ann])
    rows = [r for r in csv.DictReader(open(path)) if r['correction'] != 'removedExtra']

    def match(s):
        i = np.searchsorted(at, s)
        c = [j for j in (i - 1, i) if 0 <= j < len(at) and abs(at[j] - s) <= 54]
        return min(c, key=lambda j: abs(at[j] - s)) if c else None

    m = [match(int(r['sample'])) if r['sample'] else None for r in rows]
    ref = {i for i in range(1, len(ann)) if ann[i - 1][1] in study.NORMAL and ann[i][1] in study.NORMAL
           and 300 <= (ann[i][0] - ann[i - 1][0]) / FS * 1000 <= 2000}
    if len(ref) < 100:
        continue
    used, true_used, kept = [], [], set()
    false, dropped = collections.Counter(), collections.Counter()
    for i in range(1, len(rows)):
        if rows[i]['nn_ms'] == '' or not rows[i]['sample'] or not rows[i - 1]['sample']:
            continue
        a, b = m[i - 1], m[i]
        annotated = a is not None and b is not None and b == a + 1 and b in ref
        iv = (int(rows[i - 1]['sample']), int(rows[i]['sample']))
        if rows[i]['nn_excluded'] == '':
            used.append(iv)
            if annotated:
                kept.add(b)
                true_used.append(iv)
            else:
                key = (ann[a][1] if a is not None else '-') + (ann[b][1] if b is not None else '-')
                false[key + ('' if a is None or b is None or b == a + 1 else '*')] += 1
        elif annotated:
            dropped[rows[i]['nn_excluded'] + '/' + rows[i - 1]['class'] + rows[i]['class']] += 1
    rs, rr = sdnn_rmssd([(ann[i - 1][0], ann[i][0]) for i in sorted(ref)])
    us, ur = sdnn_rmssd(used)
    ts, tr = sdnn_rmssd(true_used)
    print(f'{name}: reference {len(ref)} N-N, SDNN {rs:.1f} RMSSD {rr:.1f} ms | used {len(used)}: '
          f'{us:.1f} ({100 * (us - rs) / rs:+.1f} %) {ur:.1f} ({100 * (ur - rr) / rr:+.1f} %) | only annotated N-N '
          f'{len(true_used)}: {ts:.1f} ({100 * (ts - rs) / rs:+.1f} %) {tr:.1f} ({100 * (tr - rr) / rr:+.1f} %)')
    print('   used but not annotated N-N:', dict(false.most_common(8)),
          '| annotated N-N left out:', len(ref) - len(kept), dict(dropped.most_common(8)))
